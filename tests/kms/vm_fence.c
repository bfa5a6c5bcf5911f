/*
 * IN_FENCE_FD (kms_vm_test in-fence): a fence the test holds, made with
 * vgem, delays the flip until the test signals it. The fence is a vgem
 * write fence on a vgem BO, exported from the BO's dma-buf as a sync_file
 * with DMA_BUF_IOCTL_EXPORT_SYNC_FILE (Linux >= 6.0).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm.h>
#include <drm_fourcc.h>
#include <linux/dma-buf.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "vm_cases.h"

/*
 * Linux include/uapi/drm/vgem_drm.h (not shipped by Debian 12's
 * libdrm-dev): the fence ioctls of vgem.
 */
#define DRM_VGEM_FENCE_ATTACH 0x1
#define DRM_VGEM_FENCE_SIGNAL 0x2
#define VGEM_FENCE_WRITE 0x1

struct drm_vgem_fence_attach {
	__u32 handle;
	__u32 flags;
	__u32 out_fence;
	__u32 pad;
};

struct drm_vgem_fence_signal {
	__u32 fence;
	__u32 flags;
};

#define DRM_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VGEM_FENCE_ATTACH, struct drm_vgem_fence_attach)
#define DRM_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VGEM_FENCE_SIGNAL, struct drm_vgem_fence_signal)

/* How long the held fence must keep the flip back. */
#define HELD_MS 200

struct vgem_fence {
	int fd;				/* the vgem node */
	uint32_t handle;		/* the BO */
	int dmabuf;
	uint32_t fence;			/* vgem fence id */
	int sync_file;			/* the exported fence */
};

static bool vgem_fence_make(struct vgem_fence *v, const char *path)
{
	struct drm_vgem_fence_attach attach = { 0 };
	struct dma_buf_export_sync_file exp = { .flags = DMA_BUF_SYNC_READ, .fd = -1 };
	uint32_t pitch;
	uint64_t size;
	drmVersion *ver;
	bool is_vgem;

	*v = (struct vgem_fence){ .fd = -1, .dmabuf = -1, .sync_file = -1 };
	v->fd = open(path, O_RDWR | O_CLOEXEC);
	if (!VT_CHECK(v->fd >= 0, "open %s: %s", path, strerror(errno))) {
		return false;
	}
	ver = drmGetVersion(v->fd);
	is_vgem = ver && strcmp(ver->name, "vgem") == 0;
	drmFreeVersion(ver);
	if (!VT_CHECK(is_vgem, "%s is not vgem", path) ||
		!VT_CHECK(drmModeCreateDumbBuffer(v->fd, 64, 64, 32, 0, &v->handle, &pitch, &size) == 0,
			"vgem dumb buffer: %s", strerror(errno)) ||
		!VT_CHECK(drmPrimeHandleToFD(v->fd, v->handle, DRM_CLOEXEC | DRM_RDWR, &v->dmabuf) == 0,
			"vgem prime export: %s", strerror(errno))) {
		return false;
	}
	attach.handle = v->handle;
	attach.flags = VGEM_FENCE_WRITE;
	if (!VT_CHECK(drmIoctl(v->fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach) == 0,
		"VGEM_FENCE_ATTACH: %s", strerror(errno))) {
		return false;
	}
	v->fence = attach.out_fence;
	/* READ: the fences a reader waits for, i.e. the write fence just attached */
	if (!VT_CHECK(ioctl(v->dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &exp) == 0,
		"DMA_BUF_IOCTL_EXPORT_SYNC_FILE: %s", strerror(errno))) {
		return false;
	}
	v->sync_file = exp.fd;
	return true;
}

static bool vgem_fence_signal(struct vgem_fence *v)
{
	struct drm_vgem_fence_signal sig = { .fence = v->fence };

	return VT_CHECK(drmIoctl(v->fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig) == 0,
		"VGEM_FENCE_SIGNAL: %s", strerror(errno));
}

static void vgem_fence_finish(struct vgem_fence *v)
{
	if (v->sync_file >= 0) {
		close(v->sync_file);
	}
	if (v->dmabuf >= 0) {
		close(v->dmabuf);
	}
	if (v->fd >= 0) {
		if (v->handle) {
			drmModeDestroyDumbBuffer(v->fd, v->handle);
		}
		close(v->fd);
	}
}

/* Presents f while its layer waits on v; checks the flip waits for the signal. */
static bool held_flip(struct vt_ctx *ctx, struct vgem_fence *v, const struct vt_frame *f,
	const struct vt_layer *layer)
{
	struct kms_commit_args args = vt_frame_args(ctx, f, true);
	struct kms_readback_result res;
	uint8_t ref[VT_WIDTH * VT_HEIGHT * 4];
	int fence = -1, ret;
	double t0;
	bool ok;

	ret = kms_commit_present(ctx->dev, &args, &fence);
	if (!VT_CHECK(ret == 0 && fence >= 0, "present with a held in-fence: %s", strerror(-ret))) {
		return false;
	}
	ok = VT_CHECK(vt_fence_wait(fence, HELD_MS) == 0,
		"the present fence signalled while the in-fence was held");
	printf("in-fence: present fence unsignalled after %d ms while the vgem fence is held\n",
		HELD_MS);
	t0 = vt_now_ms();
	ok = vgem_fence_signal(v) && ok;
	ok = VT_CHECK(vt_fence_wait(fence, VT_FENCE_MS) == 1,
		"the present fence did not signal after the vgem fence") && ok;
	printf("in-fence: present fence signalled %.1f ms after the vgem signal\n", vt_now_ms() - t0);
	close(fence);
	ret = kms_readback_finish(ctx->rb, VT_FENCE_MS, true, &res);
	if (VT_CHECK(ret == 0, "readback: %s", strerror(-ret))) {
		vt_reference(layer, 1, ref);
		ok = vt_compare(&res, ref, "in-fence: frame after the signal") && ok;
		kms_readback_result_finish(&res);
	}
	return ok;
}

bool vt_case_in_fence(struct vt_ctx *ctx, const char *vgem_path)
{
	struct vt_image a, b;
	struct vt_layer la, lb;
	struct vt_frame frame;
	struct vgem_fence v = { .fd = -1, .dmabuf = -1, .sync_file = -1 };
	bool ok;

	ok = VT_CHECK(vt_image_make(&a, DRM_FORMAT_XRGB8888, VT_WIDTH, VT_HEIGHT, 50, true) &&
		vt_image_make(&b, DRM_FORMAT_XRGB8888, VT_WIDTH, VT_HEIGHT, 51, true), "out of memory");
	la = (struct vt_layer){ &a, ctx->primary, 0, 0, 0, 0, true, -1 };
	if (ok && vt_frame_build(ctx, &frame, &la, 1)) {
		ok = vt_present_and_check(ctx, &frame, &la, 1, "in-fence: frame before");
		vt_frame_finish(&frame);
	}
	ok = ok && vgem_fence_make(&v, vgem_path);
	if (ok) {
		ok = VT_CHECK(vt_fence_wait(v.sync_file, 0) == 0, "the vgem fence is already signalled");
		lb = (struct vt_layer){ &b, ctx->primary, 0, 0, 0, 0, true, v.sync_file };
		if (ok && vt_frame_build(ctx, &frame, &lb, 1)) {
			ok = held_flip(ctx, &v, &frame, &lb);
			vt_frame_finish(&frame);
		}
	}
	vgem_fence_finish(&v);
	vt_image_free(&a);
	vt_image_free(&b);
	return ok;
}
