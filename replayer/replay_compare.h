/*
 * One replayed frame against its known-good entry (--expect): the plan
 * (layer ids in order, plane or client, reasons; the client target's
 * plane) and the output checksum, as --compare selects.
 */
#ifndef HWCT_REPLAY_COMPARE_H
#define HWCT_REPLAY_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

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
 */
unsigned replay_compare_frame(const struct replay_expect_frame *expected, const struct scene *scene,
	const struct backend_result *result, enum replay_compare what, char *msg, size_t size);

#endif
