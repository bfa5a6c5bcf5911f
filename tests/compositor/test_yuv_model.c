/*
 * The compositor's YUV models (compositor.h, docs/yuv-models.md), checked
 * against values derived here from the formulas, never against the code's
 * own output:
 *  - "vkms": ITU-R BT.601 limited range with vkms's scale factors (Y
 *    256/219, chroma 256/224) on 16-bit samples (8-bit times 257), each
 *    channel rounded to 16 bits, clamped, then divided by 257 and rounded;
 *    chroma unfiltered, luma (x, y) taking chroma (x / 2, y / 2);
 *  - a few pixels written out by hand;
 *  - the API: names, parsing, and "gl" refusing the vkms model.
 *
 * Usage: test-compositor-yuv-model IMPL CASE (the vkms cases skip, 77, for
 * an IMPL without the model).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "fourcc.h"
#include "testlib.h"

#define KR 0.299
#define KB 0.114
#define KG (1.0 - KR - KB)
#define YS (256.0 / 219.0)
#define CS (256.0 / 224.0)
/* How close to a rounding boundary a real value may come before the check of it is skipped. */
#define MARGIN 0.02

static int near_half;	/* channels skipped for lying at a rounding boundary */

/* A 16-bit channel value rounded to 8 bits, or -1 when v is too near a boundary to tell. */
static int channel8(double v)
{
	double r;

	if (v < 0.0) {
		v = 0.0;
	}
	if (v > 65535.0) {
		v = 65535.0;
	}
	if (fabs(v - floor(v) - 0.5) < MARGIN) {
		return -1;
	}
	v = floor(v + 0.5);
	r = v / 257.0;
	if (fabs(r - floor(r) - 0.5) < MARGIN / 257.0) {
		return -1;
	}
	return (int)floor(r + 0.5);
}

/*
 * The expected r | g << 8 | b << 16 | 0xff << 24 of 16-bit samples, or
 * false when some channel cannot be told.
 */
static bool vkms_expect16(uint16_t y, uint16_t cb, uint16_t cr, uint32_t *rgba)
{
	double yy = YS * (y - 16 * 257.0);
	double u = cb - 128 * 257.0, v = cr - 128 * 257.0;
	int c[3] = {
		channel8(yy + 2.0 * (1.0 - KR) * CS * v),
		channel8(yy - 2.0 * KB * (1.0 - KB) / KG * CS * u - 2.0 * KR * (1.0 - KR) / KG * CS * v),
		channel8(yy + 2.0 * (1.0 - KB) * CS * u),
	};

	if (c[0] < 0 || c[1] < 0 || c[2] < 0) {
		near_half++;
		return false;
	}
	*rgba = RGBA(c[0], c[1], c[2], 255);
	return true;
}

/* The same for 8-bit samples, which vkms widens by 257. */
static bool vkms_expect(uint8_t y, uint8_t cb, uint8_t cr, uint32_t *rgba)
{
	return vkms_expect16((uint16_t)(y * 257), (uint16_t)(cb * 257), (uint16_t)(cr * 257), rgba);
}

static bool use_vkms(void)
{
	int ret = compositor_set_yuv_model(test_comp, COMP_YUV_VKMS);

	if (ret == -ENOTSUP) {
		return false;
	}
	CHECK_MSG(ret == 0, "set_yuv_model: %d", ret);
	CHECK(compositor_yuv_model(test_comp) == COMP_YUV_VKMS);
	return true;
}

static struct comp_target *compose_nv12(const struct scene_image *img)
{
	struct comp_target *t = test_target_create(DRM_FORMAT_XRGB8888, img->width, img->height, 0);
	struct scene_layer l = test_layer(img, test_frect(0, 0, (float)img->width, (float)img->height),
		test_rect(0, 0, (int32_t)img->width, (int32_t)img->height), 0, HWC2_BLEND_MODE_PREMULTIPLIED,
		1.0f, 0);

	test_compose(&l, 1, 0, t);
	return t;
}

/*
 * Every combination of these samples, each 2x2 block its own chroma, its
 * four luma samples different: each pixel equals the formula exactly.
 */
static void run_vkms_matrix(const void *data)
{
	static const uint8_t ys[] = { 0, 16, 17, 50, 81, 128, 145, 200, 235, 240, 255 };
	static const uint8_t cs[] = { 0, 16, 54, 90, 110, 128, 129, 160, 200, 240, 255 };
	const uint32_t ny = sizeof(ys), nc = sizeof(cs);
	uint32_t blocks = nc * nc, w = 2 * blocks, checked = 0;
	struct scene_image *img;
	struct comp_target *t;

	if (!use_vkms()) {
		exit(TEST_SKIP);
	}
	for (uint32_t yi = 0; yi + 3 < ny + 3; yi += 4) {
		img = test_image_create(DRM_FORMAT_NV12, w, 2, 3);
		for (uint32_t b = 0; b < blocks; b++) {
			test_image_set_cbcr(img, b, 0, cs[b / nc], cs[b % nc]);
			for (uint32_t k = 0; k < 4; k++) {
				test_image_set_y(img, 2 * b + k % 2, k / 2, ys[(yi + k) % ny]);
			}
		}
		test_image_seal(img);
		t = compose_nv12(img);
		for (uint32_t b = 0; b < blocks; b++) {
			for (uint32_t k = 0; k < 4; k++) {
				uint32_t want;

				if (vkms_expect(ys[(yi + k) % ny], cs[b / nc], cs[b % nc], &want)) {
					test_expect_pixel(t, 2 * b + k % 2, k / 2, want, 0);
					checked++;
				}
			}
		}
		test_target_destroy(t);
		test_image_destroy(img);
	}
	printf("%u pixels equal to the formula, %d channels at a rounding boundary skipped\n", checked, near_half);
	CHECK(checked > 1000 && near_half < (int)checked / 10);
}

/*
 * Chroma unfiltered: a 4x2 image with two chroma samples; luma columns 0, 1
 * take chroma 0, columns 2, 3 chroma 1, in both rows (the bilinear model
 * mixes them in columns 1 and 2). An odd width (5x3): the last column and
 * row take the last chroma sample.
 */
static void run_vkms_siting(const void *data)
{
	struct scene_image *img = test_image_create(DRM_FORMAT_NV12, 4, 2, 0);
	struct scene_image *odd = test_image_create(DRM_FORMAT_NV12, 5, 3, 1);
	struct comp_target *t;
	uint32_t want[2];

	if (!use_vkms()) {
		exit(TEST_SKIP);
	}
	for (uint32_t i = 0; i < 8; i++) {
		test_image_set_y(img, i % 4, i / 4, 128);
	}
	test_image_set_cbcr(img, 0, 0, 60, 128);
	test_image_set_cbcr(img, 1, 0, 192, 160);
	test_image_seal(img);
	CHECK(vkms_expect(128, 60, 128, &want[0]) && vkms_expect(128, 192, 160, &want[1]));
	t = compose_nv12(img);
	for (uint32_t x = 0; x < 4; x++) {
		test_expect_pixel(t, x, 0, want[x / 2], 0);
		test_expect_pixel(t, x, 1, want[x / 2], 0);
	}
	test_target_destroy(t);

	for (uint32_t i = 0; i < 15; i++) {
		test_image_set_y(odd, i % 5, i / 5, 100);
	}
	for (uint32_t i = 0; i < 6; i++) {
		test_image_set_cbcr(odd, i % 3, i / 3, (uint8_t)(40 * i + 20), (uint8_t)(225 - 30 * i));
	}
	test_image_seal(odd);
	t = compose_nv12(odd);
	for (uint32_t i = 0; i < 15; i++) {
		uint32_t x = i % 5, y = i / 5, c = y / 2 * 3 + x / 2, px;

		CHECK(vkms_expect(100, (uint8_t)(40 * c + 20), (uint8_t)(225 - 30 * c), &px));
		test_expect_pixel(t, x, y, px, 0);
	}
	test_target_destroy(t);
	test_image_destroy(odd);
	test_image_destroy(img);
}

/*
 * Worked by hand (Y, Cb, Cr -> R, G, B):
 *  - (16, 128, 128): every difference 0 -> 0, 0, 0.
 *  - (128, 128, 128): Y - 16 = 112, times 257 = 28784, times 256/219 =
 *    33647.05 -> 33647; / 257 = 130.92 -> 131 in each channel (the
 *    bilinear model's 255/219 gives 130.41 -> 130).
 *  - (235, 128, 128): 219 * 257 * 256/219 = 65792, clamped to 65535 -> 255.
 *  - (16, 128, 240): R = 1.402 * 256/224 * 112 * 257 = 46120.19 -> 46120,
 *    / 257 = 179.46 -> 179; G = -0.714136 * 256/224 * 28784 = -23491 ->
 *    0; B = 0.
 */
static void run_vkms_by_hand(const void *data)
{
	static const struct {
		uint8_t y, cb, cr;
		uint32_t rgba;
	} cases[] = {
		{ 16, 128, 128, RGBA(0, 0, 0, 255) },
		{ 128, 128, 128, RGBA(131, 131, 131, 255) },
		{ 235, 128, 128, RGBA(255, 255, 255, 255) },
		{ 16, 128, 240, RGBA(179, 0, 0, 255) },
	};

	if (!use_vkms()) {
		exit(TEST_SKIP);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scene_image *img = test_image_create(DRM_FORMAT_NV12, 2, 2, 0);
		struct comp_target *t;

		for (uint32_t k = 0; k < 4; k++) {
			test_image_set_y(img, k % 2, k / 2, cases[i].y);
		}
		test_image_set_cbcr(img, 0, 0, cases[i].cb, cases[i].cr);
		test_image_seal(img);
		t = compose_nv12(img);
		test_expect_pixel(t, 1, 1, cases[i].rgba, 0);
		test_target_destroy(t);
		test_image_destroy(img);
	}
}

/*
 * P010 and P016 under the vkms model: the words as they are (a 10-bit
 * sample s is s << 6, so P010's black, 64 << 6 = 4096, sits just below
 * vkms's offset 16 * 257 = 4112), unfiltered chroma, 3x2 luma per chroma
 * pair with odd width; every pixel equals the formula on the 16-bit values.
 */
static void run_vkms_p010(const void *data)
{
	static const uint16_t tens[] = { 0, 64, 65, 200, 448, 512, 513, 700, 940, 960, 1023 };
	static const uint32_t fourccs[] = { DRM_FORMAT_P010, DRM_FORMAT_P016 };
	const uint32_t n = sizeof(tens) / sizeof(tens[0]), w = 2 * n + 1;
	uint32_t checked = 0;

	if (!use_vkms()) {
		exit(TEST_SKIP);
	}
	for (size_t k = 0; k < 2; k++) {
		struct scene_image *img = test_image_create(fourccs[k], w, 3, 2);
		struct comp_target *t;
		/* P010: s << 6; P016 takes any word: the same with low bits set */
		uint16_t add = k == 0 ? 0 : 37;

		for (uint32_t j = 0; j < 3; j++) {
			for (uint32_t i = 0; i < w; i++) {
				test_image_set_y16(img, i, j, (uint16_t)(tens[(i + 3 * j) % n] * 64 + add));
			}
		}
		for (uint32_t j = 0; j < 2; j++) {
			for (uint32_t i = 0; i < n + 1; i++) {
				test_image_set_cbcr16(img, i, j, (uint16_t)(tens[(i + j) % n] * 64 + add),
					(uint16_t)(tens[(2 * i + 5 * j) % n] * 64 + add));
			}
		}
		test_image_seal(img);
		t = compose_nv12(img);
		for (uint32_t j = 0; j < 3; j++) {
			for (uint32_t i = 0; i < w; i++) {
				const uint8_t *ly = img->data + img->offset[0] + (size_t)j * img->stride[0] + 2 * i;
				const uint8_t *c = img->data + img->offset[1] + (size_t)(j / 2) * img->stride[1] + 4 * (i / 2);
				uint32_t want;

				if (vkms_expect16((uint16_t)(ly[0] | ly[1] << 8), (uint16_t)(c[0] | c[1] << 8),
						(uint16_t)(c[2] | c[3] << 8), &want)) {
					test_expect_pixel(t, i, j, want, 0);
					checked++;
				}
			}
		}
		test_target_destroy(t);
		test_image_destroy(img);
	}
	printf("%u pixels equal to the formula, %d channels at a rounding boundary skipped\n", checked, near_half);
	CHECK(checked > 100 && near_half < (int)checked / 10);
}

/*
 * P010 under the bilinear model (pixman and gl): read at 8 bits, each word
 * (v + 128) >> 8, so a P010 image composes exactly as the NV12 image of
 * those bytes does, and within 2 of the BT.601 formula on 10-bit values.
 */
static void run_bilinear_p010(const void *data)
{
	static const uint16_t tens[] = { 64, 100, 300, 448, 512, 600, 800, 940 };
	const uint32_t w = 8, h = 4;
	struct scene_image *p010 = test_image_create(DRM_FORMAT_P010, w, h, 6);
	struct scene_image *nv12 = test_image_create(DRM_FORMAT_NV12, w, h, 0);
	struct comp_target *a, *b;

	CHECK(compositor_yuv_model(test_comp) == COMP_YUV_BILINEAR);
	for (uint32_t j = 0; j < h; j++) {
		for (uint32_t i = 0; i < w; i++) {
			uint16_t s = tens[(i + 2 * j) % 8];

			test_image_set_y16(p010, i, j, (uint16_t)(s << 6));
			test_image_set_y(nv12, i, j, (uint8_t)(((s << 6) + 128) >> 8));
		}
	}
	for (uint32_t j = 0; j < h / 2; j++) {
		for (uint32_t i = 0; i < w / 2; i++) {
			uint16_t cb = tens[(i + j) % 8], cr = tens[(3 * i + j) % 8];

			test_image_set_cbcr16(p010, i, j, (uint16_t)(cb << 6), (uint16_t)(cr << 6));
			test_image_set_cbcr(nv12, i, j, (uint8_t)(((cb << 6) + 128) >> 8), (uint8_t)(((cr << 6) + 128) >> 8));
		}
	}
	test_image_seal(p010);
	test_image_seal(nv12);
	a = compose_nv12(p010);
	b = compose_nv12(nv12);
	for (uint32_t j = 0; j < h; j++) {
		for (uint32_t i = 0; i < w; i++) {
			test_expect_pixel(a, i, j, test_target_get(b, i, j), 0);
		}
	}
	/* a uniform-chroma block: the formula, 10-bit codes / 4 */
	test_target_destroy(a);
	test_target_destroy(b);
	test_image_destroy(p010);
	test_image_destroy(nv12);

	p010 = test_image_create(DRM_FORMAT_P010, 2, 2, 0);
	for (uint32_t k = 0; k < 4; k++) {
		test_image_set_y16(p010, k % 2, k / 2, 700 << 6);
	}
	test_image_set_cbcr16(p010, 0, 0, 300 << 6, 800 << 6);
	test_image_seal(p010);
	a = compose_nv12(p010);
	{
		double y = 700 / 4.0, cb = 300 / 4.0, cr = 800 / 4.0, yy = 255.0 / 219.0 * (y - 16.0);
		double r = yy + 1.402 * 255.0 / 224.0 * (cr - 128.0);
		double g = yy - (0.344136 * (cb - 128.0) + 0.714136 * (cr - 128.0)) * 255.0 / 224.0;
		double bl = yy + 1.772 * 255.0 / 224.0 * (cb - 128.0);

		test_expect_pixel(a, 1, 1, RGBA(lround(r < 255 ? r : 255), lround(g > 0 ? g : 0),
			lround(bl > 0 ? bl : 0), 255), 2);
	}
	test_target_destroy(a);
	test_image_destroy(p010);
}

static void run_api(const void *data)
{
	enum comp_yuv_model m = COMP_YUV_VKMS;
	bool pixman = strcmp(compositor_name(test_comp), "pixman") == 0;

	CHECK(compositor_yuv_model(test_comp) == COMP_YUV_BILINEAR);
	CHECK(strcmp(comp_yuv_model_name(COMP_YUV_BILINEAR), "bilinear") == 0);
	CHECK(strcmp(comp_yuv_model_name(COMP_YUV_VKMS), "vkms") == 0);
	CHECK(comp_yuv_model_parse("bilinear", &m) == 0 && m == COMP_YUV_BILINEAR);
	CHECK(comp_yuv_model_parse("vkms", &m) == 0 && m == COMP_YUV_VKMS);
	CHECK(comp_yuv_model_parse("vkms6", &m) == -ENOENT && m == COMP_YUV_VKMS);
	CHECK(compositor_set_yuv_model(test_comp, (enum comp_yuv_model)7) == -ENOTSUP);
	CHECK(compositor_set_yuv_model(test_comp, COMP_YUV_VKMS) == (pixman ? 0 : -ENOTSUP));
	CHECK(compositor_yuv_model(test_comp) == (pixman ? COMP_YUV_VKMS : COMP_YUV_BILINEAR));
	CHECK(compositor_set_yuv_model(test_comp, COMP_YUV_BILINEAR) == 0);
}

static const struct test_case cases[] = {
	{ "yuv-vkms-matrix", run_vkms_matrix, NULL },
	{ "yuv-vkms-siting", run_vkms_siting, NULL },
	{ "yuv-vkms-by-hand", run_vkms_by_hand, NULL },
	{ "yuv-vkms-p010", run_vkms_p010, NULL },
	{ "yuv-bilinear-p010", run_bilinear_p010, NULL },
	{ "yuv-model-api", run_api, NULL },
};

int main(int argc, char **argv)
{
	return test_compositor_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
