/* The difference picture of a mismatch (replay_png.h); no libpng needed. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "fourcc.h"

#include "replay_png.h"

/* Pixel (x, y) of img as XRGB with X forced to 0xff, or false when outside it. */
static bool pixel(const struct comp_target *img, uint32_t x, uint32_t y, uint32_t *out)
{
	const uint8_t *p;

	if (x >= img->width || y >= img->height) {
		return false;
	}
	p = img->data + (size_t)img->stride * y + (size_t)x * 4;
	*out = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | 0xff000000u;
	return true;
}

int replay_image_diff(const struct comp_target *a, const struct comp_target *b, struct comp_target *out)
{
	uint32_t w = a->width > b->width ? a->width : b->width;
	uint32_t h = a->height > b->height ? a->height : b->height;
	uint8_t *data = malloc((size_t)w * h * 4 + 1);

	if (!data) {
		return -ENOMEM;
	}
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint8_t *d = data + ((size_t)w * y + x) * 4;
			uint32_t pa, pb;

			if (pixel(a, x, y, &pa) && pixel(b, x, y, &pb) && pa == pb) {
				uint32_t grey = (((pa >> 16) & 0xff) * 77 + ((pa >> 8) & 0xff) * 150 +
					(pa & 0xff) * 29) >> 10;

				d[0] = d[1] = d[2] = (uint8_t)(grey + 32);
			} else {
				d[0] = 0x00;
				d[1] = 0x00;
				d[2] = 0xff;
			}
			d[3] = 0xff;
		}
	}
	*out = (struct comp_target){ .fourcc = DRM_FORMAT_XRGB8888, .width = w, .height = h, .stride = w * 4,
		.data = data };
	return 0;
}
