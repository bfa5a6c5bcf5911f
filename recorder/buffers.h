/*
 * What the worker remembers per buffer (by Buffer.id, the dma-buf inode):
 * its layout as last written in a Buffer record, and its last stored
 * content with a hash per 64x64 tile of it, the base of the next delta.
 * At most REC_MAX_BUFFERS, the least recently used forgotten first.
 */
#ifndef REC_BUFFERS_H
#define REC_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/hash.h>

#include "bufinfo.h"

#define REC_MAX_BUFFERS 512
#define REC_TILE 64

struct rec_buffer_state {
	bool used;
	uint64_t id;
	uint64_t last_use;
	bool written;			/* a Buffer record went out this session */
	bool written_has_layout;
	struct rec_buffer_layout written_layout;
	bool has_first_content;		/* Buffer.content: the first captured content */
	struct hwct_hash first_content;
	bool has_content;		/* content stored in the trace, usable as a delta base */
	struct hwct_hash content;
	uint64_t *tiles;		/* tile hashes of `content`, row-major, owned */
	uint32_t tiles_x, tiles_y;	/* tiles per row, rows of tiles */
	uint32_t tile_stride, tile_bpp;	/* geometry the tiles were computed for */
};

struct rec_buffers {
	struct rec_buffer_state items[REC_MAX_BUFFERS];
	uint64_t clock;
};

/* The state of buffer id, created (possibly forgetting another) when new. Never NULL. */
struct rec_buffer_state *rec_buffers_get(struct rec_buffers *b, uint64_t id);

/* Forgets the content bases and written flags (a new trace starts). */
void rec_buffers_reset(struct rec_buffers *b);

/* Frees every tile array. */
void rec_buffers_finish(struct rec_buffers *b);

/* Whether two layouts would be written as the same Buffer record. */
bool rec_layout_equal(const struct rec_buffer_layout *a, const struct rec_buffer_layout *b);

#endif
