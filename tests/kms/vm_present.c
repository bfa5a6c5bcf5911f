/*
 * Device cases that present frames (kms_vm_test): the three-plane blend
 * against the CPU reference, format fallbacks, and TEST_ONLY refusals that
 * leave the screen as it was.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#include "planner.h"
#include "vm_cases.h"

/* Primary XRGB8888 full screen, two overlapping ARGB8888 overlays. */
static void three_layers(const struct vt_ctx *ctx, const struct vt_image img[3], struct vt_layer l[3])
{
	l[0] = (struct vt_layer){ &img[0], ctx->primary, 0, 0, 0, 0, true, -1 };
	l[1] = (struct vt_layer){ &img[1], ctx->overlays[0], 20, 30, 0, 0, false, -1 };
	l[2] = (struct vt_layer){ &img[2], ctx->overlays[1], 60, 50, 0, 0, false, -1 };
}

static bool make_three(struct vt_image img[3], uint32_t seed)
{
	return CHECK(vt_image_make(&img[0], DRM_FORMAT_XRGB8888, VT_WIDTH, VT_HEIGHT, seed, true) &&
		vt_image_make(&img[1], DRM_FORMAT_ARGB8888, 64, 48, seed + 1, false) &&
		vt_image_make(&img[2], DRM_FORMAT_ARGB8888, 96, 64, seed + 2, false), "out of memory");
}

static void free_images(struct vt_image *img, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		vt_image_free(&img[i]);
	}
}

bool vt_case_blend(struct vt_ctx *ctx)
{
	struct vt_image img[3];
	struct vt_layer layers[3];
	struct vt_frame frame;
	bool ok = make_three(img, 1);

	three_layers(ctx, img, layers);
	ok = ok && vt_frame_build(ctx, &frame, layers, 3);
	if (!ok) {
		free_images(img, 3);
		return false;
	}
	for (size_t i = 0; i < 3; i++) {
		ok = CHECK(!frame.imports[i].converted && !frame.imports[i].cache_hit,
			"layer %zu: unexpected conversion or cache hit", i) && ok;
	}
	ok = vt_present_and_check(ctx, &frame, layers, 3, "blend") && ok;
	vt_frame_finish(&frame);
	/* the same images again: cache hits, same frame */
	if (ok && vt_frame_build(ctx, &frame, layers, 3)) {
		for (size_t i = 0; i < 3; i++) {
			ok = CHECK(frame.imports[i].cache_hit, "layer %zu: no cache hit", i) && ok;
		}
		ok = vt_present_and_check(ctx, &frame, layers, 3, "blend (cached)") && ok;
		vt_frame_finish(&frame);
	}
	free_images(img, 3);
	return ok;
}

bool vt_case_fallback(struct vt_ctx *ctx)
{
	static const char *const want[3] = {
		"format fallback AB24\u2192XR24", "format fallback AB24\u2192AR24",
		"format fallback XB24\u2192XR24",
	};
	struct vt_image img[3];
	struct vt_layer layers[3];
	struct vt_frame frame;
	bool ok = CHECK(vt_image_make(&img[0], DRM_FORMAT_ABGR8888, VT_WIDTH, VT_HEIGHT, 40, true) &&
		vt_image_make(&img[1], DRM_FORMAT_ABGR8888, 80, 60, 41, false) &&
		vt_image_make(&img[2], DRM_FORMAT_XBGR8888, 50, 40, 42, true), "out of memory");

	layers[0] = (struct vt_layer){ &img[0], ctx->primary, 0, 0, 0, 0, true, -1 };
	layers[1] = (struct vt_layer){ &img[1], ctx->overlays[0], 40, 40, 0, 0, false, -1 };
	layers[2] = (struct vt_layer){ &img[2], ctx->overlays[1], 150, 100, 0, 0, true, -1 };
	ok = ok && vt_frame_build(ctx, &frame, layers, 3);
	if (!ok) {
		free_images(img, 3);
		return false;
	}
	for (size_t i = 0; i < 3; i++) {
		char desc[64];

		kms_import_describe(&frame.imports[i], desc, sizeof(desc));
		printf("fallback: layer %zu on plane %u: %s\n", i, layers[i].plane_id, desc);
		ok = CHECK(frame.imports[i].converted && strcmp(desc, want[i]) == 0,
			"layer %zu: \"%s\", expected \"%s\"", i, desc, want[i]) && ok;
	}
	/* the primary takes no alpha format: a blended ABGR layer has no fallback there */
	{
		struct kms_import imp;
		int ret = kms_fb_import(ctx->dev, NULL, &img[1].img,
			board_find_plane(kms_device_board(ctx->dev), ctx->primary), false, &imp);

		ok = CHECK(ret == -ENOTSUP, "blended AB24 on the primary: %d, expected -ENOTSUP",
			ret) && ok;
		if (ret == 0) {
			kms_fb_unref(imp.fb);
		}
	}
	ok = vt_present_and_check(ctx, &frame, layers, 3, "fallback") && ok;
	vt_frame_finish(&frame);
	free_images(img, 3);
	return ok;
}

/* TEST_ONLY of layers; checks the result is want. */
static bool test_only(struct vt_ctx *ctx, const struct vt_layer *layers, size_t n, int want,
	const char *what)
{
	struct vt_frame frame;
	struct kms_commit_args args;
	int ret;

	if (!vt_frame_build(ctx, &frame, layers, n)) {
		return false;
	}
	args = vt_frame_args(ctx, &frame, false);
	ret = kms_commit_test(ctx->dev, &args);
	vt_frame_finish(&frame);
	printf("test-only: %s: %d (%s)\n", what, ret, ret ? strerror(-ret) : "accepted");
	return CHECK(ret == want, "%s: TEST_ONLY gave %d, expected %d", what, ret, want) &&
		CHECK(want == 0 || board_tester_refused(ret), "%s: not a refusal", what);
}

/* The planner "search" over the KMS tester: every test it makes is a TEST_ONLY commit. */
static bool plan_with_device(struct vt_ctx *ctx, const struct vt_frame *frame)
{
	struct kms_tester *t = kms_tester_create(ctx->dev, ctx->cache);
	struct board_tester tester;
	struct planner_options opts;
	struct plan *plan = NULL;
	char line[256];
	bool ok;
	int ret;

	/* no time budget: TEST_ONLY commits under TCG take milliseconds */
	planner_options_init(&opts);
	opts.budget_ns = INT64_MAX;

	if (!CHECK(t != NULL, "out of memory")) {
		return false;
	}
	kms_tester_set_scene(t, &frame->scene);
	tester = kms_tester_board_tester(t);
	ret = planner_run(planner_find("search"), &opts, kms_device_board(ctx->dev), &frame->scene,
		&tester, &plan);
	ok = CHECK(ret == 0, "planner_run: %d", ret);
	if (ok) {
		printf("test-only: search plan over TEST_ONLY commits: %s (%u tests)\n",
			plan_format(plan, line, sizeof(line)), plan->test_count);
		ok = CHECK(plan->test_count == kms_tester_count(t),
			"planner counted %u tests, tester %u", plan->test_count, kms_tester_count(t));
	}
	plan_destroy(plan);
	kms_tester_destroy(t);
	return ok;
}

bool vt_case_test_only(struct vt_ctx *ctx)
{
	struct vt_image a[3], b[3], small;
	struct vt_layer la[3], lb[3], l[3];
	struct kms_readback_result res;
	struct vt_frame frame;
	uint8_t *ref = NULL;
	bool ok = make_three(a, 20) && make_three(b, 30) &&
		CHECK(vt_image_make(&small, DRM_FORMAT_XRGB8888, VT_WIDTH / 2, VT_HEIGHT / 2, 33, true),
			"out of memory");
	int ret;

	three_layers(ctx, a, la);
	three_layers(ctx, b, lb);
	if (!ok || !vt_frame_build(ctx, &frame, la, 3)) {
		return false;
	}
	ok = vt_present_and_check(ctx, &frame, la, 3, "test-only: frame A");
	vt_frame_finish(&frame);

	/* vkms: DRM_PLANE_NO_SCALING (-ERANGE), the primary must cover the CRTC (-EINVAL) */
	memcpy(l, lb, sizeof(l));
	l[1].w = 128;
	l[1].h = 96;
	ok = test_only(ctx, l, 3, -ERANGE, "scaled overlay") && ok;
	memcpy(l, lb, sizeof(l));
	l[0].image = &small;
	ok = test_only(ctx, l, 3, -EINVAL, "primary not full screen") && ok;
	ok = test_only(ctx, lb, 3, 0, "valid plan B") && ok;
	if (vt_frame_build(ctx, &frame, lb, 3)) {
		ok = plan_with_device(ctx, &frame) && ok;
		vt_frame_finish(&frame);
	}

	/* the screen still shows A */
	ret = kms_readback_capture(ctx->rb);
	ok = CHECK(ret == 0, "capture: %s", strerror(-ret)) && ok;
	if (ret == 0) {
		ret = kms_readback_finish(ctx->rb, VT_FENCE_MS, true, &res);
		ref = malloc((size_t)VT_WIDTH * VT_HEIGHT * 4);
		ok = CHECK(ret == 0 && ref, "capture readback: %d", ret) && ok;
		if (ret == 0 && ref) {
			vt_reference(la, 3, ref);
			ok = vt_compare(&res, ref, "test-only: screen after TEST_ONLY commits") && ok;
			kms_readback_result_finish(&res);
		}
		free(ref);
	}
	free_images(a, 3);
	free_images(b, 3);
	vt_image_free(&small);
	return ok;
}
