/* The "vkms" YUV model (yuv_vkms.h). */
#include <stdbool.h>
#include <string.h>

#include "fourcc.h"

#include "yuv_vkms.h"

#define FIXED_POINT 32

/*
 * BT.601 limited range in 32.32 fixed point, the numbers of Linux 7.3's
 * drivers/gpu/drm/vkms/vkms_formats.c (yuv_bt601_limited): there they are
 * colour-science's matrix_YCbCr(BT.601, is_legal, 8 bits) * 2^32, rounded,
 * which scales Y by 256/219 and chroma by 256/224 (not 255/219, 255/224).
 * Copied, not computed: the model is only worth having bit for bit.
 */
static const int64_t bt601_limited[3][3] = {
	{ 5020601039, 0, 6881764740 },
	{ 5020601039, -1689204679, -3505362278 },
	{ 5020601039, 8697922339, 0 },
};
#define Y_OFFSET 16

/* a >> n rounding towards minus infinity, for negative a too (C leaves that to the compiler). */
static int64_t shift_right(int64_t a, unsigned n)
{
	return a >= 0 ? a >> n : -(int64_t)((((uint64_t)-(a + 1)) >> n) + 1);
}

/*
 * The highest bit below bit 63 that differs from the sign bit, 0 when none
 * (drm_fixp_msbset, which walks down from bit 62): the highest set bit of
 * a, or of ~a when negative, found by halving.
 */
static unsigned msb_set(int64_t a)
{
	uint64_t v = (a < 0 ? ~(uint64_t)a : (uint64_t)a) & ~(1ull << 63);
	unsigned msb = 0;

	for (unsigned step = 32; step > 0; step /= 2) {
		if (v >> step) {
			v >>= step;
			msb += step;
		}
	}
	return msb;
}

/*
 * The kernel's drm_fixp_mul: when the factors' top bits add up past 61, the
 * excess is shifted out of them first (the larger half from a), then the
 * product is scaled back to 32.32 by an arithmetic shift.
 */
static int64_t fixp_mul(int64_t a, int64_t b)
{
	unsigned shift = msb_set(a) + msb_set(b);

	if (shift > 61) {
		shift -= 61;
		a = shift_right(a, (shift >> 1) + (shift & 1));
		b = shift_right(b, shift >> 1);
	} else {
		shift = 0;
	}
	/* shift stays far below 32 for the values here (at most 18) */
	return shift_right(a * b, FIXED_POINT - shift);
}

static uint16_t round_clamp16(int64_t fixed)
{
	int64_t v = shift_right(fixed + ((int64_t)1 << (FIXED_POINT - 1)), FIXED_POINT);

	return (uint16_t)(v < 0 ? 0 : v > 0xffff ? 0xffff : v);
}

void comp_yuv_vkms_pixel16(uint16_t y, uint16_t cb, uint16_t cr, uint16_t rgb[3])
{
	/* drm_int2fixp: the integer times 2^32 */
	int64_t in[3] = {
		((int64_t)y - Y_OFFSET * 257) * ((int64_t)1 << FIXED_POINT),
		((int64_t)cb - 128 * 257) * ((int64_t)1 << FIXED_POINT),
		((int64_t)cr - 128 * 257) * ((int64_t)1 << FIXED_POINT),
	};

	for (int i = 0; i < 3; i++) {
		rgb[i] = round_clamp16(fixp_mul(bt601_limited[i][0], in[0]) +
			fixp_mul(bt601_limited[i][1], in[1]) + fixp_mul(bt601_limited[i][2], in[2]));
	}
}

static uint32_t to8(uint16_t v)
{
	return (v + 128u) / 257u;
}

static uint32_t argb(const uint16_t rgb[3])
{
	return 0xffu << 24 | to8(rgb[0]) << 16 | to8(rgb[1]) << 8 | to8(rgb[2]);
}

uint32_t comp_yuv_vkms_pixel(uint8_t y, uint8_t cb, uint8_t cr)
{
	uint16_t rgb[3];

	comp_yuv_vkms_pixel16((uint16_t)(y * 257), (uint16_t)(cb * 257), (uint16_t)(cr * 257), rgb);
	return argb(rgb);
}

/* Sample i of a row of 16-bit little-endian words. */
static uint16_t word(const uint8_t *row, uint32_t i)
{
	return (uint16_t)(row[2 * i] | row[2 * i + 1] << 8);
}

void comp_yuv_vkms_to_argb(const struct scene_image *img, uint32_t *dst, uint32_t dst_stride)
{
	bool wide = img->fourcc != DRM_FORMAT_NV12;	/* P010, P012, P016: 16-bit words */

	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *luma = img->data + img->offset[0] + (size_t)y * img->stride[0];
		const uint8_t *chroma = img->data + img->offset[1] + (size_t)(y / 2) * img->stride[1];
		uint32_t *out = (uint32_t *)(void *)((uint8_t *)dst + (size_t)y * dst_stride);

		for (uint32_t x = 0; x < img->width; x++) {
			uint32_t c = x / 2 * 2;
			uint16_t rgb[3];

			if (wide) {
				comp_yuv_vkms_pixel16(word(luma, x), word(chroma, c), word(chroma, c + 1), rgb);
			} else {
				comp_yuv_vkms_pixel16((uint16_t)(luma[x] * 257), (uint16_t)(chroma[c] * 257),
					(uint16_t)(chroma[c + 1] * 257), rgb);
			}
			out[x] = argb(rgb);
		}
	}
}
