/* Pixel content for the format benchmark: a real photo, or a stand-in (bench.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hwct_bench_config.h"

#if HWCT_BENCH_HAVE_PNG
#include <png.h>

static int load_png(struct bench_pixels *px, const char *path, uint32_t max_rows)
{
	png_image img;
	uint8_t *rgba;

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path)) {
		printf("note: %s: %s\n", path, img.message);
		return -EINVAL;
	}
	img.format = PNG_FORMAT_RGBA;
	rgba = malloc(PNG_IMAGE_SIZE(img));
	if (!rgba) {
		png_image_free(&img);
		return -ENOMEM;
	}
	if (!png_image_finish_read(&img, NULL, rgba, 0, NULL)) {
		printf("note: %s: %s\n", path, img.message);
		free(rgba);
		return -EINVAL;
	}
	px->data = rgba;
	px->width = img.width;
	px->height = max_rows && img.height > max_rows ? max_rows : img.height;
	snprintf(px->source, sizeof(px->source), "%s (%ux%u of %ux%u)", path, px->width, px->height, img.width,
		img.height);
	return 0;
}
#endif

/* Gradients, blocks and noise: a stand-in that is neither trivial nor a photo. */
static int synthesize(struct bench_pixels *px, uint32_t max_rows)
{
	uint32_t w = 1080, h = max_rows && max_rows < 2400 ? max_rows : 2400, seed = 12345;

	px->data = malloc((size_t)w * h * 4);
	if (!px->data) {
		return -ENOMEM;
	}
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint8_t *p = px->data + ((size_t)y * w + x) * 4;

			seed = seed * 1103515245u + 12345u;
			p[0] = (uint8_t)(x * 255 / w + (seed >> 28));
			p[1] = (uint8_t)(y * 255 / h + ((x / 40 + y / 40) % 2) * 40);
			p[2] = (uint8_t)((x ^ y) & 0x3f) + (uint8_t)(seed >> 29);
			p[3] = 255;
		}
	}
	px->width = w;
	px->height = h;
	snprintf(px->source, sizeof(px->source), "synthetic pattern %ux%u", w, h);
	return 0;
}

int bench_pixels_load(struct bench_pixels *px, const char *path, uint32_t max_rows)
{
	*px = (struct bench_pixels){ 0 };
#if HWCT_BENCH_HAVE_PNG
	if (path) {
		int ret = load_png(px, path, max_rows);

		if (ret != -EINVAL) {
			return ret;
		}
	}
#else
	if (path) {
		printf("note: built without libpng, cannot read %s\n", path);
	}
#endif
	printf("note: using a synthetic pattern instead of a real photo: the compression figures "
		"are not those of real content\n");
	return synthesize(px, max_rows);
}

void bench_pixels_finish(struct bench_pixels *px)
{
	free(px->data);
	*px = (struct bench_pixels){ 0 };
}
