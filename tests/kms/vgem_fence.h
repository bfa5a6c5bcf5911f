/*
 * Fences a test holds (vm_fence.c, tests/hwc2): a vgem write fence on a
 * vgem BO, exported from the BO's dma-buf as a sync_file with
 * DMA_BUF_IOCTL_EXPORT_SYNC_FILE (Linux >= 6.0). It signals when the test
 * says so (or when vgem's 10 s timeout hits).
 */
#ifndef HWCT_TESTS_KMS_VGEM_FENCE_H
#define HWCT_TESTS_KMS_VGEM_FENCE_H

#include <stddef.h>
#include <stdint.h>

struct vgem_fence {
	int fd;				/* the vgem node */
	uint32_t handle;		/* the BO */
	int dmabuf;
	uint32_t fence;			/* vgem fence id */
	int sync_file;			/* the exported fence; owned (vgem_fence_finish closes it) */
};

/*
 * Opens the vgem node path and makes an unsignalled fence. Returns 0, or
 * -errno with what failed in why (size bytes). *v can be finished either way.
 */
int vgem_fence_make(struct vgem_fence *v, const char *path, char *why, size_t size);

/* Signals the fence. Returns 0 or -errno. */
int vgem_fence_signal(struct vgem_fence *v);

/* Closes everything v holds. */
void vgem_fence_finish(struct vgem_fence *v);

#endif
