/*
 * Known-good results (--expect): the parts of a results.json that a replay
 * is compared with — per frame the checksum, the plan and the image name —
 * and the device's plane order (board.plane_ids, by which plans of two
 * kernels compare: replay_compare.h) — read by the one results loader
 * (results_load.h). Anything else in the
 * file is ignored. Errors name the file and the JSON path: "good.json:
 * frames[3].plan[1].plane: expected an integer or null, found string".
 */
#ifndef HWCT_REPLAY_EXPECT_H
#define HWCT_REPLAY_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>
#include <hwct/hash.h>

struct replay_expect_layer {
	uint64_t id;			/* hwc2_layer_t */
	uint32_t plane;			/* 0 = none */
	uint32_t reasons;		/* PLAN_REASON_* bits */
	int32_t composition;		/* HWC2_COMPOSITION_*; without "composition": DEVICE with a plane, else CLIENT */
};

struct replay_expect_frame {
	uint64_t frame;			/* FrameEnd.frame */
	bool has_checksum;
	struct hwct_hash checksum;
	bool has_plan;			/* "plan" was an array (not null) */
	uint32_t client_target_plane;	/* 0 = none */
	size_t layer_count;
	const struct replay_expect_layer *layers;	/* owned by the replay_expect */
	char image[65];			/* image file name in images_dir, "" none */
};

struct replay_expect {
	char *name;			/* the file, for messages; owned */
	char *images_dir;		/* where the expected run dumped images, resolved; NULL none; owned */
	size_t frame_count;
	struct replay_expect_frame *frames;	/* by ascending frame, one per frame (the first of loops); owned */
	struct replay_expect_layer *layers;	/* owned: every frame's layers */
	size_t plane_id_count;		/* board.plane_ids: 0 when the file has none (older results) */
	uint32_t *plane_ids;		/* owned: the expected run's device planes, object-id order */
};

/* Loads path. Returns NULL with err filled (err may be NULL). */
struct replay_expect *replay_expect_load(const char *path, struct hwct_error *err);

/* The same from size bytes in memory; name is used in messages and to resolve a relative images_dir. */
struct replay_expect *replay_expect_load_buffer(const char *data, size_t size, const char *name,
	struct hwct_error *err);

/* Frees e. e may be NULL. */
void replay_expect_destroy(struct replay_expect *e);

/* The entry of frame, or NULL. */
const struct replay_expect_frame *replay_expect_find(const struct replay_expect *e, uint64_t frame);

#endif
