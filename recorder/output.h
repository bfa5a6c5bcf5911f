/*
 * Where traces go (HWCT_OUTPUT). A directory gets generated names
 * "hwctrace-<pid>-<n>.zst", created with O_EXCL|O_NOFOLLOW relative to the
 * directory's fd, so no name ever leaves it, an existing file (or a symlink
 * planted under that name) is never written through, and n just moves on.
 * A file path is used as given for the first trace (O_NOFOLLOW: not through
 * a symlink); later traces of the process go beside it as
 * "<stem>-<n>.zst", created the same way as generated names. A FIFO is
 * opened without blocking, with or without a reader yet (output.c).
 */
#ifndef REC_OUTPUT_H
#define REC_OUTPUT_H

#include <stddef.h>

struct rec_config;

/*
 * Creates the trace file of session *n (then advances *n past the name
 * used) and writes its path into path. Returns an open fd or -errno.
 */
int rec_output_open(const struct rec_config *cfg, unsigned *n, char *path, size_t size);

/* Whether a trace could be created there later (trigger modes). Returns 0 or -errno. */
int rec_output_check(const struct rec_config *cfg);

#endif
