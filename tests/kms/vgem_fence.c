/* Fences held by the test, from vgem (vgem_fence.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm.h>
#include <linux/dma-buf.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "vgem_fence.h"

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

static int fail(char *why, size_t size, const char *step)
{
	int ret = errno ? -errno : -EIO;

	snprintf(why, size, "%s: %s", step, strerror(-ret));
	return ret;
}

int vgem_fence_make(struct vgem_fence *v, const char *path, char *why, size_t size)
{
	struct drm_vgem_fence_attach attach = { 0 };
	struct dma_buf_export_sync_file exp = { .flags = DMA_BUF_SYNC_READ, .fd = -1 };
	uint32_t pitch;
	uint64_t bo_size;
	drmVersion *ver;
	bool is_vgem;

	*v = (struct vgem_fence){ .fd = -1, .dmabuf = -1, .sync_file = -1 };
	v->fd = open(path, O_RDWR | O_CLOEXEC);
	if (v->fd < 0) {
		return fail(why, size, path);
	}
	ver = drmGetVersion(v->fd);
	is_vgem = ver && strcmp(ver->name, "vgem") == 0;
	drmFreeVersion(ver);
	if (!is_vgem) {
		snprintf(why, size, "%s is not vgem", path);
		return -ENODEV;
	}
	if (drmModeCreateDumbBuffer(v->fd, 64, 64, 32, 0, &v->handle, &pitch, &bo_size) != 0) {
		return fail(why, size, "vgem dumb buffer");
	}
	if (drmPrimeHandleToFD(v->fd, v->handle, DRM_CLOEXEC | DRM_RDWR, &v->dmabuf) != 0) {
		return fail(why, size, "vgem prime export");
	}
	attach.handle = v->handle;
	attach.flags = VGEM_FENCE_WRITE;
	if (drmIoctl(v->fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach) != 0) {
		return fail(why, size, "VGEM_FENCE_ATTACH");
	}
	v->fence = attach.out_fence;
	/* READ: the fences a reader waits for, i.e. the write fence just attached */
	if (ioctl(v->dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &exp) != 0) {
		return fail(why, size, "DMA_BUF_IOCTL_EXPORT_SYNC_FILE");
	}
	v->sync_file = exp.fd;
	return 0;
}

int vgem_fence_signal(struct vgem_fence *v)
{
	struct drm_vgem_fence_signal sig = { .fence = v->fence };

	return drmIoctl(v->fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig) == 0 ? 0 : errno ? -errno : -EIO;
}

void vgem_fence_finish(struct vgem_fence *v)
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
	*v = (struct vgem_fence){ .fd = -1, .dmabuf = -1, .sync_file = -1 };
}
