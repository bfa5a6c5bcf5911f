/* Growable byte buffer (bytebuf.h). */
#define _DEFAULT_SOURCE	/* madvise, MADV_HUGEPAGE */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "bytebuf.h"

/* Buffers this large are full-screen payloads and their frames: huge pages where the kernel offers them. */
#define HUGE_BYTES (2u << 20)

/*
 * A fresh aligned block for a large buffer, the old contents copied: a
 * 10 MB payload buffer faulted in 4 KiB pages costs 2500 page faults the
 * first time it is written, as much CPU as compressing it at times
 * (virtual machines make each fault expensive). Returns NULL on failure.
 */
static uint8_t *huge_realloc(uint8_t *old, size_t len, size_t cap)
{
	void *data;

	if (posix_memalign(&data, HUGE_BYTES, cap) != 0) {
		return NULL;
	}
#ifdef MADV_HUGEPAGE
	madvise(data, cap / HUGE_BYTES * HUGE_BYTES, MADV_HUGEPAGE);
#endif
	if (len) {
		memcpy(data, old, len);
	}
	free(old);
	return data;
}

int bytebuf_reserve(struct bytebuf *b, size_t extra)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *data;

	if (extra > SIZE_MAX - b->len) {
		return -ENOMEM;
	}
	if (b->len + extra <= b->cap) {
		return 0;
	}
	while (cap < b->len + extra) {
		cap = cap > SIZE_MAX / 2 ? b->len + extra : cap * 2;
	}
	data = cap >= HUGE_BYTES ? huge_realloc(b->data, b->len, cap) : realloc(b->data, cap);
	if (!data) {
		return -ENOMEM;
	}
	b->data = data;
	b->cap = cap;
	return 0;
}

int bytebuf_append(struct bytebuf *b, const void *data, size_t size)
{
	int ret = bytebuf_reserve(b, size);

	if (ret < 0) {
		return ret;
	}
	if (size) {
		memcpy(b->data + b->len, data, size);
	}
	b->len += size;
	return 0;
}

int bytebuf_append_le32(struct bytebuf *b, uint32_t v)
{
	uint8_t bytes[4];

	put_le32(bytes, v);
	return bytebuf_append(b, bytes, sizeof(bytes));
}

void bytebuf_finish(struct bytebuf *b)
{
	free(b->data);
	*b = (struct bytebuf){ 0 };
}
