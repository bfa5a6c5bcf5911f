/*
 * A scene: one display frame's layer stack as the replay backends see it
 * (buffers already decoded to CPU memory). The shared vocabulary of the
 * planners, the compositors and the KMS backend.
 */
#ifndef HWCT_SCENE_H
#define HWCT_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/frame.h>
#include <hwct/hash.h>

#define SCENE_MAX_PLANES 3

/* Pixels of one buffer in CPU memory. */
struct scene_image {
	uint32_t fourcc;		/* DRM_FORMAT_* */
	uint64_t modifier;		/* DRM_FORMAT_MOD_*, LINEAR for CPU data */
	uint32_t width, height;		/* pixels */
	uint32_t plane_count;
	uint32_t offset[SCENE_MAX_PLANES];	/* bytes from data */
	uint32_t stride[SCENE_MAX_PLANES];	/* bytes per row */
	const uint8_t *data;		/* borrowed */
	size_t size;
	struct hwct_hash hash;		/* identity of the content (cache key) */
};

struct scene_layer {
	uint64_t id;			/* hwc2_layer_t */
	int32_t z;
	int32_t composition;		/* HWC2_COMPOSITION_* the client asked for */
	const struct scene_image *image;	/* NULL for SOLID_COLOR */
	struct hwct_frect crop;		/* source crop, buffer pixels */
	struct hwct_rect frame;		/* display frame, display pixels */
	int32_t transform;		/* HAL_TRANSFORM_* (clockwise rotations, flips) */
	int32_t blend;			/* HWC2_BLEND_MODE_* (INVALID is treated as NONE) */
	float alpha;			/* plane alpha 0..1 */
	uint32_t color;			/* SOLID_COLOR: r | g << 8 | b << 16 | a << 24 */
	int acquire_fence;		/* sync_file fd or -1; borrowed */
	/*
	 * The trace's layer this one replays (dataspace, damage, visible
	 * region, buffer identity, the recorded decision), display frame
	 * unmapped; NULL when the scene does not come from a trace. Borrowed.
	 */
	const struct hwct_layer *recorded;
};

struct scene {
	uint32_t width, height;		/* display mode */
	const struct scene_layer *layers;	/* ascending z; borrowed */
	size_t layer_count;
	const struct hwct_frame *recorded;	/* the trace's frame (client target dataspace...); NULL none */
};

/*
 * Why a layer did not get a plane (bits; several may apply). One list, from
 * which the enum and the name table are both made.
 */
#define PLAN_REASONS(X) \
	X(CLIENT_REQUESTED, 0, "client-requested")	/* the client asked for CLIENT composition */ \
	X(FORMAT, 1, "format")			/* no free plane scans out this format */ \
	X(MODIFIER, 2, "modifier")		/* format known, modifier not */ \
	X(SCALING, 3, "scaling")		/* crop size != frame size, plane cannot scale */ \
	X(ROTATION, 4, "rotation")		/* transform not in the plane's rotation property */ \
	X(ALPHA_BLEND, 5, "alpha-blend")	/* plane alpha or blend mode not supported */ \
	X(POSITION, 6, "position")		/* position/size not allowed (primary must be full-screen) */ \
	X(ZPOS, 7, "zpos")			/* z-order cannot be kept (under a client layer, zpos) */ \
	X(NO_PLANE, 8, "no-plane")		/* every suitable plane was taken */ \
	X(TEST_FAILED, 9, "test-failed")	/* the driver refused the TEST_ONLY commit */ \
	X(SOLID_COLOR, 10, "solid-color")	/* no plane can show a solid colour */ \
	X(IMPORT, 11, "import")			/* the buffer could not be imported */ \
	X(BUDGET, 12, "budget")			/* the planner's time budget ran out first */ \
	X(MODULE, 13, "module")			/* the HWC2 module chose CLIENT at validate */

#define PLAN_REASON_ENUM(name, bit, str) PLAN_REASON_##name = 1u << (bit),
enum plan_reason {
	PLAN_REASON_NONE = 0,
	PLAN_REASONS(PLAN_REASON_ENUM)
};
#undef PLAN_REASON_ENUM

/*
 * The frame checksum, the comparison key of replayed frames wherever they
 * come from (writeback, software reference): XXH3-128 (hwct_hash_compute)
 * of width * 4 bytes per row, rows top to bottom, stride padding excluded,
 * of a 32-bit frame (XRGB8888, ARGB8888, XBGR8888 or ABGR8888) whose X byte,
 * for the X formats, counts as 0xff whatever was written there. data holds
 * height rows of stride bytes. A zero hash when out of memory or for
 * another format.
 */
struct hwct_hash scene_frame_checksum(uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t stride, const uint8_t *data);

/* The stable name ("format", "no-plane", ...) of one reason bit; NULL when unknown. */
const char *plan_reason_name(uint32_t bit);

/*
 * Writes the names of the bits in reasons, comma-separated, into buf
 * (truncated to size). Returns buf.
 */
char *plan_reasons_format(uint32_t reasons, char *buf, size_t size);

#endif
