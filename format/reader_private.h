/* Internals of the reader shared by reader*.c and repair.c. */
#ifndef HWCT_READER_PRIVATE_H
#define HWCT_READER_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <zstd.h>

#include <hwct/reader.h>

#include "bytebuf.h"
#include "hmap.h"
#include "index.h"

#define READER_DECODED_CACHE 4
#define READER_DECODED_MAX_SIZE (64u << 20)	/* larger payloads are not kept */

/* One complete zstd frame of the file. */
struct frame_loc {
	uint64_t offset;
	uint64_t size;			/* compressed, whole frame */
	bool skippable;
	uint32_t magic;			/* skippable frames */
	bool has_checksum;		/* from the seek table */
	uint32_t checksum;
	uint32_t decompressed;		/* from the seek table, 0 unknown */
};

struct hwct_reader {
	char *name;			/* owned */
	const uint8_t *data;		/* the file */
	size_t size;
	bool mapped;			/* data is an mmap to unmap */
	struct hwct_trace_info info;
	Hwct__FileHeader *header;	/* owned */
	struct frame_loc *frames;	/* owned, every complete zstd frame */
	size_t frame_count;
	struct trace_index index;	/* data frames (ordinals into frames) */
	struct hmap blobs;		/* blob hash -> ordinal */
	ZSTD_DCtx *dctx;
	struct hwct_error err;
	bool failed;			/* err is sticky */

	/* sequential position */
	size_t next_data;		/* index.frames[] entry to load next */
	uint32_t cur_ordinal;		/* frame the buffer holds */
	struct bytebuf buf;		/* its content */
	size_t pos;
	size_t record_number;		/* in the current frame, for messages */
	Hwct__Record *rec;		/* last record handed out */
	bool truncation_reported;
	const char *truncation_reason;	/* static string, with info.truncated */

	/* recently decoded payloads: a delta chain read in order decodes each link once */
	struct {
		struct hwct_hash hash;
		struct hwct_blob_data blob;	/* owned */
		uint64_t last_use;
	} decoded[READER_DECODED_CACHE];
	size_t decoded_count;
	uint64_t decoded_clock;

	/* picture hashes of content stored padded (format before 1.3), by content and layout */
	struct hmap pictures;		/* key -> index + 1 into picture_hashes */
	struct hwct_hash *picture_hashes;	/* owned */
	size_t picture_count, picture_cap;

	/* blob frame cache */
	uint32_t blob_ordinal;		/* UINT32_MAX: empty */
	struct bytebuf blob_buf;
};

/*
 * Decompresses frame `ordinal` into out, checking the seek-table checksum.
 * Returns 0 or -errno with r->err filled.
 */
int reader_load_frame(struct hwct_reader *r, uint32_t ordinal, struct bytebuf *out);

/*
 * Walks the file after the header frame (from `start`) collecting complete
 * frames, then decodes the data frames to rebuild the index. Stops at the
 * first incomplete or damaged frame and marks the trace truncated there.
 * Returns 0 or -errno (r->err filled).
 */
int reader_scan(struct hwct_reader *r, uint64_t start);

/* Frees the decoded-payload cache. */
void reader_decoded_finish(struct hwct_reader *r);

/* Sets the sticky error. Returns code. */
int reader_fail(struct hwct_reader *r, int code, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
