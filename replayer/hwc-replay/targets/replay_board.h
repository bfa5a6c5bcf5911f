/*
 * --device with --board: the device is vkms shaped like a board dump
 * (hwc-replay --vm --board runs the guest's replay so; board_vkms.c). The
 * planner plans on the device narrowed to what the dump's planes can do
 * (board_constrain), and results name planes by the dump's ids, so that a
 * --profile prediction of the same dump compares with the kernel's verdict
 * directly (hwc-trace diff).
 */
#ifndef HWCT_REPLAY_BOARD_H
#define HWCT_REPLAY_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

#include "board_vkms.h"

struct board;

struct replay_board {
	const char *path;		/* the dump, as given; borrowed from the options */
	struct board *dump;		/* owned; NULL: no --board */
	size_t count;			/* planes of the vkms device */
	uint32_t dump_ids[BOARD_VKMS_MAX_PLANES];	/* the dump's id of the device's i-th plane; 0 added */
	uint32_t kms_ids[BOARD_VKMS_MAX_PLANES];	/* the device's i-th plane id, once bound */
	size_t bound;			/* kms_ids filled */
};

/*
 * Loads the dump at path (device: the device of a multi-device paste, NULL
 * the default) and the plane order of the vkms device shaped like it.
 * Returns 0, or -errno with err filled.
 */
int replay_board_load(struct replay_board *rb, const char *path, const char *device, struct hwct_error *err);

/* Narrows live (the device's board) to the dump (board_constrain) and learns its plane ids. */
void replay_board_bind(struct replay_board *rb, struct board *live);

/* The dump's id of the device's plane kms_id; kms_id itself when unknown, 0 for 0. */
uint32_t replay_board_plane(const struct replay_board *rb, uint32_t kms_id);

/* Frees what rb owns. Accepts a zeroed rb. */
void replay_board_finish(struct replay_board *rb);

#endif
