/*
 * Writing files into an output directory without following symbolic links
 * (hwc-trace extract's OUT_DIR, hwc-replay --dump-images): every file goes
 * in through the directory's descriptor under a fresh temporary name
 * (openat with O_CREAT | O_EXCL | O_NOFOLLOW) and is then renamed over its
 * real name, so a symbolic link planted under that name is replaced, never
 * written through, nothing lands outside the directory, and a reader never
 * sees a half-written file. Opening the directory itself is each program's
 * own (replay_dir.c, extract_dir.c): their rules for links in the path
 * differ.
 */
#ifndef HWCT_COMMON_SAFE_DIR_H
#define HWCT_COMMON_SAFE_DIR_H

#include <stdio.h>

/* The longest name safe_dir_write takes, in bytes. */
#define SAFE_DIR_NAME_MAX 100

/*
 * Writes file name in directory dirfd (the caller's, not closed): write(f,
 * ctx) gets a stream on a new temporary file ".NAME.PID.N.tmp" in the
 * directory and returns 0 or -errno; the file is then renamed to name.
 * name must be a plain file name made by the program: not empty, no '/',
 * not starting with '.' (which also keeps "." and ".." and the temporary
 * names out), at most SAFE_DIR_NAME_MAX bytes; anything else is -EINVAL.
 * Returns 0 or -errno; on an error nothing is left behind and a file
 * already named name is untouched. Not thread-safe.
 */
int safe_dir_write(int dirfd, const char *name, int (*write)(FILE *f, void *ctx), void *ctx);

#endif
