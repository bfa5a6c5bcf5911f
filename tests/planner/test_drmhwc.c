/*
 * The "drmhwc" planner, rule by rule (docs/drmhwc.md names the case that
 * tests each rule), and the four situations drm_hwcomposer 1d5e2015 was
 * seen in on vkms 6.1 (issue 13). Boards: the vkms 6.1 dumps of
 * tests/data/boards (primary 31 XR24/XR48/RG16 only, overlays 33..47 and
 * cursor 49 AR24/XR24/XR48/AR48/RG16, LINEAR, no scaling, rotation, alpha,
 * blend or zpos property), and small boards built here. Every expected
 * line was worked out by hand from the rules, not copied from a run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "testlib.h"

#define W 1024
#define H 768

/*
 * A board by hand: primary 30 and overlays 40, 41, each XR24 and AR24,
 * LINEAR, nothing else; the unknown driver's rules (positionable primary).
 */
static struct board *three_plane_board(void)
{
	struct board *board = board_create("three");
	const uint32_t ids[] = { 30, 40, 41 };

	board->width = W;
	board->height = H;
	for (int i = 0; i < 3; i++) {
		struct board_plane *p = board_add_plane(board, ids[i],
			i ? BOARD_PLANE_OVERLAY : BOARD_PLANE_PRIMARY);

		p->possible_crtcs = 1;
		board_plane_add_format(p, XR24, BOARD_MOD_LINEAR);
		board_plane_add_format(p, AR24, BOARD_MOD_LINEAR);
	}
	board_apply_rules(board);
	return board;
}

static struct planner_options no_client_target(void)
{
	struct planner_options opts;

	planner_options_init(&opts);
	opts.flags = PLANNER_DRMHWC_NO_CLIENT_TARGET;
	return opts;
}

/* Plans, checks the line and the number of TEST_ONLY calls, frees. */
static void expect(const struct board *board, const struct tl_scene *s,
	const struct planner_options *opts, const char *want, unsigned tests)
{
	struct plan *plan = tl_plan("drmhwc", board, &s->scene, NULL, opts);

	CHECK_STR(tl_line(plan), want);
	CHECK_INT(plan->test_count, tests);
	/* what the plan says passes the board's check (all client: the target alone) */
	CHECK_INT(tl_retest(board, &s->scene, plan), 0);
	plan_destroy(plan);
}

/*
 * Situation 1: traces/home.zst on vkms 6.1 - every layer ABGR8888, which no
 * plane scans out. vkms's ADDFB2 takes the buffers; the plan skips every
 * plane for the format, runs out, and everything is client, untested.
 */
static void case_abgr_vkms(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct tl_scene s;

	CHECK(!board->addfb_checks_format);
	tl_scene_init(&s, W, H);
	tl_scene_add(&s, AB24, 0, 0, W, H);
	tl_scene_add(&s, AB24, 0, 0, W, 48);
	tl_scene_add(&s, AB24, 100, 100, 600, 500);
	tl_scene_add(&s, AB24, 0, 720, W, 48);
	expect(board, &s, NULL, "0:client(format,test-failed), 1:client(format,test-failed), "
		"2:client(format,test-failed), 3:client(format,test-failed), target:plane 31", 0);
	/* One layer in a format the planes have does not help: still all or nothing. */
	s.images[0].fourcc = XR24;
	expect(board, &s, NULL, "0:client(test-failed), 1:client(format,test-failed), "
		"2:client(format,test-failed), 3:client(format,test-failed), target:plane 31", 0);
	board_destroy(board);
}

/*
 * Where ADDFB2 refuses a format no plane has (i915, amdgpu, vmwgfx), the
 * layer's import fails and it is a client layer from the start; the rest
 * is planned around it.
 */
static void case_addfb_refuses(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct tl_scene s;

	board->addfb_checks_format = true;
	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	tl_scene_add(&s, AB24, 100, 100, 200, 200);
	tl_scene_add(&s, AR24, 400, 100, 200, 200);
	expect(board, &s, NULL, "0:plane 31, 1:client(format,import), 2:plane 35, target:plane 33", 1);
	board_destroy(board);
}

/*
 * Situation 2: an 800x600 ARGB8888 trace letterboxed x1.28 onto vkms's
 * 1024x768 - every layer scaled. drm_hwcomposer never checks scaling: the
 * bottom layer skips the primary (no AR24), all five go on overlays, the
 * one TEST_ONLY fails on scaling, and everything is client.
 */
static void case_scaled_vkms(const char *dir)
{
	static const int32_t rects[5][4] = {
		{ 0, 0, 800, 600 }, { 0, 0, 800, 40 }, { 75, 75, 475, 400 }, { 0, 560, 800, 40 },
		{ 475, 400, 225, 125 },
	};
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct tl_scene s;

	tl_scene_init(&s, W, H);
	for (int i = 0; i < 5; i++) {
		struct scene_layer *l = tl_scene_add(&s, AR24, rects[i][0], rects[i][1], rects[i][2],
			rects[i][3]);

		l->crop = (struct hwct_frect){ 0, 0, (float)rects[i][2], (float)rects[i][3] };
		l->frame = (struct hwct_rect){ rects[i][0] * 128 / 100, rects[i][1] * 128 / 100,
			(rects[i][0] + rects[i][2]) * 128 / 100, (rects[i][1] + rects[i][3]) * 128 / 100 };
	}
	expect(board, &s, NULL, "0:client(scaling,test-failed), 1:client(scaling,test-failed), "
		"2:client(scaling,test-failed), 3:client(scaling,test-failed), "
		"4:client(scaling,test-failed), target:plane 31", 1);
	board_destroy(board);
}

/*
 * Situation 3: a 1024x768 ARGB8888 stack of five on vkms with 8 overlays.
 * The primary (no AR24) is skipped and stays off, the layers fill the
 * overlays in id order, one test passes: every layer DEVICE. A layer the
 * recording device made CLIENT (validate's changed type) but that was
 * asked for as DEVICE goes on a plane: only the request counts.
 */
static void case_stack_argb_vkms(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct hwct_layer recorded = { .requested = HWC2_COMPOSITION_DEVICE,
		.final = HWC2_COMPOSITION_CLIENT };
	struct tl_scene s;
	struct plan *plan;

	tl_scene_init(&s, W, H);
	tl_scene_add(&s, AR24, 0, 0, W, H);
	tl_scene_add(&s, AR24, 0, 0, W, 48);
	tl_scene_add(&s, AR24, 100, 100, 600, 500)->recorded = &recorded;
	tl_scene_add(&s, AR24, 0, 720, W, 48);
	tl_scene_add(&s, AR24, 600, 500, 300, 150);
	plan = tl_plan("drmhwc", board, &s.scene, NULL, NULL);
	CHECK_STR(tl_line(plan), "0:plane 33, 1:plane 35, 2:plane 37, 3:plane 39, 4:plane 41");
	CHECK_INT(plan->test_count, 1);
	CHECK(!plan->needs_client_target);
	for (size_t i = 0; i < plan->state_count; i++) {
		CHECK(plan->states[i].plane_id != 31);
	}
	CHECK_INT(tl_retest(board, &s.scene, plan), 0);
	plan_destroy(plan);
	board_destroy(board);
}

/*
 * Situation 4: a CLIENT layer on a display never given a client target.
 * drm_hwcomposer tests with the last client target it was given; with none
 * the composition cannot be built (BadLayer) and everything is client,
 * with no TEST_ONLY. Once one was given, the same frame is planned. A frame
 * with no client layer does not need one.
 */
static void case_no_client_target(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct planner_options first = no_client_target();
	struct tl_scene s;

	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	tl_scene_add(&s, AR24, 100, 100, 400, 300)->composition = HWC2_COMPOSITION_CLIENT;
	tl_scene_add(&s, AR24, 600, 100, 300, 300);
	expect(board, &s, &first, "0:client(test-failed), 1:client(client-requested), "
		"2:client(test-failed), target:plane 31", 0);
	expect(board, &s, NULL, "0:plane 31, 1:client(client-requested), 2:plane 35, target:plane 33", 1);
	s.layers[1].composition = HWC2_COMPOSITION_DEVICE;
	expect(board, &s, &first, "0:plane 31, 1:plane 33, 2:plane 35", 1);
	board_destroy(board);
}

/*
 * Forced to the client: a type other than DEVICE and CURSOR - SOLID_COLOR
 * too, even on planes that fill colour (drm_hwcomposer ignores the
 * colour), SIDEBAND - and a layer with no buffer. CURSOR is DEVICE.
 */
static void case_forced(const char *dir)
{
	struct board *board = three_plane_board();
	struct tl_scene s;
	struct scene_layer *l;

	(void)dir;
	for (size_t i = 0; i < board->plane_count; i++) {
		board->planes[i].solid_fill = true;
	}
	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	l = tl_scene_add(&s, AR24, 100, 100, 100, 100);
	l->composition = HWC2_COMPOSITION_SOLID_COLOR;
	l->image = NULL;
	expect(board, &s, NULL, "0:plane 30, 1:client(solid-color), target:plane 40", 1);
	l->composition = HWC2_COMPOSITION_SIDEBAND;
	expect(board, &s, NULL, "0:plane 30, 1:client(client-requested,import), target:plane 40", 1);
	l->composition = HWC2_COMPOSITION_DEVICE;
	expect(board, &s, NULL, "0:plane 30, 1:client(import), target:plane 40", 1);
	l->image = &s.images[1];
	l->composition = HWC2_COMPOSITION_CURSOR;
	expect(board, &s, NULL, "0:plane 30, 1:plane 40", 1);
	board_destroy(board);
}

/*
 * Client layers make one contiguous range: a DEVICE layer between two
 * client layers is client too (zpos).
 */
static void case_range_merge(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct tl_scene s;

	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	tl_scene_add(&s, AR24, 0, 0, 100, 100)->composition = HWC2_COMPOSITION_CLIENT;
	tl_scene_add(&s, AR24, 200, 0, 100, 100);
	tl_scene_add(&s, AR24, 400, 0, 100, 100)->composition = HWC2_COMPOSITION_CLIENT;
	tl_scene_add(&s, AR24, 600, 0, 100, 100);
	expect(board, &s, NULL, "0:plane 31, 1:client(client-requested), 2:client(zpos), "
		"3:client(client-requested), 4:plane 35, target:plane 33", 1);
	board_destroy(board);
}

/*
 * More layers than planes: one plane is kept for the client target, the
 * range is as long as the overflow and slides to the position covering
 * the fewest display-frame pixels (the first of equals). Three planes, five
 * layers: a range of three.
 */
static void case_range_overflow(const char *dir)
{
	struct board *board = three_plane_board();
	struct tl_scene s;

	(void)dir;
	/* Big, small, small, small, big: the middle three. */
	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	tl_scene_add(&s, AR24, 0, 0, 10, 10);
	tl_scene_add(&s, AR24, 20, 0, 10, 10);
	tl_scene_add(&s, AR24, 40, 0, 10, 10);
	tl_scene_add(&s, AR24, 0, 100, W, 600);
	expect(board, &s, NULL, "0:plane 30, 1:client(no-plane), 2:client(no-plane), "
		"3:client(no-plane), 4:plane 41, target:plane 40", 1);
	/* All small over the wallpaper: 1..3 and 2..4 cover as much; the first is taken. */
	s.layers[4].frame = (struct hwct_rect){ 60, 0, 70, 10 };
	s.images[4].width = s.images[4].height = 10;
	s.layers[4].crop = (struct hwct_frect){ 0, 0, 10, 10 };
	expect(board, &s, NULL, "0:plane 30, 1:client(no-plane), 2:client(no-plane), "
		"3:client(no-plane), 4:plane 41, target:plane 40", 1);
	/*
	 * A CLIENT layer at 3: the range grows by the overflow (two), first
	 * from 1 (as far down as it may go), then tried one step up; 2..4
	 * covers fewer pixels than 1..3 when layer 1 is big.
	 */
	s.layers[1].frame = (struct hwct_rect){ 0, 0, W, 600 };
	s.images[1].width = W;
	s.images[1].height = 600;
	s.layers[1].crop = (struct hwct_frect){ 0, 0, W, 600 };
	s.layers[3].composition = HWC2_COMPOSITION_CLIENT;
	expect(board, &s, NULL, "0:plane 30, 1:plane 40, 2:client(no-plane), "
		"3:client(client-requested), 4:client(no-plane), target:plane 41", 1);
	board_destroy(board);
}

/*
 * The client target takes the plane at the z of the range, like a layer:
 * the first plane left that takes its format. At the bottom it is
 * XRGB8888 by default, which vkms's primary takes; an ARGB8888 one skips
 * the primary (and leaves it off).
 */
static void case_client_target_plane(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct planner_options opts;
	struct tl_scene s;

	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H)->composition = HWC2_COMPOSITION_CLIENT;
	tl_scene_add(&s, AR24, 100, 100, 100, 100);
	expect(board, &s, NULL, "0:client(client-requested), 1:plane 33, target:plane 31", 1);
	planner_options_init(&opts);
	opts.client_fourcc = AR24;
	expect(board, &s, &opts, "0:client(client-requested), 1:plane 35, target:plane 33", 1);
	board_destroy(board);
}

static const struct tl_case cases[] = {
	{ "abgr-vkms", case_abgr_vkms },
	{ "addfb-refuses", case_addfb_refuses },
	{ "scaled-vkms", case_scaled_vkms },
	{ "stack-argb-vkms", case_stack_argb_vkms },
	{ "no-client-target", case_no_client_target },
	{ "forced", case_forced },
	{ "range-merge", case_range_merge },
	{ "range-overflow", case_range_overflow },
	{ "client-target-plane", case_client_target_plane },
};

int main(int argc, char **argv)
{
	return tl_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
