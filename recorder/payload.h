/*
 * The stored content of a buffer (docs/format.md section 3.3): which bytes
 * of its fd a capture reads and what it stores of them. The payload is the
 * buffer's picture (<hwct/picture.h>): each plane's visible rows, packed,
 * plane after plane. Stride padding and the gaps between planes hold
 * whatever the allocator left; they are never stored nor hashed, so equal
 * pixels give equal content hashes on every allocator.
 */
#ifndef REC_PAYLOAD_H
#define REC_PAYLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/picture.h>

#include "bufinfo.h"

struct rec_payload {
	uint64_t start;			/* fd offset of plane 0, bytes */
	uint64_t span;			/* bytes read from start: to the end of the furthest plane's last row */
	uint64_t size;			/* payload bytes: the packed picture */
	uint32_t stride, bpp;		/* plane 0 in the payload: bytes per (packed) row, bytes per pixel */
	uint32_t plane_count;		/* 1: RGB (tiles and deltas apply), 2-3: YUV */
	struct hwct_picture picture;	/* the planes in the buffer (offsets from plane 0) */
};

/*
 * Fills p for a buffer of layout l. Returns false (p undefined) when the
 * recorder cannot read such a buffer: a format whose rows the format does
 * not know (<hwct/picture.h>), a non-linear modifier, a plane count other
 * than the format's, a stride shorter than a row of its plane, or a plane
 * that starts before plane 0.
 */
bool rec_payload_init(struct rec_payload *p, const struct rec_buffer_layout *l);

/*
 * Copies the payload from map (the buffer's fd mapped from offset 0, at
 * least p->start + p->span bytes) to dst (p->size bytes): each plane's
 * visible rows, packed (one copy per plane when its rows are packed already).
 */
void rec_payload_copy(const struct rec_payload *p, const uint8_t *map, uint8_t *dst);

#endif
