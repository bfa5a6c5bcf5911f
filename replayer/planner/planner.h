/*
 * Plane planners: which layers of a scene a board shows on hardware planes,
 * which go to client composition and why. Each strategy sits behind a
 * planner_impl, found by name:
 *   "drmhwc"  drm_hwcomposer's documented behaviour (drmhwc.c);
 *   "search"  a libliftoff-like search over planes (search.c).
 * Both ask a board_tester (tester.h): the KMS device's TEST_ONLY commits, or
 * the board profile's simulated atomic check.
 */
#ifndef HWCT_PLANNER_PLANNER_H
#define HWCT_PLANNER_PLANNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>

#include "board.h"
#include "scene.h"
#include "tester.h"

struct json_object;

#define PLANNER_DEFAULT_BUDGET_NS 1000000	/* libliftoff's DEFAULT_ALLOC_TIMEOUT_NSEC */
#define PLANNER_MAX_LAYERS 4096			/* planner_run refuses larger scenes */

/* planner_options.flags */
#define PLANNER_DRMHWC_CHECK_MODIFIERS (1u << 0)	/* drmhwc: match modifiers (drm_hwcomposer does not) */
#define PLANNER_DRMHWC_PRIMARY_ONLY (1u << 1)	/* drmhwc: ro.vendor.hwc.use_overlay_planes=false */
/*
 * drmhwc: the display has not been given a client target yet (no frame of
 * it needed one so far). drm_hwcomposer tests a plan with the last client
 * target it was given; with none, a plan that needs one fails.
 */
#define PLANNER_DRMHWC_NO_CLIENT_TARGET (1u << 2)

struct planner_options {
	int64_t budget_ns;		/* search: time for TEST_ONLY calls, ns; 0 = default, INT64_MAX = none */
	uint32_t flags;			/* PLANNER_* */
	uint32_t client_fourcc;		/* client target DRM_FORMAT_*; 0 = ARGB8888, or XRGB8888 at the bottom */
	uint64_t client_modifier;	/* with client_fourcc */
};

/* One layer's outcome. */
struct plan_layer {
	uint32_t plane_id;		/* KMS plane; 0 = none (client composition, or an HWC2 module's choice) */
	uint32_t reasons;		/* PLAN_REASON_* bits when composition is CLIENT, else 0 */
	/*
	 * HWC2_COMPOSITION_* the layer ends with: DEVICE when on a plane,
	 * CLIENT, or whatever type an HWC2 module kept (plane_id 0 then).
	 * planner_run sets it from plane_id; plan_layer_is_client() reads it.
	 */
	int32_t composition;
};

/* Whether the layer is composed into the client target. */
static inline bool plan_layer_is_client(const struct plan_layer *pl)
{
	return pl->composition == HWC2_COMPOSITION_CLIENT;
}

struct plan {
	const char *planner;		/* the planner's name; static */
	size_t layer_count;
	struct plan_layer *layers;	/* owned; in scene order */
	bool needs_client_target;	/* some layer is client-composited */
	uint32_t client_target_plane;	/* the client target's plane; 0 when not needed or no plane took it */
	unsigned test_count;		/* tester calls made */
	bool timed_out;			/* the time budget ran out before the search ended */
	/* the configuration the tester accepted for this plan: what to commit */
	struct plan_plane_state *states;	/* owned; state_count entries */
	size_t state_count;
	bool has_candidate;		/* false: no test passed (all client, or nothing tested) */
	bool has_client_state;
	struct plan_plane_state client_state;
};

struct planner_impl {
	const char *name;
	/*
	 * Fills plan, which comes with one client entry (plane 0, no reason)
	 * per scene layer. Returns 0, or a negative errno: -ENOMEM, or the
	 * tester's hard failure.
	 */
	int (*plan)(const struct planner_options *opts, const struct board *board,
		const struct scene *scene, const struct board_tester *tester, struct plan *plan);
};

/* Fills opts with the defaults. */
void planner_options_init(struct planner_options *opts);

/* The planner registered under name, or NULL. */
const struct planner_impl *planner_find(const char *name);

/* The i-th registered planner, or NULL past the last. */
const struct planner_impl *planner_at(size_t i);

/*
 * Plans scene on board with impl. opts NULL means the defaults; tester NULL
 * means the board's profile tester. Everything is borrowed for the call.
 * Returns 0 with *out set (free with plan_destroy), -EINVAL for a missing
 * argument, -E2BIG past PLANNER_MAX_LAYERS, or the planner's error.
 */
int planner_run(const struct planner_impl *impl, const struct planner_options *opts,
	const struct board *board, const struct scene *scene, const struct board_tester *tester,
	struct plan **out);

/*
 * The accepted configuration of plan (pointing into plan) into *out.
 * Returns false when plan has none: then every layer is client-composited
 * and plan_client_only_candidate gives what to show.
 */
bool plan_get_candidate(const struct plan *plan, struct plan_candidate *out);

/*
 * The client target alone, full screen on board's primary plane, as
 * planners place it: fills *state. Returns 0, or -ENOENT when the board
 * has no primary plane.
 */
int plan_client_only_candidate(const struct board *board, const struct scene *scene,
	const struct planner_options *opts, struct plan_plane_state *state);

/* Frees plan. Accepts NULL. */
void plan_destroy(struct plan *plan);

/*
 * One human line into buf (truncated to size): "0:plane 31,
 * 1:client(format,no-plane), target:plane 31". Returns buf.
 */
char *plan_format(const struct plan *plan, char *buf, size_t size);

/*
 * The plan as JSON: {"planner", "layers": [{"index", "id"?, "plane" | null,
 * "reasons": [...]}], "client_target": {"needed", "plane" | null}, "tests",
 * "timed_out"}. scene (may be NULL) adds the layer ids. Returns a new
 * reference (json_object_put it), or NULL when out of memory.
 */
struct json_object *plan_to_json(const struct plan *plan, const struct scene *scene);

#endif
