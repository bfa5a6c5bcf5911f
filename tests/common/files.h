/*
 * Reading and writing whole files in a test, one helper for every test
 * folder: `#include "files.h"` and link tests_common_dep (tests/meson.build).
 * A failure ends the test (exit 1, the path and the reason on stderr).
 */
#ifndef HWCT_TESTS_FILES_H
#define HWCT_TESTS_FILES_H

#include <stddef.h>
#include <stdint.h>

/* The whole file, NUL-terminated past *size (a text can be used as a string). Caller frees. */
uint8_t *test_read_file(const char *path, size_t *size);

/* Writes size bytes of data to path (created or truncated). */
void test_write_file(const char *path, const void *data, size_t size);

#endif
