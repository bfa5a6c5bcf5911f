/* YCbCr to RGB on the CPU (yuv.h). */
#include <math.h>

#include "fourcc.h"
#include "yuv.h"

/* 255/219 for Y, 255/224 for chroma: limited range to full. */
#define Y_SCALE (255.0 / 219.0)
#define C_SCALE (255.0 / 224.0)

const struct comp_yuv_matrix comp_yuv_bt601_limited = {
	.y = Y_SCALE, .y_offset = 16.0,
	.rv = 2.0 * (1.0 - 0.299) * C_SCALE,
	.gu = -2.0 * 0.114 * (1.0 - 0.114) / 0.587 * C_SCALE,
	.gv = -2.0 * 0.299 * (1.0 - 0.299) / 0.587 * C_SCALE,
	.bu = 2.0 * (1.0 - 0.114) * C_SCALE,
};

const struct comp_yuv_matrix comp_yuv_bt709_limited = {
	.y = Y_SCALE, .y_offset = 16.0,
	.rv = 2.0 * (1.0 - 0.2126) * C_SCALE,
	.gu = -2.0 * 0.0722 * (1.0 - 0.0722) / 0.7152 * C_SCALE,
	.gv = -2.0 * 0.2126 * (1.0 - 0.2126) / 0.7152 * C_SCALE,
	.bu = 2.0 * (1.0 - 0.0722) * C_SCALE,
};

/*
 * Coefficients in Q14; samples in 1/16 code values (the bilinear chroma
 * weights are sixteenths), so results come out in Q18. Worst case sums stay
 * below 2^28.
 */
struct coeffs {
	int32_t y, y_offset16, rv, gu, gv, bu;
};

static struct coeffs make_coeffs(const struct comp_yuv_matrix *m)
{
	return (struct coeffs){
		.y = (int32_t)lrint(m->y * 16384.0),
		.y_offset16 = (int32_t)lrint(m->y_offset * 16.0),
		.rv = (int32_t)lrint(m->rv * 16384.0),
		.gu = (int32_t)lrint(m->gu * 16384.0),
		.gv = (int32_t)lrint(m->gv * 16384.0),
		.bu = (int32_t)lrint(m->bu * 16384.0),
	};
}

static uint32_t to8(int32_t q18)
{
	if (q18 <= 0) {
		return 0;
	}
	q18 = (q18 + (1 << 17)) >> 18;
	return q18 > 255 ? 255 : (uint32_t)q18;
}

static uint32_t convert(const struct coeffs *k, int32_t y16, int32_t cb16, int32_t cr16)
{
	int32_t yy = k->y * (y16 - k->y_offset16);

	cb16 -= 128 * 16;
	cr16 -= 128 * 16;
	return 0xffu << 24 | to8(yy + k->rv * cr16) << 16 |
		to8(yy + k->gu * cb16 + k->gv * cr16) << 8 | to8(yy + k->bu * cb16);
}

uint32_t comp_yuv_pixel(const struct comp_yuv_matrix *m, uint8_t y, uint8_t cb, uint8_t cr)
{
	struct coeffs k = make_coeffs(m);

	return convert(&k, y * 16, cb * 16, cr * 16);
}

size_t comp_yuv_narrow_size(const struct scene_image *img)
{
	return (size_t)img->width * img->height + (size_t)(img->width + 1) / 2 * 2 * ((img->height + 1) / 2);
}

static uint8_t narrow(const uint8_t *word)
{
	uint32_t v = ((uint32_t)word[0] | (uint32_t)word[1] << 8) + 128;

	return (uint8_t)(v >> 8 > 255 ? 255 : v >> 8);
}

void comp_yuv_narrow(const struct scene_image *img, uint8_t *buf, struct scene_image *out)
{
	uint32_t cw = (img->width + 1) / 2 * 2, ch = (img->height + 1) / 2;

	*out = *img;
	out->fourcc = DRM_FORMAT_NV12;
	out->offset[0] = 0;
	out->stride[0] = img->width;
	out->offset[1] = img->width * img->height;
	out->stride[1] = cw;
	out->data = buf;
	out->size = comp_yuv_narrow_size(img);
	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *row = img->data + img->offset[0] + (size_t)y * img->stride[0];

		for (uint32_t x = 0; x < img->width; x++) {
			buf[(size_t)y * img->width + x] = narrow(row + 2 * x);
		}
	}
	for (uint32_t y = 0; y < ch; y++) {
		const uint8_t *row = img->data + img->offset[1] + (size_t)y * img->stride[1];

		for (uint32_t x = 0; x < cw; x++) {
			buf[out->offset[1] + (size_t)y * cw + x] = narrow(row + 2 * x);
		}
	}
}

/* The chroma sample nearest to luma index i (weight 3/4) and the other one (1/4). */
static void chroma_pair(uint32_t i, uint32_t count, uint32_t *near, uint32_t *far)
{
	*near = i / 2;
	if (i % 2 == 0) {
		*far = *near > 0 ? *near - 1 : 0;
	} else {
		*far = *near + 1 < count ? *near + 1 : *near;
	}
}

void comp_yuv_nv12_to_argb(const struct comp_yuv_matrix *m, const struct scene_image *img,
	uint32_t *dst, uint32_t dst_stride)
{
	struct coeffs k = make_coeffs(m);
	uint32_t cw = (img->width + 1) / 2, ch = (img->height + 1) / 2;

	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *luma = img->data + img->offset[0] + (size_t)y * img->stride[0];
		uint32_t *out = (uint32_t *)(void *)((uint8_t *)dst + (size_t)y * dst_stride);
		uint32_t j0, j1;

		chroma_pair(y, ch, &j0, &j1);
		const uint8_t *c0 = img->data + img->offset[1] + (size_t)j0 * img->stride[1];
		const uint8_t *c1 = img->data + img->offset[1] + (size_t)j1 * img->stride[1];

		for (uint32_t x = 0; x < img->width; x++) {
			uint32_t i0, i1;

			chroma_pair(x, cw, &i0, &i1);
			int32_t cb = 9 * c0[2 * i0] + 3 * c0[2 * i1] + 3 * c1[2 * i0] + c1[2 * i1];
			int32_t cr = 9 * c0[2 * i0 + 1] + 3 * c0[2 * i1 + 1] +
				3 * c1[2 * i0 + 1] + c1[2 * i1 + 1];
			out[x] = convert(&k, luma[x] * 16, cb, cr);
		}
	}
}
