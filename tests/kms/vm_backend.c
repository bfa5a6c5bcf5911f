/*
 * The KMS backend (replayer/backend/backend_kms.c) on vkms, through
 * backend_present: planner with TEST_ONLY commits, client composition,
 * commit, writeback. Each case opens its own backend (one DRM master at a
 * time) at VS_WIDTH x VS_HEIGHT.
 *
 *   backend-stack      rgba5 (opaque) on primary + overlays, or with overlays off all client
 *                      ("no-plane"); the writeback checksum equals the pixman reference's,
 *                      so it is the same with and without overlays. Plan reuse on the way.
 *   backend-refuse     scaled, rotated and NV12 layers refused with scaling, rotation and
 *                      format, composed by the backend; output against the reference.
 *   backend-reference  every stack with both planners: writeback against the reference.
 *   backend-gl         the gl compositor's output against pixman's, same stacks and plans.
 *
 * Tolerances (writeback vs the pixman reference of the whole stack, R, G, B):
 *   opaque stacks: exact (checksum equal): vkms copies opaque pixels, pixman too.
 *   translucent pixels on planes: vkms blends in 16 bits per channel and rounds once,
 *   pixman in 8 bits per step: at most 1 level per channel (VT_TOL_BLEND; measured 1,
 *   on 2.3% of the pixels of "translucent" with the search planner).
 *   gl vs pixman client composition (llvmpipe): bilinear weights and YUV conversion in
 *   float vs fixed point: at most VT_TOL_GL_MAX levels, and at most VT_TOL_GL_OVER1 of
 *   the pixels more than 1 level apart (measured: 3 levels, 3.2% of the pixels, in the
 *   NV12 and 2x-scaled layers of "refuse"; 1 level on 0.09% for "translucent").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>
#include <hardware/hwcomposer2.h>

#include "backend_kms.h"
#include "vm_cases.h"
#include "vm_stack.h"

#define VT_TOL_BLEND 1
#define VT_TOL_GL_MAX 6		/* measured: 3 (refuse: NV12 + bilinear 2x) */
#define VT_TOL_GL_OVER1 0.06	/* measured: 3.2% (refuse), 0% (translucent, mixed) */

static const char *const planners[] = { "drmhwc", "search" };

struct shown {
	struct scene_image images[VS_MAX_LAYERS];
	struct scene_layer layers[VS_MAX_LAYERS];
	struct scene scene;
	struct comp_target ref;		/* the pixman reference */
};

static bool shown_make(const struct vs_stack *s, uint32_t frame, struct shown *sh)
{
	memset(sh, 0, sizeof(*sh));
	for (size_t i = 0; i < s->count; i++) {
		const struct vs_layer *l = &s->layers[i];

		if (l->composition != HWC2_COMPOSITION_SOLID_COLOR &&
			!CHECK(vs_image_make(l, frame, &sh->images[i]), "out of memory")) {
			return false;
		}
		sh->layers[i] = vs_scene_layer(l, i, &sh->images[i], -1);
	}
	sh->scene = (struct scene){ .width = VS_WIDTH, .height = VS_HEIGHT, .layers = sh->layers,
		.layer_count = s->count };
	return CHECK(vs_reference(&sh->scene, &sh->ref) == 0, "%s: reference composition", s->name);
}

static void shown_finish(struct shown *sh)
{
	for (size_t i = 0; i < VS_MAX_LAYERS; i++) {
		free((void *)sh->images[i].data);
	}
	free(sh->ref.data);
}

static struct backend *open_backend(const char *planner, struct compositor *c, bool reuse)
{
	struct planner_options popts;
	struct backend_kms_options o = { .width = VS_WIDTH, .height = VS_HEIGHT, .refresh_hz = 60,
		.planner = planner_find(planner), .planner_opts = &popts, .compositor = c,
		.readback = true, .reuse_plans = reuse,
		/* the reference (vs_reference) composes YUV with the compositor's default, bilinear
		 * model: keep it, not the vkms model the backend picks on vkms by itself (that one
		 * is checked against vkms's own planes by vm-boards) */
		.yuv_model_asked = true };
	struct hwct_error err;
	struct backend *b;

	/* no time budget: TEST_ONLY commits under TCG take milliseconds */
	planner_options_init(&popts);
	popts.budget_ns = INT64_MAX;
	b = backend_kms_create(&o, &err);
	CHECK(b != NULL, "backend_kms_create: %s", err.message);
	return b;
}

/* Presents sh; checks the writeback image against the reference within tol (-1: checksum). */
static bool present_check(struct backend *b, const char *what, struct shown *sh, int tol,
	struct backend_result *res)
{
	char line[512], hex[HWCT_HASH_HEX];
	struct hwct_hash want = backend_checksum(&sh->ref);
	struct vs_diff d;
	int ret = backend_present(b, &sh->scene, true, res);

	if (!CHECK(ret == 0, "%s: backend_present: %s", what, strerror(-ret)) ||
		!CHECK(res->has_checksum && res->image.data, "%s: no writeback image", what)) {
		return false;
	}
	d = vs_compare(&res->image, &sh->ref);
	printf("%s: %s; %u tests; checksum %s; vs reference: max %u, %.4f%% > 1, %.4f%% differ\n",
		what, plan_format(res->plan, line, sizeof(line)), res->plan->test_count,
		hwct_hash_to_hex(&res->checksum, hex), d.max, d.over1 * 100, d.any * 100);
	if (tol < 0) {
		return CHECK(hwct_hash_equal(&res->checksum, &want),
			"%s: writeback checksum differs from the reference (max %u at %u,%u)", what, d.max,
			d.x, d.y);
	}
	return CHECK(d.max <= (unsigned)tol, "%s: max difference %u at (%u,%u) > %d", what, d.max,
		d.x, d.y, tol);
}

static bool stack_plan_expectations(const char *what, const struct plan *plan, size_t expect_overlays,
	const char *planner)
{
	bool ok = true;

	if (strcmp(planner, "drmhwc") != 0) {
		return true;
	}
	for (size_t i = 0; i < plan->layer_count; i++) {
		if (expect_overlays > 0) {
			ok = CHECK(plan->layers[i].plane_id != 0, "%s: layer %zu not on a plane", what, i) && ok;
		} else {
			ok = CHECK(plan->layers[i].plane_id == 0 &&
				plan->layers[i].reasons == PLAN_REASON_NO_PLANE,
				"%s: layer %zu: plane %u reasons 0x%x, expected client (no-plane)", what, i,
				plan->layers[i].plane_id, plan->layers[i].reasons) && ok;
		}
	}
	return ok;
}

bool vt_case_backend_stack(size_t expect_overlays)
{
	const struct vs_stack *s = vs_stack_find("rgba5");
	struct compositor *c = compositor_create("pixman");
	bool ok = CHECK(c != NULL, "pixman compositor");

	for (size_t p = 0; ok && p < 2; p++) {
		struct backend *b = open_backend(planners[p], c, true);
		struct shown sh, next;
		struct backend_result res;
		char what[64];

		if (!b || !shown_make(s, 0, &sh)) {
			backend_destroy(b);
			return false;
		}
		snprintf(what, sizeof(what), "backend-stack %s", planners[p]);
		ok = present_check(b, what, &sh, -1, &res) && ok;
		ok = ok && stack_plan_expectations(what, res.plan, expect_overlays, planners[p]);
		backend_result_finish(&res);
		/* the same frame again: the plan is reused with no TEST_ONLY commit */
		snprintf(what, sizeof(what), "backend-stack %s (same frame)", planners[p]);
		if (ok && present_check(b, what, &sh, -1, &res)) {
			ok = CHECK(res.plan->test_count == 0, "%s: %u tests, expected 0 (reuse)", what,
				res.plan->test_count);
		}
		backend_result_finish(&res);
		/* new content, same layers: reused after one TEST_ONLY (when there is a configuration) */
		snprintf(what, sizeof(what), "backend-stack %s (new content)", planners[p]);
		if (ok && shown_make(s, 1, &next)) {
			if (present_check(b, what, &next, -1, &res)) {
				ok = CHECK(res.plan->test_count <= 1, "%s: %u tests, expected <= 1", what,
					res.plan->test_count);
			} else {
				ok = false;
			}
			backend_result_finish(&res);
			shown_finish(&next);
		}
		shown_finish(&sh);
		backend_destroy(b);
	}
	compositor_destroy(c);
	return ok;
}

/* The reasons layer i must carry for plan of the refuse stack. */
static uint32_t refuse_reason(size_t i)
{
	return i == 1 ? PLAN_REASON_SCALING : i == 2 ? PLAN_REASON_ROTATION :
		i == 3 ? PLAN_REASON_FORMAT : 0;
}

bool vt_case_backend_refuse(void)
{
	const struct vs_stack *s = vs_stack_find("refuse");
	struct compositor *c = compositor_create("pixman");
	bool ok = CHECK(c != NULL, "pixman compositor");

	for (size_t p = 0; ok && p < 2; p++) {
		struct backend *b = open_backend(planners[p], c, false);
		struct backend_result res;
		struct shown sh;
		char what[64], reasons[128];

		if (!b || !shown_make(s, 0, &sh)) {
			backend_destroy(b);
			return false;
		}
		snprintf(what, sizeof(what), "backend-refuse %s", planners[p]);
		ok = present_check(b, what, &sh, VT_TOL_BLEND, &res) && ok;
		for (size_t i = 1; res.plan && i <= 3; i++) {
			const struct plan_layer *pl = &res.plan->layers[i];

			printf("%s: layer %zu: %s\n", what, i, pl->plane_id ? "on a plane" :
				plan_reasons_format(pl->reasons, reasons, sizeof(reasons)));
			ok = CHECK(pl->plane_id == 0 && (pl->reasons & refuse_reason(i)),
				"%s: layer %zu: plane %u, reasons 0x%x lack 0x%x", what, i, pl->plane_id,
				pl->reasons, refuse_reason(i)) && ok;
		}
		backend_result_finish(&res);
		shown_finish(&sh);
		backend_destroy(b);
	}
	compositor_destroy(c);
	return ok;
}

bool vt_case_backend_reference(void)
{
	struct compositor *c = compositor_create("pixman");
	bool ok = CHECK(c != NULL, "pixman compositor");

	for (size_t p = 0; ok && p < 2; p++) {
		struct backend *b = open_backend(planners[p], c, false);

		for (size_t i = 0; b && vs_stacks[i]; i++) {
			struct backend_result res;
			struct shown sh;
			char what[64];

			if (!shown_make(vs_stacks[i], 0, &sh)) {
				ok = false;
				break;
			}
			snprintf(what, sizeof(what), "backend-reference %s %s", planners[p], vs_stacks[i]->name);
			ok = present_check(b, what, &sh, VT_TOL_BLEND, &res) && ok;
			backend_result_finish(&res);
			shown_finish(&sh);
		}
		ok = b && ok;
		backend_destroy(b);
	}
	compositor_destroy(c);
	return ok;
}

/* The writeback image of stack s shown with compositor name (drmhwc: the most client composition). */
static bool image_with(const char *name, const struct vs_stack *s, struct comp_target *out)
{
	struct compositor *c = compositor_create(name);
	struct backend *b = c ? open_backend("drmhwc", c, false) : NULL;
	struct backend_result res;
	struct shown sh;
	char what[64];
	bool ok;

	*out = (struct comp_target){ 0 };
	if (!CHECK(c != NULL, "compositor %s: %s", name, strerror(errno)) || !b ||
		!shown_make(s, 0, &sh)) {
		backend_destroy(b);
		compositor_destroy(c);
		return false;
	}
	snprintf(what, sizeof(what), "backend-gl %s %s", name, s->name);
	ok = present_check(b, what, &sh, strcmp(name, "pixman") == 0 ? VT_TOL_BLEND : VT_TOL_GL_MAX,
		&res);
	if (ok) {
		*out = res.image;
		res.image.data = NULL;
	}
	backend_result_finish(&res);
	shown_finish(&sh);
	backend_destroy(b);
	compositor_destroy(c);
	return ok;
}

bool vt_case_backend_gl(void)
{
	static const char *const stacks[] = { "refuse", "translucent", "mixed" };
	bool ok = true;

	for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
		const struct vs_stack *s = vs_stack_find(stacks[i]);
		struct comp_target pix, gl;
		struct vs_diff d;

		if (!image_with("pixman", s, &pix) || !image_with("gl", s, &gl)) {
			free(pix.data);
			return false;
		}
		d = vs_compare(&gl, &pix);
		printf("backend-gl %s: gl vs pixman client composition: max %u at (%u,%u), "
			"%.4f%% > 1, %.4f%% differ\n", s->name, d.max, d.x, d.y, d.over1 * 100, d.any * 100);
		ok = CHECK(d.max <= VT_TOL_GL_MAX && d.over1 <= VT_TOL_GL_OVER1,
			"backend-gl %s: gl vs pixman: max %u (<= %d), %.4f%% > 1 (<= %.2f%%)", s->name,
			d.max, VT_TOL_GL_MAX, d.over1 * 100, VT_TOL_GL_OVER1 * 100) && ok;
		free(pix.data);
		free(gl.data);
	}
	return ok;
}
