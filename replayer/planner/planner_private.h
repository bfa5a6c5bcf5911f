/*
 * What the planner implementations share (plan.c); not for backends.
 */
#ifndef HWCT_PLANNER_PLANNER_PRIVATE_H
#define HWCT_PLANNER_PLANNER_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "planner.h"

extern const struct planner_impl planner_drmhwc_impl;
extern const struct planner_impl planner_search_impl;

/* The area positions are checked against: the board's mode, else the scene's size. */
void planner_screen_size(const struct board *board, const struct scene *scene,
	uint32_t *width, uint32_t *height);

/*
 * The client target on plane: full screen, opaque, ROTATE_0, in
 * opts->client_fourcc or else ARGB8888 or (when bottom, nothing under it
 * to show through) XRGB8888, LINEAR. Fills *out either way. Returns
 * whether plane scans out the format chosen.
 */
bool planner_client_target_state(const struct board *board, const struct board_plane *plane,
	const struct scene *scene, const struct planner_options *opts, bool bottom,
	struct plan_plane_state *out);

/* Calls the tester, counting the call in plan. Returns what the tester returned. */
int planner_test(const struct board_tester *tester, const struct plan_candidate *cand,
	struct plan *plan);

/* Keeps a copy of cand in plan as the accepted configuration. Returns 0 or -ENOMEM. */
int plan_keep_candidate(struct plan *plan, const struct plan_candidate *cand);

/* CLOCK_MONOTONIC now, ns. */
int64_t planner_now_ns(void);

/* Sets plan->needs_client_target from the layers. */
void planner_finish(struct plan *plan);

#endif
