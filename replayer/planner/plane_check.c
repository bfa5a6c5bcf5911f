/* Static layer/plane compatibility and plane properties (plane_check.h). */
#include <stdint.h>

#include <hardware/hwcomposer2.h>

#include "plane_check.h"

/* drm_fourcc.h formats that carry alpha. */
static const uint32_t alpha_formats[] = {
	BOARD_FOURCC('A', 'R', '1', '2'), BOARD_FOURCC('A', 'B', '1', '2'),
	BOARD_FOURCC('R', 'A', '1', '2'), BOARD_FOURCC('B', 'A', '1', '2'),
	BOARD_FOURCC('A', 'R', '1', '5'), BOARD_FOURCC('A', 'B', '1', '5'),
	BOARD_FOURCC('R', 'A', '1', '5'), BOARD_FOURCC('B', 'A', '1', '5'),
	BOARD_FOURCC('A', 'R', '2', '4'), BOARD_FOURCC('A', 'B', '2', '4'),
	BOARD_FOURCC('R', 'A', '2', '4'), BOARD_FOURCC('B', 'A', '2', '4'),
	BOARD_FOURCC('A', 'R', '3', '0'), BOARD_FOURCC('A', 'B', '3', '0'),
	BOARD_FOURCC('R', 'A', '3', '0'), BOARD_FOURCC('B', 'A', '3', '0'),
	BOARD_FOURCC('A', 'R', '4', '8'), BOARD_FOURCC('A', 'B', '4', '8'),
	BOARD_FOURCC('A', 'R', '4', 'H'), BOARD_FOURCC('A', 'B', '4', 'H'),
	BOARD_FOURCC('A', 'Y', 'U', 'V'),
};

bool plane_check_format_has_alpha(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(alpha_formats) / sizeof(alpha_formats[0]); i++) {
		if (alpha_formats[i] == fourcc) {
			return true;
		}
	}
	return false;
}

/* ROTATE_θ for θ in quarter turns counter-clockwise. */
static uint32_t rotate_bit(unsigned quarter_turns)
{
	return BOARD_ROTATE_0 << (quarter_turns % 4);
}

bool plane_check_rotation(int32_t hal_transform, uint32_t mask, bool alternatives,
	uint32_t *rotation)
{
	unsigned turns, alt_turns;
	uint32_t reflect, alt_reflect, direct, alt;

	if (hal_transform < 0 || hal_transform > 7) {
		*rotation = BOARD_ROTATE_0;
		return false;
	}
	turns = (hal_transform & HAL_TRANSFORM_ROT_90) ? 3 : 0;
	reflect = ((hal_transform & HAL_TRANSFORM_FLIP_H) ? BOARD_REFLECT_X : 0) |
		((hal_transform & HAL_TRANSFORM_FLIP_V) ? BOARD_REFLECT_Y : 0);
	direct = rotate_bit(turns) | reflect;
	*rotation = direct;
	if ((direct & mask) == direct) {
		return true;
	}
	if (!alternatives) {
		return false;
	}
	/* Both reflections are a half turn; one reflection is the other one plus a half turn. */
	alt_turns = turns + 2;
	if (reflect == BOARD_REFLECT_MASK) {
		alt_reflect = 0;
	} else if (reflect) {
		alt_reflect = reflect ^ BOARD_REFLECT_MASK;
	} else {
		return false;
	}
	alt = rotate_bit(alt_turns) | alt_reflect;
	if ((alt & mask) == alt) {
		*rotation = alt;
		return true;
	}
	return false;
}

uint32_t plane_check_layer(const struct scene_layer *layer)
{
	uint32_t reasons = 0;

	switch (layer->composition) {
	case HWC2_COMPOSITION_DEVICE:
	case HWC2_COMPOSITION_CURSOR:
	case HWC2_COMPOSITION_SOLID_COLOR:
		break;
	default:
		reasons |= PLAN_REASON_CLIENT_REQUESTED;
		break;
	}
	if (!layer->image && layer->composition != HWC2_COMPOSITION_SOLID_COLOR) {
		reasons |= PLAN_REASON_IMPORT;
	}
	return reasons;
}

/* A 16.16 value of v >= 0 (clamped to the 32-bit range). */
static uint32_t to_1616(double v)
{
	if (!(v > 0.0)) {
		return 0;
	}
	if (v * 65536.0 >= (double)UINT32_MAX) {
		return UINT32_MAX;
	}
	return (uint32_t)(v * 65536.0);
}

static uint32_t clamp_size(int64_t v)
{
	return v <= 0 ? 0 : v > INT32_MAX ? INT32_MAX : (uint32_t)v;
}

static uint16_t alpha16(float alpha)
{
	if (!(alpha > 0.0f)) {
		return 0;
	}
	if (!(alpha < 1.0f)) {
		return 0xffff;
	}
	return (uint16_t)(alpha * 65535.0f + 0.5f);
}

/* HWC2_BLEND_MODE_* as a BOARD_BLEND_* bit (INVALID is NONE). */
static uint32_t blend_bit(int32_t blend)
{
	switch (blend) {
	case HWC2_BLEND_MODE_PREMULTIPLIED:
		return BOARD_BLEND_PREMULTI;
	case HWC2_BLEND_MODE_COVERAGE:
		return BOARD_BLEND_COVERAGE;
	default:
		return BOARD_BLEND_NONE;
	}
}

static double clampf(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void plane_check_state(const struct board *board, const struct board_plane *plane,
	const struct scene *scene, size_t layer, uint32_t flags, struct plan_plane_state *out)
{
	const struct scene_layer *l = &scene->layers[layer];
	int64_t w = (int64_t)l->frame.right - l->frame.left;
	int64_t h = (int64_t)l->frame.bottom - l->frame.top;
	uint32_t blend = blend_bit(l->blend);

	(void)board;
	*out = (struct plan_plane_state){
		.plane_id = plane->id,
		.layer = layer,
		.crtc_x = l->frame.left,
		.crtc_y = l->frame.top,
		.crtc_w = clamp_size(w),
		.crtc_h = clamp_size(h),
		.alpha = alpha16(l->alpha),
	};
	plane_check_rotation(l->transform, plane->rotations,
		!(flags & PLANE_CHECK_DIRECT_ROTATION), &out->rotation);
	if (plane->blend_modes & blend) {
		out->blend = blend;
	}
	if (!l->image) {
		out->solid_fill = true;
		out->color = l->color;
		out->src_w = (uint32_t)((uint64_t)out->crtc_w << 16 > UINT32_MAX ?
			UINT32_MAX : out->crtc_w << 16);
		out->src_h = (uint32_t)((uint64_t)out->crtc_h << 16 > UINT32_MAX ?
			UINT32_MAX : out->crtc_h << 16);
		if (out->rotation & (BOARD_ROTATE_90 | BOARD_ROTATE_270)) {
			uint32_t t = out->src_w;

			out->src_w = out->src_h;
			out->src_h = t;
		}
		return;
	}
	{
		/* drm_hwcomposer's ClipSourceCrop, then To1616FixPt. */
		double bw = l->image->width, bh = l->image->height;
		double left = clampf(l->crop.left, 0.0, bw), top = clampf(l->crop.top, 0.0, bh);
		double right = clampf(l->crop.right, 0.0, bw), bottom = clampf(l->crop.bottom, 0.0, bh);

		out->fourcc = l->image->fourcc;
		out->modifier = l->image->modifier;
		out->fb_width = l->image->width;
		out->fb_height = l->image->height;
		out->src_x = to_1616(left);
		out->src_y = to_1616(top);
		out->src_w = to_1616(right - left);
		out->src_h = to_1616(bottom - top);
	}
}

static void screen_size(const struct board *board, const struct scene *scene, int64_t *w,
	int64_t *h)
{
	*w = board->width ? board->width : scene->width;
	*h = board->height ? board->height : scene->height;
}

static uint32_t check_position(const struct board *board, const struct board_plane *plane,
	const struct scene *scene, const struct plan_plane_state *s)
{
	int64_t sw, sh;
	int64_t x1 = s->crtc_x, y1 = s->crtc_y;
	int64_t x2 = x1 + s->crtc_w, y2 = y1 + s->crtc_h;

	screen_size(board, scene, &sw, &sh);
	if (s->crtc_w == 0 || s->crtc_h == 0 || s->src_w == 0 || s->src_h == 0) {
		return PLAN_REASON_POSITION;
	}
	if (sw && sh && (x2 <= 0 || y2 <= 0 || x1 >= sw || y1 >= sh)) {
		return PLAN_REASON_POSITION;	/* nothing of it on the screen */
	}
	if (plane->type == BOARD_PLANE_PRIMARY && board->primary_full_screen &&
		(x1 > 0 || y1 > 0 || x2 < sw || y2 < sh)) {
		return PLAN_REASON_POSITION;
	}
	if (plane->cursor_size_limit && board->cursor_width && board->cursor_height &&
		(s->crtc_w > board->cursor_width || s->crtc_h > board->cursor_height)) {
		return PLAN_REASON_POSITION;
	}
	return 0;
}

static uint32_t check_scaling(const struct board_plane *plane, const struct plan_plane_state *s)
{
	uint64_t dst_w = s->crtc_w, dst_h = s->crtc_h;

	if (plane->can_scale || s->crtc_w == 0 || s->crtc_h == 0) {
		return 0;	/* an empty frame is a position problem */
	}
	if (s->rotation & (BOARD_ROTATE_90 | BOARD_ROTATE_270)) {
		dst_w = s->crtc_h;
		dst_h = s->crtc_w;
	}
	return s->src_w != dst_w << 16 || s->src_h != dst_h << 16 ? PLAN_REASON_SCALING : 0;
}

static uint32_t check_blend(const struct board_plane *plane, const struct scene_layer *l,
	const struct plan_plane_state *s, uint32_t flags)
{
	uint32_t want = blend_bit(l->blend);
	uint32_t reasons = 0;

	if (s->alpha != 0xffff && !plane->has_alpha) {
		reasons |= PLAN_REASON_ALPHA_BLEND;
	}
	if (plane->blend_modes) {
		if (!(plane->blend_modes & want)) {
			reasons |= PLAN_REASON_ALPHA_BLEND;
		}
	} else if (want == BOARD_BLEND_COVERAGE) {
		/* Without the property the driver blends pre-multiplied. */
		reasons |= PLAN_REASON_ALPHA_BLEND;
	} else if (want == BOARD_BLEND_NONE && !(flags & PLANE_CHECK_LAX_BLEND) && l->image &&
		plane_check_format_has_alpha(l->image->fourcc)) {
		reasons |= PLAN_REASON_ALPHA_BLEND;
	}
	return reasons;
}

static uint32_t check_format(const struct board_plane *plane, const struct scene_layer *l,
	uint32_t flags)
{
	if (!l->image) {
		if (l->composition != HWC2_COMPOSITION_SOLID_COLOR) {
			return PLAN_REASON_IMPORT;
		}
		return plane->solid_fill ? 0 : PLAN_REASON_SOLID_COLOR;
	}
	if (!board_plane_find_format(plane, l->image->fourcc)) {
		return PLAN_REASON_FORMAT;
	}
	if (!(flags & PLANE_CHECK_NO_MODIFIER) &&
		!board_plane_has_format(plane, l->image->fourcc, l->image->modifier)) {
		return PLAN_REASON_MODIFIER;
	}
	return 0;
}

uint32_t plane_check(const struct board *board, const struct board_plane *plane,
	const struct scene *scene, size_t layer, uint32_t flags)
{
	const struct scene_layer *l = &scene->layers[layer];
	struct plan_plane_state s;
	uint32_t reasons = check_format(plane, l, flags);
	uint32_t rotation;

	plane_check_state(board, plane, scene, layer, flags, &s);
	if (!plane_check_rotation(l->transform, plane->rotations,
		!(flags & PLANE_CHECK_DIRECT_ROTATION), &rotation)) {
		reasons |= PLAN_REASON_ROTATION;
	}
	reasons |= check_blend(plane, l, &s, flags);
	if (!(flags & PLANE_CHECK_NO_SCALING)) {
		reasons |= check_scaling(plane, &s);
	}
	if (!(flags & PLANE_CHECK_NO_POSITION)) {
		reasons |= check_position(board, plane, scene, &s);
	}
	return reasons;
}

bool plane_check_layers_intersect(const struct scene_layer *a, const struct scene_layer *b)
{
	int64_t x1 = a->frame.left > b->frame.left ? a->frame.left : b->frame.left;
	int64_t y1 = a->frame.top > b->frame.top ? a->frame.top : b->frame.top;
	int64_t x2 = a->frame.right < b->frame.right ? a->frame.right : b->frame.right;
	int64_t y2 = a->frame.bottom < b->frame.bottom ? a->frame.bottom : b->frame.bottom;

	return x2 > x1 && y2 > y1;
}
