/*
 * What a capability dump does not show, per DRM driver (board.h,
 * board_apply_rules). drm_info records properties, not the limits a
 * driver's atomic_check enforces (scaling, positioning, how many planes may
 * be on); these rows say them, each from the driver source named. A profile
 * may still override any of them (README.md, "hwctrace" keys).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "board.h"

struct driver_rule {
	const char *driver;		/* DRM driver name; NULL = every other driver */
	bool can_scale;			/* planes scale (SCALING_FILTER turns it on anyway) */
	bool primary_full_screen;
	bool primary_required;
	bool cursor_size_limit;
	uint32_t max_active_planes;	/* 0 = no limit */
	bool addfb_checks_format;	/* fb_create calls drm_any_plane_has_format */
};

static const struct driver_rule rules[] = {
	/*
	 * Linux 6.1 drivers/gpu/drm/vkms/vkms_plane.c vkms_plane_atomic_check:
	 * drm_atomic_helper_check_plane_state(..., DRM_PLANE_NO_SCALING,
	 * DRM_PLANE_NO_SCALING, can_position = type != PRIMARY, true), then
	 * "primary plane must be visible and full screen". A plane without a
	 * framebuffer passes, so the primary may be off. The cursor is an
	 * ordinary positionable plane (no size check). Framebuffers come from
	 * drm_gem_fb_create, which checks size and pitch but not whether a
	 * plane has the format: ADDFB2 of ABGR8888 succeeds though no vkms 6.1
	 * plane scans it out.
	 */
	{ .driver = "vkms", .can_scale = false, .primary_full_screen = true,
		.primary_required = false, .cursor_size_limit = false },
	/*
	 * Linux 6.1: these drivers' fb_create refuses a format + modifier no
	 * plane has (drm_any_plane_has_format in i915/display/intel_fb.c,
	 * amd/amdgpu/amdgpu_display.c, vmwgfx/vmwgfx_kms.c); the DRM core's
	 * framebuffer_check and the GEM framebuffer helpers do not. Their
	 * other rules are the unknown driver's.
	 */
	{ .driver = "i915", .cursor_size_limit = true, .addfb_checks_format = true },
	{ .driver = "amdgpu", .cursor_size_limit = true, .addfb_checks_format = true },
	{ .driver = "vmwgfx", .cursor_size_limit = true, .addfb_checks_format = true },
	/*
	 * Unknown drivers: no scaling (a dump cannot tell), a positionable
	 * primary that may be off, and cursors no larger than
	 * DRM_CAP_CURSOR_WIDTH x HEIGHT (what legacy cursor hardware wants and
	 * drm_hwcomposer checks), framebuffers of any format the DRM core
	 * knows (the GEM framebuffer helpers most drivers use).
	 */
	{ .driver = NULL, .can_scale = false, .primary_full_screen = false,
		.primary_required = false, .cursor_size_limit = true },
};

static const struct driver_rule *find_rule(const char *driver)
{
	size_t n = sizeof(rules) / sizeof(rules[0]);

	for (size_t i = 0; i < n; i++) {
		if (rules[i].driver && driver && strcmp(rules[i].driver, driver) == 0) {
			return &rules[i];
		}
	}
	return &rules[n - 1];
}

void board_apply_rules(struct board *board)
{
	const struct driver_rule *rule = find_rule(board->driver);

	board->primary_full_screen = rule->primary_full_screen;
	board->primary_required = rule->primary_required;
	board->max_active_planes = rule->max_active_planes;
	board->addfb_checks_format = rule->addfb_checks_format;
	for (size_t i = 0; i < board->plane_count; i++) {
		struct board_plane *plane = &board->planes[i];

		plane->can_scale = rule->can_scale || plane->has_scaling_filter;
		plane->solid_fill = false;
		plane->cursor_size_limit = plane->type == BOARD_PLANE_CURSOR && rule->cursor_size_limit;
	}
}
