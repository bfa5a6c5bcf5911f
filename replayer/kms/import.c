/*
 * Scene images into scanout framebuffers (fb.h, kms_fb_import): pick the
 * format (the image's, or a fallback), look the cache up, else create a
 * framebuffer and copy the rows in, converting when the format changed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <drm_fourcc.h>

#include "kms_private.h"

/* Rows of plane i of an image of format f and height h. */
static uint32_t plane_rows(const struct kms_format *f, uint32_t i, uint32_t h)
{
	return i == 0 ? h : (h + f->vsub - 1) / f->vsub;
}

/* Bytes of a row of plane i (NV12 chroma: width rounded up to even, 2 bytes per pair; P010: 4). */
static size_t row_bytes(const struct kms_format *f, uint32_t i, uint32_t w)
{
	if (f->plane_count == 2) {
		return i == 0 ? (size_t)w * f->cpp[0] : ((size_t)w + 1) / 2 * f->cpp[1];
	}
	return (size_t)w * f->cpp[0];
}

/* Whether every row of every plane lies inside the image's data. */
static bool image_valid(const struct scene_image *img, const struct kms_format *f)
{
	if (!img->data || img->width == 0 || img->height == 0 || img->plane_count != f->plane_count) {
		return false;
	}
	for (uint32_t i = 0; i < f->plane_count; i++) {
		size_t row = row_bytes(f, i, img->width);
		uint64_t rows = plane_rows(f, i, img->height);
		uint64_t end = img->offset[i] + (rows - 1) * (uint64_t)img->stride[i] + row;

		if (img->stride[i] < row || end > img->size) {
			return false;
		}
	}
	return true;
}

static int fill(struct kms_fb *fb, const struct scene_image *img, const struct kms_format *f)
{
	struct kms_fb_map map;
	int ret = kms_fb_map(fb, &map);

	if (ret) {
		return ret;
	}
	for (uint32_t i = 0; i < f->plane_count; i++) {
		uint32_t rows = plane_rows(f, i, img->height);
		size_t row = row_bytes(f, i, img->width);

		for (uint32_t y = 0; y < rows; y++) {
			const uint8_t *src = img->data + img->offset[i] + (size_t)y * img->stride[i];
			uint8_t *dst = map.data[i] + (size_t)y * map.stride[i];

			if (fb->fourcc == img->fourcc) {
				memcpy(dst, src, row);
			} else {
				kms_format_convert_row(fb->fourcc, dst, img->fourcc, src, img->width);
			}
		}
	}
	kms_fb_unmap(fb, &map);
	return 0;
}

int kms_fb_import(struct kms_device *dev, struct kms_fb_cache *cache,
	const struct scene_image *img, const struct board_plane *plane, bool opaque,
	struct kms_import *out)
{
	const struct kms_format *f = kms_format_find(img->fourcc);
	struct kms_fb_key key;
	struct kms_fb *fb;
	int ret;

	*out = (struct kms_import){ .source_fourcc = img->fourcc };
	if (img->modifier != DRM_FORMAT_MOD_LINEAR) {
		return -ENOTSUP;
	}
	if (!f) {
		return -ENOTSUP;
	}
	if (img->data && !image_valid(img, f)) {
		return -EINVAL;	/* no data at all (hwc-replay --no-pixels): a blank framebuffer */
	}
	out->fourcc = kms_format_choose(dev->board, plane, img->fourcc, opaque);
	if (!out->fourcc) {
		return -ENOTSUP;
	}
	out->converted = out->fourcc != img->fourcc;
	key = (struct kms_fb_key){ .hash = img->hash, .src_fourcc = img->fourcc,
		.fourcc = out->fourcc, .modifier = DRM_FORMAT_MOD_LINEAR,
		.width = img->width, .height = img->height };
	if (cache && (fb = kms_fb_cache_get(cache, &key))) {
		out->fb = fb;
		out->cache_hit = true;
		return 0;
	}
	if ((ret = kms_fb_create(dev, img->width, img->height, out->fourcc, &fb))) {
		return ret;
	}
	if ((img->data && (ret = fill(fb, img, f))) || (cache && (ret = kms_fb_cache_put(cache, &key, fb)))) {
		kms_fb_unref(fb);
		return ret;
	}
	out->fb = fb;
	return 0;
}

char *kms_import_describe(const struct kms_import *imp, char *buf, size_t size)
{
	char from[5], to[5];

	if (size == 0) {
		return buf;
	}
	buf[0] = '\0';
	if (imp->converted) {
		snprintf(buf, size, "format fallback %s\u2192%s", kms_fourcc_name(imp->source_fourcc, from),
			kms_fourcc_name(imp->fourcc, to));
	}
	return buf;
}
