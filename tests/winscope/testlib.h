/* Checks, a scratch directory and running programs for the winscope tests. */
#ifndef HWCT_TESTS_WINSCOPE_TESTLIB_H
#define HWCT_TESTS_WINSCOPE_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"	/* CHECK, CHECK_MSG: fatal */
#include "files.h"	/* test_read_file, test_write_file */
#include "run.h"	/* test_run */

#define TEST_SKIP 77		/* meson: skipped */

/* A fresh scratch directory, removed at exit; test_path() names a file in it (static buffer per call slot). */
const char *test_dir(void);
char *test_path(const char *name);

bool test_exists(const char *path);

#endif
