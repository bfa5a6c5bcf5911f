/*
 * Buffer content as pictures (docs/format.md section 3.3): what a 1.3 trace
 * stores, and what an older trace's padded payload is repacked into.
 */
#include <errno.h>
#include <stdlib.h>

#include <hwct/format.h>

#include "reader_private.h"

/* Format 1.3 made content the packed picture. */
#define PACKED_MINOR 3

bool hwct_reader_packed_content(const struct hwct_reader *r)
{
	return r->info.major > 1 || r->info.minor >= PACKED_MINOR;
}

/* The picture of b when its stored content is not one already (older trace, padded layout). */
static bool needs_repack(const struct hwct_reader *r, const Hwct__Buffer *b, struct hwct_picture *p)
{
	return !hwct_reader_packed_content(r) && hwct_picture_of_buffer(p, b) && !hwct_picture_is_packed(p);
}

/* Reports a content error without stopping sequential reading (as blob errors do). */
static int picture_fail(struct hwct_reader *r, int code, size_t have, uint64_t need)
{
	bool failed = r->failed;

	if (code == -ENOMEM) {
		reader_fail(r, code, UINT64_MAX, "blob: out of memory");
	} else {
		reader_fail(r, code, UINT64_MAX, "blob: %zu bytes of content, its Buffer's layout needs %llu",
			have, (unsigned long long)need);
	}
	r->failed = failed;
	return code;
}

/* Repacks out in place of its payload. Returns 0, or -EINVAL when the payload is shorter than the layout. */
static int repack(struct hwct_reader *r, const struct hwct_picture *p, struct hwct_blob_data *out)
{
	uint64_t size = hwct_picture_size(p);
	uint8_t *packed;

	if (hwct_picture_source_size(p) > out->size) {
		return picture_fail(r, -EINVAL, out->size, hwct_picture_source_size(p));
	}
	packed = malloc(size ? (size_t)size : 1);
	if (!packed) {
		return picture_fail(r, -ENOMEM, 0, 0);
	}
	hwct_picture_pack(p, out->data, packed);
	free(out->data);
	out->data = packed;
	out->size = (size_t)size;
	out->stride = p->planes[0].row;
	return 0;
}

int hwct_reader_picture(struct hwct_reader *r, const Hwct__Buffer *b, const struct hwct_hash *content,
	struct hwct_blob_data *out)
{
	struct hwct_picture p;
	int ret = hwct_reader_blob(r, content, out);

	if (ret < 0 || !needs_repack(r, b, &p)) {
		return ret;
	}
	ret = repack(r, &p, out);
	if (ret < 0) {
		free(out->data);
		*out = (struct hwct_blob_data){ 0 };
	}
	return ret;
}

/* The cache key: the content, and the layout it is read with. */
static struct hwct_hash picture_key(const struct hwct_picture *p, const struct hwct_hash *content)
{
	uint64_t words[1 + 3 * HWCT_PICTURE_MAX_PLANES] = { p->fourcc | (uint64_t)p->width << 32 };
	struct hwct_hash layout, key = *content;

	for (uint32_t k = 0; k < p->plane_count; k++) {
		words[1 + 3 * k] = p->planes[k].offset;
		words[2 + 3 * k] = p->planes[k].stride;
		words[3 + 3 * k] = p->height;
	}
	layout = hwct_hash_compute(words, sizeof(words));
	key.high ^= layout.high;
	key.low ^= layout.low;
	return key;
}

static int remember(struct hwct_reader *r, const struct hwct_hash *key, const struct hwct_hash *picture)
{
	if (r->picture_count == r->picture_cap) {
		size_t cap = r->picture_cap ? r->picture_cap * 2 : 64;
		struct hwct_hash *hashes = realloc(r->picture_hashes, cap * sizeof(*hashes));

		if (!hashes) {
			return -ENOMEM;
		}
		r->picture_hashes = hashes;
		r->picture_cap = cap;
	}
	r->picture_hashes[r->picture_count] = *picture;
	if (hmap_put(&r->pictures, key, r->picture_count + 1) < 0) {
		return -ENOMEM;
	}
	r->picture_count++;
	return 0;
}

int hwct_reader_picture_hash(struct hwct_reader *r, const Hwct__Buffer *b, const struct hwct_hash *content,
	struct hwct_hash *out)
{
	struct hwct_blob_data blob;
	struct hwct_picture p;
	struct hwct_hash key;
	uintptr_t at;
	int ret;

	*out = *content;
	if (!needs_repack(r, b, &p)) {
		return 0;
	}
	key = picture_key(&p, content);
	if (hmap_get(&r->pictures, &key, &at)) {
		*out = r->picture_hashes[at - 1];
		return 0;
	}
	ret = hwct_reader_blob(r, content, &blob);
	if (ret < 0) {
		return ret;
	}
	if (hwct_picture_source_size(&p) > blob.size) {
		free(blob.data);
		return picture_fail(r, -EINVAL, blob.size, hwct_picture_source_size(&p));
	}
	*out = hwct_picture_hash(&p, blob.data);
	free(blob.data);
	/* not kept when out of memory: computed again next time */
	remember(r, &key, out);
	return 0;
}
