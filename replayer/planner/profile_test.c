/*
 * The profile tester (tester.h): a deviceless stand-in for a driver's
 * atomic check, from a board's capabilities and rules. What it checks
 * follows the DRM core (drm_atomic_plane_check: SRC inside the framebuffer
 * is -ENOSPC, CRTC_* overflow -ERANGE; drm_atomic_helper_check_plane_state:
 * scaling out of range is -ERANGE, a non-positionable plane must cover the
 * CRTC) and the board rules (board_rules.c) for what drivers add.
 */
#include <errno.h>
#include <stdint.h>

#include "tester.h"

bool board_tester_refused(int ret)
{
	return ret == -EINVAL || ret == -ERANGE || ret == -ENOSPC;
}

static bool one_rotation(uint32_t rotation)
{
	uint32_t r = rotation & BOARD_ROTATE_MASK;

	return r != 0 && (r & (r - 1)) == 0;
}

static bool rotated_90(uint32_t rotation)
{
	return (rotation & (BOARD_ROTATE_90 | BOARD_ROTATE_270)) != 0;
}

/* Whether the CRTC rectangle of s, clipped to the mode, is the whole mode. */
static bool covers_crtc(const struct board *board, const struct plan_plane_state *s)
{
	int64_t x1 = s->crtc_x, y1 = s->crtc_y;
	int64_t x2 = x1 + s->crtc_w, y2 = y1 + s->crtc_h;

	return x1 <= 0 && y1 <= 0 && x2 >= (int64_t)board->width && y2 >= (int64_t)board->height;
}

/* Whether any of s lies on the mode (an invisible plane is effectively off). */
static bool visible(const struct board *board, const struct plan_plane_state *s)
{
	int64_t x1 = s->crtc_x, y1 = s->crtc_y;
	int64_t x2 = x1 + s->crtc_w, y2 = y1 + s->crtc_h;

	if (board->width == 0 || board->height == 0) {
		return true;
	}
	return x2 > 0 && y2 > 0 && x1 < (int64_t)board->width && y1 < (int64_t)board->height;
}

static int check_geometry(const struct board *board, const struct board_plane *plane,
	const struct plan_plane_state *s)
{
	uint64_t dst_w = s->crtc_w, dst_h = s->crtc_h;

	if (s->crtc_w == 0 || s->crtc_h == 0 || s->src_w == 0 || s->src_h == 0) {
		return -EINVAL;
	}
	if (s->crtc_w > INT32_MAX || s->crtc_h > INT32_MAX ||
		s->crtc_x > INT32_MAX - (int32_t)s->crtc_w ||
		s->crtc_y > INT32_MAX - (int32_t)s->crtc_h) {
		return -ERANGE;
	}
	if (!s->solid_fill &&
		((uint64_t)s->src_x + s->src_w > (uint64_t)s->fb_width << 16 ||
			(uint64_t)s->src_y + s->src_h > (uint64_t)s->fb_height << 16)) {
		return -ENOSPC;
	}
	if (rotated_90(s->rotation)) {
		dst_w = s->crtc_h;
		dst_h = s->crtc_w;
	}
	if (!plane->can_scale && (s->src_w != dst_w << 16 || s->src_h != dst_h << 16)) {
		return -ERANGE;
	}
	if (plane->type == BOARD_PLANE_PRIMARY && board->primary_full_screen &&
		board->width && board->height &&
		(!visible(board, s) || !covers_crtc(board, s))) {
		return -EINVAL;
	}
	if (plane->cursor_size_limit && board->cursor_width && board->cursor_height &&
		(s->crtc_w > board->cursor_width || s->crtc_h > board->cursor_height)) {
		return -EINVAL;
	}
	return 0;
}

static int check_properties(const struct board_plane *plane, const struct plan_plane_state *s)
{
	if (s->solid_fill ? !plane->solid_fill :
		!board_plane_has_format(plane, s->fourcc, s->modifier)) {
		return -EINVAL;
	}
	if (!one_rotation(s->rotation) || (s->rotation & ~plane->rotations) != 0) {
		return -EINVAL;
	}
	if (s->alpha != 0xffff && !plane->has_alpha) {
		return -EINVAL;
	}
	if (s->blend != 0 &&
		((s->blend & (s->blend - 1)) != 0 || (s->blend & plane->blend_modes) == 0)) {
		return -EINVAL;
	}
	if (s->set_zpos && (!plane->has_zpos || plane->zpos_immutable ||
		s->zpos < plane->zpos_min || s->zpos > plane->zpos_max)) {
		return -EINVAL;
	}
	return 0;
}

static int check_state(const struct board *board, const struct plan_plane_state *s,
	bool *primary_on)
{
	const struct board_plane *plane = board_find_plane(board, s->plane_id);
	int ret;

	if (!plane || !board_plane_usable(board, plane)) {
		return -EINVAL;
	}
	if (plane->type == BOARD_PLANE_PRIMARY) {
		*primary_on = true;
	}
	if ((ret = check_properties(plane, s))) {
		return ret;
	}
	return check_geometry(board, plane, s);
}

static const struct plan_plane_state *state_at(const struct plan_candidate *cand, size_t i)
{
	return i < cand->count ? &cand->planes[i] : &cand->client_target;
}

int profile_test(const struct board *board, const struct plan_candidate *cand)
{
	size_t total = cand->count + (cand->has_client_target ? 1 : 0);
	bool primary_on = false;
	int ret;

	if (board->max_active_planes && total > board->max_active_planes) {
		return -EINVAL;
	}
	for (size_t i = 0; i < total; i++) {
		const struct plan_plane_state *s = state_at(cand, i);

		for (size_t j = 0; j < i; j++) {
			if (state_at(cand, j)->plane_id == s->plane_id) {
				return -EINVAL;
			}
		}
		if ((ret = check_state(board, s, &primary_on))) {
			return ret;
		}
	}
	if (board->primary_required && !primary_on) {
		return -EINVAL;
	}
	return 0;
}

static int profile_tester_test(void *ctx, const struct plan_candidate *cand)
{
	return profile_test(ctx, cand);
}

static const struct board_tester_impl profile_tester_impl = {
	.test = profile_tester_test,
};

struct board_tester profile_tester(const struct board *board)
{
	/* The impl only reads the board. */
	struct board_tester tester = { .impl = &profile_tester_impl, .ctx = (void *)board };

	return tester;
}
