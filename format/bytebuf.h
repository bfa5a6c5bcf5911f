/* A growable byte buffer, internal to the format library. */
#ifndef HWCT_BYTEBUF_H
#define HWCT_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

struct bytebuf {
	uint8_t *data;	/* owned, may be NULL when cap is 0 */
	size_t len;
	size_t cap;
};

/* Ensures room for extra more bytes. Returns 0 or -ENOMEM. */
int bytebuf_reserve(struct bytebuf *b, size_t extra);

/* Appends size bytes. Returns 0 or -ENOMEM. */
int bytebuf_append(struct bytebuf *b, const void *data, size_t size);

/* Appends a little-endian u32. Returns 0 or -ENOMEM. */
int bytebuf_append_le32(struct bytebuf *b, uint32_t v);

/* Frees the storage and zeroes b. */
void bytebuf_finish(struct bytebuf *b);

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#endif
