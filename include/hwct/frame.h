/*
 * The frame model: a trace seen as presented display frames, each with its
 * layer stack, the decisions taken on it and its fence timings. Built from
 * the records by hwct_frame_iter; what the records did not say is marked
 * absent (has_* false, or -1 for times), never guessed.
 */
#ifndef HWCT_FRAME_H
#define HWCT_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>
#include <hwct/reader.h>
#include <hwct/writer.h>

struct hwct_frect {
	float left, top, right, bottom;
};

struct hwct_region {
	size_t count;
	const struct hwct_rect *rects;	/* owned by the frame */
};

struct hwct_fence_time {
	uint64_t id;			/* Fence.id, 0 = no fence (already signalled) */
	int64_t created_ns;		/* -1 unknown */
	int64_t signal_ns;		/* -1 not signalled or not yet known */
	int32_t status;			/* HWCT_FENCE_PENDING/SIGNALLED or < 0 */
};

struct hwct_buffer_ref {
	uint64_t buffer;		/* Buffer.id, 0 = none */
	const Hwct__Buffer *info;	/* layout, NULL when never recorded; owned by the iterator */
	bool has_content;
	struct hwct_hash content;	/* blob hash: hwct_reader_blob() gives the pixels */
	int32_t capture;		/* HWCT_CAPTURE_* */
	struct hwct_fence_time acquire;
};

struct hwct_layer {
	uint64_t id;			/* hwc2_layer_t */
	int32_t z;
	int32_t requested;		/* HWC2_COMPOSITION_* set by the client */
	int32_t final;			/* after validate's changed types; == requested when unchanged */
	int32_t request;		/* HWC2_LAYER_REQUEST_* bits from getDisplayRequests */
	struct hwct_buffer_ref buffer;
	struct hwct_rect display_frame;
	struct hwct_frect source_crop;
	int32_t transform;		/* HAL_TRANSFORM_* */
	int32_t blend;			/* HWC2_BLEND_MODE_* */
	float plane_alpha;		/* 0..1 */
	uint32_t color;			/* SOLID_COLOR: r | g << 8 | b << 16 | a << 24 */
	bool has_float_color;
	float float_color[4];		/* r, g, b, a */
	int32_t dataspace;
	struct hwct_region damage;
	struct hwct_region visible_region;
	bool has_color_transform;
	float color_transform[16];
	struct hwct_fence_time release;	/* from getReleaseFences after this frame's present */
	uint64_t sideband;
	bool updated;			/* any property set since the display's previous frame */
};

struct hwct_frame {
	uint64_t frame;			/* FrameEnd.frame: trace-wide, from 0 */
	uint64_t display;		/* hwc2_display_t */
	uint64_t display_frame;		/* per display, from 0 */
	uint64_t t_ns;			/* presentDisplay return, CLOCK_MONOTONIC */
	uint32_t flags;			/* HWCT_FRAME_* */
	int32_t width, height;		/* active config, 0 unknown */
	int32_t vsync_period_ns;	/* 0 unknown */
	bool validated;
	int32_t validate_error;		/* HWC2_ERROR_* of validateDisplay */
	int32_t present_error;
	int32_t display_requests;	/* HWC2_DISPLAY_REQUEST_* bits */
	int32_t color_mode;
	float brightness;		/* -1 unknown */
	size_t layer_count;
	const struct hwct_layer *layers;	/* by ascending z; owned by the iterator */
	bool has_client_target;
	struct hwct_buffer_ref client_target;
	int32_t client_target_dataspace;
	struct hwct_region client_target_damage;
	struct hwct_fence_time present;
	uint64_t first_call, last_call;	/* Call.seq range of this frame */
};

struct hwct_frame_iter;

/*
 * Creates an iterator over r's frames from r's current position (normally
 * the start). r is borrowed and must outlive the iterator, which moves it.
 * Returns NULL with errno set.
 */
struct hwct_frame_iter *hwct_frame_iter_create(struct hwct_reader *r);

/* Frees it. it may be NULL. */
void hwct_frame_iter_destroy(struct hwct_frame_iter *it);

/*
 * Only frames of this display (hwc2_display_t); UINT64_MAX (the default)
 * for all.
 */
void hwct_frame_iter_set_display(struct hwct_frame_iter *it, uint64_t display);

/*
 * Decodes up to the next presented frame. Returns 1 with *frame set (owned
 * by it, valid until the next call), 0 at the end, or -errno with
 * hwct_reader_error() of the reader saying what and where.
 */
int hwct_frame_iter_next(struct hwct_frame_iter *it, const struct hwct_frame **frame);

/*
 * Positions it so that the next frame returned is FrameEnd.frame `frame`,
 * starting from the nearest keyframe. Returns 0, -ERANGE past the end, or
 * -errno.
 */
int hwct_frame_iter_seek(struct hwct_frame_iter *it, uint64_t frame);

/*
 * Looks up a fence by id among what has been read so far (fences signal
 * after their frame is presented, so later frames know more). Returns true
 * and fills *out when known.
 */
bool hwct_frame_iter_fence(struct hwct_frame_iter *it, uint64_t id, struct hwct_fence_time *out);

/* The Display record of that display, or NULL; owned by it. */
const Hwct__Display *hwct_frame_iter_display(struct hwct_frame_iter *it, uint64_t display);

/* The last Environment record seen, or NULL; owned by it. */
const Hwct__Environment *hwct_frame_iter_environment(struct hwct_frame_iter *it);

#endif
