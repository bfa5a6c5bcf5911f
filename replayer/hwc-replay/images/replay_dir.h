/*
 * The --dump-images directory's file names. The directory is opened with
 * safe_dir_open() and written with safe_dir_write() (common/safe_dir.h).
 */
#ifndef HWCT_REPLAY_DIR_H
#define HWCT_REPLAY_DIR_H

#include <stdbool.h>

/* Whether name is an output name of ours: "frame-" digits [suffix] ".png", nothing else. */
bool replay_dir_valid_name(const char *name);

#endif
