/*
 * Per-row byte predictors applied to pixel payloads before compression
 * (docs/format.md section 4).
 */
#ifndef HWCT_PREDICTOR_H
#define HWCT_PREDICTOR_H

#include <stddef.h>
#include <stdint.h>

/*
 * A block of rows: size bytes cut into rows of row_len bytes (the last row
 * may be shorter); bpp is the LEFT distance.
 */
struct pixel_block {
	size_t size;
	size_t row_len;
	uint32_t bpp;
};

/* Writes the prediction residuals of src into dst (same size, no overlap). */
void predictor_apply(int predictor, uint8_t *dst, const uint8_t *src, const struct pixel_block *blk);

/* Undoes predictor_apply in place. */
void predictor_undo(int predictor, uint8_t *data, const struct pixel_block *blk);

/* Whether the predictor can work on blk (known id, sane geometry). */
int predictor_valid(int predictor, const struct pixel_block *blk);

/*
 * Picks the predictor under which a sample of src compresses best with zstd
 * at level. Returns a HWCT__BLOB_PREDICTOR__* value.
 */
int predictor_choose(const uint8_t *src, const struct pixel_block *blk, int level);

#endif
