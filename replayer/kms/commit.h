/*
 * Atomic commits of plan candidates (tester.h): every plane of the
 * candidate with its framebuffer, source and CRTC rectangles and optional
 * properties, every other plane of the CRTC off, and the mode on the first
 * commit. TEST_ONLY commits ask the driver; presenting commits are
 * NONBLOCK after waiting for the previous present fence, as drm_hwcomposer
 * does (DrmAtomicStateManager), and return the CRTC's OUT_FENCE_PTR fence.
 * The tester at the end answers the planners with TEST_ONLY commits.
 */
#ifndef HWCT_KMS_COMMIT_H
#define HWCT_KMS_COMMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fb.h"
#include "scene.h"
#include "tester.h"

struct kms_device;
struct kms_readback;

struct kms_commit_args {
	const struct plan_candidate *cand;	/* borrowed */
	/*
	 * One per cand->planes entry (NULL for a solid fill, which no plane
	 * property of the uapi can show: refused); borrowed, and referenced
	 * by the device while on screen.
	 */
	struct kms_fb *const *fbs;
	/* The layers' acquire fences (plan_plane_state.layer indexes it); NULL: none. */
	const struct scene *scene;
	struct kms_fb *client_target;		/* when cand->has_client_target; borrowed */
	int client_target_fence;		/* sync_file of the client target, -1 none; borrowed */
	struct kms_readback *readback;		/* presenting only: capture the frame (readback.h); NULL none */
};

/*
 * Asks the driver whether it takes args with a DRM_MODE_ATOMIC_TEST_ONLY
 * commit (plus ALLOW_MODESET while the mode is not yet set), retrying
 * EINTR/EAGAIN. Nothing on screen changes. Returns 0 when it does; -EINVAL,
 * -ERANGE or -ENOSPC when it refuses (also -EINVAL, without a commit, for
 * a property value a plane cannot hold: rotation, alpha, blend or zpos on
 * a plane without the property, a solid fill, a missing framebuffer);
 * another -errno for a hard failure.
 */
int kms_commit_test(struct kms_device *dev, const struct kms_commit_args *args);

/*
 * Shows args: waits (up to KMS_PRESENT_WAIT_MS) for the previous present
 * fence, then commits NONBLOCK (plus ALLOW_MODESET for the first commit,
 * after kms_device_set_mode, or when the writeback connector joins the
 * CRTC) with OUT_FENCE_PTR. The acquire fences are dup'd into IN_FENCE_FD.
 * Returns 0 with *present_fence set to the present fence (a sync_file the
 * caller owns: close it), or the errors of kms_commit_test (-EBUSY when
 * the previous commit is still pending after retrying for
 * KMS_PRESENT_WAIT_MS: the kernel can say busy for a moment after the
 * previous present fence signalled). present_fence may be NULL.
 */
int kms_commit_present(struct kms_device *dev, const struct kms_commit_args *args,
	int *present_fence);

/*
 * Turns the CRTC off (ACTIVE 0, its planes off) with a blocking commit,
 * after waiting for the last present fence; framebuffers that were on
 * screen are released. The next kms_commit_present turns it on again
 * (ALLOW_MODESET). Returns 0 or the commit's -errno.
 */
int kms_commit_disable(struct kms_device *dev);

/* The TEST_ONLY tester for the planners (tester.h), importing through a cache. */
struct kms_tester;

/*
 * Creates a tester on dev importing layer buffers through cache (may be
 * NULL); both borrowed and must outlive it. Client targets get blank
 * framebuffers of their own. Returns NULL when out of memory.
 */
struct kms_tester *kms_tester_create(struct kms_device *dev, struct kms_fb_cache *cache);

/* Frees t. Accepts NULL. */
void kms_tester_destroy(struct kms_tester *t);

/* The scene the next candidates index (borrowed until the next call). */
void kms_tester_set_scene(struct kms_tester *t, const struct scene *scene);

/*
 * The tester as a board_tester (borrowing t). A candidate whose layer
 * cannot be imported for its plane is refused (-EINVAL) without a commit;
 * otherwise kms_commit_test answers.
 */
struct board_tester kms_tester_board_tester(struct kms_tester *t);

/* Candidates tested so far. */
unsigned kms_tester_count(const struct kms_tester *t);

#endif
