/*
 * replay_png.h's encoding and decoding in a build without libpng
 * (-Dpng=disabled): there is none. hwc-replay refuses --dump-images in
 * such a build (replay_args.c), so these are reached by no run of it.
 */
#include <errno.h>

#include "replay_png.h"

int replay_png_write(FILE *f, const struct comp_target *img)
{
	return -ENOTSUP;
}

int replay_png_read(FILE *f, struct comp_target *img)
{
	return -ENOTSUP;
}
