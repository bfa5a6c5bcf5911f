/* Helpers of the compositor tests (testlib.h). */
#include <errno.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "fourcc.h"
#include "testlib.h"

int test_main(int argc, char **argv, const struct test_case *cases, size_t count)
{
	bool found = false;

	for (size_t i = 0; i < count; i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name) != 0) {
			continue;
		}
		fprintf(stderr, "case %s\n", cases[i].name);
		cases[i].run(cases[i].data);
		found = true;
	}
	if (!found) {
		fprintf(stderr, "no case %s\n", argc > 1 ? argv[1] : "");
		return 1;
	}
	return 0;
}

struct compositor *test_comp;

int test_compositor_main(int argc, char **argv, const struct test_case *cases, size_t count)
{
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s IMPL [CASE]\n", argv[0]);
		return 1;
	}
	test_comp = compositor_create(argv[1]);
	if (!test_comp) {
		fprintf(stderr, "compositor %s unavailable: %s\n", argv[1], strerror(errno));
		return errno == ENOTSUP || errno == ENODEV ? TEST_SKIP : 1;
	}
	CHECK(strcmp(compositor_name(test_comp), argv[1]) == 0);
	ret = test_main(argc - 1, argv + 1, cases, count);
	compositor_destroy(test_comp);
	return ret;
}

void test_compose(const struct scene_layer *layers, size_t count, uint32_t background,
	struct comp_target *t)
{
	const struct scene_layer **ptrs = calloc(count + 1, sizeof(*ptrs));
	int ret;

	CHECK(ptrs);
	for (size_t i = 0; i < count; i++) {
		ptrs[i] = &layers[i];
	}
	ret = compositor_compose(test_comp, NULL, ptrs, count, background, t);
	CHECK_MSG(ret == 0, "compose: %d", ret);
	free(ptrs);
}

void test_expect_pixel(const struct comp_target *t, uint32_t x, uint32_t y, uint32_t want,
	int tolerance)
{
	uint32_t got = test_target_get(t, x, y);

	CHECK_MSG(test_max_diff(got, want, true) <= tolerance,
		"(%u,%u): got %08x want %08x (abgr) +-%d", x, y, got, want, tolerance);
}

struct scene_image *test_image_create(uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t pad)
{
	struct scene_image *img = calloc(1, sizeof(*img));
	bool wide = fourcc == DRM_FORMAT_P010 || fourcc == DRM_FORMAT_P012 || fourcc == DRM_FORMAT_P016;
	uint32_t cpp = fourcc == DRM_FORMAT_NV12 ? 1 : fourcc == DRM_FORMAT_RGB565 || wide ? 2 : 4;
	uint8_t *data;

	CHECK(img);
	img->fourcc = fourcc;
	img->modifier = DRM_FORMAT_MOD_LINEAR;
	img->width = width;
	img->height = height;
	img->plane_count = 1;
	img->stride[0] = width * cpp + pad;
	img->size = (size_t)img->stride[0] * height;
	if (fourcc == DRM_FORMAT_NV12 || wide) {
		img->plane_count = 2;
		img->offset[1] = (uint32_t)img->size;
		img->stride[1] = (width + 1) / 2 * 2 * cpp + pad;
		img->size += (size_t)img->stride[1] * ((height + 1) / 2);
	}
	data = calloc(1, img->size);
	CHECK(data);
	img->data = data;
	return img;
}

void test_image_destroy(struct scene_image *img)
{
	if (img) {
		free((void *)(uintptr_t)img->data);
		free(img);
	}
}

void test_image_seal(struct scene_image *img)
{
	img->hash = hwct_hash_compute(img->data, img->size);
}

static uint8_t *pixel(struct scene_image *img, uint32_t plane, uint32_t x, uint32_t y,
	uint32_t cpp)
{
	return (uint8_t *)(uintptr_t)img->data + img->offset[plane] +
		(size_t)y * img->stride[plane] + (size_t)x * cpp;
}

void test_image_set(struct scene_image *img, uint32_t x, uint32_t y, uint32_t rgba)
{
	uint8_t r = CH(rgba, 0), g = CH(rgba, 1), b = CH(rgba, 2), a = CH(rgba, 3);

	switch (img->fourcc) {
	case DRM_FORMAT_RGB565: {
		uint16_t v = (uint16_t)((r >> 3) << 11 | (g >> 2) << 5 | (b >> 3));

		memcpy(pixel(img, 0, x, y, 2), &v, 2);
		break;
	}
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XBGR8888: {
		uint8_t *p = pixel(img, 0, x, y, 4);

		p[0] = r;
		p[1] = g;
		p[2] = b;
		p[3] = a;
		break;
	}
	default: {
		uint8_t *p = pixel(img, 0, x, y, 4);

		p[0] = b;
		p[1] = g;
		p[2] = r;
		p[3] = a;
		break;
	}
	}
}

void test_image_set_y(struct scene_image *img, uint32_t x, uint32_t y, uint8_t value)
{
	*pixel(img, 0, x, y, 1) = value;
}

void test_image_set_cbcr(struct scene_image *img, uint32_t cx, uint32_t cy, uint8_t cb,
	uint8_t cr)
{
	uint8_t *p = pixel(img, 1, cx, cy, 2);

	p[0] = cb;
	p[1] = cr;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v & 0xff);
	p[1] = (uint8_t)(v >> 8);
}

void test_image_set_y16(struct scene_image *img, uint32_t x, uint32_t y, uint16_t value)
{
	put16(pixel(img, 0, x, y, 2), value);
}

void test_image_set_cbcr16(struct scene_image *img, uint32_t cx, uint32_t cy, uint16_t cb,
	uint16_t cr)
{
	uint8_t *p = pixel(img, 1, cx, cy, 4);

	put16(p, cb);
	put16(p + 2, cr);
}

struct comp_target *test_target_create(uint32_t fourcc, uint32_t width, uint32_t height,
	uint8_t fill)
{
	struct comp_target *t = calloc(1, sizeof(*t));

	CHECK(t);
	t->fourcc = fourcc;
	t->width = width;
	t->height = height;
	t->stride = width * 4;
	t->data = malloc((size_t)t->stride * height);
	CHECK(t->data);
	memset(t->data, fill, (size_t)t->stride * height);
	return t;
}

void test_target_destroy(struct comp_target *t)
{
	if (t) {
		free(t->data);
		free(t);
	}
}

uint32_t test_target_get(const struct comp_target *t, uint32_t x, uint32_t y)
{
	const uint8_t *p = t->data + (size_t)y * t->stride + (size_t)x * 4;

	if (t->fourcc == DRM_FORMAT_ABGR8888 || t->fourcc == DRM_FORMAT_XBGR8888) {
		return RGBA(p[0], p[1], p[2], p[3]);
	}
	return RGBA(p[2], p[1], p[0], p[3]);
}

struct scene_layer test_layer(const struct scene_image *img, struct hwct_frect crop,
	struct hwct_rect frame, int32_t transform, int32_t blend, float alpha, uint32_t color)
{
	return (struct scene_layer){
		.composition = img ? HWC2_COMPOSITION_CLIENT : HWC2_COMPOSITION_SOLID_COLOR,
		.image = img,
		.crop = crop,
		.frame = frame,
		.transform = transform,
		.blend = blend,
		.alpha = alpha,
		.color = color,
		.acquire_fence = -1,
	};
}

int test_max_diff(uint32_t a, uint32_t b, bool with_alpha)
{
	int max = 0;

	for (int i = 0; i < (with_alpha ? 4 : 3); i++) {
		int d = abs((int)CH(a, i) - (int)CH(b, i));

		max = d > max ? d : max;
	}
	return max;
}

uint32_t test_rand(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}
