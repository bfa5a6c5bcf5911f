/*
 * Trace writer: appends records to a .zst trace (docs/format.md).
 *
 * Thread-safe: any thread may write records and blobs at any time. Records
 * are packed in the calling thread; compression and file I/O run on the
 * writer's own threads. Blobs are the only thing ever dropped: past the
 * memory budget hwct_writer_add_blob() refuses them (unless told to wait)
 * and counts what it refused; records are always accepted.
 */
#ifndef HWCT_WRITER_H
#define HWCT_WRITER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>
#include <hwct/hwctrace.pb-c.h>

struct hwct_writer;

struct hwct_writer_options {
	int record_level;		/* zstd level of record frames; default 6 */
	int pixel_level;		/* zstd level of blob frames; default 1 */
	/*
	 * zstd hash log of blob frames, 0: the level's own. Default 7: the
	 * residuals of predicted pixels hold few matches but runs and near
	 * repeats, and a small table is faster and finds fewer short matches
	 * that cost more than literals (bench-format --only candidates: on the
	 * screenshot 2.42 MB at 7 against 2.54 at 11, and less CPU).
	 */
	int pixel_hash_log;
	uint32_t keyframe_interval;	/* display frames per record frame; default 30 */
	size_t frame_target;		/* bytes (uncompressed) that end a zstd frame early; default 4 MiB */
	size_t memory_budget;		/* bytes queued before blobs are refused; default 256 MiB */
	unsigned workers;		/* compression threads; default 2, at least 1 */
	/*
	 * Starts each compression thread as pthread_create(thread, NULL, fn,
	 * arg) would (returns 0 or an error number); NULL, the default:
	 * pthread_create itself. A host that owns its threads' attributes
	 * (the recorder: its stack size, recorder/background.c) passes its own.
	 */
	int (*start_thread)(pthread_t *thread, void *(*fn)(void *), void *arg);
	const char *writer_name;	/* FileHeader.writer, may be NULL */
	bool pixels;			/* FileHeader.pixels */
	/* FileHeader.options: key/value pairs, may be NULL/0; copied */
	const char *const *option_keys;
	const char *const *option_values;
	size_t option_count;
};

/* Fills opts with the defaults above. */
void hwct_writer_options_init(struct hwct_writer_options *opts);

/*
 * Creates (truncates) path and writes the header frame. opts may be NULL for
 * defaults. Returns the writer, or NULL with errno set.
 */
struct hwct_writer *hwct_writer_create(const char *path, const struct hwct_writer_options *opts);

/* Same on an open, writable fd, which the writer takes ownership of (closes it). */
struct hwct_writer *hwct_writer_create_fd(int fd, const struct hwct_writer_options *opts);

/*
 * Appends one record (packed before return: the caller keeps ownership of
 * rec). Keyframe records are the writer's own: passing one is -EINVAL.
 * A FrameEnd may end the current zstd frame. Returns 0, or -errno (the
 * writer failed earlier: the error of the failing write).
 */
int hwct_writer_write(struct hwct_writer *w, const Hwct__Record *rec);

/*
 * Applies rec to the state the writer snapshots into its Keyframes, without
 * writing rec: for a trace that starts where another one is cut (`hwc-trace
 * trim` seeds the Keyframe before the cut and the records up to it, so the
 * first Keyframe written holds the state at the cut). Any record kind,
 * Keyframe included; rec stays the caller's. The frame counters restart
 * after each call: the trace written numbers its display frames (FrameEnd
 * frame and display_frame) from 0 again. Call sequence numbers and fence
 * ids carry on from the seeded records.
 *
 * Only before the first hwct_writer_write(). Returns 0, -EBUSY once a
 * record was written, -EINVAL for a record without a kind, or -ENOMEM.
 */
int hwct_writer_seed(struct hwct_writer *w, const Hwct__Record *rec);

struct hwct_rect {
	int32_t left, top, right, bottom;
};

struct hwct_blob_desc {
	const void *data;		/* the full payload; borrowed for the call */
	size_t size;
	uint32_t kind;			/* HWCT_BLOB_* */
	uint32_t width, height;		/* pixels, 0 when not an image */
	uint32_t stride;		/* bytes per row of data */
	uint32_t bpp;			/* bytes per pixel (predictor distance), 0 = no predictor */
	const struct hwct_hash *hash;	/* precomputed hash of data, may be NULL */
	/*
	 * Damage against the previous content of the same buffer: when base
	 * is set, only the rects are stored (a delta). May be NULL/0.
	 */
	const struct hwct_hash *base;
	const struct hwct_rect *damage;
	size_t damage_count;
};

enum hwct_blob_flags {
	HWCT_BLOB_WAIT = 1u << 0,	/* block until under budget instead of refusing */
};

/*
 * Stores a payload once per distinct hash; the hash is written to *out_hash
 * (may be NULL). Returns 0 when queued for storing, 1 when that content was
 * already stored (nothing queued), -ENOBUFS when refused for the memory
 * budget (counted in the stats), -EFBIG for a payload larger than the blob
 * limit (hwct_limits()->blob_bytes, which readers enforce), or another -errno.
 */
int hwct_writer_add_blob(struct hwct_writer *w, const struct hwct_blob_desc *desc,
	uint32_t flags, struct hwct_hash *out_hash);

/* Whether a blob with that hash was stored (or queued) by this writer. */
bool hwct_writer_has_blob(struct hwct_writer *w, const struct hwct_hash *hash);

struct hwct_writer_stats {
	uint64_t records;		/* records accepted */
	uint64_t frames;		/* FrameEnd records accepted */
	uint64_t blobs;			/* distinct blobs queued */
	uint64_t blobs_deduplicated;	/* add_blob calls that found the content stored */
	uint64_t blobs_dropped;		/* refused for the budget */
	uint64_t bytes_dropped;
	uint64_t bytes_queued;		/* now waiting for compression or I/O */
	uint64_t bytes_queued_peak;
	uint64_t bytes_in;		/* uncompressed bytes handed to zstd */
	uint64_t bytes_out;		/* bytes written to the file */
	uint64_t zstd_frames;		/* zstd frames written, skippable ones included */
};

/* Copies the current counters into out. */
void hwct_writer_get_stats(struct hwct_writer *w, struct hwct_writer_stats *out);

/*
 * Ends the current zstd frames and waits until everything accepted so far is
 * in the file (the trace is then readable up to here even if the process
 * dies). Returns 0 or -errno.
 */
int hwct_writer_flush(struct hwct_writer *w);

/*
 * Flushes, writes the index and the seek table, closes the file and frees w
 * (always, even on error). w may be NULL. Returns 0 or the first -errno.
 */
int hwct_writer_close(struct hwct_writer *w);

#endif
