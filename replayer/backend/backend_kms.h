/* The KMS replay backend (backend_kms.c): a real atomic-KMS device. */
#ifndef HWCT_BACKEND_KMS_H
#define HWCT_BACKEND_KMS_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/error.h>

#include "backend.h"

struct kms_device;
struct kms_fb;
struct kms_fb_cache;
struct kms_output_request;

struct backend_kms_options {
	const char *path;		/* /dev/dri/cardN; NULL: the first usable node */
	/*
	 * A display after the first on the same node: which connector and CRTC
	 * it may take (kms_device_open_output; path must be set); borrowed.
	 * NULL: the first connected connector and its CRTC.
	 */
	const struct kms_output_request *output;
	uint32_t width, height;		/* mode to set; 0: keep the connector's preferred mode */
	uint32_t refresh_hz;		/* 0: 60 */
	const struct planner_impl *planner;
	const struct planner_options *planner_opts;	/* NULL: defaults; copied */
	struct compositor *compositor;	/* composes client layers; borrowed, must outlive the backend */
	bool readback;			/* checksum every frame through the writeback connector */
	/*
	 * The caller chose the compositor's YUV model. Otherwise, on a vkms
	 * device, the backend sets COMP_YUV_VKMS (a "gl" compositor keeps its
	 * own): a YUV layer composed looks as it does on a plane there.
	 */
	bool yuv_model_asked;
	/*
	 * Plan reuse, as libliftoff's reuse_previous_alloc: when a scene has
	 * the same layers as the previous one (count, composition, format,
	 * modifier and size of the buffer, crop, frame, transform, blend,
	 * plane alpha, colour; not the content), the previous plan is kept:
	 * re-checked with one TEST_ONLY commit of its configuration when some
	 * buffer content changed, not tested at all when nothing did. A
	 * refused re-check plans afresh. The reused plan's test_count is the
	 * tests made for this frame (0 or 1).
	 */
	bool reuse_plans;
};

/*
 * Opens the device and prepares planning, importing, composing and
 * readback. Returns the backend (backend_destroy), or NULL with err filled
 * (the node, the step and why; err may be NULL).
 */
struct backend *backend_kms_create(const struct backend_kms_options *opts, struct hwct_error *err);

/* The device's board (its planes and mode), owned by b; NULL for another backend. */
const struct board *backend_kms_board(struct backend *b);

/* Writebacks vkms left pending that a second writeback commit completed (readback.c); 0 for others. */
uint64_t backend_kms_readback_kicks(struct backend *b);

/* The KMS device, owned by b; NULL for another backend. */
struct kms_device *backend_kms_device(struct backend *b);

/*
 * The framebuffer cache the planner's TEST_ONLY commits and the presenting
 * commits import scene images through, owned by b; NULL for another
 * backend. A caller may put framebuffers of its own there (kms_fb_cache_put,
 * keyed by the scene image's hash and format) to have them used as they are.
 */
struct kms_fb_cache *backend_kms_fb_cache(struct backend *b);

/* Plan reuse counts since creation (backend_kms_options.reuse_plans). */
struct backend_kms_stats {
	uint64_t plans;			/* backend_kms_plan calls */
	uint64_t reused_untested;	/* the previous plan, nothing changed: no test */
	uint64_t reused_retested;	/* the previous plan after one passing TEST_ONLY */
	uint64_t retests_refused;	/* re-checks the driver refused (then planned afresh) */
};

struct backend_kms_stats backend_kms_get_stats(struct backend *b);

/*
 * Plans scene on the device (the planner with TEST_ONLY commits, or the
 * previous plan under reuse_plans) without showing anything. Returns 0 with
 * *out (plan_destroy), or -errno (-EINVAL for another backend).
 */
int backend_kms_plan(struct backend *b, const struct scene *scene, struct plan **out);

/* What backend_kms_show shows besides the scene. */
struct backend_kms_frame {
	const struct plan *plan;	/* backend_kms_plan's for this scene; borrowed */
	/*
	 * The client target composed by the caller, display-sized, in a
	 * format the plan's client-target plane scans out; borrowed (the
	 * device references it while on screen). NULL: the backend composes
	 * the client layers with its compositor.
	 */
	struct kms_fb *client_target;
	int client_target_fence;	/* its acquire fence (IN_FENCE_FD); borrowed, -1 none */
	bool wait;			/* wait for the flip (fills present_ns) */
};

/*
 * Shows scene as frame->plan says: the layers on planes imported through
 * the cache, the client target on its plane, committed with the layers'
 * acquire fences (IN_FENCE_FD) and OUT_FENCE_PTR; then, with readback, the
 * writeback checksum (and image when want_image). Fills out like
 * backend_present except out->plan (left NULL: the plan stays the
 * caller's). present_fence (may be NULL) gets the present fence, which the
 * caller owns. Returns 0 or -errno.
 */
int backend_kms_show(struct backend *b, const struct scene *scene,
	const struct backend_kms_frame *frame, bool want_image, struct backend_result *out,
	int *present_fence);

/*
 * Turns the display off (power mode OFF: the CRTC inactive, planes off);
 * the next show turns it on again. Returns 0 or -errno.
 */
int backend_kms_disable(struct backend *b);

#endif
