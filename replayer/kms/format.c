/*
 * Buffer layouts and format fallbacks (format.h). The byte positions are
 * those of the little-endian DRM formats (drm_fourcc.h): ARGB8888 is
 * [31:0] A:R:G:B, so bytes B, G, R, A in memory.
 */
#include <stddef.h>
#include <stdint.h>

#include <drm_fourcc.h>

#include "format.h"

static const struct kms_format formats[] = {
	{ DRM_FORMAT_ARGB8888, 1, { 4, 0 }, 1, 2, 1, 0, 3 },
	{ DRM_FORMAT_XRGB8888, 1, { 4, 0 }, 1, 2, 1, 0, -1 },
	{ DRM_FORMAT_ABGR8888, 1, { 4, 0 }, 1, 0, 1, 2, 3 },
	{ DRM_FORMAT_XBGR8888, 1, { 4, 0 }, 1, 0, 1, 2, -1 },
	{ DRM_FORMAT_RGBA8888, 1, { 4, 0 }, 1, 3, 2, 1, 0 },
	{ DRM_FORMAT_RGBX8888, 1, { 4, 0 }, 1, 3, 2, 1, -1 },
	{ DRM_FORMAT_BGRA8888, 1, { 4, 0 }, 1, 1, 2, 3, 0 },
	{ DRM_FORMAT_BGRX8888, 1, { 4, 0 }, 1, 1, 2, 3, -1 },
	{ DRM_FORMAT_RGB565, 1, { 2, 0 }, 1, -1, -1, -1, -1 },
	{ DRM_FORMAT_BGR565, 1, { 2, 0 }, 1, -1, -1, -1, -1 },
	{ DRM_FORMAT_NV12, 2, { 1, 2 }, 2, -1, -1, -1, -1 },
	{ DRM_FORMAT_NV21, 2, { 1, 2 }, 2, -1, -1, -1, -1 },
	{ DRM_FORMAT_P010, 2, { 2, 4 }, 2, -1, -1, -1, -1 },
	{ DRM_FORMAT_P012, 2, { 2, 4 }, 2, -1, -1, -1, -1 },
	{ DRM_FORMAT_P016, 2, { 2, 4 }, 2, -1, -1, -1, -1 },
};

/* Fallback targets in order of preference (format.h, kms_format_choose). */
static const uint32_t alpha_targets[] = {
	DRM_FORMAT_ARGB8888, DRM_FORMAT_ABGR8888, DRM_FORMAT_RGBA8888, DRM_FORMAT_BGRA8888,
};
static const uint32_t opaque_targets[] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_XBGR8888, DRM_FORMAT_RGBX8888, DRM_FORMAT_BGRX8888,
};

bool kms_format_is_yuv(uint32_t fourcc)
{
	switch (fourcc) {
	case DRM_FORMAT_NV12:
	case DRM_FORMAT_NV21:
	case DRM_FORMAT_NV16:
	case DRM_FORMAT_NV61:
	case DRM_FORMAT_NV24:
	case DRM_FORMAT_NV42:
	case DRM_FORMAT_P010:
	case DRM_FORMAT_P012:
	case DRM_FORMAT_P016:
	case DRM_FORMAT_YUV420:
	case DRM_FORMAT_YVU420:
	case DRM_FORMAT_YUV422:
	case DRM_FORMAT_YVU422:
	case DRM_FORMAT_YUV444:
	case DRM_FORMAT_YVU444:
	case DRM_FORMAT_YUYV:
	case DRM_FORMAT_UYVY:
		return true;
	default:
		return false;
	}
}

const struct kms_format *kms_format_find(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (formats[i].fourcc == fourcc) {
			return &formats[i];
		}
	}
	return NULL;
}

static bool scans_out(const struct board *board, const struct board_plane *plane, uint32_t fourcc)
{
	if (plane) {
		return board_plane_has_format(plane, fourcc, BOARD_MOD_LINEAR);
	}
	return board && board_any_plane_has_format(board, fourcc, BOARD_MOD_LINEAR);
}

static uint32_t first_of(const struct board *board, const struct board_plane *plane,
	const uint32_t *list, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (scans_out(board, plane, list[i])) {
			return list[i];
		}
	}
	return 0;
}

uint32_t kms_format_choose(const struct board *board, const struct board_plane *plane,
	uint32_t src_fourcc, bool opaque)
{
	const struct kms_format *src = kms_format_find(src_fourcc);
	size_t n_alpha = sizeof(alpha_targets) / sizeof(alpha_targets[0]);
	size_t n_opaque = sizeof(opaque_targets) / sizeof(opaque_targets[0]);
	uint32_t pick;

	if (scans_out(board, plane, src_fourcc)) {
		return src_fourcc;
	}
	if (!src || src->r < 0) {
		return 0;
	}
	if (src->a >= 0) {
		pick = first_of(board, plane, alpha_targets, n_alpha);
		return pick || !opaque ? pick : first_of(board, plane, opaque_targets, n_opaque);
	}
	pick = first_of(board, plane, opaque_targets, n_opaque);
	return pick ? pick : first_of(board, plane, alpha_targets, n_alpha);
}

void kms_format_convert_row(uint32_t dst_fourcc, uint8_t *dst, uint32_t src_fourcc,
	const uint8_t *src, uint32_t width)
{
	const struct kms_format *d = kms_format_find(dst_fourcc);
	const struct kms_format *s = kms_format_find(src_fourcc);
	int8_t d_x;

	if (!d || !s || d->r < 0 || s->r < 0) {
		return;
	}
	/* the X byte of the destination: the one no channel uses */
	d_x = (int8_t)(0 + 1 + 2 + 3 - d->r - d->g - d->b);
	for (uint32_t x = 0; x < width; x++, dst += 4, src += 4) {
		dst[d->r] = src[s->r];
		dst[d->g] = src[s->g];
		dst[d->b] = src[s->b];
		dst[d_x] = d->a >= 0 && s->a >= 0 ? src[s->a] : 0xff;
	}
}

char *kms_fourcc_name(uint32_t fourcc, char buf[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);

		buf[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	buf[4] = '\0';
	return buf;
}
