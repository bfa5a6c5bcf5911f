/*
 * libFuzzer target for the blob predictors' decoder (format/predictor.h,
 * docs/format.md section 4). Input: byte 0 the predictor, byte 1 bpp,
 * bytes 2-3 the row length (little-endian), the rest the residuals. Any
 * geometry the reader would accept is undone; a predictor that is valid
 * must then round-trip: applying it to the decoded bytes gives the input
 * residuals back (a mismatch aborts).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "predictor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pixel_block blk;
	uint8_t *decoded, *again;
	int predictor;

	if (size < 4) {
		return 0;
	}
	predictor = data[0];
	blk = (struct pixel_block){ .size = size - 4, .row_len = (size_t)data[2] | (size_t)data[3] << 8,
		.bpp = data[1] };
	if (!predictor_valid(predictor, &blk)) {
		return 0;
	}
	decoded = malloc(blk.size + 1);
	again = malloc(blk.size + 1);
	if (decoded && again && predictor_undo(predictor, decoded, data + 4, &blk) == 0 &&
			predictor_apply(predictor, again, decoded, &blk) == 0 && memcmp(again, data + 4, blk.size) != 0) {
		abort();
	}
	free(decoded);
	free(again);
	return 0;
}
