/*
 * A vkms device shaped like a board, for hwc-replay --vm --board and
 * hwc-trace board --vkms (board_vkms.c).
 */
#ifndef HWCT_PLANNER_BOARD_VKMS_H
#define HWCT_PLANNER_BOARD_VKMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct board;

#define BOARD_VKMS_MAX_NOTES 64
#define BOARD_VKMS_MAX_PLANES 31	/* vkms takes 1 to 31 */

/* What of a board the vkms device copies, and what it cannot. */
struct board_vkms_notes {
	size_t emulated_count;
	char *emulated[BOARD_VKMS_MAX_NOTES];		/* owned sentences */
	size_t not_emulated_count;
	char *not_emulated[BOARD_VKMS_MAX_NOTES];	/* owned sentences */
};

/*
 * Writes to out the lines tests/vm/vm-init turns into a vkms configfs device
 * with board's CRTCs (one encoder and connected Virtual connector each, the
 * board's modelled CRTC's first, with a writeback connector), its planes
 * with their types and possible CRTCs in the board's order, bent where vkms
 * refuses the dump's shape; fills notes (which it initialises; free with
 * board_vkms_notes_finish). Returns 0, -ENOMEM, -E2BIG (no room for a
 * primary vkms needs) or -EIO (out failed); on error notes hold nothing.
 */
int board_vkms_write(const struct board *board, FILE *out, struct board_vkms_notes *notes);

/*
 * The dump's plane id of each plane of the device board_vkms_write makes,
 * in the order it makes them (the device's object-id order), 0 for a plane
 * added because vkms needs it; at most max. Returns how many, or -ENOMEM /
 * -E2BIG as board_vkms_write.
 */
int board_vkms_dump_ids(const struct board *board, uint32_t *ids, size_t max);

/* Frees the sentences of notes and empties it. */
void board_vkms_notes_finish(struct board_vkms_notes *notes);

#endif
