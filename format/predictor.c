/* Predictors for pixel payloads (predictor.h); the planar one is in predictor_planar.c. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include <hwct/hwctrace.pb-c.h>

#include "predictor.h"

#define SAMPLE_BYTES (64 * 1024)

/* dst[i] = a[i] - b[i] (mod 256) for n bytes, eight at a time (no carry crosses a byte). */
static void sub_bytes(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t n)
{
	const uint64_t high = 0x8080808080808080ull;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y, d;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		d = ((x | high) - (y & ~high)) ^ ((x ^ ~y) & high);
		memcpy(dst + i, &d, 8);
	}
	for (; i < n; i++) {
		dst[i] = (uint8_t)(a[i] - b[i]);
	}
}

static void left_apply(uint8_t *dst, const uint8_t *src, size_t len, uint32_t bpp)
{
	size_t head = bpp < len ? bpp : len;

	memcpy(dst, src, head);
	sub_bytes(dst + head, src + head, src, len - head);
}

static void left_undo(uint8_t *data, size_t len, uint32_t bpp)
{
	for (size_t i = bpp; i < len; i++) {
		data[i] = (uint8_t)(data[i] + data[i - bpp]);
	}
}

int predictor_valid(int predictor, const struct pixel_block *blk)
{
	switch (predictor) {
	case HWCT__BLOB_PREDICTOR__PREDICT_NONE:
		return true;
	case HWCT__BLOB_PREDICTOR__PREDICT_LEFT:
		return blk->bpp > 0 && blk->bpp <= 16 && blk->row_len > 0;
	case HWCT__BLOB_PREDICTOR__PREDICT_UP:
		return blk->row_len > 0;
	case HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED:
		return planar_valid(blk);
	default:
		return false;
	}
}

int predictor_apply(int predictor, uint8_t *dst, const uint8_t *src, const struct pixel_block *blk)
{
	size_t row = blk->row_len;

	if (blk->size == 0) {	/* dst and src may be NULL */
		return 0;
	}
	switch (predictor) {
	case HWCT__BLOB_PREDICTOR__PREDICT_LEFT:
		for (size_t off = 0; off < blk->size; off += row) {
			size_t len = blk->size - off < row ? blk->size - off : row;

			left_apply(dst + off, src + off, len, blk->bpp);
		}
		return 0;
	case HWCT__BLOB_PREDICTOR__PREDICT_UP:
		memcpy(dst, src, row < blk->size ? row : blk->size);
		if (row < blk->size) {
			sub_bytes(dst + row, src + row, src, blk->size - row);
		}
		return 0;
	case HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED:
		return planar_apply(dst, src, blk);
	default:
		memcpy(dst, src, blk->size);
		return 0;
	}
}

int predictor_undo(int predictor, uint8_t *dst, const uint8_t *src, const struct pixel_block *blk)
{
	size_t row = blk->row_len;

	if (blk->size == 0) {	/* dst and src may be NULL */
		return 0;
	}
	if (predictor == HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED) {
		return planar_undo(dst, src, blk);
	}
	memcpy(dst, src, blk->size);
	switch (predictor) {
	case HWCT__BLOB_PREDICTOR__PREDICT_LEFT:
		for (size_t off = 0; off < blk->size; off += row) {
			size_t len = blk->size - off < row ? blk->size - off : row;

			left_undo(dst + off, len, blk->bpp);
		}
		return 0;
	case HWCT__BLOB_PREDICTOR__PREDICT_UP:
		for (size_t i = row; i < blk->size; i++) {
			dst[i] = (uint8_t)(dst[i] + dst[i - row]);
		}
		return 0;
	default:
		return 0;
	}
}

int predictor_choose(const uint8_t *src, const struct pixel_block *blk, int level, unsigned allowed)
{
	static const int candidates[] = {
		HWCT__BLOB_PREDICTOR__PREDICT_NONE,
		HWCT__BLOB_PREDICTOR__PREDICT_LEFT,
		HWCT__BLOB_PREDICTOR__PREDICT_UP,
		HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED,
	};
	int best = allowed & 1u << HWCT__BLOB_PREDICTOR__PREDICT_NONE ? HWCT__BLOB_PREDICTOR__PREDICT_NONE :
		HWCT__BLOB_PREDICTOR__PREDICT_LEFT;
	size_t best_size = SIZE_MAX, rows, start;
	struct pixel_block sample;
	uint8_t *tmp, *out;
	size_t out_cap;

	if (blk->bpp == 0 || blk->row_len == 0 || blk->size < 2 * blk->row_len) {
		return best;
	}
	/* whole rows from the middle of the payload, at least two */
	rows = SAMPLE_BYTES / blk->row_len;
	rows = rows < 2 ? 2 : rows;
	if (rows * blk->row_len > blk->size) {
		rows = blk->size / blk->row_len;
	}
	sample = (struct pixel_block){ .size = rows * blk->row_len, .row_len = blk->row_len, .bpp = blk->bpp };
	start = (blk->size / blk->row_len - rows) / 2 * blk->row_len;
	out_cap = ZSTD_compressBound(sample.size);
	tmp = malloc(sample.size);
	out = malloc(out_cap);
	if (!tmp || !out) {
		free(tmp);
		free(out);
		return best;
	}
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		size_t n;

		if (!(allowed & 1u << candidates[i]) || !predictor_valid(candidates[i], &sample) ||
				predictor_apply(candidates[i], tmp, src + start, &sample) < 0) {
			continue;
		}
		n = ZSTD_compress(out, out_cap, tmp, sample.size, level);
		/* prefer the simpler predictor unless the other saves 2 % */
		if (!ZSTD_isError(n) && n + n / 50 < best_size) {
			best_size = n;
			best = candidates[i];
		}
	}
	free(tmp);
	free(out);
	return best;
}
