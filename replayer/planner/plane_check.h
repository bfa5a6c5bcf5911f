/*
 * Static compatibility of one layer with one plane: what can be told from a
 * board's capabilities and rules without asking the driver, as
 * PLAN_REASON_* bits. Shared by the planners (which plane to try, why a
 * layer was refused) and the place where a layer's plane properties are
 * computed (the plan_plane_state a candidate carries).
 */
#ifndef HWCT_PLANNER_PLANE_CHECK_H
#define HWCT_PLANNER_PLANE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "scene.h"
#include "tester.h"

/* plane_check flags: checks to leave out. */
#define PLANE_CHECK_NO_MODIFIER (1u << 0)	/* format only, any modifier */
#define PLANE_CHECK_NO_SCALING (1u << 1)
#define PLANE_CHECK_NO_POSITION (1u << 2)
#define PLANE_CHECK_LAX_BLEND (1u << 3)		/* blend None accepted without the property */
#define PLANE_CHECK_DIRECT_ROTATION (1u << 4)	/* no equivalent rotation encodings */

/*
 * drm_hwcomposer's DrmPlane::IsValidForLayer: rotation (its one encoding),
 * plane alpha, blend (None and pre-multiplied always pass), format; no
 * modifier, scaling or position check (the TEST_ONLY commit finds those).
 */
#define PLANE_CHECK_DRMHWC (PLANE_CHECK_NO_MODIFIER | PLANE_CHECK_NO_SCALING | \
	PLANE_CHECK_NO_POSITION | PLANE_CHECK_LAX_BLEND | PLANE_CHECK_DIRECT_ROTATION)

/*
 * Reasons layer goes to the client whatever the planes: CLIENT_REQUESTED
 * (the client asked for CLIENT, or a type no plane shows: SIDEBAND,
 * DISPLAY_DECORATION, INVALID), IMPORT (no buffer). 0 otherwise.
 */
uint32_t plane_check_layer(const struct scene_layer *layer);

/*
 * Why scene->layers[layer] cannot go on plane of board: PLAN_REASON_*
 * bits (FORMAT, MODIFIER, SCALING, ROTATION, ALPHA_BLEND, POSITION,
 * SOLID_COLOR, IMPORT), 0 when it can as far as static facts tell. flags
 * are PLANE_CHECK_*. Positions are checked against the board's mode, or
 * the scene's size when the board's is unknown.
 */
uint32_t plane_check(const struct board *board, const struct board_plane *plane,
	const struct scene *scene, size_t layer, uint32_t flags);

/*
 * The KMS "rotation" value for a HAL_TRANSFORM_* (HWC rotations are
 * clockwise, KMS counter-clockwise: ROT_90 is ROTATE_270, as in
 * drm_hwcomposer; FLIP_H is REFLECT_X, FLIP_V REFLECT_Y). With
 * alternatives, an equivalent encoding in mask is looked for when the
 * direct one is not (REFLECT_X|REFLECT_Y = ROTATE_180, ...). Stores the
 * value (the direct one when none fits) in *rotation. Returns whether mask
 * holds it; false also for transforms outside 0..7.
 */
bool plane_check_rotation(int32_t hal_transform, uint32_t mask, bool alternatives,
	uint32_t *rotation);

/* Whether fourcc carries an alpha channel (ARGB8888, ABGR2101010, ...). */
bool plane_check_format_has_alpha(uint32_t fourcc);

/*
 * The plane properties that show scene->layers[layer] on plane: format,
 * source crop clipped to the buffer in 16.16, display frame, rotation,
 * alpha, blend (when the plane has the property and the mode), solid fill.
 * zpos is left unset. flags as for plane_check (DIRECT_ROTATION matters).
 */
void plane_check_state(const struct board *board, const struct board_plane *plane,
	const struct scene *scene, size_t layer, uint32_t flags, struct plan_plane_state *out);

/* Whether the display frames of two layers overlap (positive area). */
bool plane_check_layers_intersect(const struct scene_layer *a, const struct scene_layer *b);

#endif
