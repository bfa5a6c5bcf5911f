/*
 * Blending against the HWC2 equations computed in doubles: each blend mode
 * with and without plane alpha, image and SOLID_COLOR layers, over an
 * opaque, a transparent and a translucent background; stacks of many
 * layers. Tolerance +-1 per channel (8-bit rounding of intermediate steps).
 *
 * Usage: test-compositor-blend IMPL CASE (IMPL "gl": 77 without EGL).
 */
#include <math.h>

#include <hardware/hwcomposer2.h>

#include "fourcc.h"
#include "testlib.h"

struct blend_case {
	int32_t blend;
	float alpha;
	bool solid;
	uint32_t src;			/* the image's pixels or the colour */
};

/*
 * out = src * k + dst * (1 - a * pa), with k = pa for PREMULTIPLIED and
 * NONE (whose source alpha counts as 1), k = src.a * pa for COVERAGE
 * (straight colour; its alpha channel becomes src.a * pa).
 */
static uint32_t expected(int32_t blend, double pa, uint32_t src, uint32_t dst)
{
	double sa = CH(src, 3) / 255.0, k = pa;
	uint32_t out = 0;

	if (blend == HWC2_BLEND_MODE_COVERAGE) {
		k = sa * pa;
	} else if (blend != HWC2_BLEND_MODE_PREMULTIPLIED) {
		sa = 1.0;
		src |= 0xffu << 24;
	}
	for (int i = 0; i < 4; i++) {
		double s = i == 3 && blend == HWC2_BLEND_MODE_COVERAGE ? 255.0 : CH(src, i);
		double v = s * k + CH(dst, i) * (1.0 - sa * pa);

		out |= (uint32_t)lround(v > 255.0 ? 255.0 : v) << (8 * i);
	}
	return out;
}

static void run_blend(const void *data)
{
	const struct blend_case *c = data;
	const uint32_t backgrounds[] = { RGBA(20, 100, 200, 255), 0, RGBA(10, 40, 60, 128) };
	struct scene_image *img = test_image_create(DRM_FORMAT_ABGR8888, 2, 2, 0);
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, 4, 4, 0);
	int32_t blend = c->blend == HWC2_BLEND_MODE_INVALID ? HWC2_BLEND_MODE_NONE : c->blend;

	for (uint32_t i = 0; i < 4; i++) {
		test_image_set(img, i % 2, i / 2, c->src);
	}
	test_image_seal(img);
	/* the frame leaves column 3 to the background */
	struct scene_layer l = test_layer(c->solid ? NULL : img, test_frect(0, 0, 2, 2),
		test_rect(0, 0, 3, 4), 0, c->blend, c->alpha, c->src);
	for (size_t b = 0; b < sizeof(backgrounds) / sizeof(backgrounds[0]); b++) {
		uint32_t want = expected(blend, c->alpha, c->src, backgrounds[b]);

		test_compose(&l, 1, backgrounds[b], t);
		for (uint32_t y = 0; y < 4; y++) {
			for (uint32_t x = 0; x < 4; x++) {
				test_expect_pixel(t, x, y, x < 3 ? want : backgrounds[b], 1);
			}
		}
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

/* A 50 % source, valid premultiplied (rgb <= a), so one serves every mode. */
#define HALF RGBA(128, 64, 0, 128)
#define STRAIGHT RGBA(200, 100, 50, 128)

static const struct blend_case cases_data[] = {
	{ HWC2_BLEND_MODE_NONE, 1.0f, false, HALF },
	{ HWC2_BLEND_MODE_INVALID, 1.0f, false, HALF },
	{ HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, false, HALF },
	{ HWC2_BLEND_MODE_COVERAGE, 1.0f, false, HALF },
	{ HWC2_BLEND_MODE_NONE, 0.5f, false, HALF },
	{ HWC2_BLEND_MODE_PREMULTIPLIED, 0.5f, false, HALF },
	{ HWC2_BLEND_MODE_COVERAGE, 0.3f, false, STRAIGHT },
	{ HWC2_BLEND_MODE_PREMULTIPLIED, 0.0f, false, HALF },
	{ HWC2_BLEND_MODE_NONE, 0.75f, true, STRAIGHT },
	{ HWC2_BLEND_MODE_PREMULTIPLIED, 0.75f, true, HALF },
	{ HWC2_BLEND_MODE_COVERAGE, 0.75f, true, STRAIGHT },
	{ HWC2_BLEND_MODE_COVERAGE, 1.0f, true, RGBA(10, 20, 30, 255) },
};

/*
 * 40 layers (more than compositor.c keeps on its stack): 1x1 solid and
 * image layers, each on its own pixel of an 8x8 target, plus a translucent
 * full-screen one on top.
 */
static void run_many_layers(const void *data)
{
	struct scene_layer layers[41];
	struct scene_image *img = test_image_create(DRM_FORMAT_XBGR8888, 1, 1, 0);
	struct comp_target *t = test_target_create(DRM_FORMAT_ARGB8888, 8, 8, 0);
	const uint32_t top = RGBA(0, 0, 64, 64);

	test_image_set(img, 0, 0, RGBA(7, 77, 177, 0));
	test_image_seal(img);
	for (int32_t i = 0; i < 40; i++) {
		struct hwct_rect frame = test_rect(i % 8, i / 8, i % 8 + 1, i / 8 + 1);

		layers[i] = test_layer(i % 2 ? img : NULL, test_frect(0, 0, 1, 1), frame, 0,
			HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, RGBA(i * 6, 255 - i * 6, i, 255));
	}
	layers[40] = test_layer(NULL, test_frect(0, 0, 1, 1), test_rect(0, 0, 8, 8), 0,
		HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, top);
	test_compose(layers, 41, 0, t);
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t under = i >= 40 ? 0 : i % 2 ? RGBA(7, 77, 177, 255) :
			RGBA(i * 6, 255 - i * 6, i, 255);

		test_expect_pixel(t, i % 8, i / 8,
			expected(HWC2_BLEND_MODE_PREMULTIPLIED, 1.0, top, under), 1);
	}
	test_target_destroy(t);
	test_image_destroy(img);
}

static const struct test_case cases[] = {
	{ "blend-none", run_blend, &cases_data[0] },
	{ "blend-invalid-as-none", run_blend, &cases_data[1] },
	{ "blend-premultiplied", run_blend, &cases_data[2] },
	{ "blend-coverage", run_blend, &cases_data[3] },
	{ "plane-alpha-none", run_blend, &cases_data[4] },
	{ "plane-alpha-premultiplied", run_blend, &cases_data[5] },
	{ "plane-alpha-coverage", run_blend, &cases_data[6] },
	{ "plane-alpha-zero", run_blend, &cases_data[7] },
	{ "solid-none", run_blend, &cases_data[8] },
	{ "solid-premultiplied", run_blend, &cases_data[9] },
	{ "solid-coverage", run_blend, &cases_data[10] },
	{ "solid-opaque", run_blend, &cases_data[11] },
	{ "many-layers", run_many_layers, NULL },
};

int main(int argc, char **argv)
{
	return test_compositor_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
