/*
 * The display-frame index (docs/format.md section 1.3): built by the writer,
 * parsed or rebuilt by the reader, rewritten by repair.
 */
#ifndef HWCT_INDEX_H
#define HWCT_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>
#include <hwct/hwctrace.pb-c.h>

#include "bytebuf.h"
#include "hmap.h"

#define INDEX_BLOB_LOC_SIZE (HWCT_HASH_BYTES + 4)

struct trace_index {
	Hwct__IndexFrame *frames;	/* owned, one per data frame in file order */
	size_t count, cap;
	struct bytebuf blob_locs;	/* packed (hash, le32 ordinal) pairs */
	uint64_t raw_bytes, records, frame_ends;
};

/* Appends a copy of f (counting its totals). Returns 0 or -ENOMEM. */
int index_add_frame(struct trace_index *ix, const Hwct__IndexFrame *f);

/* Notes that blob `hash` is in zstd frame `ordinal`. Returns 0 or -ENOMEM. */
int index_add_blob(struct trace_index *ix, const struct hwct_hash *hash, uint32_t ordinal);

/* Appends the index skippable frame. Returns 0 or -errno. */
int index_append_frame(struct bytebuf *out, const struct trace_index *ix);

/*
 * Parses an index payload into ix (empty on entry). Returns 0, or -EINVAL
 * with *what saying which field is wrong, or -ENOMEM.
 */
int index_parse(struct trace_index *ix, const uint8_t *payload, size_t size, const char **what);

/* Fills map: blob hash -> ordinal. Returns 0 or -ENOMEM. */
int index_blob_map(const struct trace_index *ix, struct hmap *map);

/* Frees what ix owns and zeroes it. */
void index_finish(struct trace_index *ix);

#endif
