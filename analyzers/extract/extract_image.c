/* Buffer content to RGBA8, and PNG encoding (extract.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "extract.h"
#include "fourcc.h"
#include "yuv.h"

const char *extract_fourcc_name(uint32_t fourcc, char buf[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);

		buf[i] = fourcc && c >= ' ' && c <= '~' ? c : '?';
	}
	buf[4] = '\0';
	return buf;
}

/* Bytes per pixel and the byte of R, G, B, A in a pixel (-1: none, 255). */
struct packed {
	uint32_t fourcc;
	uint32_t cpp;
	int r, g, b, a;
};

static const struct packed packed_formats[] = {
	{ DRM_FORMAT_ABGR8888, 4, 0, 1, 2, 3 },
	{ DRM_FORMAT_XBGR8888, 4, 0, 1, 2, -1 },
	{ DRM_FORMAT_ARGB8888, 4, 2, 1, 0, 3 },
	{ DRM_FORMAT_XRGB8888, 4, 2, 1, 0, -1 },
	{ DRM_FORMAT_BGR888, 3, 0, 1, 2, -1 },
	{ DRM_FORMAT_RGB888, 3, 2, 1, 0, -1 },
};

static void convert_packed(const struct packed *p, const struct scene_image *img, uint8_t *dst)
{
	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *row = img->data + img->offset[0] + (size_t)y * img->stride[0];

		for (uint32_t x = 0; x < img->width; x++, dst += 4) {
			const uint8_t *s = row + (size_t)x * p->cpp;

			dst[0] = s[p->r];
			dst[1] = s[p->g];
			dst[2] = s[p->b];
			dst[3] = p->a < 0 ? 255 : s[p->a];
		}
	}
}

static void convert_rgb565(const struct scene_image *img, uint8_t *dst)
{
	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *row = img->data + img->offset[0] + (size_t)y * img->stride[0];

		for (uint32_t x = 0; x < img->width; x++, dst += 4) {
			uint16_t v = (uint16_t)(row[2 * x] | row[2 * x + 1] << 8);
			uint8_t r = (uint8_t)(v >> 11), g = (uint8_t)((v >> 5) & 0x3f), b = (uint8_t)(v & 0x1f);

			dst[0] = (uint8_t)(r << 3 | r >> 2);
			dst[1] = (uint8_t)(g << 2 | g >> 4);
			dst[2] = (uint8_t)(b << 3 | b >> 2);
			dst[3] = 255;
		}
	}
}

static int convert_nv12(const struct scene_image *img, uint8_t *dst)
{
	uint32_t *argb = malloc((size_t)img->width * img->height * 4);

	if (!argb) {
		return -ENOMEM;
	}
	comp_yuv_nv12_to_argb(&comp_yuv_bt601_limited, img, argb, img->width * 4);
	for (size_t i = 0; i < (size_t)img->width * img->height; i++, dst += 4) {
		dst[0] = (uint8_t)(argb[i] >> 16);
		dst[1] = (uint8_t)(argb[i] >> 8);
		dst[2] = (uint8_t)argb[i];
		dst[3] = (uint8_t)(argb[i] >> 24);
	}
	free(argb);
	return 0;
}

/* Whether plane p of img, rows of row_bytes, lies inside its data. */
static bool plane_fits(const struct scene_image *img, uint32_t p, uint64_t row_bytes, uint32_t rows)
{
	return rows == 0 || (img->stride[p] >= row_bytes &&
		(uint64_t)img->offset[p] + (uint64_t)img->stride[p] * (rows - 1) + row_bytes <= img->size);
}

int extract_to_rgba(const struct scene_image *img, struct extract_rgba *out)
{
	const struct packed *p = NULL;
	size_t bytes = (size_t)img->width * img->height * 4;
	uint8_t *dst;
	int ret = 0;

	*out = (struct extract_rgba){ 0 };
	for (size_t i = 0; i < sizeof(packed_formats) / sizeof(packed_formats[0]); i++) {
		p = packed_formats[i].fourcc == img->fourcc ? &packed_formats[i] : p;
	}
	if (!p && img->fourcc != DRM_FORMAT_RGB565 && img->fourcc != DRM_FORMAT_NV12) {
		return -ENOTSUP;
	}
	if (!img->width || !img->height || !img->data) {
		return -EINVAL;
	}
	if (p && !plane_fits(img, 0, (uint64_t)img->width * p->cpp, img->height)) {
		return -EINVAL;
	}
	if (img->fourcc == DRM_FORMAT_RGB565 && !plane_fits(img, 0, (uint64_t)img->width * 2, img->height)) {
		return -EINVAL;
	}
	if (img->fourcc == DRM_FORMAT_NV12 && (img->plane_count < 2 || !plane_fits(img, 0, img->width, img->height) ||
		!plane_fits(img, 1, ((uint64_t)img->width + 1) / 2 * 2, (img->height + 1) / 2))) {
		return -EINVAL;
	}
	dst = malloc(bytes ? bytes : 1);
	if (!dst) {
		return -ENOMEM;
	}
	if (p) {
		convert_packed(p, img, dst);
	} else if (img->fourcc == DRM_FORMAT_RGB565) {
		convert_rgb565(img, dst);
	} else {
		ret = convert_nv12(img, dst);
	}
	if (ret < 0) {
		free(dst);
		return ret;
	}
	*out = (struct extract_rgba){ img->width, img->height, dst };
	return 0;
}

int extract_png_write(FILE *f, const struct extract_rgba *img)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;

	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return -EIO;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, img->width, img->height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
		PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < img->height; y++) {
		png_write_row(png, img->pixels + (size_t)y * img->width * 4);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return 0;
}
