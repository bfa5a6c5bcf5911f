/*
 * Helpers of the KMS device tests (kms_vm_test): test images with known
 * pixels, frames of layers on planes, the CPU reference of vkms's blend,
 * and the checks (check.h, counted). The cases live in vm_*.c; vm_main.c
 * runs them.
 */
#ifndef HWCT_TESTS_KMS_VM_UTIL_H
#define HWCT_TESTS_KMS_VM_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "commit.h"
#include "device.h"
#include "fb.h"
#include "readback.h"
#include "scene.h"

#define VT_MAX_LAYERS 8
#define VT_WIDTH 256		/* the mode the cases set */
#define VT_HEIGHT 192
#define VT_FENCE_MS 3000	/* how long a fence may take under TCG */

/* An image with deterministic pixels, stored with a padded stride. */
struct vt_image {
	struct scene_image img;
	uint8_t *pixels;		/* owned */
};

/*
 * Fills t with a width x height image of fourcc (ARGB8888, XRGB8888,
 * ABGR8888 or XBGR8888) from seed: premultiplied pixels, opaque ones when
 * opaque, garbage in X bytes. Returns false when out of memory.
 */
bool vt_image_make(struct vt_image *t, uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t seed, bool opaque);

void vt_image_free(struct vt_image *t);

/* A layer of a test frame: an image shown 1:1 at (x, y) unless w/h say otherwise. */
struct vt_layer {
	const struct vt_image *image;
	uint32_t plane_id;
	int32_t x, y;
	uint32_t w, h;			/* CRTC size; 0 = the image's */
	bool opaque;			/* blend NONE (the alpha is not shown) */
	int acquire_fence;		/* borrowed, -1 none */
};

/* A frame: imported layers and the candidate that shows them. */
struct vt_frame {
	size_t count;
	struct scene_layer layers[VT_MAX_LAYERS];
	struct plan_plane_state states[VT_MAX_LAYERS];
	struct kms_fb *fbs[VT_MAX_LAYERS];
	struct kms_import imports[VT_MAX_LAYERS];
	struct scene scene;
	struct plan_candidate cand;
};

/* The device every case uses: vkms at VT_WIDTH x VT_HEIGHT, a cache and a readback. */
struct vt_ctx {
	struct kms_device *dev;
	struct kms_fb_cache *cache;
	struct kms_readback *rb;
	uint32_t primary, cursor;
	size_t overlay_count;
	uint32_t overlays[8];
};

/* Opens the device (NULL path: the first card) and sets the mode. Returns false after reporting. */
bool vt_setup(struct vt_ctx *ctx, const char *path);
void vt_teardown(struct vt_ctx *ctx);

/* Imports layers (in plane-id order) into f. Returns false after reporting. */
bool vt_frame_build(struct vt_ctx *ctx, struct vt_frame *f, const struct vt_layer *layers,
	size_t count);
void vt_frame_finish(struct vt_frame *f);

/* kms_commit_args of f (with the context's readback when readback). */
struct kms_commit_args vt_frame_args(struct vt_ctx *ctx, const struct vt_frame *f, bool readback);

/*
 * Presents f with readback, checks that the present fence signals, reads
 * the frame back and checks its checksum against the reference of layers.
 * Returns whether everything held.
 */
bool vt_present_and_check(struct vt_ctx *ctx, const struct vt_frame *f,
	const struct vt_layer *layers, size_t count, const char *what);

/*
 * The CPU reference of vkms 6.1 (vkms_composer.c): opaque black, then each
 * layer in order (plane-id order) blended premultiplied-over in 16 bits
 * per channel (8-bit values * 257, DIV_ROUND_CLOSEST(src * 0xffff + dst *
 * (0xffff - alpha), 0xffff)), written back as XRGB8888 (DIV_ROUND_CLOSEST
 * by 257, X = 0xff). out holds VT_WIDTH x VT_HEIGHT pixels, packed.
 */
void vt_reference(const struct vt_layer *layers, size_t count, uint8_t *out);

/* Compares a readback with a packed XRGB8888 reference; reports the first differing pixel. */
bool vt_compare(const struct kms_readback_result *res, const uint8_t *ref, const char *what);

/* CLOCK_MONOTONIC now, ms. */
double vt_now_ms(void);

#endif
