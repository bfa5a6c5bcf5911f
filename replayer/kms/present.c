/*
 * Presenting commits (commit.h, kms_commit_present): the wait for the
 * previous present fence, the NONBLOCK commit with OUT_FENCE_PTR, and the
 * references that keep framebuffers alive while they are on screen.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "commit.h"
#include "fence_wait.h"
#include "kms_private.h"
#include "readback.h"

static void unref_all(struct kms_fb **fbs, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		kms_fb_unref(fbs[i]);
	}
	free(fbs);
}

/* After a present commit: N-1 is off screen, N stays until N+1 (fbs) flips. */
static void rotate_screen(struct kms_device *dev, struct kms_fb **fbs, size_t count)
{
	unref_all(dev->shown, dev->shown_count);
	dev->shown = dev->pending;
	dev->shown_count = dev->pending_count;
	dev->pending = fbs;
	dev->pending_count = count;
}

void kms_device_release_screen(struct kms_device *dev)
{
	rotate_screen(dev, NULL, 0);
	rotate_screen(dev, NULL, 0);
	if (dev->present_fence >= 0) {
		close(dev->present_fence);
		dev->present_fence = -1;
	}
}

/*
 * Commits; a NONBLOCK commit refused with -EBUSY is tried again every
 * millisecond for up to KMS_PRESENT_WAIT_MS. The present fence signals at
 * the vblank, which can come before the previous commit's worker has
 * marked its planes done (seen on vkms under TCG on a loaded host): for that
 * short while the kernel refuses NONBLOCK commits as "busy with a previous
 * commit" although userspace waited for everything it can see.
 */
static int commit_busy_retry(struct kms_request *r, uint32_t flags)
{
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	int ret = kms_request_commit(r, flags);

	for (int i = 0; ret == -EBUSY && (flags & DRM_MODE_ATOMIC_NONBLOCK) && i < KMS_PRESENT_WAIT_MS; i++) {
		nanosleep(&ms, NULL);
		ret = kms_request_commit(r, flags);
	}
	return ret;
}

/* References on what args shows. Returns NULL when out of memory. */
static struct kms_fb **take_refs(const struct kms_commit_args *args, size_t *count)
{
	const struct plan_candidate *cand = args->cand;
	struct kms_fb **fbs = calloc(cand->count + 1, sizeof(*fbs));

	*count = 0;
	if (!fbs) {
		return NULL;
	}
	for (size_t i = 0; i < cand->count; i++) {
		fbs[(*count)++] = kms_fb_ref(args->fbs[i]);
	}
	if (cand->has_client_target) {
		fbs[(*count)++] = kms_fb_ref(args->client_target);
	}
	return fbs;
}

int kms_commit_present(struct kms_device *dev, const struct kms_commit_args *args,
	int *present_fence)
{
	struct kms_request r = { .dev = dev, .req = drmModeAtomicAlloc() };
	bool modeset = dev->modeset_pending;
	int32_t out_fence = -1;
	uint32_t flags = 0;
	struct kms_fb **fbs;
	size_t count;
	int ret;

	if (present_fence) {
		*present_fence = -1;
	}
	if (!r.req) {
		return -ENOMEM;
	}
	if (dev->present_fence >= 0) {
		/* On a timeout the commit below says -EBUSY if the flip is still due. */
		hwct_fence_wait(dev->present_fence, KMS_PRESENT_WAIT_MS);
	}
	if (args->readback && (ret = kms_readback_attach(args->readback, r.req, &modeset))) {
		goto out;
	}
	if ((ret = kms_request_build(&r, args, modeset))) {
		goto out_readback;
	}
	/* Without OUT_FENCE_PTR there is no fence to wait on next time: commit blocking. */
	if (dev->crtc_out_fence_ptr) {
		flags |= DRM_MODE_ATOMIC_NONBLOCK;
		if ((ret = kms_request_add(&r, dev->crtc_id, dev->crtc_out_fence_ptr,
			(uint64_t)(uintptr_t)&out_fence))) {
			goto out_readback;
		}
	}
	if (modeset) {
		flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	}
	fbs = take_refs(args, &count);
	if (!fbs) {
		ret = -ENOMEM;
		goto out_readback;
	}
	if ((ret = commit_busy_retry(&r, flags))) {
		unref_all(fbs, count);
		goto out_readback;
	}
	rotate_screen(dev, fbs, count);
	dev->modeset_pending = false;
	if (dev->present_fence >= 0) {
		close(dev->present_fence);
		dev->present_fence = -1;
	}
	if (out_fence >= 0) {
		dev->present_fence = fcntl(out_fence, F_DUPFD_CLOEXEC, 0);
		if (present_fence) {
			*present_fence = out_fence;
		} else {
			close(out_fence);
		}
	}
out_readback:
	if (args->readback) {
		kms_readback_committed(args->readback, ret == 0);
	}
out:
	kms_request_finish(&r);
	return ret;
}

int kms_commit_disable(struct kms_device *dev)
{
	struct kms_request r = { .dev = dev, .req = drmModeAtomicAlloc() };
	int ret = 0;

	if (!r.req) {
		return -ENOMEM;
	}
	if (dev->present_fence >= 0) {
		hwct_fence_wait(dev->present_fence, KMS_PRESENT_WAIT_MS);
	}
	for (size_t i = 0; i < dev->plane_count && !ret; i++) {
		const struct kms_plane *kp = &dev->planes[i];

		if (kp->possible_crtcs & (1u << dev->crtc_index)) {
			ret = kms_request_add(&r, kp->id, kp->prop.fb_id, 0);
			ret = ret ? ret : kms_request_add(&r, kp->id, kp->prop.crtc_id, 0);
		}
	}
	if (!ret && !(ret = kms_request_add(&r, dev->crtc_id, dev->crtc_active, 0)) &&
		!(ret = kms_request_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET))) {
		/* nothing is on screen any more; the next present sets the mode again */
		kms_device_release_screen(dev);
		dev->modeset_pending = true;
	}
	kms_request_finish(&r);
	return ret;
}
