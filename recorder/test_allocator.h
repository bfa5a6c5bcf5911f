/*
 * The project's own test allocator: a buffer_handle_t the recorder's
 * buffer-info plug-in "hwct-test" understands (bufinfo_test.c), used by the
 * deviceless tests and by anything that wants recordable buffers without a
 * gralloc. One fd (a memfd or a dma-buf) holding a single linear plane,
 * then eight ints:
 *
 *	data[0]	fd
 *	data[1]	HWCT_TEST_ALLOC_MAGIC ('HWTA')
 *	data[2]	width, pixels
 *	data[3]	height, pixels
 *	data[4]	DRM fourcc
 *	data[5]	stride, bytes
 *	data[6]	offset of the plane in the fd, bytes
 *	data[7]	DRM format modifier, low 32 bits
 *	data[8]	DRM format modifier, high 32 bits
 *
 * The content of such a buffer, as the trace stores it, is the stride *
 * height bytes starting at the offset (docs/format.md section 3.3).
 */
#ifndef HWCT_TEST_ALLOCATOR_H
#define HWCT_TEST_ALLOCATOR_H

#include <stdint.h>
#include <stdlib.h>

#include <cutils/native_handle.h>

#define HWCT_TEST_ALLOC_MAGIC 0x48575441u	/* 'H' 'W' 'T' 'A', big-end first */
#define HWCT_TEST_ALLOC_NUM_FDS 1
#define HWCT_TEST_ALLOC_NUM_INTS 8

enum hwct_test_alloc_index {
	HWCT_TEST_ALLOC_FD = 0,
	HWCT_TEST_ALLOC_MAGIC_INDEX = 1,
	HWCT_TEST_ALLOC_WIDTH = 2,
	HWCT_TEST_ALLOC_HEIGHT = 3,
	HWCT_TEST_ALLOC_FOURCC = 4,
	HWCT_TEST_ALLOC_STRIDE = 5,
	HWCT_TEST_ALLOC_OFFSET = 6,
	HWCT_TEST_ALLOC_MODIFIER_LO = 7,
	HWCT_TEST_ALLOC_MODIFIER_HI = 8,
};

/*
 * A handle describing fd (borrowed: the handle does not close it). Returns a
 * handle the caller frees with free(), or NULL when out of memory.
 */
static inline native_handle_t *hwct_test_alloc_handle(int fd, uint32_t width, uint32_t height,
	uint32_t fourcc, uint32_t stride, uint32_t offset, uint64_t modifier)
{
	native_handle_t *h = malloc(sizeof(*h) +
		(HWCT_TEST_ALLOC_NUM_FDS + HWCT_TEST_ALLOC_NUM_INTS) * sizeof(int));

	if (!h) {
		return NULL;
	}
	h->version = (int)sizeof(native_handle_t);
	h->numFds = HWCT_TEST_ALLOC_NUM_FDS;
	h->numInts = HWCT_TEST_ALLOC_NUM_INTS;
	h->data[HWCT_TEST_ALLOC_FD] = fd;
	h->data[HWCT_TEST_ALLOC_MAGIC_INDEX] = (int)HWCT_TEST_ALLOC_MAGIC;
	h->data[HWCT_TEST_ALLOC_WIDTH] = (int)width;
	h->data[HWCT_TEST_ALLOC_HEIGHT] = (int)height;
	h->data[HWCT_TEST_ALLOC_FOURCC] = (int)fourcc;
	h->data[HWCT_TEST_ALLOC_STRIDE] = (int)stride;
	h->data[HWCT_TEST_ALLOC_OFFSET] = (int)offset;
	h->data[HWCT_TEST_ALLOC_MODIFIER_LO] = (int)(uint32_t)modifier;
	h->data[HWCT_TEST_ALLOC_MODIFIER_HI] = (int)(uint32_t)(modifier >> 32);
	return h;
}

#endif
