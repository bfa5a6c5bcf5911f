/*
 * Trace reader: sequential records, seeking by display frame, blob content.
 * Every error names the file, the byte offset and what was wrong there.
 */
#ifndef HWCT_READER_H
#define HWCT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>
#include <hwct/hash.h>
#include <hwct/hwctrace.pb-c.h>
#include <hwct/picture.h>

struct hwct_reader;

struct hwct_trace_info {
	uint16_t major, minor;		/* format version of the file */
	const Hwct__FileHeader *header;	/* never NULL once open */
	bool has_seek_table;		/* false: the writer did not close it (see truncated) */
	bool truncated;			/* bytes after the last complete zstd frame were ignored */
	uint64_t truncated_offset;	/* where the ignored bytes start */
	uint64_t file_size;
	uint64_t zstd_frames;		/* all zstd frames, skippable included */
	uint64_t data_frames;		/* record and blob frames */
	uint64_t frame_count;		/* FrameEnd records */
	uint64_t record_count;
	uint64_t raw_bytes;		/* size of the decompressed record stream */
	uint64_t stored_bytes;		/* bytes of data frames in the file */
	uint64_t blob_count;		/* distinct blobs */
};

/*
 * Opens a trace. Reads the header, the seek table and the index; a trace
 * without them (its writer died) is scanned instead, up to its last complete
 * zstd frame. Returns the reader or NULL with *err filled (err may be NULL).
 */
struct hwct_reader *hwct_reader_open(const char *path, struct hwct_error *err);

/*
 * Same over a caller's buffer, borrowed: it must outlive the reader. name
 * is used in messages. For fuzzing and tests.
 */
struct hwct_reader *hwct_reader_open_memory(const void *data, size_t size, const char *name,
	struct hwct_error *err);

/* Frees r and everything it handed out. r may be NULL. */
void hwct_reader_destroy(struct hwct_reader *r);

/* Facts about the trace; owned by r. */
const struct hwct_trace_info *hwct_reader_info(const struct hwct_reader *r);

/* The zstd frames of a trace by kind: what its bytes hold. */
struct hwct_frame_counts {
	uint64_t record_frames, blob_frames, skippable_frames;	/* skippable: header, index, seek table */
	uint64_t record_stored, blob_stored;	/* compressed bytes, whole frames */
	uint64_t record_raw, blob_raw;		/* decompressed bytes */
};

/*
 * Counts r's zstd frames by kind into *out, from its frame table and index
 * (no frame is decompressed; r does not move).
 */
void hwct_reader_frame_counts(const struct hwct_reader *r, struct hwct_frame_counts *out);

/* The path or name the trace was opened with; owned by r. */
const char *hwct_reader_name(const struct hwct_reader *r);

/*
 * Reads the next record. Returns 1 with *rec set (owned by r, valid until the
 * next call that moves r), 0 at the end of the trace, or -errno with
 * hwct_reader_error() saying what and where. After an error, further calls
 * return the same error.
 */
int hwct_reader_next(struct hwct_reader *r, const Hwct__Record **rec);

/* The last error, or NULL when there was none; owned by r. */
const struct hwct_error *hwct_reader_error(const struct hwct_reader *r);

/*
 * Whether the last error is the cut end of an unfinished trace (its writer
 * died: no seek table, or truncated): reading stopped where the complete
 * frames end, so everything complete was read. False with no error, or an
 * error before that end (a damaged frame part-way).
 */
bool hwct_reader_error_at_cut_end(const struct hwct_reader *r);

/* File offset of the zstd frame the last record came from. */
uint64_t hwct_reader_frame_offset(const struct hwct_reader *r);

/*
 * Positions r so that the next record is the Keyframe that starts the record
 * frame holding display frame `frame` (FrameEnd.frame). Returns 0, -ERANGE
 * when the trace has no such frame, or -errno.
 */
int hwct_reader_seek(struct hwct_reader *r, uint64_t frame);

/* Positions r at the first record of the trace. Returns 0 or -errno. */
int hwct_reader_rewind(struct hwct_reader *r);

struct hwct_blob_data {
	uint8_t *data;			/* decoded payload, caller frees with free() */
	size_t size;
	uint32_t kind, width, height, stride, bpp;
};

/*
 * Decodes the blob with that hash (applying delta chains) into *out and
 * checks its hash. Returns 0, -ENOENT when the trace holds no such blob, or
 * -errno with hwct_reader_error() set. Does not move the record position.
 */
int hwct_reader_blob(struct hwct_reader *r, const struct hwct_hash *hash, struct hwct_blob_data *out);

/*
 * Whether r stores buffer content as packed pictures (<hwct/picture.h>),
 * so that content hashes are picture hashes: format 1.3 on. Before, content
 * was the buffer's bytes with their stride padding (docs/format.md 3.3).
 */
bool hwct_reader_packed_content(const struct hwct_reader *r);

/*
 * Decodes the content `content` of buffer b (its Buffer record) into *out as
 * the packed picture: as stored from format 1.3 on; repacked from the
 * Buffer's offsets and strides in older traces (out->stride is then plane
 * 0's packed row). Content whose picture the format does not know (format
 * or layout) is returned as stored. Returns as hwct_reader_blob().
 */
int hwct_reader_picture(struct hwct_reader *r, const Hwct__Buffer *b, const struct hwct_hash *content,
	struct hwct_blob_data *out);

/*
 * The picture hash of content `content` of buffer b into *out: the content
 * hash itself from format 1.3 on, or where the Buffer's layout was packed
 * already; otherwise the hash of the repacked payload (decoded once, then
 * kept by r). Content whose picture the format does not know hashes as
 * stored. Returns 0, -ENOENT when the trace holds no such blob (*out is
 * then `content`), or -errno as hwct_reader_blob().
 */
int hwct_reader_picture_hash(struct hwct_reader *r, const Hwct__Buffer *b, const struct hwct_hash *content,
	struct hwct_hash *out);

#endif
