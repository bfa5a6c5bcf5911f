/*
 * Writeback readback (readback.h): the writeback framebuffer, its joining
 * of commits, the wait for its fence and the frame checksum.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "fence_wait.h"
#include "kms_private.h"
#include "readback.h"

struct kms_readback {
	struct kms_device *dev;		/* borrowed */
	uint32_t fourcc;
	struct kms_fb *fb;		/* the writeback buffer, mode-sized; NULL until first attached */
	int32_t fence;			/* WRITEBACK_OUT_FENCE_PTR target: owned sync_file, -1 */
	bool armed;			/* a commit wrote fence; finish has not run */
	uint64_t kicks;			/* writebacks left pending that a kick completed */
};

/*
 * vkms (Linux 6.1 to 7.3 at least) has one composer flag for writeback: a
 * frame's writeback job enables it in its commit, and the job's cleanup,
 * run from a work queue after the job completed, clears it. When the next
 * frame's commit comes between the two (the replayer commits as soon as the
 * previous writeback fence signals; under TCG the cleanup often runs late),
 * the flag ends cleared with that frame's job pending, and its fence never
 * signals until another writeback commit sets the flag again. So a wait
 * longer than this commits the writeback connector alone once more, into
 * the same framebuffer: the composer runs again and completes the pending
 * job first, then the kick's.
 */
#define READBACK_KICK_MS 1500

static const uint32_t preferred_formats[] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888, DRM_FORMAT_ABGR8888,
};

static uint32_t pick_format(const struct board *board)
{
	for (size_t i = 0; i < sizeof(preferred_formats) / sizeof(preferred_formats[0]); i++) {
		for (size_t j = 0; j < board->writeback_format_count; j++) {
			if (board->writeback_formats[j] == preferred_formats[i]) {
				return preferred_formats[i];
			}
		}
	}
	return 0;
}

struct kms_readback *kms_readback_create(struct kms_device *dev, struct hwct_error *err)
{
	struct kms_readback *rb;
	uint32_t fourcc;

	hwct_error_clear(err);
	if (!dev->writeback_id) {
		hwct_error_set(err, -ENOTSUP, dev->path, UINT64_MAX,
			"readback: no writeback connector (no readback)");
		return NULL;
	}
	fourcc = pick_format(dev->board);
	if (!fourcc) {
		hwct_error_set(err, -ENOTSUP, dev->path, UINT64_MAX,
			"readback: no 32-bit RGB writeback format (no readback)");
		return NULL;
	}
	rb = calloc(1, sizeof(*rb));
	if (!rb) {
		hwct_error_set(err, -ENOMEM, dev->path, UINT64_MAX, "readback: out of memory");
		return NULL;
	}
	rb->dev = dev;
	rb->fourcc = fourcc;
	rb->fence = -1;
	return rb;
}

static void drop_fence(struct kms_readback *rb)
{
	if (rb->fence >= 0) {
		close(rb->fence);
	}
	rb->fence = -1;
	rb->armed = false;
}

void kms_readback_destroy(struct kms_readback *rb)
{
	if (!rb) {
		return;
	}
	drop_fence(rb);
	kms_fb_unref(rb->fb);
	free(rb);
}

uint32_t kms_readback_fourcc(const struct kms_readback *rb)
{
	return rb->fourcc;
}

int kms_readback_attach(struct kms_readback *rb, drmModeAtomicReq *req, bool *modeset)
{
	struct kms_device *dev = rb->dev;
	uint32_t w = dev->mode.hdisplay, h = dev->mode.vdisplay;
	int ret;

	drop_fence(rb);
	if (rb->fb && (rb->fb->width != w || rb->fb->height != h)) {
		kms_fb_unref(rb->fb);
		rb->fb = NULL;
	}
	if (!rb->fb && (ret = kms_fb_create(dev, w, h, rb->fourcc, &rb->fb))) {
		return ret;
	}
	if (drmModeAtomicAddProperty(req, dev->writeback_id, dev->wb_crtc_id, dev->crtc_id) < 0 ||
		drmModeAtomicAddProperty(req, dev->writeback_id, dev->wb_fb_id, rb->fb->id) < 0 ||
		drmModeAtomicAddProperty(req, dev->writeback_id, dev->wb_out_fence_ptr,
			(uint64_t)(uintptr_t)&rb->fence) < 0) {
		return -ENOMEM;
	}
	if (!dev->writeback_attached) {
		*modeset = true;
	}
	return 0;
}

void kms_readback_committed(struct kms_readback *rb, bool ok)
{
	if (ok) {
		rb->dev->writeback_attached = true;
		rb->armed = rb->fence >= 0;
	} else {
		/* no fd was installed for a failed commit */
		rb->fence = -1;
		rb->armed = false;
	}
}

int kms_readback_capture(struct kms_readback *rb)
{
	struct kms_device *dev = rb->dev;
	drmModeAtomicReq *req;
	bool modeset = false;
	int ret;

	if (dev->modeset_pending) {
		return -EINVAL;
	}
	req = drmModeAtomicAlloc();
	if (!req) {
		return -ENOMEM;
	}
	ret = kms_readback_attach(rb, req, &modeset);
	if (!ret && modeset) {
		ret = kms_device_route(dev, req, true);
	}
	if (!ret && drmModeAtomicCommit(dev->fd, req, modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0,
		NULL) != 0) {
		ret = errno ? -errno : -EIO;
	}
	kms_readback_committed(rb, ret == 0);
	drmModeAtomicFree(req);
	return ret;
}

/* The writeback connector alone into rb's framebuffer, again (READBACK_KICK_MS); its fence in *fence. */
static int kick(struct kms_readback *rb, int32_t *fence)
{
	struct kms_device *dev = rb->dev;
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	int ret = 0;

	*fence = -1;
	if (!req) {
		return -ENOMEM;
	}
	if (drmModeAtomicAddProperty(req, dev->writeback_id, dev->wb_crtc_id, dev->crtc_id) < 0 ||
		drmModeAtomicAddProperty(req, dev->writeback_id, dev->wb_fb_id, rb->fb->id) < 0 ||
		drmModeAtomicAddProperty(req, dev->writeback_id, dev->wb_out_fence_ptr,
			(uint64_t)(uintptr_t)fence) < 0) {
		ret = -ENOMEM;
	} else if (drmModeAtomicCommit(dev->fd, req, 0, NULL) != 0) {
		ret = errno ? -errno : -EIO;
		*fence = -1;
	}
	drmModeAtomicFree(req);
	return ret;
}

/* Waits for rb's fence, kicking a writeback vkms left pending once (READBACK_KICK_MS). */
static int wait_writeback(struct kms_readback *rb, int timeout_ms)
{
	int32_t kick_fence = -1;
	int ret;

	if (timeout_ms <= READBACK_KICK_MS) {
		return hwct_fence_wait(rb->fence, timeout_ms);
	}
	ret = hwct_fence_wait(rb->fence, READBACK_KICK_MS);
	if (ret != -ETIME || kick(rb, &kick_fence) != 0) {
		return ret;
	}
	ret = hwct_fence_wait(rb->fence, timeout_ms - READBACK_KICK_MS);
	if (kick_fence >= 0) {
		/* the kick's job writes the same frame again: let it finish before the frame is read */
		hwct_fence_wait(kick_fence, timeout_ms);
		close(kick_fence);
	}
	rb->kicks += ret == 0;
	return ret;
}

uint64_t kms_readback_kicks(const struct kms_readback *rb)
{
	return rb->kicks;
}

int kms_readback_finish(struct kms_readback *rb, int timeout_ms, bool copy,
	struct kms_readback_result *out)
{
	struct kms_fb_map map;
	int ret;

	*out = (struct kms_readback_result){ .fourcc = rb->fourcc };
	if (!rb->armed || !rb->fb) {
		return -EINVAL;
	}
	if ((ret = wait_writeback(rb, timeout_ms))) {
		return ret;
	}
	drop_fence(rb);
	if ((ret = kms_fb_map(rb->fb, &map))) {
		return ret;
	}
	out->width = rb->fb->width;
	out->height = rb->fb->height;
	out->stride = out->width * 4;
	out->checksum = kms_frame_checksum(rb->fourcc, out->width, out->height, map.stride[0],
		map.data[0]);
	if (copy) {
		out->pixels = malloc((size_t)out->stride * out->height);
		for (uint32_t y = 0; out->pixels && y < out->height; y++) {
			memcpy(out->pixels + (size_t)y * out->stride,
				map.data[0] + (size_t)y * map.stride[0], out->stride);
		}
		if (!out->pixels) {
			ret = -ENOMEM;
		}
	}
	kms_fb_unmap(rb->fb, &map);
	return ret;
}

void kms_readback_result_finish(struct kms_readback_result *out)
{
	free(out->pixels);
	out->pixels = NULL;
}

struct hwct_hash kms_frame_checksum(uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t stride, const uint8_t *data)
{
	return scene_frame_checksum(fourcc, width, height, stride, data);
}
