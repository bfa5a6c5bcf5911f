/*
 * Readback through the writeback connector: a framebuffer of the mode's
 * size joins a presenting commit (commit.h, kms_commit_args.readback) or a
 * commit of its own (kms_readback_capture); once the writeback fence
 * signals, the frame is hashed and optionally copied out. Drivers without
 * a writeback connector have no readback: the replayer then falls back to
 * a software reference.
 *
 * Where the writeback encoder cannot be cloned with the display's
 * (possible_clones; vkms in Linux 6.1), the first commit with readback
 * takes the CRTC from the display connector and gives it to the writeback
 * connector alone; it stays so for the device's life.
 */
#ifndef HWCT_KMS_READBACK_H
#define HWCT_KMS_READBACK_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/error.h>
#include <hwct/hash.h>

struct kms_device;
struct kms_readback;

/* One captured frame. */
struct kms_readback_result {
	struct hwct_hash checksum;	/* kms_frame_checksum of the frame */
	uint32_t fourcc;		/* the writeback format */
	uint32_t width, height;		/* the mode's size, pixels */
	uint32_t stride;		/* of pixels: width * 4 */
	uint8_t *pixels;		/* owned (kms_readback_result_finish) when a copy was asked for, else NULL */
};

/*
 * Creates a readback on dev (borrowed; must outlive it) writing
 * XRGB8888, else the first of ARGB8888, XBGR8888, ABGR8888 in the
 * connector's WRITEBACK_PIXEL_FORMATS. Returns NULL with err filled: code
 * -ENOTSUP and "no readback" in the message when the device has no
 * writeback connector or no such format; -ENOMEM. err may be NULL.
 */
struct kms_readback *kms_readback_create(struct kms_device *dev, struct hwct_error *err);

/* Frees rb (waiting for nothing: the next commit may still write its buffer). Accepts NULL. */
void kms_readback_destroy(struct kms_readback *rb);

/* The writeback format (DRM_FORMAT_*). */
uint32_t kms_readback_fourcc(const struct kms_readback *rb);

/*
 * Captures what is on screen now with a blocking commit of the writeback
 * connector alone (ALLOW_MODESET when it first joins the CRTC). Then call
 * kms_readback_finish. Returns 0, -EINVAL when nothing was presented yet,
 * or the commit's -errno.
 */
int kms_readback_capture(struct kms_readback *rb);

/*
 * How many writebacks vkms left pending (its composer flag cleared by the
 * previous job's cleanup, readback.c) completed after a kick.
 */
uint64_t kms_readback_kicks(const struct kms_readback *rb);

/*
 * Waits up to timeout_ms for the writeback of the last commit rb joined,
 * then checksums the frame and, when copy, copies it into out->pixels.
 * Returns 0 with *out filled, -EINVAL when rb joined no commit since the
 * last finish, -ETIME on timeout, or another -errno.
 */
int kms_readback_finish(struct kms_readback *rb, int timeout_ms, bool copy,
	struct kms_readback_result *out);

/* Frees what out holds. */
void kms_readback_result_finish(struct kms_readback_result *out);

/*
 * The frame checksum, the comparison key of replayed frames: XXH3-128
 * (hwct_hash_compute) of width * 4 bytes per row, rows top to bottom,
 * stride padding excluded, of a 32-bit frame (XRGB8888, ARGB8888,
 * XBGR8888 or ABGR8888) whose X byte, for the X formats, counts as 0xff
 * whatever the driver wrote there. data holds height rows of stride bytes.
 * Returns the hash; a zero hash when out of memory or for another format.
 */
struct hwct_hash kms_frame_checksum(uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t stride, const uint8_t *data);

#endif
