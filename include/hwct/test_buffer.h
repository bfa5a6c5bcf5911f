/*
 * The project's own buffer handle ("test allocator"): how hwctrace's test
 * clients, its HWC2 module (hwcomposer.kms.so) and the recorder's buffer-info
 * plug-in describe a buffer in a native_handle_t when no Android gralloc is
 * there. Header-only.
 *
 * Layout: numFds 1, numInts HWCT_TEST_HANDLE_INTS;
 *   data[0]  fd: a dma-buf (gbm BO) or a memfd, mappable
 *   data[1]  HWCT_TEST_HANDLE_MAGIC
 *   data[2]  width, data[3] height (pixels)
 *   data[4]  DRM fourcc
 *   data[5]  stride of plane 0 (bytes), data[6] offset of plane 0
 *   data[7]  stride of plane 1, data[8] offset of plane 1 (0 for one plane)
 *   data[9]  modifier, low 32 bits; data[10] high 32 bits
 *   data[11] HAL pixel format (HAL_PIXEL_FORMAT_*), 0 unknown
 */
#ifndef HWCT_TEST_BUFFER_H
#define HWCT_TEST_BUFFER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <cutils/native_handle.h>

#define HWCT_TEST_HANDLE_MAGIC 0x41545748	/* "HWTA" */
#define HWCT_TEST_HANDLE_INTS 11

struct hwct_test_buffer {
	int fd;				/* borrowed from the handle */
	uint32_t width, height;
	uint32_t fourcc;
	uint32_t stride[2], offset[2];
	uint64_t modifier;
	int32_t hal_format;
};

/*
 * Makes a handle for b (the handle does not own b->fd: it is the
 * allocator's). Returns a malloc'd handle (free()), or NULL.
 */
static inline native_handle_t *hwct_test_handle_create(const struct hwct_test_buffer *b)
{
	native_handle_t *h = calloc(1, sizeof(*h) + sizeof(int) * (1 + HWCT_TEST_HANDLE_INTS));

	if (!h) {
		return NULL;
	}
	h->version = sizeof(native_handle_t);
	h->numFds = 1;
	h->numInts = HWCT_TEST_HANDLE_INTS;
	h->data[0] = b->fd;
	h->data[1] = HWCT_TEST_HANDLE_MAGIC;
	h->data[2] = (int)b->width;
	h->data[3] = (int)b->height;
	h->data[4] = (int)b->fourcc;
	h->data[5] = (int)b->stride[0];
	h->data[6] = (int)b->offset[0];
	h->data[7] = (int)b->stride[1];
	h->data[8] = (int)b->offset[1];
	h->data[9] = (int)(uint32_t)b->modifier;
	h->data[10] = (int)(uint32_t)(b->modifier >> 32);
	h->data[11] = b->hal_format;
	return h;
}

/*
 * Reads a handle made by hwct_test_handle_create. Returns false (out
 * untouched) for any other handle: wrong version, counts or magic.
 */
static inline bool hwct_test_handle_parse(const native_handle_t *h, struct hwct_test_buffer *out)
{
	if (!h || h->version != (int)sizeof(native_handle_t) || h->numFds != 1 ||
		h->numInts != HWCT_TEST_HANDLE_INTS || h->data[1] != HWCT_TEST_HANDLE_MAGIC ||
		h->data[2] <= 0 || h->data[3] <= 0 || h->data[5] <= 0) {
		return false;
	}
	*out = (struct hwct_test_buffer){
		.fd = h->data[0],
		.width = (uint32_t)h->data[2],
		.height = (uint32_t)h->data[3],
		.fourcc = (uint32_t)h->data[4],
		.stride = { (uint32_t)h->data[5], (uint32_t)h->data[7] },
		.offset = { (uint32_t)h->data[6], (uint32_t)h->data[8] },
		.modifier = (uint64_t)(uint32_t)h->data[9] | (uint64_t)(uint32_t)h->data[10] << 32,
		.hal_format = h->data[11],
	};
	return true;
}

#endif
