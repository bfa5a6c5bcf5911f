/*
 * The fds a test process has open, one helper for every test folder:
 * `#include "fds_open.h"` and link tests_common_dep (tests/meson.build).
 */
#ifndef HWCT_TESTS_FDS_OPEN_H
#define HWCT_TESTS_FDS_OPEN_H

/* How many fds are open now (from /proc/self/fd, its own fd not counted); -1 when it cannot be read. */
int test_count_open_fds(void);

#endif
