/* Frame to replayed scene: images or their shapes, placeholders, mapping (replay_scene.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "fourcc.h"
#include "frame_scene.h"
#include "replay_scene.h"

#define IMAGE_CACHE_BYTES (256u << 20)	/* decoded images kept between frames */
#define PLACEHOLDER_MAX_BYTES (64u << 20)	/* larger buffers become SOLID_COLOR placeholders */
#define PLACEHOLDER_CACHE_BYTES (256u << 20)

struct placeholder {
	struct scene_image image;	/* data points into bytes */
	uint8_t *bytes;			/* owned */
	uint64_t last_frame;		/* build count when last used */
};

struct replay_scene {
	struct hwct_reader *reader;
	struct frame_scene *fs;		/* NULL without pixels */
	uint64_t builds;
	struct scene_layer *layers;	/* owned, capacity cap */
	struct scene_image *shapes;	/* owned, capacity cap: images without data */
	uint64_t *missing;		/* owned, capacity cap */
	size_t cap;
	struct placeholder **placeholders;	/* owned, each owned: images stay put */
	size_t placeholder_count, placeholder_cap, placeholder_bytes;
	struct replay_fallback *fallback;	/* borrowed; NULL none */
	const struct replay_substitution *subs;	/* of the last build; owned by fallback */
	size_t sub_count;
};

struct replay_scene *replay_scene_create(struct hwct_reader *r, bool pixels)
{
	struct replay_scene *rs = calloc(1, sizeof(*rs));

	if (!rs) {
		return NULL;
	}
	rs->reader = r;
	if (pixels) {
		rs->fs = frame_scene_create(r, IMAGE_CACHE_BYTES);
		if (!rs->fs) {
			free(rs);
			return NULL;
		}
	}
	return rs;
}

static void placeholders_clear(struct replay_scene *rs, uint64_t keep_frame)
{
	size_t kept = 0;

	for (size_t i = 0; i < rs->placeholder_count; i++) {
		struct placeholder *p = rs->placeholders[i];

		if (p->last_frame == keep_frame) {
			rs->placeholders[kept++] = p;
		} else {
			rs->placeholder_bytes -= p->image.size;
			free(p->bytes);
			free(p);
		}
	}
	rs->placeholder_count = kept;
}

void replay_scene_destroy(struct replay_scene *rs)
{
	if (!rs) {
		return;
	}
	placeholders_clear(rs, UINT64_MAX);
	free(rs->placeholders);
	frame_scene_destroy(rs->fs);
	free(rs->layers);
	free(rs->shapes);
	free(rs->missing);
	free(rs);
}

static int reserve(struct replay_scene *rs, size_t count)
{
	struct scene_layer *layers;
	struct scene_image *shapes;
	uint64_t *missing;

	if (count <= rs->cap) {
		return 0;
	}
	layers = realloc(rs->layers, count * sizeof(*layers));
	if (layers) {
		rs->layers = layers;
	}
	shapes = realloc(rs->shapes, count * sizeof(*shapes));
	if (shapes) {
		rs->shapes = shapes;
	}
	missing = realloc(rs->missing, count * sizeof(*missing));
	if (missing) {
		rs->missing = missing;
	}
	if (!layers || !shapes || !missing) {
		return -ENOMEM;
	}
	rs->cap = count;
	return 0;
}

/* The buffer's format, size and layout with no data; false when the replayer cannot describe it. */
static bool buffer_shape(const struct hwct_buffer_ref *ref, struct scene_image *img)
{
	*img = (struct scene_image){ 0 };
	if (!ref->info) {
		return false;
	}
	img->fourcc = frame_scene_fourcc(ref->info);
	img->width = ref->info->width;
	img->height = ref->info->height;
	img->modifier = DRM_FORMAT_MOD_LINEAR;
	img->size = img->fourcc ? frame_scene_layout(img) : 0;
	img->hash = ref->content;
	return img->size != 0;
}

/* Fills count bytes at dst with the pattern of size n. */
static void fill_pattern(uint8_t *dst, size_t count, const uint8_t *pattern, size_t n)
{
	for (size_t i = 0; i < count; i++) {
		dst[i] = pattern[i % n];
	}
}

/* Magenta in img's format (plane layout set), into data; false for a format without a placeholder. */
static bool paint(const struct scene_image *img, uint8_t *data)
{
	static const uint8_t rgba[] = { 0xff, 0x00, 0xff, 0xff };	/* same bytes in every 8888 order */
	static const uint8_t rgb565[] = { 0x1f, 0xf8 };
	static const uint8_t luma[] = { 106 };			/* BT.601 limited range of #ff00ff */
	static const uint8_t chroma[] = { 202, 222 };		/* Cb, Cr */
	static const uint8_t luma16[] = { 0, 106 };		/* the same in the high byte of 16-bit words */
	static const uint8_t chroma16[] = { 0, 202, 0, 222 };
	uint32_t chroma_rows = (img->height + 1) / 2;

	switch (img->fourcc) {
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XRGB8888:
		fill_pattern(data + img->offset[0], (size_t)img->stride[0] * img->height, rgba, sizeof(rgba));
		return true;
	case DRM_FORMAT_RGB565:
		fill_pattern(data + img->offset[0], (size_t)img->stride[0] * img->height, rgb565, sizeof(rgb565));
		return true;
	case DRM_FORMAT_NV12:
		fill_pattern(data + img->offset[0], (size_t)img->stride[0] * img->height, luma, sizeof(luma));
		fill_pattern(data + img->offset[1], (size_t)img->stride[1] * chroma_rows, chroma, sizeof(chroma));
		return true;
	case DRM_FORMAT_P010:
		fill_pattern(data + img->offset[0], (size_t)img->stride[0] * img->height, luma16, sizeof(luma16));
		fill_pattern(data + img->offset[1], (size_t)img->stride[1] * chroma_rows, chroma16, sizeof(chroma16));
		return true;
	default:
		return false;
	}
}

static bool paintable(uint32_t fourcc)
{
	return fourcc == DRM_FORMAT_ABGR8888 || fourcc == DRM_FORMAT_XBGR8888 || fourcc == DRM_FORMAT_ARGB8888 ||
		fourcc == DRM_FORMAT_XRGB8888 || fourcc == DRM_FORMAT_RGB565 || fourcc == DRM_FORMAT_NV12 ||
		fourcc == DRM_FORMAT_P010;
}

static bool same_shape(const struct scene_image *a, const struct scene_image *b)
{
	return a->fourcc == b->fourcc && a->width == b->width && a->height == b->height &&
		a->size == b->size && memcmp(a->offset, b->offset, sizeof(a->offset)) == 0 &&
		memcmp(a->stride, b->stride, sizeof(a->stride)) == 0;
}

/* A magenta image of shape's format and layout (cached), or NULL with *err set on failure. */
static const struct scene_image *placeholder_image(struct replay_scene *rs, const struct scene_image *shape,
	int *err)
{
	static const char tag[] = "hwc-replay placeholder";
	struct placeholder *p;
	uint8_t key[sizeof(tag) + 4 * sizeof(uint32_t)];

	for (size_t i = 0; i < rs->placeholder_count; i++) {
		if (same_shape(&rs->placeholders[i]->image, shape)) {
			rs->placeholders[i]->last_frame = rs->builds;
			return &rs->placeholders[i]->image;
		}
	}
	if (rs->placeholder_bytes + shape->size > PLACEHOLDER_CACHE_BYTES) {
		placeholders_clear(rs, rs->builds);
	}
	if (rs->placeholder_count == rs->placeholder_cap) {
		size_t cap = rs->placeholder_cap ? rs->placeholder_cap * 2 : 8;
		struct placeholder **list = realloc(rs->placeholders, cap * sizeof(*list));

		if (!list) {
			*err = -ENOMEM;
			return NULL;
		}
		rs->placeholders = list;
		rs->placeholder_cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	*p = (struct placeholder){ .image = *shape, .last_frame = rs->builds };
	p->bytes = calloc(1, shape->size);
	if (!p->bytes) {
		free(p);
		*err = -ENOMEM;
		return NULL;
	}
	paint(&p->image, p->bytes);
	p->image.data = p->bytes;
	/* an identity no real content has: the GL texture cache keys on it */
	memcpy(key, tag, sizeof(tag));
	memcpy(key + sizeof(tag), &shape->fourcc, sizeof(uint32_t));
	memcpy(key + sizeof(tag) + 4, &shape->width, sizeof(uint32_t));
	memcpy(key + sizeof(tag) + 8, &shape->height, sizeof(uint32_t));
	memcpy(key + sizeof(tag) + 12, &shape->stride[0], sizeof(uint32_t));
	p->image.hash = hwct_hash_compute(key, sizeof(key));
	rs->placeholder_bytes += shape->size;
	rs->placeholders[rs->placeholder_count++] = p;
	return &p->image;
}

/* Makes s, whose content is missing, a placeholder. Returns 0 or -errno. */
static int make_placeholder(struct replay_scene *rs, const struct hwct_layer *l, struct scene_layer *s,
	struct scene_image *shape)
{
	int err = 0;

	if (buffer_shape(&l->buffer, shape) && paintable(shape->fourcc) && shape->size <= PLACEHOLDER_MAX_BYTES) {
		if (!rs->fs) {
			s->image = shape;	/* no pixels: the shape is all anyone reads */
			return 0;
		}
		s->image = placeholder_image(rs, shape, &err);
		if (s->image) {
			return 0;
		}
		if (err != -ENOMEM) {
			return err;
		}
	}
	s->image = NULL;
	s->composition = HWC2_COMPOSITION_SOLID_COLOR;
	s->color = REPLAY_PLACEHOLDER_RGBA;
	s->blend = HWC2_BLEND_MODE_NONE;
	return 0;
}

int replay_scene_build(struct replay_scene *rs, const struct hwct_frame *f, const struct replay_map *m,
	struct scene *out, const uint64_t **missing, size_t *missing_count)
{
	struct scene decoded = { 0 };
	unsigned decoded_missing;
	size_t n_missing = 0;
	int ret;

	rs->builds++;
	rs->sub_count = 0;
	ret = reserve(rs, f->layer_count);
	if (ret == 0 && rs->fs) {
		ret = frame_scene_build(rs->fs, f, &decoded, &decoded_missing);
	}
	if (ret < 0) {
		return ret;
	}
	for (size_t i = 0; i < f->layer_count; i++) {
		const struct hwct_layer *l = &f->layers[i];
		struct scene_layer *s = &rs->layers[i];

		*s = (struct scene_layer){
			.id = l->id,
			.z = l->z,
			.composition = l->requested,
			.crop = l->source_crop,
			.frame = replay_map_rect(m, l->display_frame),
			.transform = l->transform,
			.blend = l->blend,
			.alpha = l->plane_alpha,
			.color = l->color,
			.acquire_fence = -1,
			.recorded = l,
		};
		if (l->requested == HWC2_COMPOSITION_SOLID_COLOR) {
			continue;
		}
		if (rs->fs) {
			s->image = i < decoded.layer_count ? decoded.layers[i].image : NULL;
		} else if (l->buffer.has_content && buffer_shape(&l->buffer, &rs->shapes[i])) {
			s->image = &rs->shapes[i];
		}
		if (!s->image) {
			ret = make_placeholder(rs, l, s, &rs->shapes[i]);
			if (ret < 0) {
				return ret;
			}
			rs->missing[n_missing++] = l->id;
		}
	}
	if (rs->fallback) {
		ret = replay_fallback_apply(rs->fallback, rs->layers, f->layer_count, &rs->subs, &rs->sub_count);
		if (ret < 0) {
			return ret;
		}
	}
	*out = (struct scene){
		.width = m->to_width,
		.height = m->to_height,
		.layers = rs->layers,
		.layer_count = f->layer_count,
		.recorded = f,
	};
	*missing = rs->missing;
	*missing_count = n_missing;
	return 0;
}

void replay_scene_set_fallback(struct replay_scene *rs, struct replay_fallback *fb)
{
	rs->fallback = fb;
}

void replay_scene_substitutions(const struct replay_scene *rs, const struct replay_substitution **subs,
	size_t *count)
{
	*subs = rs->subs;
	*count = rs->sub_count;
}
