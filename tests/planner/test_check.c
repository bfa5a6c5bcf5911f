/*
 * The static check (plane_check.c) and the profile tester (profile_test.c)
 * one rule at a time, on the vkms 6.1 overlays board and edited copies.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "plane_check.h"
#include "testlib.h"

#define R(x) PLAN_REASON_##x

struct rotation_case {
	int32_t transform;
	uint32_t mask;
	bool alternatives;
	bool ok;
	uint32_t rotation;
};

#define ALL_ROTATIONS (BOARD_ROTATE_MASK | BOARD_REFLECT_MASK)

static const struct rotation_case rotation_cases[] = {
	{ 0, BOARD_ROTATE_0, true, true, BOARD_ROTATE_0 },
	/* HWC turns clockwise, KMS counter-clockwise. */
	{ HAL_TRANSFORM_ROT_90, ALL_ROTATIONS, false, true, BOARD_ROTATE_270 },
	{ HAL_TRANSFORM_ROT_90, BOARD_ROTATE_0, true, false, BOARD_ROTATE_270 },
	{ HAL_TRANSFORM_FLIP_H, ALL_ROTATIONS, false, true, BOARD_ROTATE_0 | BOARD_REFLECT_X },
	{ HAL_TRANSFORM_FLIP_V, ALL_ROTATIONS, false, true, BOARD_ROTATE_0 | BOARD_REFLECT_Y },
	{ HAL_TRANSFORM_ROT_180, ALL_ROTATIONS, false, true,
		BOARD_ROTATE_0 | BOARD_REFLECT_X | BOARD_REFLECT_Y },
	/* Both reflections are a half turn. */
	{ HAL_TRANSFORM_ROT_180, BOARD_ROTATE_0 | BOARD_ROTATE_180, true, true, BOARD_ROTATE_180 },
	{ HAL_TRANSFORM_ROT_180, BOARD_ROTATE_0 | BOARD_ROTATE_180, false, false,
		BOARD_ROTATE_0 | BOARD_REFLECT_X | BOARD_REFLECT_Y },
	{ HAL_TRANSFORM_ROT_270, BOARD_ROTATE_0 | BOARD_ROTATE_90, true, true, BOARD_ROTATE_90 },
	/* One reflection is the other one and a half turn. */
	{ HAL_TRANSFORM_FLIP_H, BOARD_ROTATE_0 | BOARD_ROTATE_180 | BOARD_REFLECT_Y, true, true,
		BOARD_ROTATE_180 | BOARD_REFLECT_Y },
	{ HAL_TRANSFORM_FLIP_H | HAL_TRANSFORM_ROT_90, ALL_ROTATIONS, false, true,
		BOARD_ROTATE_270 | BOARD_REFLECT_X },
	{ 8, ALL_ROTATIONS, true, false, BOARD_ROTATE_0 },
	{ -1, ALL_ROTATIONS, true, false, BOARD_ROTATE_0 },
};

static void case_rotation(const char *dir)
{
	(void)dir;
	for (size_t i = 0; i < sizeof(rotation_cases) / sizeof(rotation_cases[0]); i++) {
		const struct rotation_case *c = &rotation_cases[i];
		uint32_t rotation = 0xdead;
		bool ok = plane_check_rotation(c->transform, c->mask, c->alternatives, &rotation);

		if (ok != c->ok || rotation != c->rotation) {
			FAIL("transform %d mask 0x%x: %d 0x%x, want %d 0x%x",
				(int)c->transform, (unsigned)c->mask, ok, (unsigned)rotation, c->ok,
				(unsigned)c->rotation);
		}
	}
	CHECK(plane_check_format_has_alpha(AR24));
	CHECK(plane_check_format_has_alpha(AR48));
	CHECK(!plane_check_format_has_alpha(XR24));
	CHECK(!plane_check_format_has_alpha(NV12));
}

/* One layer against planes 31 (primary), 33 (overlay) and 49 (cursor) of the overlays board. */
struct layer_case {
	const char *what;
	void (*edit)(struct tl_scene *s, struct scene_layer *l);
	uint32_t flags;
	uint32_t primary, overlay, cursor;
};

static void e_none(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	(void)l;
}

static void e_full_xr24(struct tl_scene *s, struct scene_layer *l)
{
	s->images[0].fourcc = XR24;
	l->frame = (struct hwct_rect){ 0, 0, 1024, 768 };
	s->images[0].width = 1024;
	s->images[0].height = 768;
	l->crop = (struct hwct_frect){ 0, 0, 1024, 768 };
}

static void e_bigger_than_screen(struct tl_scene *s, struct scene_layer *l)
{
	e_full_xr24(s, l);
	s->images[0].width = 1044;
	s->images[0].height = 788;
	l->crop = (struct hwct_frect){ 0, 0, 1044, 788 };
	l->frame = (struct hwct_rect){ -10, -10, 1034, 778 };
}

static void e_off_screen(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->frame = (struct hwct_rect){ 2000, 100, 2200, 300 };
}

static void e_empty(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->frame.right = l->frame.left;
}

static void e_partly_off(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->frame = (struct hwct_rect){ 900, 700, 1100, 900 };
}

static void e_scaled(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->crop = (struct hwct_frect){ 0, 0, 100, 100 };
}

static void e_fractional_crop(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->crop = (struct hwct_frect){ 0.5f, 0, 200.5f, 200 };
}

static void e_crop_outside(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	/* Clipped to the buffer, as drm_hwcomposer does: then 150 wide, shown 200 wide. */
	l->crop = (struct hwct_frect){ 50, 0, 250, 200 };
}

static void e_rot90(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->transform = HAL_TRANSFORM_ROT_90;
}

static void e_alpha(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->alpha = 0.5f;
}

static void e_coverage(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->blend = HWC2_BLEND_MODE_COVERAGE;
}

static void e_blend_none(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->blend = HWC2_BLEND_MODE_NONE;
}

static void e_blend_none_opaque(struct tl_scene *s, struct scene_layer *l)
{
	s->images[0].fourcc = XR24;
	l->blend = HWC2_BLEND_MODE_NONE;
}

static void e_solid(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->composition = HWC2_COMPOSITION_SOLID_COLOR;
	l->image = NULL;
}

static void e_no_buffer(struct tl_scene *s, struct scene_layer *l)
{
	(void)s;
	l->image = NULL;
}

static void e_nv12(struct tl_scene *s, struct scene_layer *l)
{
	(void)l;
	s->images[0].fourcc = NV12;
}

static void e_tiled(struct tl_scene *s, struct scene_layer *l)
{
	(void)l;
	s->images[0].modifier = 0x0100000000000001ull;
}

static void e_implicit(struct tl_scene *s, struct scene_layer *l)
{
	(void)l;
	s->images[0].modifier = BOARD_MOD_INVALID;
}

static const struct layer_case check_cases[] = {
	{ "window", e_none, 0, R(FORMAT) | R(POSITION), 0, 0 },
	{ "full-screen XR24", e_full_xr24, 0, 0, 0, 0 },
	{ "bigger than the screen", e_bigger_than_screen, 0, 0, 0, 0 },
	{ "off-screen", e_off_screen, 0, R(FORMAT) | R(POSITION), R(POSITION), R(POSITION) },
	{ "empty", e_empty, 0, R(FORMAT) | R(POSITION), R(POSITION), R(POSITION) },
	{ "partly off-screen", e_partly_off, 0, R(FORMAT) | R(POSITION), 0, 0 },
	{ "scaled", e_scaled, 0, R(FORMAT) | R(SCALING) | R(POSITION), R(SCALING), R(SCALING) },
	{ "fractional crop", e_fractional_crop, 0, R(FORMAT) | R(SCALING) | R(POSITION), R(SCALING),
		R(SCALING) },
	{ "crop outside the buffer", e_crop_outside, 0, R(FORMAT) | R(SCALING) | R(POSITION),
		R(SCALING), R(SCALING) },
	{ "rotated", e_rot90, 0, R(FORMAT) | R(ROTATION) | R(POSITION), R(ROTATION), R(ROTATION) },
	{ "plane alpha", e_alpha, 0, R(FORMAT) | R(ALPHA_BLEND) | R(POSITION), R(ALPHA_BLEND),
		R(ALPHA_BLEND) },
	{ "coverage", e_coverage, 0, R(FORMAT) | R(ALPHA_BLEND) | R(POSITION), R(ALPHA_BLEND),
		R(ALPHA_BLEND) },
	/* vkms blends pre-multiplied: blend None of an alpha format is wrong, of XR24 fine. */
	{ "blend none", e_blend_none, 0, R(FORMAT) | R(ALPHA_BLEND) | R(POSITION), R(ALPHA_BLEND),
		R(ALPHA_BLEND) },
	{ "blend none, drmhwc", e_blend_none, PLANE_CHECK_DRMHWC, R(FORMAT), 0, 0 },
	{ "blend none, opaque", e_blend_none_opaque, 0, R(POSITION), 0, 0 },
	{ "solid colour", e_solid, 0, R(SOLID_COLOR) | R(POSITION), R(SOLID_COLOR), R(SOLID_COLOR) },
	{ "no buffer", e_no_buffer, 0, R(IMPORT) | R(POSITION), R(IMPORT), R(IMPORT) },
	{ "NV12", e_nv12, 0, R(FORMAT) | R(POSITION), R(FORMAT), R(FORMAT) },
	{ "X-tiled", e_tiled, 0, R(FORMAT) | R(POSITION), R(MODIFIER), R(MODIFIER) },
	{ "X-tiled, modifiers ignored", e_tiled, PLANE_CHECK_NO_MODIFIER | PLANE_CHECK_NO_POSITION,
		R(FORMAT), 0, 0 },
	{ "implicit modifier", e_implicit, 0, R(FORMAT) | R(POSITION), 0, 0 },
	{ "scaled, drmhwc", e_scaled, PLANE_CHECK_DRMHWC, R(FORMAT), 0, 0 },
};

static void case_static(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	const struct board_plane *planes[3] = {
		board_find_plane(board, 31), board_find_plane(board, 33), board_find_plane(board, 49),
	};
	char got[3][128], want[3][128];

	for (size_t i = 0; i < sizeof(check_cases) / sizeof(check_cases[0]); i++) {
		const struct layer_case *c = &check_cases[i];
		const uint32_t expect[3] = { c->primary, c->overlay, c->cursor };
		struct tl_scene s;

		tl_scene_init(&s, 1024, 768);
		c->edit(&s, tl_scene_add(&s, AR24, 100, 100, 200, 200));
		for (int p = 0; p < 3; p++) {
			uint32_t r = plane_check(board, planes[p], &s.scene, 0, c->flags);

			if (r != expect[p]) {
				FAIL("%s on plane %u: [%s], want [%s]", c->what,
					(unsigned)planes[p]->id, plan_reasons_format(r, got[p], sizeof(got[p])),
					plan_reasons_format(expect[p], want[p], sizeof(want[p])));
			}
		}
	}
	{
		struct tl_scene s;
		struct scene_layer *l;

		tl_scene_init(&s, 1024, 768);
		l = tl_scene_add(&s, AR24, 0, 0, 10, 10);
		CHECK_INT(plane_check_layer(l), 0);
		l->composition = HWC2_COMPOSITION_CLIENT;
		CHECK_INT(plane_check_layer(l), R(CLIENT_REQUESTED));
		l->composition = HWC2_COMPOSITION_SIDEBAND;
		l->image = NULL;
		CHECK_INT(plane_check_layer(l), R(CLIENT_REQUESTED) | R(IMPORT));
		l->composition = HWC2_COMPOSITION_SOLID_COLOR;
		CHECK_INT(plane_check_layer(l), 0);
		l->composition = HWC2_COMPOSITION_CURSOR;
		CHECK_INT(plane_check_layer(l), R(IMPORT));
	}
	board_destroy(board);
}

/* Rules a profile can turn on, checked statically. */
static void case_static_rules(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct board_plane *overlay = (struct board_plane *)board_find_plane(board, 33);
	struct board_plane *cursor = (struct board_plane *)board_find_plane(board, 49);
	struct tl_scene s;
	struct scene_layer *l;

	tl_scene_init(&s, 1024, 768);
	l = tl_scene_add(&s, AR24, 100, 100, 600, 600);
	overlay->can_scale = true;
	l->crop = (struct hwct_frect){ 0, 0, 30, 30 };
	CHECK_INT(plane_check(board, overlay, &s.scene, 0, 0), 0);
	l->crop = (struct hwct_frect){ 0, 0, 600, 600 };
	cursor->cursor_size_limit = true;
	CHECK_INT(plane_check(board, cursor, &s.scene, 0, 0), R(POSITION));
	l->frame = (struct hwct_rect){ 0, 0, 512, 512 };
	s.images[0].width = s.images[0].height = 512;
	l->crop = (struct hwct_frect){ 0, 0, 512, 512 };
	CHECK_INT(plane_check(board, cursor, &s.scene, 0, 0), 0);
	board->primary_full_screen = false;
	s.images[0].fourcc = XR24;
	CHECK_INT(plane_check(board, board_find_plane(board, 31), &s.scene, 0, 0), 0);
	overlay->solid_fill = true;
	l->image = NULL;
	l->composition = HWC2_COMPOSITION_SOLID_COLOR;
	CHECK_INT(plane_check(board, overlay, &s.scene, 0, 0), 0);
	overlay->has_alpha = true;
	overlay->alpha_max = 0xffff;
	overlay->blend_modes = BOARD_BLEND_PREMULTI | BOARD_BLEND_COVERAGE;
	l->alpha = 0.25f;
	l->blend = HWC2_BLEND_MODE_COVERAGE;
	CHECK_INT(plane_check(board, overlay, &s.scene, 0, 0), 0);
	l->blend = HWC2_BLEND_MODE_NONE;
	CHECK_INT(plane_check(board, overlay, &s.scene, 0, 0), R(ALPHA_BLEND));
	board_destroy(board);
}

/* A full-screen XR24 framebuffer on plane id, unscaled. */
static struct plan_plane_state full(uint32_t id, uint32_t fourcc)
{
	return (struct plan_plane_state){
		.plane_id = id, .layer = 0, .fourcc = fourcc, .modifier = BOARD_MOD_LINEAR,
		.fb_width = 1024, .fb_height = 768, .src_w = 1024 << 16, .src_h = 768 << 16,
		.crtc_w = 1024, .crtc_h = 768, .rotation = BOARD_ROTATE_0, .alpha = 0xffff,
	};
}

static struct plan_plane_state window(uint32_t id)
{
	struct plan_plane_state s = full(id, AR24);

	s.crtc_x = 100;
	s.crtc_y = 100;
	s.crtc_w = s.fb_width = 200;
	s.crtc_h = s.fb_height = 100;
	s.src_w = 200 << 16;
	s.src_h = 100 << 16;
	return s;
}

static int test2(const struct board *board, struct plan_plane_state a, struct plan_plane_state b,
	size_t count)
{
	struct plan_plane_state states[2] = { a, b };
	struct plan_candidate cand = { .count = count, .planes = states };

	return profile_test(board, &cand);
}

/* The profile tester, one refusal at a time (vkms 6.1 atomic check). */
static void case_profile(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	struct plan_plane_state w = window(33), p = full(31, XR24), s;
	struct plan_candidate cand = { 0 };
	struct board_tester tester = profile_tester(board);

	CHECK_INT(test2(board, p, w, 2), 0);
	CHECK_INT(test2(board, w, w, 0), 0);			/* nothing on */
	CHECK_INT(test2(board, w, w, 1), 0);			/* the primary may be off */
	CHECK_INT(tester.impl->test(tester.ctx, &cand), 0);
	CHECK_INT(test2(board, p, p, 2), -EINVAL);		/* a plane used twice */
	s = w, s.plane_id = 32;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* no such plane */
	s = w, s.fourcc = AB24;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* format */
	s = p, s.fourcc = AR24;
	CHECK_INT(test2(board, s, w, 2), -EINVAL);		/* not on the primary */
	s = w, s.modifier = 0x0100000000000001ull;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* modifier */
	s = w, s.modifier = BOARD_MOD_INVALID;
	CHECK_INT(test2(board, p, s, 2), 0);			/* implicit */
	s = w, s.src_w = 100 << 16;
	CHECK_INT(test2(board, p, s, 2), -ERANGE);		/* scaling */
	s = w, s.src_x = 150 << 16;
	CHECK_INT(test2(board, p, s, 2), -ENOSPC);		/* source outside the framebuffer */
	s = w, s.rotation = BOARD_ROTATE_270;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* no rotation property */
	s = w, s.rotation = BOARD_ROTATE_0 | BOARD_ROTATE_180;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* two rotations */
	s = w, s.alpha = 0x8000;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* no alpha property */
	s = w, s.blend = BOARD_BLEND_PREMULTI;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* no blend property */
	s = w, s.set_zpos = true;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* no zpos property */
	s = window(31), s.fourcc = XR24;
	CHECK_INT(test2(board, s, w, 2), -EINVAL);		/* primary not full-screen */
	s = p, s.crtc_x = 2000;
	CHECK_INT(test2(board, s, w, 2), -EINVAL);		/* primary invisible */
	s = p, s.crtc_x = s.crtc_y = -8, s.crtc_w += 16, s.crtc_h += 16, s.fb_width += 16,
		s.fb_height += 16, s.src_w += 16 << 16, s.src_h += 16 << 16;
	CHECK_INT(test2(board, s, w, 2), 0);			/* covering more than the screen */
	s = w, s.crtc_x = 1000, s.crtc_y = 700;
	CHECK_INT(test2(board, p, s, 2), 0);			/* overlays may hang off the screen */
	s = w, s.crtc_w = 0;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);
	s = w, s.crtc_x = INT32_MAX - 10;
	CHECK_INT(test2(board, p, s, 2), -ERANGE);
	s = w, s.solid_fill = true;
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* no solid fill */
	/* Rules from a profile. */
	board->max_active_planes = 1;
	CHECK_INT(test2(board, p, w, 2), -EINVAL);
	CHECK_INT(test2(board, p, w, 1), 0);
	board->max_active_planes = 0;
	board->primary_required = true;
	CHECK_INT(test2(board, w, w, 1), -EINVAL);
	board->primary_required = false;
	((struct board_plane *)board_find_plane(board, 49))->cursor_size_limit = true;
	s = full(49, AR24);
	CHECK_INT(test2(board, p, s, 2), -EINVAL);		/* 1024x768 cursor, 512x512 at most */
	s = window(49);
	CHECK_INT(test2(board, p, s, 2), 0);
	{
		struct board_plane *o = (struct board_plane *)board_find_plane(board, 35);

		o->can_scale = true;
		o->has_zpos = true;
		o->zpos_min = 0;
		o->zpos_max = 3;
		o->has_alpha = true;
		o->blend_modes = BOARD_BLEND_PREMULTI;
		o->rotations |= BOARD_ROTATE_90;
		s = window(35), s.src_w = 50 << 16, s.zpos = 3, s.set_zpos = true, s.alpha = 1,
			s.blend = BOARD_BLEND_PREMULTI, s.rotation = BOARD_ROTATE_90;
		CHECK_INT(test2(board, p, s, 2), 0);
		s.zpos = 4;
		CHECK_INT(test2(board, p, s, 2), -EINVAL);
		s.zpos = 1, o->zpos_immutable = true;
		CHECK_INT(test2(board, p, s, 2), -EINVAL);
	}
	/* The client target counts as a plane too. */
	cand.count = 1;
	cand.planes = &p;
	cand.has_client_target = true;
	cand.client_target = p;
	CHECK_INT(profile_test(board, &cand), -EINVAL);
	cand.client_target = window(33);
	CHECK_INT(profile_test(board, &cand), 0);
	board_destroy(board);
}

static const struct tl_case cases[] = {
	{ "rotation", case_rotation },
	{ "static", case_static },
	{ "static-rules", case_static_rules },
	{ "profile-tester", case_profile },
};

int main(int argc, char **argv)
{
	return tl_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
