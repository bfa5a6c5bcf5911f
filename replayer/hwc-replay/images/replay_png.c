/* PNG encoding and decoding of output frames with libpng (replay_png.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "fourcc.h"
#include "replay_png.h"

int replay_png_write(FILE *f, const struct comp_target *img)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	uint8_t *volatile row = NULL;
	int ret = 0;

	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -ENOMEM;
	}
	row = malloc((size_t)img->width * 3 + 1);
	if (!row) {
		png_destroy_write_struct(&png, &info);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		ret = -EIO;
		goto out;
	}
	png_init_io(png, f);
	png_set_compression_level(png, 1);	/* a dump, not an archive: speed first */
	png_set_IHDR(png, info, img->width, img->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *src = img->data + (size_t)img->stride * y;

		for (uint32_t x = 0; x < img->width; x++) {
			/* XRGB8888 in memory: B, G, R, X */
			row[x * 3] = src[x * 4 + 2];
			row[x * 3 + 1] = src[x * 4 + 1];
			row[x * 3 + 2] = src[x * 4];
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
out:
	png_destroy_write_struct(&png, &info);
	free(row);
	return ret;
}

int replay_png_read(FILE *f, struct comp_target *img)
{
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	uint8_t *volatile data = NULL;
	uint8_t *volatile row = NULL;
	png_uint_32 w, h;
	int ret = 0;

	*img = (struct comp_target){ 0 };
	if (!info) {
		png_destroy_read_struct(&png, NULL, NULL);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		ret = -EINVAL;
		goto out;
	}
	png_set_user_limits(png, REPLAY_PNG_MAX_SIDE, REPLAY_PNG_MAX_SIDE);
	png_init_io(png, f);
	png_read_info(png, info);
	png_set_expand(png);
	png_set_strip_16(png);
	png_set_gray_to_rgb(png);
	png_set_strip_alpha(png);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	w = png_get_image_width(png, info);
	h = png_get_image_height(png, info);
	if (w == 0 || h == 0 || w > REPLAY_PNG_MAX_SIDE || h > REPLAY_PNG_MAX_SIDE ||
		png_get_rowbytes(png, info) != (size_t)w * 3 ||
		png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
		ret = -EINVAL;
		goto out;
	}
	data = malloc((size_t)w * h * 4);
	row = malloc((size_t)w * 3);
	if (!data || !row) {
		ret = -ENOMEM;
		goto out;
	}
	for (png_uint_32 y = 0; y < h; y++) {
		uint8_t *dst = data + (size_t)w * 4 * y;

		png_read_row(png, row, NULL);
		for (png_uint_32 x = 0; x < w; x++) {
			dst[x * 4] = row[x * 3 + 2];
			dst[x * 4 + 1] = row[x * 3 + 1];
			dst[x * 4 + 2] = row[x * 3];
			dst[x * 4 + 3] = 0xff;
		}
	}
	*img = (struct comp_target){ .fourcc = DRM_FORMAT_XRGB8888, .width = w, .height = h, .stride = w * 4,
		.data = data };
	data = NULL;
out:
	png_destroy_read_struct(&png, &info, NULL);
	free(data);
	free(row);
	return ret;
}
