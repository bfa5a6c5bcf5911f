/*
 * The --dump-images directory, opened without following symbolic links
 * anywhere in its path; files then go in only through its descriptor
 * (safe_dir_write(), common/safe_dir.h), so a symbolic link planted under
 * an output name is replaced, never written through, and nothing lands
 * outside the directory.
 */
#ifndef HWCT_REPLAY_DIR_H
#define HWCT_REPLAY_DIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Opens directory path component by component with O_NOFOLLOW; the last
 * component is created (mode 0777 & ~umask) when create is set and it does
 * not exist. Returns the directory fd, or -errno with a message naming the
 * path (and the component that is a symbolic link or not a directory) in
 * msg.
 */
int replay_dir_open(const char *path, bool create, char *msg, size_t size);

/* Whether name is an output name of ours: "frame-" digits [suffix] ".png", nothing else. */
bool replay_dir_valid_name(const char *name);

#endif
