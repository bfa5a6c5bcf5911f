/*
 * The planners on the vkms 6.1 boards. Each expected plan below was worked
 * out by hand from the rules (vkms: primary XR24/XR48/RG16 only and
 * full-screen, overlays and cursor AR24/XR24/XR48/AR48/RG16, LINEAR, no
 * scaling, rotation, alpha, blend or zpos property; drmhwc.c and search.c
 * for the strategies), not copied from a run. Plane ids: overlays board
 * primary 31, overlays 33..47, cursor 49; no-overlays board primary 31,
 * cursor 33.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hardware/hwcomposer2.h>

#include "plane_check.h"
#include "testlib.h"

#define W 1024
#define H 768

/* Wallpaper, status bar, app window, navigation bar, a toast over the window. */
static void scene_stack5(struct tl_scene *s)
{
	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 0, 0, W, H);
	tl_scene_add(s, AR24, 0, 0, W, 48);
	tl_scene_add(s, AR24, 100, 100, 600, 500);
	tl_scene_add(s, AR24, 0, 720, W, 48);
	tl_scene_add(s, AR24, 600, 500, 300, 150);
}

/* vkms 6.1 has no ABGR8888 (added in 6.15). */
static void scene_abgr(struct tl_scene *s)
{
	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 0, 0, W, H);
	tl_scene_add(s, AB24, 100, 100, 200, 200);
}

/* A 200x150 buffer shown at 400x300. */
static void scene_scaled(struct tl_scene *s)
{
	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 0, 0, W, H);
	tl_scene_add(s, AR24, 100, 100, 400, 300)->crop = (struct hwct_frect){ 0, 0, 200, 150 };
	s->images[1].width = 200;
	s->images[1].height = 150;
}

/* A 400x300 buffer turned a quarter clockwise into a 300x400 frame (no scaling). */
static void scene_rotated(struct tl_scene *s)
{
	struct scene_layer *l;

	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 0, 0, W, H);
	l = tl_scene_add(s, AR24, 100, 100, 300, 400);
	l->transform = HAL_TRANSFORM_ROT_90;
	l->crop = (struct hwct_frect){ 0, 0, 400, 300 };
	s->images[1].width = 400;
	s->images[1].height = 300;
}

static void scene_nv12(struct tl_scene *s)
{
	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 0, 0, W, H);
	tl_scene_add(s, NV12, 100, 100, 400, 300);
}

static void scene_alpha(struct tl_scene *s)
{
	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 0, 0, W, H);
	tl_scene_add(s, AR24, 100, 100, 400, 300)->alpha = 0.5f;
}

/* Two windows, neither full-screen: the bottom one cannot be vkms's primary. */
static void scene_windowed(struct tl_scene *s)
{
	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 100, 100, 400, 300);
	tl_scene_add(s, AR24, 600, 100, 300, 300);
}

/* The middle layer asked for CLIENT. */
static void scene_client(struct tl_scene *s)
{
	tl_scene_init(s, W, H);
	tl_scene_add(s, XR24, 0, 0, W, H);
	tl_scene_add(s, AR24, 100, 100, 400, 300)->composition = HWC2_COMPOSITION_CLIENT;
	tl_scene_add(s, AR24, 600, 100, 300, 300);
}

struct plan_case {
	const char *name;
	const char *board;
	void (*scene)(struct tl_scene *s);
	const char *planner;
	const char *want;	/* plan_format line */
	int tests;		/* TEST_ONLY calls, -1 unchecked */
};

#define OV VKMS_OVERLAYS
#define NO VKMS_NO_OVERLAYS

static const struct plan_case plan_cases[] = {
	/* Everything fits: drmhwc fills planes bottom-up by id, search top-down by rank. */
	{ "stack5-overlays-drmhwc", OV, scene_stack5, "drmhwc",
		"0:plane 31, 1:plane 33, 2:plane 35, 3:plane 37, 4:plane 39", 1 },
	{ "stack5-overlays-search", OV, scene_stack5, "search",
		"0:plane 31, 1:plane 43, 2:plane 45, 3:plane 47, 4:plane 49", 5 },
	/* drm_hwcomposer uses primary and overlays only: one plane, kept for the client target. */
	{ "stack5-no-overlays-drmhwc", NO, scene_stack5, "drmhwc",
		"0:client(no-plane), 1:client(no-plane), 2:client(no-plane), 3:client(no-plane), "
		"4:client(no-plane), target:plane 31", 0 },
	/* The toast, over nothing but client layers, takes the cursor plane. */
	{ "stack5-no-overlays-search", NO, scene_stack5, "search",
		"0:client(no-plane), 1:client(no-plane), 2:client(no-plane), 3:client(no-plane), "
		"4:plane 33, target:plane 31", -1 },
	/*
	 * No plane has AB24. vkms's ADDFB2 takes it: drmhwc's plan skips every
	 * plane for it and fails, all client (test_drmhwc.c has the board whose
	 * ADDFB2 refuses it); search finds no plane for it.
	 */
	{ "abgr-overlays-drmhwc", OV, scene_abgr, "drmhwc",
		"0:client(test-failed), 1:client(format,test-failed), target:plane 31", 0 },
	{ "abgr-overlays-search", OV, scene_abgr, "search",
		"0:plane 31, 1:client(format,position), target:plane 49", -1 },
	{ "abgr-no-overlays-drmhwc", NO, scene_abgr, "drmhwc",
		"0:client(no-plane), 1:client(no-plane), target:plane 31", 0 },
	{ "abgr-no-overlays-search", NO, scene_abgr, "search",
		"0:plane 31, 1:client(format,position), target:plane 33", -1 },
	/* drm_hwcomposer does not check scaling: its one test fails. */
	{ "scaled-overlays-drmhwc", OV, scene_scaled, "drmhwc",
		"0:client(test-failed), 1:client(scaling,test-failed), target:plane 31", 1 },
	{ "scaled-overlays-search", OV, scene_scaled, "search",
		"0:plane 31, 1:client(format,scaling,position), target:plane 49", -1 },
	{ "scaled-no-overlays-drmhwc", NO, scene_scaled, "drmhwc",
		"0:client(no-plane), 1:client(no-plane), target:plane 31", 0 },
	{ "scaled-no-overlays-search", NO, scene_scaled, "search",
		"0:plane 31, 1:client(format,scaling,position), target:plane 33", -1 },
	/* No rotation property: IsValidForLayer skips every overlay, the plan runs out of planes. */
	{ "rotated-overlays-drmhwc", OV, scene_rotated, "drmhwc",
		"0:client(test-failed), 1:client(format,rotation,position,test-failed), target:plane 31", 0 },
	{ "rotated-overlays-search", OV, scene_rotated, "search",
		"0:plane 31, 1:client(format,rotation,position), target:plane 49", -1 },
	{ "rotated-no-overlays-drmhwc", NO, scene_rotated, "drmhwc",
		"0:client(no-plane), 1:client(no-plane), target:plane 31", 0 },
	{ "rotated-no-overlays-search", NO, scene_rotated, "search",
		"0:plane 31, 1:client(format,rotation,position), target:plane 33", -1 },
	{ "nv12-overlays-drmhwc", OV, scene_nv12, "drmhwc",
		"0:client(test-failed), 1:client(format,test-failed), target:plane 31", 0 },
	{ "nv12-overlays-search", OV, scene_nv12, "search",
		"0:plane 31, 1:client(format,position), target:plane 49", -1 },
	{ "nv12-no-overlays-drmhwc", NO, scene_nv12, "drmhwc",
		"0:client(no-plane), 1:client(no-plane), target:plane 31", 0 },
	{ "nv12-no-overlays-search", NO, scene_nv12, "search",
		"0:plane 31, 1:client(format,position), target:plane 33", -1 },
	/* No alpha property anywhere. */
	{ "alpha-overlays-drmhwc", OV, scene_alpha, "drmhwc",
		"0:client(test-failed), 1:client(format,alpha-blend,position,test-failed), target:plane 31", 0 },
	{ "alpha-overlays-search", OV, scene_alpha, "search",
		"0:plane 31, 1:client(format,alpha-blend,position), target:plane 49", -1 },
	{ "alpha-no-overlays-drmhwc", NO, scene_alpha, "drmhwc",
		"0:client(no-plane), 1:client(no-plane), target:plane 31", 0 },
	{ "alpha-no-overlays-search", NO, scene_alpha, "search",
		"0:plane 31, 1:client(format,alpha-blend,position), target:plane 33", -1 },
	/* The bottom window on the primary fails vkms's full-screen rule; search leaves the primary off. */
	{ "windowed-overlays-drmhwc", OV, scene_windowed, "drmhwc",
		"0:client(position,test-failed), 1:client(test-failed), target:plane 31", 1 },
	{ "windowed-overlays-search", OV, scene_windowed, "search", "0:plane 47, 1:plane 49", -1 },
	{ "windowed-no-overlays-drmhwc", NO, scene_windowed, "drmhwc",
		"0:client(no-plane), 1:client(no-plane), target:plane 31", 0 },
	{ "windowed-no-overlays-search", NO, scene_windowed, "search",
		"0:client(no-plane), 1:plane 33, target:plane 31", -1 },
	{ "client-overlays-drmhwc", OV, scene_client, "drmhwc",
		"0:plane 31, 1:client(client-requested), 2:plane 35, target:plane 33", 1 },
	{ "client-overlays-search", OV, scene_client, "search",
		"0:plane 31, 1:client(client-requested), 2:plane 49, target:plane 47", -1 },
	{ "client-no-overlays-drmhwc", NO, scene_client, "drmhwc",
		"0:client(no-plane), 1:client(client-requested), 2:client(no-plane), target:plane 31", 0 },
	{ "client-no-overlays-search", NO, scene_client, "search",
		"0:client(no-plane), 1:client(client-requested), 2:plane 33, target:plane 31", -1 },
};

static void run_plan_case(const struct plan_case *c, const char *dir)
{
	struct board *board = tl_board(dir, c->board);
	struct tl_scene s;
	struct plan *plan;

	c->scene(&s);
	plan = tl_plan(c->planner, board, &s.scene, NULL, NULL);
	CHECK_STR(tl_line(plan), c->want);
	if (c->tests >= 0) {
		CHECK_INT(plan->test_count, c->tests);
	}
	CHECK(!plan->timed_out);
	CHECK(tl_order_kept(board, &s.scene, plan));
	/* What was tested last is what the plan says (or all-client on the primary). */
	CHECK_INT(tl_retest(board, &s.scene, plan), 0);
	plan_destroy(plan);
	board_destroy(board);
}

/* A tester that refuses everything, counting calls, optionally slow. */
struct refuser {
	unsigned calls;
	long sleep_ns;
};

static int refuse(void *ctx, const struct plan_candidate *cand)
{
	struct refuser *r = ctx;

	(void)cand;
	r->calls++;
	if (r->sleep_ns) {
		struct timespec ts = { 0, r->sleep_ns };

		nanosleep(&ts, NULL);
	}
	return -EINVAL;
}

static const struct board_tester_impl refuser_impl = { .test = refuse };

/* drmhwc: one refused test, everything client, no second try. */
static void case_drmhwc_test_failed(const char *dir)
{
	struct board *board = tl_board(dir, OV);
	struct refuser r = { 0 };
	struct board_tester tester = { &refuser_impl, &r };
	struct tl_scene s;
	struct plan *plan;

	scene_stack5(&s);
	plan = tl_plan("drmhwc", board, &s.scene, &tester, NULL);
	CHECK_STR(tl_line(plan), "0:client(test-failed), 1:client(test-failed), 2:client(test-failed), "
		"3:client(test-failed), 4:client(test-failed), target:plane 31");
	CHECK_INT(plan->test_count, 1);
	CHECK_INT(r.calls, 1);
	plan_destroy(plan);
	board_destroy(board);
}

/*
 * search: every try refused; the client target itself never accepted. The
 * app window, under the toast, was never even tried on an overlay: the
 * toast would have had to be above it first (zpos).
 */
static void case_search_test_failed(const char *dir)
{
	struct board *board = tl_board(dir, OV);
	struct refuser r = { 0 };
	struct board_tester tester = { &refuser_impl, &r };
	struct tl_scene s;
	struct plan *plan;

	scene_stack5(&s);
	plan = tl_plan("search", board, &s.scene, &tester, NULL);
	fprintf(stderr, "%s\n", tl_line(plan));
	CHECK_INT(plan->test_count, r.calls);
	CHECK(r.calls > 5);
	CHECK(plan->needs_client_target);
	CHECK_INT(plan->client_target_plane, 0);
	for (size_t i = 0; i < plan->layer_count; i++) {
		CHECK_INT(plan->layers[i].plane_id, 0);
		CHECK(plan->layers[i].reasons & (i == 2 ? PLAN_REASON_ZPOS : PLAN_REASON_TEST_FAILED));
	}
	plan_destroy(plan);
	board_destroy(board);
}

/*
 * Nine small separate windows over a wallpaper, a slow refusing tester
 * (10 ms a call) and a 100 ms budget: the default (1 ms) is checked, but
 * not used, a loaded machine can spend it before the first call. The
 * bounds hold however slow the machine: a call sleeps at least 10 ms, and
 * the first call comes before the budget unless the planner is stalled
 * 100 ms between taking its deadline and its first test.
 */
static void case_search_budget(const char *dir)
{
	struct board *board = tl_board(dir, OV);
	struct refuser r = { .sleep_ns = 10000000 };
	struct board_tester tester = { &refuser_impl, &r };
	struct planner_options opts;
	struct tl_scene s;
	struct plan *plan;

	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	for (int i = 0; i < 9; i++) {
		tl_scene_add(&s, AR24, 10 + 110 * i, 10, 100, 100);
	}
	planner_options_init(&opts);
	CHECK_INT(opts.budget_ns, 1000000);
	opts.budget_ns = 100000000;
	plan = tl_plan("search", board, &s.scene, &tester, &opts);
	CHECK(plan->timed_out);
	CHECK_INT(plan->test_count, r.calls);
	/* Checked before each call: at most 100 ms / 10 ms + the call under way. */
	CHECK(r.calls >= 1 && r.calls <= 11);
	CHECK_INT(plan->client_target_plane, 31);
	for (size_t i = 0; i < plan->layer_count; i++) {
		CHECK_INT(plan->layers[i].plane_id, 0);
		/* The wallpaper cannot go over the windows: its reasons are zpos and no-plane. */
		CHECK(i == 0 || (plan->layers[i].reasons &
			(PLAN_REASON_BUDGET | PLAN_REASON_TEST_FAILED)));
	}
	CHECK(plan->layers[9].reasons & PLAN_REASON_BUDGET);
	plan_destroy(plan);

	/* 1 ns: over before the first call. */
	r.calls = 0;
	opts.budget_ns = 1;
	plan = tl_plan("search", board, &s.scene, &tester, &opts);
	CHECK(plan->timed_out);
	CHECK(r.calls <= 1);
	CHECK(plan->layers[1].reasons & PLAN_REASON_BUDGET);
	plan_destroy(plan);
	board_destroy(board);
}

static int broken(void *ctx, const struct plan_candidate *cand)
{
	(void)ctx;
	(void)cand;
	return -EIO;
}

/* A tester error that is no refusal (the device failed) stops both planners. */
static void case_hard_error(const char *dir)
{
	static const struct board_tester_impl broken_impl = { .test = broken };
	struct board *board = tl_board(dir, OV);
	struct board_tester tester = { &broken_impl, NULL };
	struct tl_scene s;
	struct plan *plan = NULL;

	scene_stack5(&s);
	CHECK_INT(planner_run(planner_find("drmhwc"), NULL, board, &s.scene, &tester, &plan), -EIO);
	CHECK(plan == NULL);
	CHECK_INT(planner_run(planner_find("search"), NULL, board, &s.scene, &tester, &plan), -EIO);
	CHECK(plan == NULL);
	board_destroy(board);
}

static void (*const all_scenes[])(struct tl_scene *s) = {
	scene_stack5, scene_abgr, scene_scaled, scene_rotated, scene_nv12, scene_alpha,
	scene_windowed, scene_client,
};

/*
 * Both strategies on every scene and board. They may differ; they must
 * agree that a client-requested layer is client, that a format no plane
 * has is refused for its format, on needing a client target when a layer
 * must be client; each plan must keep the z-order and pass the profile
 * tester; and search, exhaustive here, never places fewer layers.
 */
static void case_compare(const char *dir)
{
	static const char *const boards[] = { OV, NO };

	for (size_t b = 0; b < 2; b++) {
		struct board *board = tl_board(dir, boards[b]);

		for (size_t k = 0; k < sizeof(all_scenes) / sizeof(all_scenes[0]); k++) {
			struct tl_scene s;
			struct plan *d, *x;
			size_t on_d = 0, on_x = 0;
			bool must_client = false;

			all_scenes[k](&s);
			d = tl_plan("drmhwc", board, &s.scene, NULL, NULL);
			x = tl_plan("search", board, &s.scene, NULL, NULL);
			for (size_t i = 0; i < s.scene.layer_count; i++) {
				const struct scene_layer *l = &s.layers[i];
				uint32_t own = plane_check_layer(l);

				on_d += d->layers[i].plane_id != 0;
				on_x += x->layers[i].plane_id != 0;
				if (own) {
					must_client = true;
					CHECK(d->layers[i].plane_id == 0 && (d->layers[i].reasons & own));
					CHECK(x->layers[i].plane_id == 0 && (x->layers[i].reasons & own));
				}
				if (l->image && !board_any_plane_has_format(board, l->image->fourcc,
					l->image->modifier)) {
					/* drmhwc: unless the range took it first for lack of planes */
					must_client = true;
					CHECK(d->layers[i].plane_id == 0 && (d->layers[i].reasons &
						(PLAN_REASON_FORMAT | PLAN_REASON_NO_PLANE)));
					CHECK(x->layers[i].reasons & PLAN_REASON_FORMAT);
				}
			}
			if (must_client) {
				CHECK(d->needs_client_target && x->needs_client_target);
			}
			if (on_x < on_d) {
				FAIL("%s scene %zu: search %zu < drmhwc %zu",
					boards[b], k, on_x, on_d);
			}
			CHECK(tl_order_kept(board, &s.scene, d));
			CHECK(tl_order_kept(board, &s.scene, x));
			CHECK_INT(tl_retest(board, &s.scene, d), 0);
			CHECK_INT(tl_retest(board, &s.scene, x), 0);
			plan_destroy(d);
			plan_destroy(x);
		}
		board_destroy(board);
	}
}

/*
 * A board by hand: primary XR24; overlay 40 AR24 LINEAR; overlay 41 AR24
 * LINEAR and X-tiled. An X-tiled AR24 layer: drm_hwcomposer matches the
 * format only and picks 40, so its test fails; with modifiers checked, and
 * in search, it goes on 41.
 */
#define X_TILED 0x0100000000000001ull

static struct board *modifier_board(void)
{
	struct board *board = board_create("modifiers");
	struct board_plane *p;

	board->width = W;
	board->height = H;
	p = board_add_plane(board, 30, BOARD_PLANE_PRIMARY);
	p->possible_crtcs = 1;
	board_plane_add_format(p, XR24, BOARD_MOD_LINEAR);
	p = board_add_plane(board, 40, BOARD_PLANE_OVERLAY);
	p->possible_crtcs = 1;
	board_plane_add_format(p, AR24, BOARD_MOD_LINEAR);
	p = board_add_plane(board, 41, BOARD_PLANE_OVERLAY);
	p->possible_crtcs = 1;
	board_plane_add_format(p, AR24, BOARD_MOD_LINEAR);
	board_plane_add_format(p, AR24, X_TILED);
	board_apply_rules(board);
	return board;
}

static void case_modifier(const char *dir)
{
	struct board *board = modifier_board();
	struct planner_options opts;
	struct tl_scene s;
	struct plan *plan;

	(void)dir;
	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	tl_scene_add(&s, AR24, 100, 100, 200, 200);
	s.images[1].modifier = X_TILED;
	plan = tl_plan("drmhwc", board, &s.scene, NULL, NULL);
	CHECK_STR(tl_line(plan), "0:client(test-failed), 1:client(modifier,test-failed), target:plane 30");
	CHECK_INT(plan->test_count, 1);
	plan_destroy(plan);
	planner_options_init(&opts);
	opts.budget_ns = INT64_MAX;
	opts.flags = PLANNER_DRMHWC_CHECK_MODIFIERS;
	plan = tl_plan("drmhwc", board, &s.scene, NULL, &opts);
	CHECK_STR(tl_line(plan), "0:plane 30, 1:plane 41");
	plan_destroy(plan);
	plan = tl_plan("search", board, &s.scene, NULL, NULL);
	CHECK_STR(tl_line(plan), "0:plane 30, 1:plane 41");
	plan_destroy(plan);
	board_destroy(board);
}

/*
 * Immutable zpos against object ids: overlay 50 sits above overlay 51.
 * Two overlapping windows: drm_hwcomposer fills by id and, the zpos being
 * immutable, cannot fix the order (the driver accepts it); search follows
 * the ranks.
 */
static void case_zpos(const char *dir)
{
	struct board *board = board_create("zpos");
	struct board_plane *p;
	struct tl_scene s;
	struct plan *plan;
	const uint32_t ids[] = { 49, 50, 51 };
	const int64_t zpos[] = { 0, 2, 1 };

	(void)dir;
	board->width = W;
	board->height = H;
	for (int i = 0; i < 3; i++) {
		p = board_add_plane(board, ids[i], i ? BOARD_PLANE_OVERLAY : BOARD_PLANE_PRIMARY);
		p->possible_crtcs = 1;
		p->has_zpos = true;
		p->zpos_immutable = true;
		p->zpos_min = p->zpos_max = p->zpos = zpos[i];
		board_plane_add_format(p, XR24, BOARD_MOD_LINEAR);
		board_plane_add_format(p, AR24, BOARD_MOD_LINEAR);
	}
	board_apply_rules(board);
	tl_scene_init(&s, W, H);
	tl_scene_add(&s, XR24, 0, 0, W, H);
	tl_scene_add(&s, AR24, 100, 100, 300, 300);
	tl_scene_add(&s, AR24, 200, 200, 300, 300);
	plan = tl_plan("drmhwc", board, &s.scene, NULL, NULL);
	CHECK_STR(tl_line(plan), "0:plane 49, 1:plane 50, 2:plane 51");
	CHECK(!tl_order_kept(board, &s.scene, plan));
	plan_destroy(plan);
	plan = tl_plan("search", board, &s.scene, NULL, NULL);
	CHECK_STR(tl_line(plan), "0:plane 49, 1:plane 51, 2:plane 50");
	CHECK(tl_order_kept(board, &s.scene, plan));
	plan_destroy(plan);
	board_destroy(board);
}

/* The line and the JSON of a plan with every kind of entry. */
static void case_output(const char *dir)
{
	struct board *board = tl_board(dir, OV);
	struct tl_scene s;
	struct plan *plan;
	struct json_object *json;
	char small[12];

	scene_client(&s);
	plan = tl_plan("drmhwc", board, &s.scene, NULL, NULL);
	json = plan_to_json(plan, &s.scene);
	CHECK(json != NULL);
	CHECK_STR(json_object_to_json_string_ext(json, JSON_C_TO_STRING_PLAIN),
		"{\"planner\":\"drmhwc\",\"layers\":["
		"{\"index\":0,\"id\":100,\"plane\":31,\"reasons\":[]},"
		"{\"index\":1,\"id\":101,\"plane\":null,\"reasons\":[\"client-requested\"]},"
		"{\"index\":2,\"id\":102,\"plane\":35,\"reasons\":[]}],"
		"\"client_target\":{\"needed\":true,\"plane\":33},\"tests\":1,\"timed_out\":false}");
	json_object_put(json);
	CHECK_STR(plan_format(plan, small, sizeof(small)), "0:plane 31,");
	plan_destroy(plan);
	CHECK(planner_find("drmhwc") == planner_at(0));
	CHECK(planner_find("search") == planner_at(1));
	CHECK(planner_at(2) == NULL);
	CHECK(planner_find("liftoff") == NULL);
	{
		struct plan *none = NULL;
		struct scene empty = { .width = W, .height = H };

		CHECK_INT(planner_run(NULL, NULL, board, &s.scene, NULL, &none), -EINVAL);
		CHECK(none == NULL);
		CHECK_INT(planner_run(planner_at(1), NULL, board, &empty, NULL, &none), 0);
		CHECK_STR(tl_line(none), "");
		CHECK_INT(none->test_count, 0);
		plan_destroy(none);
		CHECK_INT(planner_run(planner_at(0), NULL, board, &empty, NULL, &none), 0);
		CHECK_STR(tl_line(none), "");
		plan_destroy(none);
	}
	board_destroy(board);
}

static const struct tl_case cases[] = {
	{ "drmhwc-test-failed", case_drmhwc_test_failed },
	{ "search-test-failed", case_search_test_failed },
	{ "search-budget", case_search_budget },
	{ "hard-error", case_hard_error },
	{ "compare", case_compare },
	{ "modifier", case_modifier },
	{ "zpos", case_zpos },
	{ "output", case_output },
};

int main(int argc, char **argv)
{
	const char *dir = argc > 2 ? argv[2] : ".";
	size_t n = sizeof(plan_cases) / sizeof(plan_cases[0]);

	for (size_t i = 0; i < n; i++) {
		if (argc <= 1 || strcmp(argv[1], plan_cases[i].name) == 0) {
			fprintf(stderr, "case %s\n", plan_cases[i].name);
			run_plan_case(&plan_cases[i], dir);
			if (argc > 1) {
				return check_status();
			}
		}
	}
	return tl_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
