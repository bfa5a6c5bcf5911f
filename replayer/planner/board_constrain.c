/*
 * A live board narrowed to what a board dump allows (board.h,
 * board_constrain): for hwc-replay --vm --board, where vkms has the dump's
 * CRTCs and planes (board_vkms.c) but not what each plane of the dump can
 * do. The planner then refuses what the dump's plane cannot take, as
 * --profile does (reasons such as "format", "rotation", "scaling"), and the
 * kernel's TEST_ONLY commits judge the rest ("test-failed").
 */
#include <stdlib.h>

#include "board.h"

/* Keeps the formats of live plane lp that dump plane dp lists, with any modifier (modifiers
 * are not emulated: vkms scans out LINEAR only, the dump's may be tiled). */
static void keep_dump_formats(struct board_plane *lp, const struct board_plane *dp)
{
	size_t kept = 0;

	for (size_t f = 0; f < lp->format_count; f++) {
		if (board_plane_find_format(dp, lp->formats[f].fourcc)) {
			lp->formats[kept++] = lp->formats[f];
		} else {
			free(lp->formats[f].modifiers);
		}
	}
	lp->format_count = kept;
}

void board_constrain(struct board *live, const struct board *dump, const uint32_t *dump_ids, size_t count)
{
	for (size_t i = 0; i < live->plane_count && i < count; i++) {
		struct board_plane *lp = &live->planes[i];
		const struct board_plane *dp = dump_ids[i] ? board_find_plane(dump, dump_ids[i]) : NULL;

		if (!dp) {
			continue;	/* a plane vkms needed that the dump has not: as vkms made it */
		}
		keep_dump_formats(lp, dp);
		lp->rotations &= dp->rotations;
		lp->can_scale = lp->can_scale && dp->can_scale;
		lp->solid_fill = lp->solid_fill && dp->solid_fill;
		lp->cursor_size_limit = lp->cursor_size_limit || dp->cursor_size_limit;
	}
	live->primary_full_screen = live->primary_full_screen || dump->primary_full_screen;
	live->primary_required = live->primary_required || dump->primary_required;
	if (dump->max_active_planes &&
		(!live->max_active_planes || dump->max_active_planes < live->max_active_planes)) {
		live->max_active_planes = dump->max_active_planes;
	}
	if (dump->cursor_width && dump->cursor_height) {
		live->cursor_width = dump->cursor_width;
		live->cursor_height = dump->cursor_height;
	}
}
