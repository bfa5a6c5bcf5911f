/* Growable byte buffer (bytebuf.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytebuf.h"

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
	data = realloc(b->data, cap);
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
