/*
 * The picture of a buffer: the rows a content hash covers and a blob of
 * format 1.3 on stores (docs/format.md section 3.3). Each plane's visible
 * rows (its width in bytes, no stride padding), plane after plane, no gaps:
 * equal pictures give equal bytes, and equal hashes, whatever the allocator.
 */
#ifndef HWCT_PICTURE_H
#define HWCT_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>
#include <hwct/hwctrace.pb-c.h>

#define HWCT_PICTURE_MAX_PLANES 3

struct hwct_picture_plane {
	uint64_t offset;	/* where the plane starts in the source, bytes from plane 0 */
	uint32_t stride;	/* bytes from one source row to the next, >= row */
	uint32_t row;		/* visible bytes of a row */
	uint32_t rows;
};

struct hwct_picture {
	uint32_t fourcc, width, height;
	uint32_t plane_count;
	struct hwct_picture_plane planes[HWCT_PICTURE_MAX_PLANES];
};

/*
 * Fills p with the planes of a fourcc x width x height picture, laid out
 * packed (stride = row, each plane right after the one before). Returns
 * false (p zeroed) for a fourcc the format does not know the rows of, or a
 * zero size.
 */
bool hwct_picture_init(struct hwct_picture *p, uint32_t fourcc, uint32_t width, uint32_t height);

/*
 * Sets the source layout of p to the planes of buffer b: offsets relative to
 * plane 0, strides as recorded. Returns false (p untouched) when b has
 * another number of planes than the format, a stride shorter than its
 * plane's row, or a plane before plane 0.
 */
bool hwct_picture_set_layout(struct hwct_picture *p, const Hwct__Buffer *b);

/*
 * hwct_picture_init for buffer b (its DRM fourcc, else the one of its HAL
 * format) and hwct_picture_set_layout. Returns false when either does.
 */
bool hwct_picture_of_buffer(struct hwct_picture *p, const Hwct__Buffer *b);

/* DRM fourcc of b: drm_format when recorded, else its HAL format's; 0 unknown. */
uint32_t hwct_picture_fourcc(const Hwct__Buffer *b);

/* Bytes of the packed picture: the sum of row * rows over the planes. */
uint64_t hwct_picture_size(const struct hwct_picture *p);

/* Bytes the source layout spans from plane 0: the end of the furthest plane's last visible row. */
uint64_t hwct_picture_source_size(const struct hwct_picture *p);

/* Whether the source layout is the packed one (the source bytes are the picture). */
bool hwct_picture_is_packed(const struct hwct_picture *p);

/*
 * Copies the visible rows of src (hwct_picture_source_size bytes, plane 0
 * first) into dst (hwct_picture_size bytes), packed.
 */
void hwct_picture_pack(const struct hwct_picture *p, const uint8_t *src, uint8_t *dst);

/* XXH3-128 of the packed picture of src, read in place: hwct_hash_compute of hwct_picture_pack's output. */
struct hwct_hash hwct_picture_hash(const struct hwct_picture *p, const uint8_t *src);

#endif
