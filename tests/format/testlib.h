/* Minimal assertions and a trace builder for the format tests. */
#ifndef HWCT_TESTLIB_H
#define HWCT_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <hwct/reader.h>
#include <hwct/writer.h>

#include "check.h"	/* CHECK, CHECK_MSG: fatal */

struct test_case {
	const char *name;
	void (*run)(void);
};

/*
 * Runs the case named by argv[1] (every case without an argument). Returns
 * the exit status: 0, or 2 for an unknown case. A failing check exits 1.
 */
int test_run_cases(const struct test_case *cases, size_t count, int argc, char **argv);

/* A temporary path under $TMPDIR (or /tmp) unique to this process; caller frees. */
char *test_tmp_path(const char *suffix);

struct test_trace_options {
	unsigned frames;		/* display frames */
	unsigned keyframe_interval;
	unsigned layers;
	unsigned width, height;		/* pixel buffers */
	bool pixels;			/* add blobs (with damage deltas) */
	bool every_kind;		/* add one record of every kind */
	uint32_t seed;
};

/*
 * Writes a synthetic trace to path through the writer API. Returns the
 * number of records written (the Keyframes the writer adds not included).
 */
uint64_t test_write_trace(const char *path, const struct test_trace_options *opts);

/* What test_write_trace wrote, when test_capture points at one. */
struct test_capture {
	uint8_t **records;	/* packed Record messages, in order */
	size_t *sizes;
	size_t count, cap;
	struct {
		struct hwct_hash hash;
		uint8_t *data;
		size_t size;
	} *blobs;		/* every payload handed to add_blob, with its hash */
	size_t blob_count;
};

extern struct test_capture *test_capture;

/* Frees what cap holds. */
void test_capture_finish(struct test_capture *cap);

/* Reads every record of path, packed, into *out (caller frees each and the array). */
size_t test_read_packed(const char *path, uint8_t ***out, size_t **sizes, int *result);

/* Reads a whole file. Caller frees. */
uint8_t *test_read_file(const char *path, size_t *size);

/* Writes size bytes to path. */
void test_write_file(const char *path, const void *data, size_t size);

#endif
