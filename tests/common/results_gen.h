/*
 * Results files of any length for the tests and benchmarks of the results
 * readers: frames shaped as hwc-replay writes them (docs/results.md), one a
 * line, so that a file of 100 000 frames costs no memory to make.
 */
#ifndef HWCT_TESTS_RESULTS_GEN_H
#define HWCT_TESTS_RESULTS_GEN_H

#include <stddef.h>
#include <stdint.h>

struct results_gen {
	uint32_t frames;	/* frames in the file */
	uint32_t layers;	/* layers of each frame */
	uint32_t big_frame;	/* the index of one frame with big_layers layers */
	uint32_t big_layers;	/* 0: no big frame */
	uint32_t variant;	/* 0, or another run: every 97th frame then decides otherwise */
};

/*
 * Writes the results g describes to path (created or truncated; borrowed).
 * *largest (may be NULL) gets the bytes of the largest frame's line, *size
 * (may be NULL) the file's. A failure ends the test (exit 1).
 */
void test_results_write(const char *path, const struct results_gen *g, size_t *largest, size_t *size);

#endif
