/*
 * The two Linux uAPI ioctls the recorder uses, written from the kernel's
 * include/uapi/linux/sync_file.h and dma-buf.h (docs/platform.md §5) so
 * that no particular kernel-header version is needed.
 */
#ifndef REC_SYNC_UAPI_H
#define REC_SYNC_UAPI_H

#include <stdint.h>
#include <sys/ioctl.h>

/* sync_file.h */
struct rec_sync_fence_info {
	char obj_name[32];	/* timeline */
	char driver_name[32];
	int32_t status;		/* 1 signalled, 0 active, < 0 error */
	uint32_t flags;
	uint64_t timestamp_ns;	/* CLOCK_MONOTONIC, set once signalled */
};

struct rec_sync_file_info {
	char name[32];
	int32_t status;
	uint32_t flags;
	uint32_t num_fences;	/* in: capacity of sync_fence_info, 0 to ask the count */
	uint32_t pad;
	uint64_t sync_fence_info;	/* pointer to struct rec_sync_fence_info[num_fences] */
};

#define REC_SYNC_IOC_MAGIC '>'
#define REC_SYNC_IOC_FILE_INFO _IOWR(REC_SYNC_IOC_MAGIC, 4, struct rec_sync_file_info)

/* dma-buf.h */
struct rec_dma_buf_sync {
	uint64_t flags;
};

#define REC_DMA_BUF_SYNC_READ (1u << 0)
#define REC_DMA_BUF_SYNC_START (0u << 2)
#define REC_DMA_BUF_SYNC_END (1u << 2)
#define REC_DMA_BUF_BASE 'b'
#define REC_DMA_BUF_IOCTL_SYNC _IOW(REC_DMA_BUF_BASE, 0, struct rec_dma_buf_sync)

#endif
