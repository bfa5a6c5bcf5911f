/*
 * Predictors applied to pixel payloads before compression (docs/format.md
 * section 4): per-row byte deltas, and the planar median predictor.
 */
#ifndef HWCT_PREDICTOR_H
#define HWCT_PREDICTOR_H

#include <stdbool.h>
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

/*
 * Writes the prediction residuals of src into dst (same size, no overlap).
 * predictor must be valid for blk (predictor_valid). An empty block
 * (blk->size 0) is left alone: dst and src may then be NULL (protobuf-c
 * gives an empty bytes field as NULL). Returns 0 or -ENOMEM.
 */
int predictor_apply(int predictor, uint8_t *dst, const uint8_t *src, const struct pixel_block *blk);

/*
 * Undoes predictor_apply: the payload bytes of the residuals src into dst
 * (same size, no overlap). predictor must be valid for blk. An empty block
 * is left alone, as by predictor_apply. Returns 0 or -ENOMEM.
 */
int predictor_undo(int predictor, uint8_t *dst, const uint8_t *src, const struct pixel_block *blk);

/* Whether the predictor can work on blk (known id, sane geometry). */
int predictor_valid(int predictor, const struct pixel_block *blk);

/*
 * Picks the predictor under which a sample of src (whole rows from its
 * middle) compresses best with zstd at level, among the allowed ones (bit
 * 1 << HWCT__BLOB_PREDICTOR__*) valid for the sample; a later candidate
 * must save 2 % over an earlier one. Returns PREDICT_NONE when allowed,
 * else PREDICT_LEFT, when there is nothing to sample.
 */
#define PREDICTOR_ALL 0xfu
#define PREDICTOR_DELTA (1u << 1 | 1u << 3)	/* LEFT, PLANAR_MED */
int predictor_choose(const uint8_t *src, const struct pixel_block *blk, int level, unsigned allowed);

/* ------------------------------------------------------ predictor_planar.c */
/* PREDICT_PLANAR_MED: 4 bytes per pixel, rows a multiple of 4 bytes, a whole number of rows. */
bool planar_valid(const struct pixel_block *blk);
/* Same contracts as predictor_apply and predictor_undo. */
int planar_apply(uint8_t *dst, const uint8_t *src, const struct pixel_block *blk);
int planar_undo(uint8_t *dst, const uint8_t *src, const struct pixel_block *blk);

#endif
