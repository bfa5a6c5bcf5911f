/*
 * Pixel formats against hand-computed expectations: NV12 by the BT.601
 * limited-range formula (3-decimal coefficients, +-2), chroma siting, odd
 * sizes and padded strides; every RGB source format and target format
 * (byte order checked in memory).
 *
 * Usage: test-compositor-formats IMPL CASE (IMPL "gl": 77 without EGL).
 */
#include <math.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "fourcc.h"
#include "testlib.h"

/* ---- NV12 ---- */

static uint8_t clamp8(double v)
{
	return (uint8_t)lround(v < 0.0 ? 0.0 : v > 255.0 ? 255.0 : v);
}

/* BT.601, limited range (Y 16..235, C 16..240), to full-range RGB. */
static uint32_t bt601(double y, double cb, double cr)
{
	double yy = 1.164 * (y - 16.0);

	return RGBA(clamp8(yy + 1.596 * (cr - 128.0)),
		clamp8(yy - 0.813 * (cr - 128.0) - 0.391 * (cb - 128.0)),
		clamp8(yy + 2.018 * (cb - 128.0)), 255);
}

/* w x h NV12 image at 1:1, pad bytes after each row of both planes. */
static struct scene_image *nv12_uniform_chroma(uint32_t w, uint32_t h, uint32_t pad, uint8_t y0,
	uint8_t cb, uint8_t cr)
{
	struct scene_image *img = test_image_create(DRM_FORMAT_NV12, w, h, pad);

	for (uint32_t j = 0; j < h; j++) {
		for (uint32_t i = 0; i < w; i++) {
			uint32_t v = y0 + 8 * (i + j * w);

			test_image_set_y(img, i, j, (uint8_t)(v > 255 ? 255 : v));
		}
	}
	for (uint32_t j = 0; j < (h + 1) / 2; j++) {
		for (uint32_t i = 0; i < (w + 1) / 2; i++) {
			test_image_set_cbcr(img, i, j, cb, cr);
		}
	}
	test_image_seal(img);
	return img;
}

static void check_nv12(uint32_t w, uint32_t h, uint32_t pad, uint8_t y0, uint8_t cb, uint8_t cr)
{
	struct scene_image *img = nv12_uniform_chroma(w, h, pad, y0, cb, cr);
	struct comp_target *t = test_target_create(DRM_FORMAT_XRGB8888, w, h, 0);
	struct scene_layer l = test_layer(img, test_frect(0, 0, (float)w, (float)h),
		test_rect(0, 0, (int32_t)w, (int32_t)h), 0, HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0);

	test_compose(&l, 1, 0, t);
	for (uint32_t j = 0; j < h; j++) {
		for (uint32_t i = 0; i < w; i++) {
			uint32_t v = y0 + 8 * (i + j * w);

			test_expect_pixel(t, i, j, bt601(v > 255 ? 255 : v, cb, cr), 2);
		}
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

static void run_nv12_bt601(const void *data)
{
	static const uint8_t yuv[][3] = {
		{ 16, 128, 128 }, { 235, 128, 128 }, { 128, 128, 128 },
		{ 81, 90, 240 }, { 145, 54, 34 }, { 41, 240, 110 },
		{ 200, 60, 200 }, { 30, 200, 50 }, { 0, 0, 255 }, { 255, 255, 0 },
	};

	for (size_t i = 0; i < sizeof(yuv) / sizeof(yuv[0]); i++) {
		check_nv12(2, 2, 0, yuv[i][0], yuv[i][1], yuv[i][2]);
	}
}

/* Odd sizes (chroma rounded up) and rows padded in both planes. */
static void run_nv12_odd(const void *data)
{
	check_nv12(5, 3, 0, 60, 150, 100);
	check_nv12(3, 5, 3, 100, 90, 200);
	check_nv12(1, 1, 7, 120, 200, 60);
}

/*
 * Chroma at the centre of each 2x2 luma block: luma column x samples
 * chroma at (x + 0.5) / 2; chroma centres are 0.5 and 1.5 in a 2-wide
 * plane, so the weight of chroma column 1 is 0 (clamped), 1/4, 3/4, 1.
 */
static void run_nv12_siting(const void *data)
{
	static const double w1[4] = { 0.0, 0.25, 0.75, 1.0 };
	struct scene_image *img = test_image_create(DRM_FORMAT_NV12, 4, 2, 0);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, 4, 2, 0);

	for (uint32_t i = 0; i < 8; i++) {
		test_image_set_y(img, i % 4, i / 4, 128);
	}
	test_image_set_cbcr(img, 0, 0, 64, 128);
	test_image_set_cbcr(img, 1, 0, 192, 160);
	test_image_seal(img);
	struct scene_layer l = test_layer(img, test_frect(0, 0, 4, 2), test_rect(0, 0, 4, 2), 0,
		HWC2_BLEND_MODE_NONE, 1.0f, 0);
	test_compose(&l, 1, 0, t);
	for (uint32_t x = 0; x < 4; x++) {
		double cb = 64 + w1[x] * (192 - 64), cr = 128 + w1[x] * (160 - 128);

		test_expect_pixel(t, x, 0, bt601(128, cb, cr), 2);
		test_expect_pixel(t, x, 1, bt601(128, cb, cr), 2);
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

/* ---- RGB sources ---- */

struct format_case {
	uint32_t fourcc;
	uint32_t width, pad;
	int32_t blend;
	uint8_t alpha_byte;		/* written into A/X: 255, or 0 to show it ignored */
};

static const uint32_t palette[6] = {
	RGBA(255, 0, 0, 0), RGBA(0, 255, 0, 0), RGBA(0, 0, 255, 0),
	RGBA(255, 255, 255, 0), RGBA(0, 0, 0, 0), RGBA(255, 255, 0, 0),
};

static void run_format(const void *data)
{
	const struct format_case *c = data;
	struct scene_image *img = test_image_create(c->fourcc, c->width, 2, c->pad);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, c->width, 2, 0);

	for (uint32_t i = 0; i < c->width * 2; i++) {
		test_image_set(img, i % c->width, i / c->width,
			palette[i % 6] | (uint32_t)c->alpha_byte << 24);
	}
	test_image_seal(img);
	struct scene_layer l = test_layer(img, test_frect(0, 0, (float)c->width, 2),
		test_rect(0, 0, (int32_t)c->width, 2), 0, c->blend, 1.0f, 0);
	test_compose(&l, 1, RGBA(0, 0, 0, 255), t);
	for (uint32_t i = 0; i < c->width * 2; i++) {
		test_expect_pixel(t, i % c->width, i / c->width, palette[i % 6] | 0xffu << 24, 0);
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

static const struct format_case format_cases[] = {
	{ DRM_FORMAT_ABGR8888, 3, 0, HWC2_BLEND_MODE_PREMULTIPLIED, 255 },
	{ DRM_FORMAT_XBGR8888, 3, 0, HWC2_BLEND_MODE_PREMULTIPLIED, 0 },
	{ DRM_FORMAT_ARGB8888, 3, 0, HWC2_BLEND_MODE_COVERAGE, 255 },
	{ DRM_FORMAT_XRGB8888, 3, 0, HWC2_BLEND_MODE_COVERAGE, 0 },
	{ DRM_FORMAT_RGB565, 3, 0, HWC2_BLEND_MODE_PREMULTIPLIED, 255 },	/* stride 6 */
	{ DRM_FORMAT_RGB565, 3, 2, HWC2_BLEND_MODE_NONE, 255 },		/* stride 8 */
	{ DRM_FORMAT_ARGB8888, 5, 12, HWC2_BLEND_MODE_NONE, 0 },	/* padded, alpha 0 ignored */
	{ DRM_FORMAT_ABGR8888, 5, 3, HWC2_BLEND_MODE_PREMULTIPLIED, 255 },	/* unaligned rows */
	{ DRM_FORMAT_ARGB8888, 5, 1, HWC2_BLEND_MODE_COVERAGE, 255 },	/* unaligned, premultiplied */
};

/* ---- targets: bytes in memory ---- */

static void run_target(const void *data)
{
	uint32_t fourcc = *(const uint32_t *)data;
	bool x = fourcc == DRM_FORMAT_XRGB8888 || fourcc == DRM_FORMAT_XBGR8888;
	bool bgr_memory = fourcc == DRM_FORMAT_XRGB8888 || fourcc == DRM_FORMAT_ARGB8888;
	struct comp_target *t = test_target_create(fourcc, 3, 1, 0x55);
	const uint32_t bg = RGBA(1, 2, 3, 4), half = RGBA(0, 0, 50, 100);
	struct scene_layer l[2] = {
		test_layer(NULL, test_frect(0, 0, 1, 1), test_rect(0, 0, 1, 1), 0,
			HWC2_BLEND_MODE_NONE, 1.0f, RGBA(10, 20, 30, 255)),
		test_layer(NULL, test_frect(0, 0, 1, 1), test_rect(1, 0, 2, 1), 0,
			HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, half),
	};
	uint32_t bg_out = bg | (x ? 0xffu << 24 : 0);
	uint32_t want[3] = { RGBA(10, 20, 30, 255), 0, bg_out };

	for (int i = 0; i < 4; i++) {
		double v = CH(half, i) + CH(bg_out, i) * (1.0 - CH(half, 3) / 255.0);

		want[1] |= (uint32_t)lround(v) << (8 * i);
	}
	test_compose(l, 2, bg, t);
	for (uint32_t i = 0; i < 3; i++) {
		const uint8_t *p = t->data + 4 * i;
		uint32_t got = bgr_memory ? RGBA(p[2], p[1], p[0], p[3]) : RGBA(p[0], p[1], p[2], p[3]);

		CHECK_MSG(test_max_diff(got, want[i], true) <= 1, "pixel %u: %08x, want %08x",
			i, got, want[i]);
	}
	test_target_destroy(t);
}

static const uint32_t target_formats[] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888, DRM_FORMAT_ABGR8888,
};

static const struct test_case cases[] = {
	{ "nv12-bt601", run_nv12_bt601, NULL },
	{ "nv12-odd-size", run_nv12_odd, NULL },
	{ "nv12-chroma-siting", run_nv12_siting, NULL },
	{ "format-abgr8888", run_format, &format_cases[0] },
	{ "format-xbgr8888", run_format, &format_cases[1] },
	{ "format-argb8888-coverage", run_format, &format_cases[2] },
	{ "format-xrgb8888-coverage", run_format, &format_cases[3] },
	{ "format-rgb565-stride6", run_format, &format_cases[4] },
	{ "format-rgb565-padded", run_format, &format_cases[5] },
	{ "format-argb8888-none-padded", run_format, &format_cases[6] },
	{ "format-abgr8888-unaligned", run_format, &format_cases[7] },
	{ "format-argb8888-coverage-unaligned", run_format, &format_cases[8] },
	{ "target-xrgb8888", run_target, &target_formats[0] },
	{ "target-argb8888", run_target, &target_formats[1] },
	{ "target-xbgr8888", run_target, &target_formats[2] },
	{ "target-abgr8888", run_target, &target_formats[3] },
};

int main(int argc, char **argv)
{
	return test_compositor_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
