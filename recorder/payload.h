/*
 * The stored content of a buffer (docs/format.md section 3.3): which bytes
 * of its fd a capture reads and where they go in the payload. The payload
 * runs from the start of plane 0 to the end of the last plane (rows of
 * stride bytes, the last row whole); each plane keeps its offset relative to
 * plane 0. Bytes between planes belong to no plane: they are stored as zero,
 * so that equal pixels give equal content hashes whatever the allocator left
 * there.
 */
#ifndef REC_PAYLOAD_H
#define REC_PAYLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "bufinfo.h"

struct rec_payload {
	uint64_t start;			/* fd offset of plane 0, bytes */
	uint64_t size;			/* payload bytes; the capture maps start + size */
	uint32_t stride, bpp;		/* plane 0: bytes per row, bytes per pixel (the blob's predictor) */
	uint32_t plane_count;		/* 1: RGB (tiles and deltas apply), 2-3: YUV */
	struct {
		uint64_t offset;	/* in the payload, bytes */
		uint64_t size;		/* rows * stride, bytes */
	} planes[REC_MAX_PLANES];
};

/*
 * Fills p for a buffer of layout l. Returns false (p undefined) when the
 * recorder cannot read such a buffer: a format without an entry in
 * bufinfo.c, a non-linear modifier, a plane count other than the format's,
 * a stride shorter than a row of its plane, or a plane that starts before
 * plane 0.
 */
bool rec_payload_init(struct rec_payload *p, const struct rec_buffer_layout *l);

/*
 * Copies the payload from map (the buffer's fd mapped from offset 0, at
 * least p->start + p->size bytes) to dst (p->size bytes): each plane's rows
 * in one copy, the gaps between planes zeroed.
 */
void rec_payload_copy(const struct rec_payload *p, const uint8_t *map, uint8_t *dst);

#endif
