/* Source and target pixel formats of the compositors (format.h). */
#include <errno.h>
#include <stddef.h>

#include "fourcc.h"

#include "format.h"
#include "layer.h"

#define COMP_MAX_SIZE 16384	/* pixels per side: keeps every byte count in 32 bits */

static const struct comp_format formats[] = {
	{ DRM_FORMAT_ABGR8888, 1, 4, true, true },
	{ DRM_FORMAT_XBGR8888, 1, 4, false, true },
	{ DRM_FORMAT_ARGB8888, 1, 4, true, false },
	{ DRM_FORMAT_XRGB8888, 1, 4, false, false },
	{ DRM_FORMAT_RGB565, 1, 2, false, false },
	{ DRM_FORMAT_NV12, 2, 1, false, false },
	{ DRM_FORMAT_P010, 2, 2, false, false },
	{ DRM_FORMAT_P012, 2, 2, false, false },
	{ DRM_FORMAT_P016, 2, 2, false, false },
};

const struct comp_format *comp_format_get(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (formats[i].fourcc == fourcc) {
			return &formats[i];
		}
	}
	return NULL;
}

static bool plane_fits(const struct scene_image *img, uint32_t plane, uint64_t row_bytes,
	uint64_t rows)
{
	uint64_t offset = img->offset[plane], stride = img->stride[plane];

	return stride >= row_bytes && offset + stride * (rows - 1) + row_bytes <= img->size;
}

int comp_image_check(const struct scene_image *img)
{
	const struct comp_format *f = comp_format_get(img->fourcc);

	if (!f || !img->data || img->plane_count != f->planes ||
			(img->modifier != DRM_FORMAT_MOD_LINEAR &&
			img->modifier != DRM_FORMAT_MOD_INVALID)) {
		return -EINVAL;
	}
	if (img->width == 0 || img->height == 0 ||
			img->width > COMP_MAX_SIZE || img->height > COMP_MAX_SIZE) {
		return -EINVAL;
	}
	if (!plane_fits(img, 0, (uint64_t)img->width * f->cpp, img->height)) {
		return -EINVAL;
	}
	/* NV12, P01x: interleaved Cb, Cr at half resolution, rounded up. */
	if (f->planes == 2 && !plane_fits(img, 1, (img->width + 1) / 2 * 2ull * f->cpp,
			(img->height + 1) / 2)) {
		return -EINVAL;
	}
	return 0;
}

int comp_target_check(const struct comp_target *t)
{
	switch (t->fourcc) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
		break;
	default:
		return -EINVAL;
	}
	if (!t->data || (uintptr_t)t->data % 4 || t->stride % 4 ||
			t->width == 0 || t->height == 0 ||
			t->width > COMP_MAX_SIZE || t->height > COMP_MAX_SIZE ||
			t->stride < t->width * 4) {
		return -EINVAL;
	}
	return 0;
}

uint32_t comp_target_pixel(uint32_t fourcc, uint32_t rgba)
{
	uint32_t r = rgba & 0xff, g = (rgba >> 8) & 0xff, b = (rgba >> 16) & 0xff;
	uint32_t a = rgba >> 24;

	switch (fourcc) {
	case DRM_FORMAT_XRGB8888:
		return 0xffu << 24 | r << 16 | g << 8 | b;
	case DRM_FORMAT_ARGB8888:
		return a << 24 | r << 16 | g << 8 | b;
	case DRM_FORMAT_XBGR8888:
		return 0xffu << 24 | b << 16 | g << 8 | r;
	default:
		return a << 24 | b << 16 | g << 8 | r;
	}
}

void comp_target_clear(struct comp_target *t, uint32_t background_rgba)
{
	uint32_t px = comp_target_pixel(t->fourcc, background_rgba);

	for (uint32_t y = 0; y < t->height; y++) {
		uint32_t *row = (uint32_t *)(void *)(t->data + (size_t)y * t->stride);

		for (uint32_t x = 0; x < t->width; x++) {
			row[x] = px;
		}
	}
}

void comp_premultiply_row(uint32_t *dst, const uint32_t *src, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		uint32_t p = src[i], a = p >> 24;

		dst[i] = a << 24 | (uint32_t)comp_mul8((p >> 16) & 0xff, a) << 16 |
			(uint32_t)comp_mul8((p >> 8) & 0xff, a) << 8 | comp_mul8(p & 0xff, a);
	}
}
