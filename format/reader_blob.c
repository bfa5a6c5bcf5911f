/* Blob content by hash: locate, decode predictors and delta chains (docs/format.md section 4). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/limits.h>

#include "predictor.h"
#include "reader_private.h"
#include "record_io.h"

/*
 * The blobs being decoded, outermost first: a delta's base is decoded before
 * the delta is applied, so the blobs on this stack are each other's
 * ancestors and a hash seen twice is a cycle.
 */
struct chain {
	struct hwct_hash *hashes;	/* owned, max + 1 entries */
	size_t depth;
	size_t max;			/* hwct_limits()->delta_depth */
};

/* Finds the Blob record with hash h in the cached blob frame. Caller frees *out. */
static int find_blob(struct hwct_reader *r, const struct hwct_hash *h, Hwct__Blob **out, uint64_t *where)
{
	uintptr_t ordinal;
	size_t pos = 0;
	int ret;

	if (!hmap_get(&r->blobs, h, &ordinal)) {
		return -ENOENT;
	}
	*where = r->frames[ordinal].offset;
	if (r->blob_ordinal != ordinal) {
		r->blob_ordinal = UINT32_MAX;
		ret = reader_load_frame(r, (uint32_t)ordinal, &r->blob_buf);
		if (ret < 0) {
			return ret;
		}
		r->blob_ordinal = (uint32_t)ordinal;
	}
	for (;;) {
		const uint8_t *body;
		const char *what = NULL;
		Hwct__Record *rec;
		struct hwct_hash got;
		size_t size;

		ret = record_next(r->blob_buf.data, r->blob_buf.len, &pos, &body, &size, &what);
		if (ret <= 0) {
			return ret < 0 ? reader_fail(r, ret, *where, "blob frame %u: %s", (uint32_t)ordinal, what)
				: reader_fail(r, -EINVAL, *where, "blob frame %u: index lists a blob it does not hold",
					(uint32_t)ordinal);
		}
		rec = hwct__record__unpack(NULL, size, body);
		if (!rec) {
			return reader_fail(r, -EINVAL, *where, "blob frame %u: record at content byte %zu does not parse",
				(uint32_t)ordinal, (size_t)(body - r->blob_buf.data));
		}
		if (rec->kind_case == HWCT__RECORD__KIND_BLOB &&
			hwct_hash_from_bytes(&got, rec->blob->hash.data, rec->blob->hash.len) &&
			hwct_hash_equal(&got, h)) {
			*out = rec->blob;
			rec->blob = NULL;
			rec->kind_case = HWCT__RECORD__KIND__NOT_SET;
			hwct__record__free_unpacked(rec, NULL);
			return 0;
		}
		hwct__record__free_unpacked(rec, NULL);
	}
}

static int decode_raw(struct hwct_reader *r, const Hwct__Blob *b, uint64_t where, struct hwct_blob_data *out)
{
	struct pixel_block blk = { .size = b->data.len, .row_len = b->stride, .bpp = b->bpp };

	if (b->data.len != b->size) {
		return reader_fail(r, -EINVAL, where, "blob: data is %zu bytes, size field says %llu",
			b->data.len, (unsigned long long)b->size);
	}
	if (!predictor_valid(b->predictor, &blk)) {
		return reader_fail(r, -EINVAL, where, "blob: predictor %d does not fit stride %u bpp %u",
			b->predictor, b->stride, b->bpp);
	}
	out->data = malloc(b->data.len ? b->data.len : 1);
	if (!out->data) {
		return reader_fail(r, -ENOMEM, where, "blob: out of memory");
	}
	if (predictor_undo(b->predictor, out->data, b->data.data, &blk) < 0) {
		free(out->data);
		out->data = NULL;
		return reader_fail(r, -ENOMEM, where, "blob: out of memory");
	}
	out->size = b->data.len;
	return 0;
}

static int decode(struct hwct_reader *r, const struct hwct_hash *h, struct hwct_blob_data *out,
	struct chain *chain);

static int decode_delta(struct hwct_reader *r, const Hwct__Blob *b, uint64_t where,
	struct hwct_blob_data *out, struct chain *chain)
{
	struct hwct_hash base;
	uint64_t need = 0;
	size_t off = 0;
	uint8_t *rows;
	int ret;

	if (!hwct_hash_from_bytes(&base, b->base_hash.data, b->base_hash.len)) {
		return reader_fail(r, -EINVAL, where, "blob: delta without a 16-byte base_hash");
	}
	if (!b->width || !b->height || !b->bpp || b->bpp > 16 ||
		(uint64_t)b->stride < (uint64_t)b->width * b->bpp ||
		(uint64_t)b->stride * (b->height - 1) + (uint64_t)b->width * b->bpp > b->size) {
		return reader_fail(r, -EINVAL, where, "blob: delta geometry %ux%u stride %u bpp %u does not fit %llu bytes",
			b->width, b->height, b->stride, b->bpp, (unsigned long long)b->size);
	}
	for (size_t i = 0; i < b->n_rects; i++) {
		const Hwct__Rect *rc = b->rects[i];

		if (rc->left < 0 || rc->top < 0 || rc->right > (int32_t)b->width || rc->bottom > (int32_t)b->height ||
			rc->left >= rc->right || rc->top >= rc->bottom) {
			return reader_fail(r, -EINVAL, where, "blob: delta rects[%zu] outside the %ux%u image",
				i, b->width, b->height);
		}
		need += (uint64_t)(rc->right - rc->left) * b->bpp * (uint64_t)(rc->bottom - rc->top);
	}
	if (need != b->data.len) {
		return reader_fail(r, -EINVAL, where, "blob: delta rects need %llu bytes, data has %zu",
			(unsigned long long)need, b->data.len);
	}
	ret = decode(r, &base, out, chain);
	if (ret < 0) {
		return ret == -ENOENT ? reader_fail(r, -EINVAL, where, "blob: delta base is not in the trace") : ret;
	}
	if (out->size != b->size) {
		free(out->data);
		out->data = NULL;
		return reader_fail(r, -EINVAL, where, "blob: delta base is %zu bytes, delta says %llu",
			out->size, (unsigned long long)b->size);
	}
	rows = malloc(b->data.len ? b->data.len : 1);
	if (!rows) {
		free(out->data);
		out->data = NULL;
		return reader_fail(r, -ENOMEM, where, "blob: out of memory");
	}
	for (size_t i = 0; i < b->n_rects; i++) {
		const Hwct__Rect *rc = b->rects[i];
		size_t row = (size_t)(rc->right - rc->left) * b->bpp;
		struct pixel_block blk = { .size = row * (size_t)(rc->bottom - rc->top), .row_len = row, .bpp = b->bpp };

		if (!predictor_valid(b->predictor, &blk)) {
			/* 1.0 writers left such rects as they were; PLANAR_MED always fits a 4-byte rect */
			memcpy(rows + off, b->data.data + off, blk.size);
		} else if (predictor_undo(b->predictor, rows + off, b->data.data + off, &blk) < 0) {
			free(rows);
			free(out->data);
			out->data = NULL;
			return reader_fail(r, -ENOMEM, where, "blob: out of memory");
		}
		for (int32_t y = rc->top; y < rc->bottom; y++) {
			memcpy(out->data + (size_t)y * b->stride + (size_t)rc->left * b->bpp, rows + off, row);
			off += row;
		}
	}
	free(rows);
	return 0;
}

/* A copy of a recently decoded payload into *out. Returns 0, 1 when not kept, or -ENOMEM. */
static int decoded_get(struct hwct_reader *r, const struct hwct_hash *h, struct hwct_blob_data *out)
{
	for (size_t i = 0; i < r->decoded_count; i++) {
		if (hwct_hash_equal(&r->decoded[i].hash, h)) {
			*out = r->decoded[i].blob;
			out->data = malloc(out->size ? out->size : 1);
			if (!out->data) {
				return -ENOMEM;
			}
			memcpy(out->data, r->decoded[i].blob.data, out->size);
			r->decoded[i].last_use = ++r->decoded_clock;
			return 0;
		}
	}
	return 1;
}

/* Keeps a copy of a decoded payload, replacing the least recently used. */
static void decoded_put(struct hwct_reader *r, const struct hwct_hash *h, const struct hwct_blob_data *blob)
{
	size_t slot = r->decoded_count;
	uint8_t *copy;

	if (blob->size > READER_DECODED_MAX_SIZE || !(copy = malloc(blob->size ? blob->size : 1))) {
		return;
	}
	memcpy(copy, blob->data, blob->size);
	if (slot == READER_DECODED_CACHE) {
		slot = 0;
		for (size_t i = 1; i < READER_DECODED_CACHE; i++) {
			if (r->decoded[i].last_use < r->decoded[slot].last_use) {
				slot = i;
			}
		}
		free(r->decoded[slot].blob.data);
	} else {
		r->decoded_count++;
	}
	r->decoded[slot].hash = *h;
	r->decoded[slot].blob = *blob;
	r->decoded[slot].blob.data = copy;
	r->decoded[slot].last_use = ++r->decoded_clock;
}

void reader_decoded_finish(struct hwct_reader *r)
{
	for (size_t i = 0; i < r->decoded_count; i++) {
		free(r->decoded[i].blob.data);
	}
	r->decoded_count = 0;
}

/* Pushes h on the chain. Returns 0, or -ELOOP (r->err set) for a cycle or a chain past the limit. */
static int chain_push(struct hwct_reader *r, struct chain *chain, const struct hwct_hash *h)
{
	char hex[HWCT_HASH_HEX];

	for (size_t i = 0; i < chain->depth; i++) {
		if (hwct_hash_equal(&chain->hashes[i], h)) {
			return reader_fail(r, -ELOOP, UINT64_MAX,
				"blob %s: delta chain is a cycle: the blob is its own ancestor (a cycle of %zu blobs)",
				hwct_hash_to_hex(h, hex), chain->depth - i);
		}
	}
	if (chain->depth > chain->max) {
		return reader_fail(r, -ELOOP, UINT64_MAX,
			"blob %s: delta chain longer than the limit (%zu deltas, HWCT_LIMIT_DELTA_DEPTH)",
			hwct_hash_to_hex(&chain->hashes[0], hex), chain->max);
	}
	chain->hashes[chain->depth++] = *h;
	return 0;
}

/* Checks what a Blob claims against the limits before anything is allocated for it. */
static int check_limits(struct hwct_reader *r, const Hwct__Blob *b, uint64_t where)
{
	const struct hwct_limits *lim = hwct_limits();

	if (b->size > lim->blob_bytes) {
		return reader_fail(r, -EFBIG, where,
			"blob: size %llu exceeds the blob limit of %llu bytes (HWCT_LIMIT_BLOB_BYTES)",
			(unsigned long long)b->size, (unsigned long long)lim->blob_bytes);
	}
	if (b->width > lim->dimension || b->height > lim->dimension) {
		return reader_fail(r, -EFBIG, where,
			"blob: %ux%u exceeds the dimension limit of %llu pixels (HWCT_LIMIT_DIMENSION)",
			b->width, b->height, (unsigned long long)lim->dimension);
	}
	return 0;
}

static int decode(struct hwct_reader *r, const struct hwct_hash *h, struct hwct_blob_data *out,
	struct chain *chain)
{
	Hwct__Blob *b = NULL;
	uint64_t where = 0;
	int ret = decoded_get(r, h, out);

	if (ret <= 0) {
		return ret == -ENOMEM ? reader_fail(r, ret, UINT64_MAX, "blob: out of memory") : 0;
	}
	ret = chain_push(r, chain, h);
	if (ret < 0) {
		return ret;
	}
	ret = find_blob(r, h, &b, &where);
	if (ret < 0) {
		chain->depth--;
		return ret;
	}
	ret = check_limits(r, b, where);
	if (ret < 0) {
		hwct__blob__free_unpacked(b, NULL);
		chain->depth--;
		return ret;
	}
	*out = (struct hwct_blob_data){ .kind = b->kind, .width = b->width, .height = b->height,
		.stride = b->stride, .bpp = b->bpp };
	if (b->encoding == HWCT__BLOB_ENCODING__BLOB_RAW) {
		ret = decode_raw(r, b, where, out);
	} else if (b->encoding == HWCT__BLOB_ENCODING__BLOB_DELTA) {
		ret = decode_delta(r, b, where, out, chain);
	} else {
		ret = reader_fail(r, -EINVAL, where, "blob: unknown encoding %d", b->encoding);
	}
	hwct__blob__free_unpacked(b, NULL);
	chain->depth--;
	if (ret == 0) {
		decoded_put(r, h, out);
	}
	return ret;
}

int hwct_reader_blob(struct hwct_reader *r, const struct hwct_hash *hash, struct hwct_blob_data *out)
{
	struct hwct_error saved = r->err;
	bool failed = r->failed;
	struct chain chain = { 0 };
	struct hwct_hash got;
	int ret;

	*out = (struct hwct_blob_data){ 0 };
	r->failed = false;
	chain.max = (size_t)hwct_limits()->delta_depth;
	chain.hashes = calloc(chain.max + 1, sizeof(*chain.hashes));
	ret = chain.hashes ? decode(r, hash, out, &chain)
		: reader_fail(r, -ENOMEM, UINT64_MAX, "blob: out of memory");
	free(chain.hashes);
	if (ret == 0) {
		got = hwct_hash_compute(out->data, out->size);
		if (!hwct_hash_equal(&got, hash)) {
			free(out->data);
			*out = (struct hwct_blob_data){ 0 };
			ret = reader_fail(r, -EINVAL, UINT64_MAX, "blob: decoded content does not match its hash");
		}
	}
	/* a blob error is reported but does not stop sequential reading */
	if (ret < 0 && ret != -ENOENT) {
		r->failed = failed;
		return ret;
	}
	r->err = saved;
	r->failed = failed;
	return ret;
}
