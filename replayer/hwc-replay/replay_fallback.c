/* Byte-order-equivalent format substitution (replay_fallback.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fourcc.h"

#include "replay_fallback.h"

#define CONVERTED_CACHE_BYTES (256u << 20)	/* converted images kept between frames */

/*
 * The equivalent pairs: same bit widths, red and blue exchanged. One list;
 * the lookup reads it both ways. shift is the bit position of the field
 * that is red in the first format and blue in the second (the other one
 * is at 0), width that field's bits.
 */
#define FALLBACK_PAIRS(X) \
	X(DRM_FORMAT_ABGR8888, DRM_FORMAT_ARGB8888, 16, 8) \
	X(DRM_FORMAT_XBGR8888, DRM_FORMAT_XRGB8888, 16, 8) \
	X(DRM_FORMAT_ABGR2101010, DRM_FORMAT_ARGB2101010, 20, 10) \
	X(DRM_FORMAT_XBGR2101010, DRM_FORMAT_XRGB2101010, 20, 10)

struct pair {
	uint32_t a, b;
	unsigned shift, width;
};

#define FALLBACK_PAIR(a, b, shift, width) { a, b, shift, width },
static const struct pair pairs[] = { FALLBACK_PAIRS(FALLBACK_PAIR) };
#undef FALLBACK_PAIR

struct converted {
	struct scene_image image;	/* data points into bytes */
	uint8_t *bytes;			/* owned */
	uint64_t last_use;		/* apply count when last used */
};

struct replay_fallback {
	const struct board *board;
	uint64_t applies;
	struct converted **images;	/* owned, each owned: images stay put */
	size_t image_count, image_cap, image_bytes;
	struct scene_image *shapes;	/* owned, shape_cap: substituted images without data */
	struct replay_substitution *subs;	/* owned, shape_cap */
	size_t shape_cap;
};

static const struct pair *find_pair(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (pairs[i].a == fourcc || pairs[i].b == fourcc) {
			return &pairs[i];
		}
	}
	return NULL;
}

uint32_t replay_fallback_equivalent(uint32_t fourcc)
{
	const struct pair *p = find_pair(fourcc);

	if (!p) {
		return 0;
	}
	return p->a == fourcc ? p->b : p->a;
}

/* Little-endian 32-bit words, as DRM formats are defined. */
static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

int replay_fallback_convert(const struct scene_image *src, uint32_t to, uint8_t *dst)
{
	const struct pair *p = find_pair(src->fourcc);
	uint32_t mask;

	if (!p || replay_fallback_equivalent(src->fourcc) != to || src->plane_count > 1 ||
		(uint64_t)src->stride[0] < (uint64_t)src->width * 4 ||
		(uint64_t)src->offset[0] + (uint64_t)src->stride[0] * src->height > src->size) {
		return -EINVAL;
	}
	mask = (1u << p->width) - 1;
	memcpy(dst, src->data, src->size);
	for (uint32_t y = 0; y < src->height; y++) {
		uint8_t *row = dst + src->offset[0] + (size_t)y * src->stride[0];

		for (uint32_t x = 0; x < src->width; x++) {
			uint32_t v = load_le32(row + (size_t)x * 4);
			uint32_t high = (v >> p->shift) & mask, low = v & mask;

			v &= ~((mask << p->shift) | mask);
			store_le32(row + (size_t)x * 4, v | low << p->shift | high);
		}
	}
	return 0;
}

struct replay_fallback *replay_fallback_create(const struct board *board)
{
	struct replay_fallback *fb = calloc(1, sizeof(*fb));

	if (fb) {
		fb->board = board;
	}
	return fb;
}

static void images_clear(struct replay_fallback *fb, uint64_t keep_use)
{
	size_t kept = 0;

	for (size_t i = 0; i < fb->image_count; i++) {
		struct converted *c = fb->images[i];

		if (c->last_use == keep_use) {
			fb->images[kept++] = c;
		} else {
			fb->image_bytes -= c->image.size;
			free(c->bytes);
			free(c);
		}
	}
	fb->image_count = kept;
}

void replay_fallback_destroy(struct replay_fallback *fb)
{
	if (!fb) {
		return;
	}
	images_clear(fb, UINT64_MAX);
	free(fb->images);
	free(fb->shapes);
	free(fb->subs);
	free(fb);
}

/* Whether a usable plane of the board scans out fourcc (any modifier). */
static bool board_takes(const struct board *board, uint32_t fourcc)
{
	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *plane = &board->planes[i];

		if (board_plane_usable(board, plane) && board_plane_find_format(plane, fourcc)) {
			return true;
		}
	}
	return false;
}

/*
 * src converted to to (cached by content and format), or NULL with *err:
 * -ENOMEM, or -EINVAL for a layout it cannot convert.
 */
static const struct scene_image *converted_image(struct replay_fallback *fb, const struct scene_image *src,
	uint32_t to, int *err)
{
	struct converted *c;
	uint8_t key[sizeof(struct hwct_hash) + sizeof(uint32_t)];

	for (size_t i = 0; i < fb->image_count; i++) {
		c = fb->images[i];
		if (c->image.fourcc == to && hwct_hash_equal(&c->image.hash, &src->hash) &&
			c->image.size == src->size) {
			c->last_use = fb->applies;
			return &c->image;
		}
	}
	if (fb->image_bytes + src->size > CONVERTED_CACHE_BYTES) {
		images_clear(fb, fb->applies);
	}
	*err = -ENOMEM;
	if (fb->image_count == fb->image_cap) {
		size_t cap = fb->image_cap ? fb->image_cap * 2 : 8;
		struct converted **list = realloc(fb->images, cap * sizeof(*list));

		if (!list) {
			return NULL;
		}
		fb->images = list;
		fb->image_cap = cap;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->bytes = malloc(src->size ? src->size : 1))) {
		free(c);
		return NULL;
	}
	if ((*err = replay_fallback_convert(src, to, c->bytes)) < 0) {
		free(c->bytes);
		free(c);
		return NULL;
	}
	c->image = *src;
	c->image.fourcc = to;
	c->image.data = c->bytes;
	c->last_use = fb->applies;
	/* the source's identity and the format: the same content converted is the same image */
	memcpy(key, &src->hash, sizeof(src->hash));
	memcpy(key + sizeof(src->hash), &to, sizeof(to));
	c->image.hash = hwct_hash_compute(key, sizeof(key));
	fb->image_bytes += src->size;
	fb->images[fb->image_count++] = c;
	return &c->image;
}

static int reserve(struct replay_fallback *fb, size_t count)
{
	struct scene_image *shapes;
	struct replay_substitution *subs;

	if (count <= fb->shape_cap) {
		return 0;
	}
	shapes = realloc(fb->shapes, count * sizeof(*shapes));
	if (shapes) {
		fb->shapes = shapes;
	}
	subs = realloc(fb->subs, count * sizeof(*subs));
	if (subs) {
		fb->subs = subs;
	}
	if (!shapes || !subs) {
		return -ENOMEM;
	}
	fb->shape_cap = count;
	return 0;
}

int replay_fallback_apply(struct replay_fallback *fb, struct scene_layer *layers, size_t count,
	const struct replay_substitution **subs, size_t *sub_count)
{
	size_t n = 0;

	fb->applies++;
	*sub_count = 0;
	if (reserve(fb, count) < 0) {
		return -ENOMEM;
	}
	*subs = fb->subs;
	for (size_t i = 0; i < count; i++) {
		const struct scene_image *img = layers[i].image;
		uint32_t to = img ? replay_fallback_equivalent(img->fourcc) : 0;

		if (!to || board_takes(fb->board, img->fourcc) || !board_takes(fb->board, to)) {
			continue;
		}
		if (img->data) {
			int err = 0;
			const struct scene_image *c = converted_image(fb, img, to, &err);

			if (!c && err == -EINVAL) {
				continue;	/* a layout the conversion does not know: left as it is */
			}
			if (!c) {
				*sub_count = n;
				return -ENOMEM;
			}
			layers[i].image = c;
		} else {
			fb->shapes[i] = *img;
			fb->shapes[i].fourcc = to;
			layers[i].image = &fb->shapes[i];
		}
		fb->subs[n++] = (struct replay_substitution){ .layer = layers[i].id, .from = img->fourcc, .to = to };
	}
	*sub_count = n;
	return 0;
}
