/* Assertions, scratch files and running hwc-trace for the analyzer tests. */
#ifndef HWCT_TESTS_ANALYZERS_TESTUTIL_H
#define HWCT_TESTS_ANALYZERS_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"	/* CHECK, CHECK_MSG, CHECK_EQ_U64: fatal */
#include "files.h"	/* test_read_file, test_write_file */
#include "run.h"	/* test_run */

#define TEST_SKIP 77	/* meson: the test was skipped */

/* A fresh directory for this test (removed with its files by test_cleanup). */
const char *test_dir(void);

/* test_dir()/name; valid until test_cleanup(). */
const char *test_path(const char *name);

/* Removes test_dir() and what it holds. */
void test_cleanup(void);

bool test_file_exists(const char *path);

/* Lines of text (split at '\n', without the last empty one). Caller frees the array, not the lines. */
size_t test_lines(char *text, char ***lines);

/* Whether haystack contains needle. */
bool test_contains(const char *haystack, const char *needle);

#endif
