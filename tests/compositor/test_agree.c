/*
 * The "gl" compositor against the "pixman" reference on random-ish stacks:
 * 5-8 layers of every source format (NV12 included) and solid colours,
 * fractional crops, up- and downscaling, all eight transforms, plane
 * alphas, every blend mode, frames hanging off the target. Exits 77 when
 * GL is not built or no EGL display can be had.
 *
 * Tolerance. Both sample at the same positions (one mapping,
 * comp_layer_matrix; NV12 converted at luma resolution, then filtered, in
 * both) with bilinear filtering, but pixman quantises the transform to
 * 16.16 fixed point and the filter weights to 7 bits (a weight off by 1/256
 * on a full-scale edge is 1 level per axis) and rounds to 8 bits after the
 * NV12 conversion, the filter, the plane-alpha mask and the blend, while
 * llvmpipe filters with 8-bit weights and rounds once per layer. Per pixel,
 * the largest channel difference must stay within:
 *   MAX_DIFF = 8 levels, and
 *   MAX_OVER2 = 2 % of the pixels may differ by more than 2.
 * Measured on llvmpipe (Mesa 22.3), 200 stacks of the sweep: worst max
 * difference 4, worst 0.73 % of pixels over 2. The margin is for GPUs
 * with coarser filter weights (6-bit sub-texel precision: +-4 on an edge).
 * Images are gradients with sharp 4x4 block edges in colour and alpha.
 *
 * Usage: test-compositor-agree CASE
 */
#include <errno.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "fourcc.h"
#include "testlib.h"

#define MAX_DIFF 8
#define MAX_OVER2 0.02

static struct compositor *gl, *ref;

struct stats {
	int max;
	double over2;			/* fraction of pixels differing by more than 2 */
};

static struct stats compare(const struct comp_target *a, const struct comp_target *b)
{
	struct stats s = { 0, 0.0 };
	size_t over = 0;

	for (uint32_t y = 0; y < a->height; y++) {
		for (uint32_t x = 0; x < a->width; x++) {
			int d = test_max_diff(test_target_get(a, x, y), test_target_get(b, x, y), true);

			s.max = d > s.max ? d : s.max;
			over += d > 2;
		}
	}
	s.over2 = (double)over / ((double)a->width * a->height);
	return s;
}

/* Composes with both; returns their difference. */
static struct stats compose_both(const struct scene_layer *layers, size_t count, uint32_t bg,
	uint32_t fourcc, uint32_t w, uint32_t h)
{
	const struct scene_layer *ptrs[16];
	struct comp_target *tg = test_target_create(fourcc, w, h, 0x11);
	struct comp_target *tr = test_target_create(fourcc, w, h, 0x22);
	struct stats s;
	int ret;

	CHECK(count <= 16);
	for (size_t i = 0; i < count; i++) {
		ptrs[i] = &layers[i];
	}
	ret = compositor_compose(gl, NULL, ptrs, count, bg, tg);
	CHECK_MSG(ret == 0, "gl: %d", ret);
	ret = compositor_compose(ref, NULL, ptrs, count, bg, tr);
	CHECK_MSG(ret == 0, "pixman: %d", ret);
	s = compare(tg, tr);
	test_target_destroy(tg);
	test_target_destroy(tr);
	return s;
}

static uint32_t range(uint32_t *rng, uint32_t lo, uint32_t hi)
{
	return lo + test_rand(rng) % (hi - lo + 1);
}

/*
 * Gradients plus 4x4 blocks of random colour (and, for alpha formats,
 * random alpha); premultiplied when the layer blends PREMULTIPLIED.
 */
static struct scene_image *random_image(uint32_t *rng, uint32_t fourcc, uint32_t w, uint32_t h,
	bool premultiplied)
{
	struct scene_image *img = test_image_create(fourcc, w, h, range(rng, 0, 1) * 4);
	uint32_t block[16][16];

	for (int i = 0; i < 16 * 16; i++) {
		block[i / 16][i % 16] = test_rand(rng);
	}
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint32_t b = block[(y / 4) % 16][(x / 4) % 16];
			uint32_t r = (x * 255 / w + CH(b, 0)) / 2, g = (y * 255 / h + CH(b, 1)) / 2;
			uint32_t bl = CH(b, 2), a = 64 + CH(b, 3) * 191 / 255;

			if (premultiplied) {
				r = r * a / 255;
				g = g * a / 255;
				bl = bl * a / 255;
			}
			if (fourcc == DRM_FORMAT_NV12) {
				test_image_set_y(img, x, y, (uint8_t)(16 + (r + g) * 219 / 510));
				if (x % 2 == 0 && y % 2 == 0) {
					test_image_set_cbcr(img, x / 2, y / 2, (uint8_t)(16 + bl * 224 / 255),
						(uint8_t)(16 + CH(b, 3) * 224 / 255));
				}
			} else {
				test_image_set(img, x, y, RGBA(r, g, bl, a));
			}
		}
	}
	test_image_seal(img);
	return img;
}

/* Each layer alone over transparent black, to tell which one disagrees. */
static void explain(const struct scene_layer *layers, size_t count, uint32_t fourcc, uint32_t w,
	uint32_t h)
{
	for (size_t i = 0; i < count; i++) {
		const struct scene_layer *l = &layers[i];
		struct stats s = compose_both(l, 1, 0, fourcc, w, h);

		fprintf(stderr, "  layer %zu: %s %.4s %ux%u crop %g,%g-%g,%g frame %d,%d-%d,%d "
			"transform %d blend %d alpha %.2f: max %d, %.3f %% over 2\n", i,
			l->image ? "image" : "solid", l->image ? (const char *)&l->image->fourcc : "",
			l->image ? l->image->width : 0, l->image ? l->image->height : 0,
			l->crop.left, l->crop.top, l->crop.right, l->crop.bottom,
			l->frame.left, l->frame.top, l->frame.right, l->frame.bottom,
			l->transform, l->blend, l->alpha, s.max, 100.0 * s.over2);
	}
}

static const uint32_t source_formats[] = {
	DRM_FORMAT_ABGR8888, DRM_FORMAT_XBGR8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888,
	DRM_FORMAT_RGB565, DRM_FORMAT_NV12, DRM_FORMAT_NV12,
};

static const uint32_t target_formats[] = {
	DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888, DRM_FORMAT_ABGR8888, DRM_FORMAT_XBGR8888,
};

/* One random stack; explains the layers when it is out of tolerance. */
static struct stats random_stack(uint32_t seed)
{
	uint32_t rng = seed * 2654435761u + 1;
	const uint32_t w = 97, h = 61;
	struct scene_layer layers[8];
	struct scene_image *images[8] = { NULL };
	size_t count = range(&rng, 5, 8);
	uint32_t fourcc = target_formats[seed % 4];

	for (size_t i = 0; i < count; i++) {
		int32_t blend = (int32_t)range(&rng, 0, 3);
		float alpha = range(&rng, 0, 1) ? 1.0f : (float)range(&rng, 10, 100) / 100.0f;
		int32_t fx = (int32_t)range(&rng, 0, w + 20) - 20, fy = (int32_t)range(&rng, 0, h + 20) - 20;
		struct hwct_rect frame = { fx, fy, fx + (int32_t)range(&rng, 4, 80),
			fy + (int32_t)range(&rng, 4, 60) };
		uint32_t iw = range(&rng, 4, 48), ih = range(&rng, 4, 48);
		/* quarter-pixel crop edges, at least one pixel wide */
		float cl = (float)range(&rng, 0, iw * 2) / 4.0f, ct = (float)range(&rng, 0, ih * 2) / 4.0f;
		float cr = cl + 1.0f + (float)range(&rng, 0, (uint32_t)((iw - cl - 1.0f) * 4)) / 4.0f;
		float cb = ct + 1.0f + (float)range(&rng, 0, (uint32_t)((ih - ct - 1.0f) * 4)) / 4.0f;

		if (range(&rng, 0, 7) == 0) {
			layers[i] = test_layer(NULL, test_frect(0, 0, 1, 1), frame, 0, blend, alpha,
				test_rand(&rng));
			continue;
		}
		images[i] = random_image(&rng, source_formats[range(&rng, 0, 6)], iw, ih,
			blend == HWC2_BLEND_MODE_PREMULTIPLIED);
		layers[i] = test_layer(images[i], test_frect(cl, ct, cr, cb), frame,
			(int32_t)range(&rng, 0, 7), blend, alpha, 0);
	}
	struct stats s = compose_both(layers, count, range(&rng, 0, 1) ? 0 : RGBA(30, 60, 90, 255),
		fourcc, w, h);
	if (s.max > MAX_DIFF || s.over2 > MAX_OVER2) {
		fprintf(stderr, "seed %u: %zu layers, max diff %d, %.3f %% of pixels over 2\n",
			seed, count, s.max, 100.0 * s.over2);
		explain(layers, count, fourcc, w, h);
	}
	for (size_t i = 0; i < count; i++) {
		test_image_destroy(images[i]);
	}
	return s;
}

static void run_stack(const void *data)
{
	uint32_t seed = *(const uint32_t *)data;
	struct stats s = random_stack(seed);

	fprintf(stderr, "seed %u: max diff %d, %.3f %% of pixels over 2\n", seed, s.max,
		100.0 * s.over2);
	CHECK_MSG(s.max <= MAX_DIFF && s.over2 <= MAX_OVER2, "max %d, over2 %.4f", s.max, s.over2);
}

/* Many more stacks in one process; reports the worst. */
static void run_sweep(const void *data)
{
	uint32_t count = *(const uint32_t *)data;
	struct stats worst = { 0, 0.0 };
	bool ok = true;

	for (uint32_t seed = 1000; seed < 1000 + count; seed++) {
		struct stats s = random_stack(seed);

		ok &= s.max <= MAX_DIFF && s.over2 <= MAX_OVER2;
		worst.max = s.max > worst.max ? s.max : worst.max;
		worst.over2 = s.over2 > worst.over2 ? s.over2 : worst.over2;
	}
	fprintf(stderr, "%u stacks: worst max diff %d, worst %.3f %% of pixels over 2\n", count,
		worst.max, 100.0 * worst.over2);
	CHECK(ok);
}

static const uint32_t seeds[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint32_t sweep_count = 200;

/*
 * The texture cache: more distinct images than it holds (LRU eviction),
 * one image twice in a frame under two blend modes (two cache keys), and
 * an image whose hash is unknown (all zero) changing between frames.
 */
static void run_cache(const void *data)
{
	uint32_t rng = 99;
	struct scene_image *nohash = test_image_create(DRM_FORMAT_ABGR8888, 8, 8, 0);

	for (int frame = 0; frame < 48; frame++) {
		struct scene_image *img = random_image(&rng, source_formats[frame % 7], 16, 12,
			false);
		struct scene_layer l[3] = {
			test_layer(img, test_frect(0, 0, 16, 12), test_rect(0, 0, 20, 20), frame % 8,
				HWC2_BLEND_MODE_NONE, 1.0f, 0),
			test_layer(img, test_frect(2, 2, 14, 10), test_rect(10, 10, 30, 26), 0,
				HWC2_BLEND_MODE_COVERAGE, 0.8f, 0),
			test_layer(nohash, test_frect(0, 0, 8, 8), test_rect(24, 0, 32, 8), 0,
				HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0),
		};

		for (uint32_t i = 0; i < 64; i++) {
			uint8_t v = (uint8_t)(frame * 5 + i);

			test_image_set(nohash, i % 8, i / 8, RGBA(v, v, v, 255));
		}
		struct stats s = compose_both(l, 3, 0, DRM_FORMAT_ARGB8888, 32, 28);
		CHECK_MSG(s.max <= MAX_DIFF && s.over2 <= MAX_OVER2, "frame %d: max %d", frame, s.max);
		test_image_destroy(img);
	}
	test_image_destroy(nohash);
}

static const struct test_case cases[] = {
	{ "stack-1", run_stack, &seeds[0] },
	{ "stack-2", run_stack, &seeds[1] },
	{ "stack-3", run_stack, &seeds[2] },
	{ "stack-4", run_stack, &seeds[3] },
	{ "stack-5", run_stack, &seeds[4] },
	{ "stack-6", run_stack, &seeds[5] },
	{ "stack-7", run_stack, &seeds[6] },
	{ "stack-8", run_stack, &seeds[7] },
	{ "sweep", run_sweep, &sweep_count },
	{ "cache", run_cache, NULL },
};

int main(int argc, char **argv)
{
	int ret;

	gl = compositor_create("gl");
	if (!gl) {
		fprintf(stderr, "gl compositor unavailable: %s\n", strerror(errno));
		return TEST_SKIP;
	}
	ref = compositor_create("pixman");
	CHECK(ref);
	ret = test_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
	compositor_destroy(ref);
	compositor_destroy(gl);
	return ret;
}
