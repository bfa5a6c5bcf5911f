/*
 * Arguments compositor_compose must refuse with -EINVAL before drawing
 * anything (the target keeps its bytes), and the API around the impl table.
 *
 * Usage: test-compositor-invalid IMPL CASE (IMPL "gl": 77 without EGL).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "fourcc.h"
#include "testlib.h"

struct invalid_input {
	struct scene_image *img;
	struct scene_layer layers[2];
	const struct scene_layer *ptrs[2];
	struct comp_target *target;
};

static void mutate_format(struct invalid_input *in)
{
	in->img->fourcc = DRM_FORMAT_YUYV;
}

static void mutate_size(struct invalid_input *in)
{
	in->img->size = 15;
}

static void mutate_planes(struct invalid_input *in)
{
	in->img->plane_count = 2;
}

static void mutate_modifier(struct invalid_input *in)
{
	in->img->modifier = I915_FORMAT_MOD_X_TILED;
}

static void mutate_stride(struct invalid_input *in)
{
	in->img->stride[0] = 4;
}

static void mutate_alpha(struct invalid_input *in)
{
	in->layers[1].alpha = NAN;
}

static void mutate_crop_empty(struct invalid_input *in)
{
	in->layers[1].crop.right = 0;
}

static void mutate_crop_nan(struct invalid_input *in)
{
	in->layers[1].crop.top = NAN;
}

static void mutate_transform(struct invalid_input *in)
{
	in->layers[1].transform = 8;
}

static void mutate_blend(struct invalid_input *in)
{
	in->layers[1].blend = 4;
}

static void mutate_no_image(struct invalid_input *in)
{
	in->layers[1].image = NULL;
}

static void mutate_null_layer(struct invalid_input *in)
{
	in->ptrs[1] = NULL;
}

static void mutate_target_stride(struct invalid_input *in)
{
	in->target->stride = 12;
}

static void mutate_target_format(struct invalid_input *in)
{
	in->target->fourcc = DRM_FORMAT_RGB565;
}

static void run_invalid(const void *data)
{
	void (*mutate)(struct invalid_input *) = *(void (*const *)(struct invalid_input *))data;
	struct invalid_input in = { .img = test_image_create(DRM_FORMAT_ABGR8888, 2, 2, 0) };

	in.target = test_target_create(DRM_FORMAT_ARGB8888, 4, 4, 0xab);
	test_image_seal(in.img);
	/* a valid layer first: nothing may be drawn before the bad one is seen */
	in.layers[0] = test_layer(NULL, test_frect(0, 0, 1, 1), test_rect(0, 0, 4, 4), 0,
		HWC2_BLEND_MODE_NONE, 1.0f, RGBA(1, 2, 3, 255));
	in.layers[1] = test_layer(in.img, test_frect(0, 0, 2, 2), test_rect(0, 0, 2, 2), 0,
		HWC2_BLEND_MODE_PREMULTIPLIED, 1.0f, 0);
	in.ptrs[0] = &in.layers[0];
	in.ptrs[1] = &in.layers[1];
	mutate(&in);
	int ret = compositor_compose(test_comp, NULL, in.ptrs, 2, 0, in.target);
	CHECK_MSG(ret == -EINVAL, "got %d", ret);
	for (size_t i = 0; i < 4 * 16; i++) {
		CHECK(in.target->data[i] == 0xab);
	}
	in.target->stride = 16;
	test_target_destroy(in.target);
	test_image_destroy(in.img);
}

typedef void (*mutation)(struct invalid_input *);
static const mutation mutations[] = {
	mutate_format, mutate_size, mutate_planes, mutate_modifier, mutate_stride,
	mutate_alpha, mutate_crop_empty, mutate_crop_nan, mutate_transform, mutate_blend,
	mutate_no_image, mutate_null_layer, mutate_target_stride, mutate_target_format,
};

static void run_api(const void *data)
{
	struct comp_target *t = test_target_create(DRM_FORMAT_ABGR8888, 2, 2, 0xab);
	struct compositor *any;
	bool pixman = false;

	errno = 0;
	CHECK(!compositor_create("no-such-compositor") && errno == ENOENT);
	for (size_t i = 0; compositor_impls[i]; i++) {
		pixman |= strcmp(compositor_impls[i]->name, "pixman") == 0;
	}
	CHECK(pixman);
	any = compositor_create(NULL);
	CHECK(any);
	compositor_destroy(any);
	compositor_destroy(NULL);
	CHECK(compositor_compose(NULL, NULL, NULL, 0, 0, t) == -EINVAL);
	CHECK(compositor_compose(test_comp, NULL, NULL, 0, 0, NULL) == -EINVAL);
	/* no layers: the background alone */
	CHECK(compositor_compose(test_comp, NULL, NULL, 0, RGBA(9, 8, 7, 6), t) == 0);
	for (uint32_t i = 0; i < 4; i++) {
		test_expect_pixel(t, i % 2, i / 2, RGBA(9, 8, 7, 6), 0);
	}
	test_target_destroy(t);
}

static const struct test_case cases[] = {
	{ "invalid-format", run_invalid, &mutations[0] },
	{ "invalid-image-size", run_invalid, &mutations[1] },
	{ "invalid-plane-count", run_invalid, &mutations[2] },
	{ "invalid-modifier", run_invalid, &mutations[3] },
	{ "invalid-stride", run_invalid, &mutations[4] },
	{ "invalid-alpha-nan", run_invalid, &mutations[5] },
	{ "invalid-crop-empty", run_invalid, &mutations[6] },
	{ "invalid-crop-nan", run_invalid, &mutations[7] },
	{ "invalid-transform", run_invalid, &mutations[8] },
	{ "invalid-blend", run_invalid, &mutations[9] },
	{ "invalid-no-image", run_invalid, &mutations[10] },
	{ "invalid-null-layer", run_invalid, &mutations[11] },
	{ "invalid-target-stride", run_invalid, &mutations[12] },
	{ "invalid-target-format", run_invalid, &mutations[13] },
	{ "api", run_api, NULL },
};

int main(int argc, char **argv)
{
	return test_compositor_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
