/*
 * TEST_ONLY: what a planner asks the driver. A plan_candidate is one whole
 * CRTC configuration (layers on planes with their final plane properties,
 * plus the client target); a tester says whether the driver would take it.
 * The KMS device answers with DRM_MODE_ATOMIC_TEST_ONLY commits; the
 * profile tester (profile_test.c) simulates the driver's atomic check from
 * a board's capabilities and rules, with no device.
 */
#ifndef HWCT_PLANNER_TESTER_H
#define HWCT_PLANNER_TESTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

/* plan_plane_state.layer of the client target. */
#define PLAN_LAYER_CLIENT_TARGET SIZE_MAX

/* One plane's properties in a candidate (what an atomic request would set). */
struct plan_plane_state {
	uint32_t plane_id;		/* KMS object id */
	size_t layer;			/* index in scene->layers, or PLAN_LAYER_CLIENT_TARGET */
	uint32_t fourcc;		/* DRM_FORMAT_* of the framebuffer; 0 for a solid fill */
	uint64_t modifier;		/* DRM_FORMAT_MOD_* */
	uint32_t fb_width, fb_height;	/* framebuffer, pixels */
	uint32_t src_x, src_y, src_w, src_h;	/* SRC_*: 16.16 fixed point, framebuffer pixels */
	int32_t crtc_x, crtc_y;		/* CRTC_*: display pixels, may be off-screen */
	uint32_t crtc_w, crtc_h;
	uint32_t rotation;		/* BOARD_ROTATE_* | BOARD_REFLECT_*: exactly one ROTATE bit */
	uint16_t alpha;			/* "alpha" in the plane's range; written only when != alpha_max */
	uint32_t blend;			/* one BOARD_BLEND_* to write; 0 = leave "pixel blend mode" alone */
	bool set_zpos;			/* write zpos */
	int64_t zpos;
	bool solid_fill;		/* no framebuffer: fill with color */
	uint32_t color;			/* r | g << 8 | b << 16 | a << 24, when solid_fill */
};

struct plan_candidate {
	size_t count;
	const struct plan_plane_state *planes;	/* layers on planes; borrowed */
	bool has_client_target;
	struct plan_plane_state client_target;	/* when has_client_target */
};

/*
 * A tester. test returns 0 when the driver takes cand; -EINVAL, -ERANGE or
 * -ENOSPC when it refuses it (as atomic commits do); any other negative
 * errno is a hard failure (device gone, out of memory) that stops planning.
 * cand and what it points to are borrowed for the call.
 */
struct board_tester_impl {
	int (*test)(void *ctx, const struct plan_candidate *cand);
};

struct board_tester {
	const struct board_tester_impl *impl;
	void *ctx;			/* the impl's; borrowed */
};

/* Whether a tester's result means "refused" (as opposed to success or a hard failure). */
bool board_tester_refused(int ret);

/*
 * The profile tester: the atomic check of board's driver as far as its
 * capabilities and rules tell (profile_test.c): every plane usable on the
 * CRTC and used once; format and modifier on the plane; source inside the
 * framebuffer; no scaling unless can_scale; rotation in the mask;
 * alpha / blend / zpos written only where the property exists and in range;
 * a visible primary covering the CRTC when primary_full_screen; the primary
 * on when primary_required; cursor size; at most max_active_planes planes.
 * Returns 0, -EINVAL, -ERANGE (scaling) or -ENOSPC (source outside the
 * framebuffer).
 */
int profile_test(const struct board *board, const struct plan_candidate *cand);

/* The profile tester as a board_tester over board (borrowed; must outlive the tester). */
struct board_tester profile_tester(const struct board *board);

#endif
