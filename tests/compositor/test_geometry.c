/*
 * Geometry against hand-computed expectations: the eight HAL transforms,
 * crops (whole and half pixel), 2x up- and downscaling at pixel centres,
 * frames partly or wholly off the target. Expected positions come from the
 * transform definition (flips first, then 90 degrees clockwise, on pixel
 * indices), never from the code under test.
 *
 * Usage: test-compositor-geometry IMPL CASE (IMPL "gl": 77 without EGL).
 */
#include <math.h>

#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "fourcc.h"
#include "testlib.h"

static uint32_t distinct(uint32_t i, uint32_t j)
{
	return RGBA(10 + 30 * i, 10 + 30 * j, 200 - 20 * i + j, 255);
}

static struct scene_image *distinct_image(uint32_t w, uint32_t h)
{
	struct scene_image *img = test_image_create(DRM_FORMAT_ABGR8888, w, h, 0);

	for (uint32_t j = 0; j < h; j++) {
		for (uint32_t i = 0; i < w; i++) {
			test_image_set(img, i, j, distinct(i, j));
		}
	}
	test_image_seal(img);
	return img;
}

/*
 * Where source pixel (i, j) of a w x h crop lands under transform, 1:1:
 * flips in the source, then the clockwise quarter turn (the new width is
 * h; column i becomes row i, row j becomes column h - 1 - j).
 */
static void forward(int32_t transform, uint32_t w, uint32_t h, uint32_t i, uint32_t j,
	uint32_t *x, uint32_t *y)
{
	uint32_t i1 = transform & HAL_TRANSFORM_FLIP_H ? w - 1 - i : i;
	uint32_t j1 = transform & HAL_TRANSFORM_FLIP_V ? h - 1 - j : j;

	*x = transform & HAL_TRANSFORM_ROT_90 ? h - 1 - j1 : i1;
	*y = transform & HAL_TRANSFORM_ROT_90 ? i1 : j1;
}

/*
 * A w x h image 1:1 under transform with its frame at (fx, fy) in a tw x th
 * target: every target pixel is either the source pixel landing there or
 * the background (0).
 */
static void check_placed(int32_t transform, uint32_t w, uint32_t h, int32_t fx, int32_t fy,
	uint32_t tw, uint32_t th)
{
	bool rot = transform & HAL_TRANSFORM_ROT_90;
	int32_t fw = (int32_t)(rot ? h : w), fh = (int32_t)(rot ? w : h);
	struct scene_image *img = distinct_image(w, h);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, tw, th, 0);
	uint32_t *want = calloc((size_t)tw * th, sizeof(*want));

	CHECK(want);
	struct scene_layer l = test_layer(img, test_frect(0, 0, (float)w, (float)h),
		test_rect(fx, fy, fx + fw, fy + fh), transform, HWC2_BLEND_MODE_NONE, 1.0f, 0);
	test_compose(&l, 1, 0, t);
	for (uint32_t j = 0; j < h; j++) {
		for (uint32_t i = 0; i < w; i++) {
			uint32_t x, y;

			forward(transform, w, h, i, j, &x, &y);
			int64_t tx = fx + (int64_t)x, ty = fy + (int64_t)y;
			if (tx >= 0 && ty >= 0 && tx < tw && ty < th) {
				want[ty * tw + tx] = distinct(i, j);
			}
		}
	}
	for (uint32_t y = 0; y < th; y++) {
		for (uint32_t x = 0; x < tw; x++) {
			test_expect_pixel(t, x, y, want[y * tw + x], 0);
		}
	}
	free(want);
	test_target_destroy(t);
	test_image_destroy(img);
}

/* A 4x3 image (not square: a swapped width/height shows) in a 6x6 target. */
static void run_transform(const void *data)
{
	check_placed(*(const int32_t *)data, 4, 3, 1, 1, 6, 6);
}

static const int32_t transforms[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

/* Frames hanging over each edge of a 4x4 target, 1:1, with and without rotation. */
static void run_offscreen_partial(const void *data)
{
	check_placed(0, 6, 6, -2, -1, 4, 4);
	check_placed(0, 6, 6, 2, 3, 4, 4);
	check_placed(HAL_TRANSFORM_ROT_90, 4, 6, -1, -2, 4, 4);
	check_placed(HAL_TRANSFORM_ROT_270, 4, 6, 1, 1, 4, 4);
	check_placed(HAL_TRANSFORM_FLIP_H | HAL_TRANSFORM_ROT_90, 5, 3, -2, 2, 4, 4);
}

/* Frames wholly outside: the target is the background only. */
static void run_offscreen_outside(const void *data)
{
	check_placed(0, 3, 3, -3, 0, 4, 4);
	check_placed(0, 3, 3, 4, 0, 4, 4);
	check_placed(HAL_TRANSFORM_ROT_90, 3, 2, 0, 4, 4, 4);
	check_placed(0, 3, 3, -100, -100, 4, 4);
}

/* A uniform 2x2 blown up onto a frame vastly larger than the target. */
static void run_offscreen_huge(const void *data)
{
	struct scene_image *img = test_image_create(DRM_FORMAT_ABGR8888, 2, 2, 0);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, 8, 8, 0);
	const uint32_t c = RGBA(90, 150, 30, 255);

	for (uint32_t i = 0; i < 4; i++) {
		test_image_set(img, i % 2, i / 2, c);
	}
	test_image_seal(img);
	struct scene_layer l = test_layer(img, test_frect(0, 0, 2, 2),
		test_rect(-1000000, -2000000, 1000000, 3000000), HAL_TRANSFORM_ROT_90,
		HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0);
	test_compose(&l, 1, 0, t);
	for (uint32_t y = 0; y < 8; y++) {
		for (uint32_t x = 0; x < 8; x++) {
			test_expect_pixel(t, x, y, c, 0);
		}
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

/*
 * A 64x downscale far from the target origin (a thumbnail of a large
 * buffer): the display-to-buffer translation there (about -192000) must not
 * overflow a fixed-point transform. Columns alternate between two colours,
 * so every output pixel is their mean.
 */
static void run_downscale_far(const void *data)
{
	struct scene_image *img = test_image_create(DRM_FORMAT_ARGB8888, 2048, 2, 0);
	struct comp_target *t = test_target_create(DRM_FORMAT_ARGB8888, 3040, 2, 0);
	const uint32_t a = RGBA(200, 10, 100, 255), b = RGBA(100, 50, 0, 255);

	for (uint32_t i = 0; i < 2048 * 2; i++) {
		test_image_set(img, i % 2048, i / 2048, i % 2 ? b : a);
	}
	test_image_seal(img);
	struct scene_layer l = test_layer(img, test_frect(0, 0, 2048, 2),
		test_rect(3000, 0, 3032, 2), 0, HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0);
	test_compose(&l, 1, 0, t);
	for (uint32_t x = 2990; x < 3040; x++) {
		bool in = x >= 3000 && x < 3032;

		test_expect_pixel(t, x, 0, in ? RGBA(150, 30, 50, 255) : 0, 1);
		test_expect_pixel(t, x, 1, in ? RGBA(150, 30, 50, 255) : 0, 1);
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

/* Crop (2, 3)-(5, 7) of an 8x8 image 1:1 at (1, 0). */
static void run_crop(const void *data)
{
	struct scene_image *img = distinct_image(8, 8);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, 6, 6, 0);
	struct scene_layer l = test_layer(img, test_frect(2, 3, 5, 7), test_rect(1, 0, 4, 4), 0,
		HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0);

	test_compose(&l, 1, 0, t);
	for (uint32_t y = 0; y < 6; y++) {
		for (uint32_t x = 0; x < 6; x++) {
			bool in = x >= 1 && x < 4 && y < 4;

			test_expect_pixel(t, x, y, in ? distinct(x - 1 + 2, y + 3) : 0, 0);
		}
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

/* Crop origin at x = 2.5: each sample falls midway between two texels. */
static void run_crop_fractional(const void *data)
{
	struct scene_image *img = distinct_image(8, 8);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, 3, 4, 0);
	struct scene_layer l = test_layer(img, test_frect(2.5f, 3, 5.5f, 7),
		test_rect(0, 0, 3, 4), 0, HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0);

	test_compose(&l, 1, 0, t);
	for (uint32_t y = 0; y < 4; y++) {
		for (uint32_t x = 0; x < 3; x++) {
			/* buffer x = 2.5 + x + 0.5: between the centres of 2 + x and 3 + x */
			uint32_t a = distinct(2 + x, 3 + y), b = distinct(3 + x, 3 + y), want = 0;

			for (int i = 0; i < 4; i++) {
				want |= (uint32_t)((CH(a, i) + CH(b, i) + 1) / 2) << (8 * i);
			}
			test_expect_pixel(t, x, y, want, 1);
		}
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

/*
 * 2x2 checker to 4x4. Output centres x + 0.5 map to buffer (x + 0.5) / 2 =
 * 0.25, 0.75, 1.25, 1.75; less the texel centre offset 0.5: -0.25 (clamped
 * to texel 0), 0.25, 0.75, 1.25 (clamped to texel 1). The weight of texel 1
 * per output column (and row) is 0, 1/4, 3/4, 1.
 */
static void run_upscale(const void *data)
{
	static const double w1[4] = { 0.0, 0.25, 0.75, 1.0 };
	static const uint8_t checker[2][2] = { { 0, 255 }, { 255, 0 } };
	struct scene_image *img = test_image_create(DRM_FORMAT_XRGB8888, 2, 2, 0);
	struct comp_target *t = test_target_create(DRM_FORMAT_XRGB8888, 4, 4, 0);

	for (uint32_t i = 0; i < 4; i++) {
		uint8_t v = checker[i / 2][i % 2];

		test_image_set(img, i % 2, i / 2, RGBA(v, v, v, 0));
	}
	test_image_seal(img);
	struct scene_layer l = test_layer(img, test_frect(0, 0, 2, 2), test_rect(0, 0, 4, 4), 0,
		HWC2_BLEND_MODE_NONE, 1.0f, 0);
	test_compose(&l, 1, 0, t);
	for (uint32_t y = 0; y < 4; y++) {
		for (uint32_t x = 0; x < 4; x++) {
			double wx = w1[x], wy = w1[y];
			double v = (1 - wx) * (1 - wy) * checker[0][0] + wx * (1 - wy) * checker[0][1] +
				(1 - wx) * wy * checker[1][0] + wx * wy * checker[1][1];
			uint8_t e = (uint8_t)lround(v);

			test_expect_pixel(t, x, y, RGBA(e, e, e, 255), 1);
		}
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

/* 4x4 to 2x2: samples at buffer 1.0 and 3.0, the mean of each 2x2 block. */
static void run_downscale(const void *data)
{
	struct scene_image *img = distinct_image(4, 4);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, 2, 2, 0);
	struct scene_layer l = test_layer(img, test_frect(0, 0, 4, 4), test_rect(0, 0, 2, 2), 0,
		HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0);

	test_compose(&l, 1, 0, t);
	for (uint32_t y = 0; y < 2; y++) {
		for (uint32_t x = 0; x < 2; x++) {
			uint32_t want = 0;

			for (int i = 0; i < 4; i++) {
				uint32_t s = CH(distinct(2 * x, 2 * y), i) +
					CH(distinct(2 * x + 1, 2 * y), i) +
					CH(distinct(2 * x, 2 * y + 1), i) +
					CH(distinct(2 * x + 1, 2 * y + 1), i);
				want |= ((s + 2) / 4) << (8 * i);
			}
			test_expect_pixel(t, x, y, want, 1);
		}
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

static const struct test_case cases[] = {
	{ "transform-none", run_transform, &transforms[0] },
	{ "transform-flip-h", run_transform, &transforms[1] },
	{ "transform-flip-v", run_transform, &transforms[2] },
	{ "transform-rot-180", run_transform, &transforms[3] },
	{ "transform-rot-90", run_transform, &transforms[4] },
	{ "transform-flip-h-rot-90", run_transform, &transforms[5] },
	{ "transform-flip-v-rot-90", run_transform, &transforms[6] },
	{ "transform-rot-270", run_transform, &transforms[7] },
	{ "crop", run_crop, NULL },
	{ "crop-fractional", run_crop_fractional, NULL },
	{ "upscale-2x", run_upscale, NULL },
	{ "downscale-2x", run_downscale, NULL },
	{ "downscale-far", run_downscale_far, NULL },
	{ "offscreen-partial", run_offscreen_partial, NULL },
	{ "offscreen-outside", run_offscreen_outside, NULL },
	{ "offscreen-huge", run_offscreen_huge, NULL },
};

int main(int argc, char **argv)
{
	return test_compositor_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
