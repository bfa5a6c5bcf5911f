/*
 * Output frames as PNG (libpng, replay_png.c): written from and read back
 * into XRGB8888 comp_targets; and the difference picture of a mismatch
 * (replay_diff.c). A build without libpng (HWCT_HAVE_PNG 0) has the
 * difference only: its replay_png_write() and replay_png_read() return
 * -ENOTSUP (replay_png_none.c).
 */
#ifndef HWCT_REPLAY_PNG_H
#define HWCT_REPLAY_PNG_H

#include <stdint.h>
#include <stdio.h>

#include "compositor.h"

#define REPLAY_PNG_MAX_SIDE 16384	/* larger pictures are refused when read */

/*
 * Writes img (XRGB8888 or ARGB8888; alpha dropped) as an 8-bit RGB PNG to f.
 * Returns 0 or -errno (-ENOTSUP without libpng).
 */
int replay_png_write(FILE *f, const struct comp_target *img);

/*
 * Reads a PNG from f into *img (XRGB8888, tightly packed; img->data is the
 * caller's to free). Returns 0, -EINVAL for a broken or oversized picture,
 * -ENOMEM, or -ENOTSUP without libpng.
 */
int replay_png_read(FILE *f, struct comp_target *img);

/*
 * The difference of a and b into *out (XRGB8888, the larger of both sizes,
 * data the caller's to free): pixels that differ (or exist in one only)
 * red, equal ones a dimmed grey of a. Returns 0 or -ENOMEM.
 */
int replay_image_diff(const struct comp_target *a, const struct comp_target *b, struct comp_target *out);

#endif
