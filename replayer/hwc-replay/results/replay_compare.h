/*
 * One replayed frame against its known-good entry (--expect): the plan
 * (layer ids in order, plane or client, reasons; the client target's
 * plane) and the output checksum, as --compare selects.
 */
#ifndef HWCT_REPLAY_COMPARE_H
#define HWCT_REPLAY_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "replay.h"
#include "replay_expect.h"

enum replay_difference {
	REPLAY_SAME = 0,
	REPLAY_DIFFERS_PLAN = 1u << 0,
	REPLAY_DIFFERS_PIXELS = 1u << 1,
};

/*
 * Compares the replay of a frame (scene as shown, result of the backend)
 * with expected (NULL: the frame is not in the expected results, which
 * counts as a plan difference). Returns REPLAY_DIFFERS_* bits and, when
 * not REPLAY_SAME, what differs first in msg ("layer 7: expected plane 33,
 * got client (no-plane)"). Checksums are compared only when both sides have
 * one.
 *
 * Planes compare by their place in their device's plane list (object-id
 * order) when both orders are known (count > 0): kernels number planes
 * differently (vkms's primary is 31 on Linux 6.1, 32 on 6.12, 35 on 7.3),
 * and a layer on the k-th plane of both is on the same plane. Else by id.
 */
struct replay_plane_order {
	const uint32_t *ids;		/* the device's plane ids in object-id order; borrowed */
	size_t count;			/* 0: unknown */
};

unsigned replay_compare_frame(const struct replay_expect_frame *expected, struct replay_plane_order expected_order,
	const struct scene *scene, const struct backend_result *result, struct replay_plane_order order,
	enum replay_compare what, char *msg, size_t size);

#endif
