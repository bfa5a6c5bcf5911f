/*
 * The blobs of a trimmed trace (trim.h): each content hash OUT refers to is
 * decoded from IN and stored again. Where the same layer (or target) showed
 * an image of the same geometry just before, the rows that changed are
 * offered to the writer as damage against it, so deltas stay deltas.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/format.h>

#include "trim.h"

/* More changed row bands than this become one bounding rect. */
#define DAMAGE_RECTS_MAX 32

struct slot {
	uint64_t display, layer;
	enum trim_slot kind;
	bool has_hash;
	struct hwct_hash hash;		/* the content it shows now */
	struct hwct_blob_data image;	/* decoded payload of `image_hash`, data NULL when none */
	struct hwct_hash image_hash;
};

/* How IN stored a delta blob. */
struct learned {
	struct hwct_hash hash, base;
	struct hwct_rect *rects;	/* owned */
	size_t rect_count;
};

struct trim_blobs {
	struct hwct_reader *in;		/* borrowed */
	struct hwct_writer *w;		/* borrowed */
	struct trim_report *report;	/* borrowed */
	struct slot *slots;		/* owned */
	size_t count, cap;
	struct learned *learned;	/* owned: open addressing by hash, rects NULL = empty */
	size_t learned_count, learned_cap;
};

struct trim_blobs *trim_blobs_create(struct hwct_reader *in, struct hwct_writer *w, struct trim_report *report)
{
	struct trim_blobs *b = calloc(1, sizeof(*b));

	if (b) {
		b->in = in;
		b->w = w;
		b->report = report;
	}
	return b;
}

static void slot_drop_image(struct slot *s)
{
	free(s->image.data);
	s->image = (struct hwct_blob_data){ 0 };
}

void trim_blobs_reset(struct trim_blobs *b)
{
	for (size_t i = 0; i < b->count; i++) {
		slot_drop_image(&b->slots[i]);
	}
	b->count = 0;
}

void trim_blobs_destroy(struct trim_blobs *b)
{
	if (!b) {
		return;
	}
	trim_blobs_reset(b);
	for (size_t i = 0; i < b->learned_cap; i++) {
		free(b->learned[i].rects);
	}
	free(b->learned);
	free(b->slots);
	free(b);
}

static size_t learned_slot(const struct learned *table, size_t cap, const struct hwct_hash *hash)
{
	size_t i = (size_t)hash->low & (cap - 1);

	while (table[i].rects && !hwct_hash_equal(&table[i].hash, hash)) {
		i = (i + 1) & (cap - 1);
	}
	return i;
}

static const struct learned *learned_find(const struct trim_blobs *b, const struct hwct_hash *hash)
{
	const struct learned *l;

	if (!b->learned_cap) {
		return NULL;
	}
	l = &b->learned[learned_slot(b->learned, b->learned_cap, hash)];
	return l->rects ? l : NULL;
}

int trim_blobs_learn(struct trim_blobs *b, const Hwct__Blob *blob)
{
	struct learned *l;
	struct hwct_hash hash, base;

	if (blob->encoding != HWCT__BLOB_ENCODING__BLOB_DELTA || !blob->n_rects ||
		!hwct_hash_from_bytes(&hash, blob->hash.data, blob->hash.len) ||
		!hwct_hash_from_bytes(&base, blob->base_hash.data, blob->base_hash.len)) {
		return 0;
	}
	if ((b->learned_count + 1) * 2 > b->learned_cap) {
		size_t cap = b->learned_cap ? b->learned_cap * 2 : 256;
		struct learned *table = calloc(cap, sizeof(*table));

		if (!table) {
			return -ENOMEM;
		}
		for (size_t i = 0; i < b->learned_cap; i++) {
			if (b->learned[i].rects) {
				table[learned_slot(table, cap, &b->learned[i].hash)] = b->learned[i];
			}
		}
		free(b->learned);
		b->learned = table;
		b->learned_cap = cap;
	}
	l = &b->learned[learned_slot(b->learned, b->learned_cap, &hash)];
	if (l->rects) {
		return 0;	/* writers store a hash once; keep the first */
	}
	l->rects = calloc(blob->n_rects, sizeof(*l->rects));
	if (!l->rects) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < blob->n_rects; i++) {
		const Hwct__Rect *r = blob->rects[i];

		l->rects[i] = (struct hwct_rect){ r->left, r->top, r->right, r->bottom };
	}
	l->hash = hash;
	l->base = base;
	l->rect_count = blob->n_rects;
	b->learned_count++;
	return 0;
}

static struct slot *find_slot(struct trim_blobs *b, uint64_t display, uint64_t layer, enum trim_slot kind,
	bool create)
{
	for (size_t i = 0; i < b->count; i++) {
		struct slot *s = &b->slots[i];

		if (s->display == display && s->layer == layer && s->kind == kind) {
			return s;
		}
	}
	if (!create) {
		return NULL;
	}
	if (b->count == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 16;
		struct slot *slots = realloc(b->slots, cap * sizeof(*slots));

		if (!slots) {
			return NULL;
		}
		b->slots = slots;
		b->cap = cap;
	}
	b->slots[b->count] = (struct slot){ .display = display, .layer = layer, .kind = kind };
	return &b->slots[b->count++];
}

void trim_blobs_forget(struct trim_blobs *b, uint64_t display, uint64_t layer)
{
	struct slot *s = find_slot(b, display, layer, TRIM_SLOT_LAYER, false);

	if (s) {
		slot_drop_image(s);
		*s = b->slots[--b->count];
	}
}

/*
 * The rows of next that differ from prev, as rects of consecutive changed
 * rows (each as wide as its changes). Returns the count, 0 when equal.
 */
static size_t damage_rects(const struct hwct_blob_data *prev, const struct hwct_blob_data *next,
	struct hwct_rect *rects)
{
	size_t n = 0, row_bytes = (size_t)next->width * next->bpp;
	bool open = false;

	for (uint32_t y = 0; y < next->height; y++) {
		const uint8_t *a = prev->data + (size_t)y * next->stride, *c = next->data + (size_t)y * next->stride;
		size_t first = 0, last;

		while (first < row_bytes && a[first] == c[first]) {
			first++;
		}
		if (first == row_bytes) {
			open = false;
			continue;
		}
		last = row_bytes - 1;
		while (last > first && a[last] == c[last]) {
			last--;
		}
		if (!open) {
			if (n == DAMAGE_RECTS_MAX) {
				/* too fragmented: one rect around everything */
				for (size_t i = 1; i < n; i++) {
					rects[0].left = rects[i].left < rects[0].left ? rects[i].left : rects[0].left;
					rects[0].right = rects[i].right > rects[0].right ? rects[i].right : rects[0].right;
					rects[0].bottom = rects[i].bottom;
				}
				n = 1;
			} else {
				rects[n++] = (struct hwct_rect){ (int32_t)next->width, (int32_t)y, 0, (int32_t)y };
			}
			open = true;
		}
		{
			struct hwct_rect *r = &rects[n - 1];
			int32_t left = (int32_t)(first / next->bpp), right = (int32_t)(last / next->bpp) + 1;

			r->left = left < r->left ? left : r->left;
			r->right = right > r->right ? right : r->right;
			r->bottom = (int32_t)y + 1;
		}
	}
	return n;
}

/* Whether prev can be the base of a delta to next. */
static bool same_geometry(const struct hwct_blob_data *prev, const struct hwct_blob_data *next)
{
	return prev->data && prev->kind == HWCT_BLOB_PIXELS && next->kind == HWCT_BLOB_PIXELS &&
		prev->size == next->size && prev->width == next->width && prev->height == next->height &&
		prev->stride == next->stride && prev->bpp == next->bpp && next->bpp > 0 && next->width > 0 &&
		(uint64_t)next->stride * next->height <= next->size &&
		(uint64_t)next->width * next->bpp <= next->stride;
}

static int store(struct trim_blobs *b, struct slot *s, const struct hwct_hash *hash)
{
	struct hwct_rect rects[DAMAGE_RECTS_MAX];
	const struct learned *learned;
	struct hwct_blob_data image;
	struct hwct_blob_desc desc;
	int ret;

	if (hwct_writer_has_blob(b->w, hash)) {
		return 0;
	}
	ret = hwct_reader_blob(b->in, hash, &image);
	if (ret == -ENOENT) {
		b->report->blobs_missing++;	/* not captured, or dropped by the recorder */
		return 0;
	}
	if (ret < 0) {
		return ret;
	}
	desc = (struct hwct_blob_desc){
		.data = image.data, .size = image.size, .kind = image.kind,
		.width = image.width, .height = image.height, .stride = image.stride, .bpp = image.bpp,
		.hash = hash,
	};
	learned = learned_find(b, hash);
	if (learned && hwct_writer_has_blob(b->w, &learned->base)) {
		/* IN's own delta: the payload is its base with these rects replaced */
		desc.base = &learned->base;
		desc.damage = learned->rects;
		desc.damage_count = learned->rect_count;
		b->report->delta_bases++;
	} else if (same_geometry(&s->image, &image) && hwct_writer_has_blob(b->w, &s->image_hash)) {
		desc.damage_count = damage_rects(&s->image, &image, rects);
		desc.damage = rects;
		desc.base = desc.damage_count ? &s->image_hash : NULL;
		b->report->delta_bases += desc.base != NULL;
	}
	ret = hwct_writer_add_blob(b->w, &desc, HWCT_BLOB_WAIT, NULL);
	if (ret < 0) {
		free(image.data);
		return ret;
	}
	b->report->blobs += ret == 0;
	b->report->blob_bytes += ret == 0 ? image.size : 0;
	slot_drop_image(s);
	s->image = image;
	s->image_hash = *hash;
	return 0;
}

int trim_blobs_note(struct trim_blobs *b, uint64_t display, uint64_t layer, enum trim_slot kind,
	const struct hwct_hash *hash, bool store_now)
{
	struct slot *s = find_slot(b, display, layer, kind, true);

	if (!s) {
		return -ENOMEM;
	}
	s->has_hash = hash != NULL;
	if (hash) {
		s->hash = *hash;
	}
	return hash && store_now ? store(b, s, hash) : 0;
}

int trim_blobs_store_all(struct trim_blobs *b)
{
	int ret = 0;

	for (size_t i = 0; i < b->count && ret == 0; i++) {
		if (b->slots[i].has_hash) {
			ret = store(b, &b->slots[i], &b->slots[i].hash);
		}
	}
	return ret;
}
