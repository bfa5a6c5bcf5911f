/*
 * Running a program from a test with its standard output and error
 * captured, one helper for every test folder (tests/analyzers,
 * tests/replay, tests/winscope). `#include "run.h"` and link
 * tests_common_dep (tests/meson.build).
 */
#ifndef HWCT_TESTS_RUN_H
#define HWCT_TESTS_RUN_H

#include <stddef.h>

/* What a run of a program produced. */
struct test_run {
	int status;		/* exit status, 128 + signal when killed */
	char *out;		/* stdout, NUL-terminated; owned */
	size_t out_size;	/* bytes in out (it may hold NULs) */
	char *err;		/* stderr, NUL-terminated; owned */
};

/*
 * Runs argv (argv[0] the program's path, NULL-terminated) and waits for
 * it, its stdout and stderr captured in unlinked files under $TMPDIR (or
 * /tmp). Ends the test (exit 1, said on stderr) when it cannot start one.
 */
void test_run(struct test_run *run, const char *const *argv);

/* Frees what run holds and clears it. */
void test_run_finish(struct test_run *run);

#endif
