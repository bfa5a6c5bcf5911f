/*
 * Writing files into an output directory without following symbolic links
 * (hwc-trace extract's OUT_DIR, hwc-replay --dump-images), one rule for
 * every program: the directory is opened component by component, none of
 * which may be a symbolic link (safe_dir_open); every file goes in through
 * the directory's descriptor under a fresh temporary name (openat with
 * O_CREAT | O_EXCL | O_NOFOLLOW) and is then renamed over its real name, so
 * a symbolic link planted under that name is replaced, never written
 * through, nothing lands outside the directory, and a reader never sees a
 * half-written file.
 */
#ifndef HWCT_COMMON_SAFE_DIR_H
#define HWCT_COMMON_SAFE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest name safe_dir_write takes, in bytes. */
#define SAFE_DIR_NAME_MAX 100

/*
 * Opens directory path (borrowed) component by component with O_NOFOLLOW:
 * a component that is a symbolic link is refused (-ELOOP), also "/tmp" or
 * any parent the user named. The last component is created (mode 0777 &
 * ~umask) when create is set and it does not exist; its parents never are.
 * Returns the directory fd (the caller's to close), or -errno with a
 * message naming the path and the offending component in msg.
 */
int safe_dir_open(const char *path, bool create, char *msg, size_t size);

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
