/* What the cases of winscope-test share (winscope_test.c, perfetto_case.c). */
#ifndef HWCT_TESTS_WINSCOPE_WSCASE_H
#define HWCT_TESTS_WINSCOPE_WSCASE_H

#include <stdbool.h>
#include <stddef.h>

#include "fixture.h"

struct ctx {
	const char *hwc_trace, *fixture, *replay, *board;	/* replay, board: NULL without hwc-replay */
	struct fixture fx;
};

/* The file name in path (borrowed from it). */
const char *base_name(const char *path);

/* Runs hwc-trace import-winscope IN OUT into run. */
void import(const struct ctx *c, const char *in, const char *out, struct test_run *run);

/* An import that must fail with status 1 and a message naming `in` (and an offset when offset is set). */
void expect_failure(const struct ctx *c, const char *in, bool offset, const char *what);

/*
 * Checks the trace at out: `entries` frames of c->fx's display size, every
 * buffer synthetic, each frame's decisions those of `first` (may be NULL).
 */
void check_output(const struct ctx *c, const char *out, size_t entries, const struct fixture_entry *first);

/* The Perfetto fixture: import, size inferred, duplicates reported, same stacks as re-wrapped (perfetto_case.c). */
int case_perfetto(struct ctx *c);

/* A legacy fixture and the same entries in a Perfetto trace made by this test import alike (perfetto_case.c). */
int case_containers(struct ctx *c);

/* An input the fuzzer found: one frame of no layers, no sanitizer report (found_case.c). */
int case_no_layers(struct ctx *c);

#endif
