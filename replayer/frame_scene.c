/* Frame model to scene: decoded images, HAL to DRM formats (frame_scene.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fourcc.h"

#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "frame_scene.h"

/* HAL pixel format -> DRM fourcc, as gbm_gralloc and drm_hwcomposer map them. */
static const struct {
	int32_t hal;
	uint32_t fourcc;
} hal_formats[] = {
	{ HAL_PIXEL_FORMAT_RGBA_8888, DRM_FORMAT_ABGR8888 },
	{ HAL_PIXEL_FORMAT_RGBX_8888, DRM_FORMAT_XBGR8888 },
	{ HAL_PIXEL_FORMAT_BGRA_8888, DRM_FORMAT_ARGB8888 },
	{ HAL_PIXEL_FORMAT_RGB_888, DRM_FORMAT_BGR888 },
	{ HAL_PIXEL_FORMAT_RGB_565, DRM_FORMAT_RGB565 },
	{ HAL_PIXEL_FORMAT_RGBA_1010102, DRM_FORMAT_ABGR2101010 },
	{ HAL_PIXEL_FORMAT_RGBA_FP16, DRM_FORMAT_ABGR16161616F },
	{ HAL_PIXEL_FORMAT_YV12, DRM_FORMAT_YVU420 },
	{ HAL_PIXEL_FORMAT_YCRCB_420_SP, DRM_FORMAT_NV21 },
	{ HAL_PIXEL_FORMAT_YCBCR_422_SP, DRM_FORMAT_NV16 },
	{ HAL_PIXEL_FORMAT_YCBCR_420_888, DRM_FORMAT_NV12 },	/* flexible: NV12 is the common layout */
	{ HAL_PIXEL_FORMAT_YCBCR_P010, DRM_FORMAT_P010 },
};

/* Bytes per pixel of plane 0, chroma subsampling and plane count. */
static const struct {
	uint32_t fourcc;
	uint32_t cpp;		/* bytes per pixel, plane 0 */
	uint32_t planes;
	uint32_t hsub, vsub;	/* chroma subsampling */
	uint32_t chroma_cpp;	/* bytes per chroma sample pair/value per plane after the first */
} layouts[] = {
	{ DRM_FORMAT_ABGR8888, 4, 1, 1, 1, 0 },
	{ DRM_FORMAT_XBGR8888, 4, 1, 1, 1, 0 },
	{ DRM_FORMAT_ARGB8888, 4, 1, 1, 1, 0 },
	{ DRM_FORMAT_XRGB8888, 4, 1, 1, 1, 0 },
	{ DRM_FORMAT_ABGR2101010, 4, 1, 1, 1, 0 },
	{ DRM_FORMAT_BGR888, 3, 1, 1, 1, 0 },
	{ DRM_FORMAT_RGB565, 2, 1, 1, 1, 0 },
	{ DRM_FORMAT_ABGR16161616F, 8, 1, 1, 1, 0 },
	{ DRM_FORMAT_NV12, 1, 2, 2, 2, 2 },
	{ DRM_FORMAT_NV21, 1, 2, 2, 2, 2 },
	{ DRM_FORMAT_NV16, 1, 2, 2, 1, 2 },
	{ DRM_FORMAT_P010, 2, 2, 2, 2, 4 },
	{ DRM_FORMAT_YVU420, 1, 3, 2, 2, 1 },
};

#define CACHE_SLOTS 64

struct cached_image {
	struct scene_image image;
	uint8_t *data;		/* owned */
	uint64_t last_use;
	bool used;
};

struct frame_scene {
	struct hwct_reader *reader;
	size_t cache_bytes, cached;
	uint64_t clock;
	struct cached_image cache[CACHE_SLOTS];
	struct scene_layer *layers;	/* owned, the current scene */
	size_t layer_cap;
};

uint32_t frame_scene_fourcc(const Hwct__Buffer *b)
{
	if (!b) {
		return 0;
	}
	if (b->has_drm_format && b->drm_format) {
		return b->drm_format;
	}
	for (size_t i = 0; i < sizeof(hal_formats) / sizeof(hal_formats[0]); i++) {
		if (hal_formats[i].hal == b->hal_format) {
			return hal_formats[i].fourcc;
		}
	}
	return 0;
}

size_t frame_scene_layout(struct scene_image *img, const Hwct__Buffer *b)
{
	uint64_t end = 0;
	/* the content starts at plane 0 (docs/format.md section 3.3): offsets are relative to it */
	uint32_t base = b && b->n_planes && b->planes[0]->stride ? b->planes[0]->offset : 0;

	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		if (layouts[i].fourcc != img->fourcc) {
			continue;
		}
		img->plane_count = layouts[i].planes;
		for (uint32_t p = 0; p < layouts[i].planes && p < SCENE_MAX_PLANES; p++) {
			uint32_t w = p ? (img->width + layouts[i].hsub - 1) / layouts[i].hsub : img->width;
			uint32_t h = p ? (img->height + layouts[i].vsub - 1) / layouts[i].vsub : img->height;
			uint32_t cpp = p ? layouts[i].chroma_cpp : layouts[i].cpp;

			if (b && p < b->n_planes && b->planes[p]->stride) {
				if (b->planes[p]->offset < base) {
					return 0;	/* a plane before plane 0: not content as section 3.3 has it */
				}
				img->offset[p] = b->planes[p]->offset - base;
				img->stride[p] = b->planes[p]->stride;
			} else {
				img->offset[p] = (uint32_t)end;
				img->stride[p] = w * cpp;
			}
			if ((uint64_t)img->offset[p] + (uint64_t)img->stride[p] * h > end) {
				end = (uint64_t)img->offset[p] + (uint64_t)img->stride[p] * h;
			}
		}
		return (size_t)end;
	}
	return 0;
}

struct frame_scene *frame_scene_create(struct hwct_reader *r, size_t cache_bytes)
{
	struct frame_scene *fs = calloc(1, sizeof(*fs));

	if (fs) {
		fs->reader = r;
		fs->cache_bytes = cache_bytes;
	}
	return fs;
}

static void evict(struct frame_scene *fs, struct cached_image *c)
{
	fs->cached -= c->image.size;
	free(c->data);
	*c = (struct cached_image){ 0 };
}

void frame_scene_destroy(struct frame_scene *fs)
{
	if (!fs) {
		return;
	}
	for (size_t i = 0; i < CACHE_SLOTS; i++) {
		if (fs->cache[i].used) {
			evict(fs, &fs->cache[i]);
		}
	}
	free(fs->layers);
	free(fs);
}

/* The least recently used slot not touched by this frame, emptied. */
static struct cached_image *free_slot(struct frame_scene *fs, uint64_t frame_start)
{
	struct cached_image *victim = NULL;

	for (size_t i = 0; i < CACHE_SLOTS; i++) {
		struct cached_image *c = &fs->cache[i];

		if (!c->used) {
			return c;
		}
		if (c->last_use < frame_start && (!victim || c->last_use < victim->last_use)) {
			victim = c;
		}
	}
	if (victim) {
		evict(fs, victim);
	}
	return victim;
}

static void trim(struct frame_scene *fs, uint64_t frame_start)
{
	while (fs->cached > fs->cache_bytes) {
		struct cached_image *victim = NULL;

		for (size_t i = 0; i < CACHE_SLOTS; i++) {
			struct cached_image *c = &fs->cache[i];

			if (c->used && c->last_use < frame_start && (!victim || c->last_use < victim->last_use)) {
				victim = c;
			}
		}
		if (!victim) {
			return;	/* everything left is in use by this frame */
		}
		evict(fs, victim);
	}
}

static int load_image(struct frame_scene *fs, const struct hwct_buffer_ref *ref, uint64_t frame_start,
	const struct scene_image **out)
{
	struct hwct_blob_data blob;
	struct cached_image *c;
	struct scene_image img = { 0 };
	size_t need;
	int ret;

	for (size_t i = 0; i < CACHE_SLOTS; i++) {
		if (fs->cache[i].used && hwct_hash_equal(&fs->cache[i].image.hash, &ref->content)) {
			fs->cache[i].last_use = fs->clock++;
			*out = &fs->cache[i].image;
			return 0;
		}
	}
	img.fourcc = frame_scene_fourcc(ref->info);
	img.width = ref->info->width;
	img.height = ref->info->height;
	img.modifier = DRM_FORMAT_MOD_LINEAR;
	need = frame_scene_layout(&img, ref->info);
	if (!img.fourcc || !need) {
		return 1;	/* a format the replayer cannot show */
	}
	ret = hwct_reader_blob(fs->reader, &ref->content, &blob);
	if (ret == -ENOENT) {
		return 1;
	}
	if (ret < 0) {
		return ret;
	}
	if (blob.size < need) {
		free(blob.data);
		return 1;	/* payload shorter than its layout: treat as missing */
	}
	c = free_slot(fs, frame_start);
	if (!c) {
		free(blob.data);
		return -ENOSPC;
	}
	img.data = blob.data;
	img.size = blob.size;
	img.hash = ref->content;
	*c = (struct cached_image){ .image = img, .data = blob.data, .last_use = fs->clock++, .used = true };
	fs->cached += blob.size;
	*out = &c->image;
	return 0;
}

int frame_scene_build(struct frame_scene *fs, const struct hwct_frame *f, struct scene *out, unsigned *missing)
{
	uint64_t frame_start = fs->clock;

	*missing = 0;
	if (f->layer_count > fs->layer_cap) {
		struct scene_layer *layers = realloc(fs->layers, f->layer_count * sizeof(*layers));

		if (!layers) {
			return -ENOMEM;
		}
		fs->layers = layers;
		fs->layer_cap = f->layer_count;
	}
	for (size_t i = 0; i < f->layer_count; i++) {
		const struct hwct_layer *l = &f->layers[i];
		struct scene_layer *s = &fs->layers[i];

		*s = (struct scene_layer){
			.id = l->id,
			.z = l->z,
			.composition = l->requested,
			.crop = l->source_crop,
			.frame = l->display_frame,
			.transform = l->transform,
			.blend = l->blend,
			.alpha = l->plane_alpha,
			.color = l->color,
			.acquire_fence = -1,
		};
		if (l->requested == HWC2_COMPOSITION_SOLID_COLOR) {
			continue;
		}
		if (l->buffer.has_content && l->buffer.info) {
			int ret = load_image(fs, &l->buffer, frame_start, &s->image);

			if (ret < 0) {
				return ret;
			}
		}
		*missing += s->image == NULL;
	}
	trim(fs, frame_start);
	*out = (struct scene){
		.width = (uint32_t)(f->width > 0 ? f->width : 0),
		.height = (uint32_t)(f->height > 0 ? f->height : 0),
		.layers = fs->layers,
		.layer_count = f->layer_count,
	};
	return 0;
}
