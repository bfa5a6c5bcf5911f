/* Frame model to scene: decoded images, HAL to DRM formats (frame_scene.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fourcc.h"

#include <hardware/hwcomposer2.h>
#include <hwct/picture.h>

#include "frame_scene.h"

/* The formats the replayer shows (the compositors and the KMS import take them). */
static const uint32_t shown[] = {
	DRM_FORMAT_ABGR8888, DRM_FORMAT_XBGR8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ABGR2101010, DRM_FORMAT_BGR888, DRM_FORMAT_RGB565, DRM_FORMAT_ABGR16161616F,
	DRM_FORMAT_NV12, DRM_FORMAT_NV21, DRM_FORMAT_NV16, DRM_FORMAT_P010, DRM_FORMAT_YVU420,
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
	return hwct_picture_fourcc(b);
}

size_t frame_scene_layout(struct scene_image *img)
{
	struct hwct_picture p;
	bool known = false;

	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		known = known || shown[i] == img->fourcc;
	}
	if (!known || !hwct_picture_init(&p, img->fourcc, img->width, img->height) ||
			p.plane_count > SCENE_MAX_PLANES || hwct_picture_size(&p) > SIZE_MAX) {
		return 0;
	}
	img->plane_count = p.plane_count;
	for (uint32_t k = 0; k < p.plane_count; k++) {
		img->offset[k] = (uint32_t)p.planes[k].offset;
		img->stride[k] = p.planes[k].stride;
	}
	return (size_t)hwct_picture_size(&p);
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
	need = frame_scene_layout(&img);
	if (!img.fourcc || !need) {
		return 1;	/* a format the replayer cannot show */
	}
	ret = hwct_reader_picture(fs->reader, ref->info, &ref->content, &blob);
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
