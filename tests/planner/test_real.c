/*
 * Planner table tests on the real boards' pasted drm_info text (no
 * device): the Canaan K230's YUV-only overlays and its one rotating plane,
 * the i915's tiled/compressed modifiers present on two pipes of three, the
 * hibmc with no IN_FORMATS. The search planner (which checks every plane
 * capability and modifiers) plans, and the static check of each plane says
 * why the others are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "plane_check.h"
#include "testlib.h"

#define K230 "real/canaan-drm-tdisplay-k230.txt"
#define I915 "real/i915-display-top.txt"
#define HIBMC "real/hibmc-martins3-kunpeng.txt"

#define I915_X_TILED 0x0100000000000001ull
#define I915_Y_TILED_CCS 0x0100000000000004ull

/* K230 planes (object ids): YUV-only overlays, RGB primary, the one plane with rotation. */
#define K230_YUV_A 31
#define K230_PRIMARY 33
#define K230_YUV_ROT 43

static const struct board_plane *plane(const struct board *b, uint32_t id)
{
	const struct board_plane *p = board_find_plane(b, id);

	if (!p) {
		fprintf(stderr, "no plane %u\n", (unsigned)id);
		abort();
	}
	return p;
}

static bool is_yuv_plane(uint32_t id)
{
	return id == 31 || id == 41 || id == K230_YUV_ROT;
}

/* A full-screen ARGB8888 wallpaper, an NV12 video, an XRGB8888 window no plane scans out. */
static void case_k230_yuv(const char *dir)
{
	struct board *b = tl_board(dir, K230);
	struct tl_scene s;
	struct plan *plan;

	tl_scene_init(&s, b->width, b->height);
	tl_scene_add(&s, AR24, 0, 0, (int32_t)b->width, (int32_t)b->height);
	tl_scene_add(&s, NV12, 0, 200, 568, 320);
	tl_scene_add(&s, XR24, 50, 700, 300, 200);
	/* The static facts: a YUV-only overlay takes NV12 and refuses RGB for its format alone. */
	CHECK_INT(plane_check(b, plane(b, K230_YUV_A), &s.scene, 1, 0), 0);
	CHECK_INT(plane_check(b, plane(b, K230_YUV_A), &s.scene, 2, 0), PLAN_REASON_FORMAT);
	CHECK_INT(plane_check(b, plane(b, K230_PRIMARY), &s.scene, 1, 0), PLAN_REASON_FORMAT);
	/*
	 * drm_hwcomposer on a driver whose ADDFB2 takes any format (canaan-drm
	 * is not known to check): the XRGB8888 window is planned, no plane
	 * takes it, the plan fails and everything is client.
	 */
	plan = tl_plan("drmhwc", b, &s.scene, NULL, NULL);
	CHECK_STR(tl_line(plan), "0:client(test-failed), 1:client(test-failed), "
		"2:client(format,test-failed), target:plane 33");
	plan_destroy(plan);
	/* Where ADDFB2 refuses it, the window alone is client; the rest is planned. */
	b->addfb_checks_format = true;
	for (size_t i = 0; i < 2; i++) {
		const char *name = i ? "search" : "drmhwc";

		plan = tl_plan(name, b, &s.scene, NULL, NULL);
		CHECK(is_yuv_plane(plan->layers[1].plane_id), "%s: NV12 on a YUV plane: %s", name,
			tl_line(plan));
		CHECK(plan_layer_is_client(&plan->layers[2]), "%s: %s", name, tl_line(plan));
		CHECK(plan->layers[2].reasons & PLAN_REASON_FORMAT, "%s: %s", name, tl_line(plan));
		plan_destroy(plan);
	}
	board_destroy(b);
}

/* An NV12 video turned a quarter: only plane 43 has rotate-90. */
static void case_k230_rotated(const char *dir)
{
	struct board *b = tl_board(dir, K230);
	struct scene_layer *l;
	struct tl_scene s;
	struct plan *plan;

	tl_scene_init(&s, b->width, b->height);
	tl_scene_add(&s, AR24, 0, 0, (int32_t)b->width, (int32_t)b->height);
	l = tl_scene_add(&s, NV12, 100, 100, 300, 400);
	l->transform = HAL_TRANSFORM_ROT_90;
	l->crop = (struct hwct_frect){ 0, 0, 400, 300 };
	s.images[1].width = 400;
	s.images[1].height = 300;
	CHECK_INT(plane_check(b, plane(b, K230_YUV_A), &s.scene, 1, 0), PLAN_REASON_ROTATION);
	CHECK_INT(plane_check(b, plane(b, K230_YUV_ROT), &s.scene, 1, 0), 0);
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	CHECK_INT(plan->layers[1].plane_id, K230_YUV_ROT);
	plan_destroy(plan);
	/* Unrotated, any YUV plane will do. */
	l->transform = 0;
	l->crop = (struct hwct_frect){ 0, 0, 300, 400 };
	s.images[1].width = 300;
	s.images[1].height = 400;
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	CHECK(is_yuv_plane(plan->layers[1].plane_id), "%s", tl_line(plan));
	plan_destroy(plan);
	board_destroy(b);
}

/* Y-tiled CCS XRGB8888: on pipes A and B, not on pipe C. */
static void case_i915_modifier(const char *dir)
{
	struct board *b = tl_board(dir, I915);
	struct tl_scene s;
	struct plan *plan;

	tl_scene_init(&s, b->width, b->height);
	tl_scene_add(&s, XR24, 0, 0, (int32_t)b->width, (int32_t)b->height);
	tl_scene_add(&s, AR24, 100, 100, 640, 480);
	s.images[0].modifier = I915_Y_TILED_CCS;
	CHECK_INT(b->crtc_index, 0);
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	CHECK_INT(plan->layers[0].plane_id, 32);
	CHECK_INT(plan->layers[1].plane_id, 40);
	plan_destroy(plan);
	/* The same stack on pipe C (CRTC index 2): its primary lacks the CCS modifiers. */
	b->crtc_index = 2;
	b->crtc_id = b->crtc_ids[2];
	CHECK_INT(plane_check(b, plane(b, 76), &s.scene, 0, 0), PLAN_REASON_MODIFIER);
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	CHECK(plan_layer_is_client(&plan->layers[0]), "%s", tl_line(plan));
	CHECK(plan->layers[0].reasons & PLAN_REASON_MODIFIER, "%s", tl_line(plan));
	CHECK(plan->layers[1].plane_id == 76 || plan->layers[1].plane_id == 84, "%s", tl_line(plan));
	plan_destroy(plan);
	/* Planes of other pipes are never used. */
	b->crtc_index = 1;
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	for (size_t i = 0; i < plan->layer_count; i++) {
		uint32_t id = plan->layers[i].plane_id;

		CHECK(id == 0 || id == 54 || id == 62, "%s", tl_line(plan));
	}
	plan_destroy(plan);
	board_destroy(b);
}

/* No IN_FORMATS: the Formats list with LINEAR (and the implicit modifier), nothing tiled. */
static void case_hibmc_no_in_formats(const char *dir)
{
	struct board *b = tl_board(dir, HIBMC);
	struct tl_scene s;
	struct plan *plan;

	tl_scene_init(&s, b->width, b->height);
	tl_scene_add(&s, AB24, 0, 0, (int32_t)b->width, (int32_t)b->height);
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	CHECK_INT(plan->layers[0].plane_id, 28);
	plan_destroy(plan);
	s.images[0].modifier = BOARD_MOD_INVALID;
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	CHECK_INT(plan->layers[0].plane_id, 28);
	plan_destroy(plan);
	s.images[0].modifier = I915_X_TILED;
	CHECK_INT(plane_check(b, plane(b, 28), &s.scene, 0, 0), PLAN_REASON_MODIFIER);
	plan = tl_plan("search", b, &s.scene, NULL, NULL);
	CHECK(plan_layer_is_client(&plan->layers[0]) &&
		(plan->layers[0].reasons & PLAN_REASON_MODIFIER), "%s", tl_line(plan));
	plan_destroy(plan);
	board_destroy(b);
}

static const struct tl_case cases[] = {
	{ "k230-yuv", case_k230_yuv },
	{ "k230-rotated", case_k230_rotated },
	{ "i915-modifier", case_i915_modifier },
	{ "hibmc-no-in-formats", case_hibmc_no_in_formats },
};

int main(int argc, char **argv)
{
	return tl_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
