/* The planner registry, plan objects and what the strategies share (planner.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "planner_private.h"

static const struct planner_impl *const planners[] = {
	&planner_drmhwc_impl,
	&planner_search_impl,
};

void planner_options_init(struct planner_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->budget_ns = PLANNER_DEFAULT_BUDGET_NS;
	opts->client_modifier = BOARD_MOD_LINEAR;
}

const struct planner_impl *planner_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(planners) / sizeof(planners[0]); i++) {
		if (strcmp(planners[i]->name, name) == 0) {
			return planners[i];
		}
	}
	return NULL;
}

const struct planner_impl *planner_at(size_t i)
{
	return i < sizeof(planners) / sizeof(planners[0]) ? planners[i] : NULL;
}

void plan_destroy(struct plan *plan)
{
	if (!plan) {
		return;
	}
	free(plan->layers);
	free(plan->states);
	free(plan);
}

int plan_keep_candidate(struct plan *plan, const struct plan_candidate *cand)
{
	struct plan_plane_state *states = NULL;

	if (cand->count) {
		states = malloc(cand->count * sizeof(*states));
		if (!states) {
			return -ENOMEM;
		}
		memcpy(states, cand->planes, cand->count * sizeof(*states));
	}
	free(plan->states);
	plan->states = states;
	plan->state_count = cand->count;
	plan->has_client_state = cand->has_client_target;
	plan->client_state = cand->client_target;
	plan->has_candidate = true;
	return 0;
}

bool plan_get_candidate(const struct plan *plan, struct plan_candidate *out)
{
	*out = (struct plan_candidate){
		.count = plan->state_count,
		.planes = plan->states,
		.has_client_target = plan->has_client_state,
		.client_target = plan->client_state,
	};
	return plan->has_candidate;
}

int plan_client_only_candidate(const struct board *board, const struct scene *scene,
	const struct planner_options *opts, struct plan_plane_state *state)
{
	const struct board_plane *primary = board_primary(board);
	struct planner_options defaults;

	if (!primary) {
		return -ENOENT;
	}
	if (!opts) {
		planner_options_init(&defaults);
		opts = &defaults;
	}
	planner_client_target_state(board, primary, scene, opts, true, state);
	return 0;
}

int planner_run(const struct planner_impl *impl, const struct planner_options *opts,
	const struct board *board, const struct scene *scene, const struct board_tester *tester,
	struct plan **out)
{
	struct planner_options defaults;
	struct board_tester profile;
	struct plan *plan;
	int ret;

	*out = NULL;
	if (!impl || !board || !scene || (scene->layer_count && !scene->layers)) {
		return -EINVAL;
	}
	if (scene->layer_count > PLANNER_MAX_LAYERS) {
		return -E2BIG;
	}
	if (!opts) {
		planner_options_init(&defaults);
		opts = &defaults;
	}
	if (!tester) {
		profile = profile_tester(board);
		tester = &profile;
	}
	plan = calloc(1, sizeof(*plan));
	if (!plan) {
		return -ENOMEM;
	}
	plan->planner = impl->name;
	plan->layer_count = scene->layer_count;
	plan->layers = calloc(scene->layer_count ? scene->layer_count : 1, sizeof(*plan->layers));
	if (!plan->layers) {
		plan_destroy(plan);
		return -ENOMEM;
	}
	ret = impl->plan(opts, board, scene, tester, plan);
	if (ret) {
		plan_destroy(plan);
		return ret;
	}
	for (size_t i = 0; i < plan->layer_count; i++) {
		plan->layers[i].composition = plan->layers[i].plane_id ? HWC2_COMPOSITION_DEVICE :
			HWC2_COMPOSITION_CLIENT;
	}
	*out = plan;
	return 0;
}

void planner_screen_size(const struct board *board, const struct scene *scene,
	uint32_t *width, uint32_t *height)
{
	*width = board->width ? board->width : scene->width;
	*height = board->height ? board->height : scene->height;
}

bool planner_client_target_state(const struct board *board, const struct board_plane *plane,
	const struct scene *scene, const struct planner_options *opts, bool bottom,
	struct plan_plane_state *out)
{
	static const uint32_t argb8888 = BOARD_FOURCC('A', 'R', '2', '4');
	static const uint32_t xrgb8888 = BOARD_FOURCC('X', 'R', '2', '4');
	uint32_t w, h;

	planner_screen_size(board, scene, &w, &h);
	*out = (struct plan_plane_state){
		.plane_id = plane->id,
		.layer = PLAN_LAYER_CLIENT_TARGET,
		.fourcc = argb8888,
		.modifier = BOARD_MOD_LINEAR,
		.fb_width = w,
		.fb_height = h,
		.src_w = w > 0xffff ? UINT32_MAX : w << 16,
		.src_h = h > 0xffff ? UINT32_MAX : h << 16,
		.crtc_w = w,
		.crtc_h = h,
		.rotation = BOARD_ROTATE_0,
		.alpha = 0xffff,
	};
	if (opts->client_fourcc) {
		out->fourcc = opts->client_fourcc;
		out->modifier = opts->client_modifier;
		return board_plane_has_format(plane, out->fourcc, out->modifier);
	}
	if (board_plane_has_format(plane, argb8888, BOARD_MOD_LINEAR)) {
		return true;
	}
	if (bottom && board_plane_has_format(plane, xrgb8888, BOARD_MOD_LINEAR)) {
		out->fourcc = xrgb8888;
		return true;
	}
	return false;
}

int planner_test(const struct board_tester *tester, const struct plan_candidate *cand,
	struct plan *plan)
{
	plan->test_count++;
	return tester->impl->test(tester->ctx, cand);
}

int64_t planner_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void planner_finish(struct plan *plan)
{
	plan->needs_client_target = false;
	for (size_t i = 0; i < plan->layer_count; i++) {
		if (plan->layers[i].plane_id == 0) {
			plan->needs_client_target = true;
		} else {
			plan->layers[i].reasons = 0;
		}
	}
	if (!plan->needs_client_target) {
		plan->client_target_plane = 0;
	}
}
