/*
 * The --dump-images directory, opened without following symbolic links, and
 * files written into it only through its descriptor: a new file under a
 * temporary name (O_CREAT | O_EXCL | O_NOFOLLOW) renamed over the output
 * name, so a symbolic link planted under that name is replaced, never
 * written through, and nothing lands outside the directory.
 */
#ifndef HWCT_REPLAY_DIR_H
#define HWCT_REPLAY_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Opens directory path component by component with O_NOFOLLOW; the last
 * component is created (mode 0777 & ~umask) when create is set and it does
 * not exist. Returns the directory fd, or -errno with a message naming the
 * path (and the component that is a symbolic link or not a directory) in
 * msg.
 */
int replay_dir_open(const char *path, bool create, char *msg, size_t size);

/*
 * Writes a file named name (no '/') in directory dirfd: write(f, ctx) gets
 * a stream on a new temporary file in the directory and returns 0 or
 * -errno; the file is then renamed to name. Returns 0 or -errno (the
 * temporary file is removed).
 */
int replay_dir_replace(int dirfd, const char *name, int (*write)(FILE *f, void *ctx), void *ctx);

/* Whether name is an output name of ours: "frame-" digits [suffix] ".png", nothing else. */
bool replay_dir_valid_name(const char *name);

#endif
