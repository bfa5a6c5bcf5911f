/* Internals of the writer shared by writer.c, writer_job.c and writer_blob.c. */
#ifndef HWCT_WRITER_PRIVATE_H
#define HWCT_WRITER_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <zstd.h>

#include <hwct/writer.h>

#include "arena.h"
#include "bytebuf.h"
#include "container.h"
#include "hmap.h"
#include "index.h"
#include "state.h"

/* One payload waiting in a blob frame. */
struct blob_item {
	struct hwct_hash hash;
	uint8_t *data;			/* owned: the full payload, or the rect rows of a delta */
	size_t data_size;
	size_t data_cap;		/* data is a pool buffer of that many bytes (full payloads), 0: malloc'd */
	uint64_t size;			/* full decoded size */
	uint32_t kind, width, height, stride, bpp;
	bool delta;
	struct hwct_hash base;
	struct hwct_rect *rects;	/* owned, delta only */
	size_t rect_count;
};

#define WRITER_POOL_SIZE 6	/* compressed frames and payload copies */
#define WRITER_MAX_DELTA_CHAIN 16	/* deltas on deltas before a delta on the chain's full payload */
#define WRITER_CHAIN_RECTS 32		/* damage rects a chain keeps (writer_chain.c) */

/* What a delta chain changed since its full payload `root` (writer_chain.c). */
struct writer_chain {
	struct hwct_hash root;
	size_t count;
	struct hwct_rect rects[];	/* count, no two equal */
};

/* Frees every chain of chains (hash -> struct writer_chain *) and the map. */
void writer_chains_finish(struct hmap *chains);

/* Removes and returns the chain of the blob hash, NULL when it has none (caller frees). */
struct writer_chain *writer_chain_take(struct hmap *chains, const struct hwct_hash *hash);

/*
 * prev (taken, may be NULL: a chain starting at root) plus count rects.
 * Returns the chain (caller frees), or NULL when it would pass
 * WRITER_CHAIN_RECTS or memory ran out (prev is freed then).
 */
struct writer_chain *writer_chain_extend(struct writer_chain *prev, const struct hwct_hash *root,
	const struct hwct_rect *rects, size_t count);

enum job_kind {
	JOB_RECORDS,
	JOB_BLOBS,
};

enum job_status {
	JOB_OPEN,		/* still being filled by writers */
	JOB_PENDING,		/* sealed, waiting for a worker */
	JOB_RUNNING,
	JOB_DONE,
};

/* One data zstd frame on its way to the file. */
struct job {
	struct job *next;
	enum job_kind kind;
	enum job_status status;
	struct bytebuf raw;		/* records: framed records */
	struct blob_item *blobs;	/* blobs: owned items */
	size_t blob_count, blob_cap;
	size_t blob_bytes;		/* payload bytes of blobs */
	size_t queued;			/* bytes counted against the budget */

	/* index facts */
	uint64_t first_frame, frame_ends, records, t_ns;
	bool keyframe;

	/* result */
	struct bytebuf out;		/* the compressed frame */
	uint32_t decompressed, checksum;
	int error;
};

struct hwct_writer {
	struct hwct_writer_options opts;
	int fd;

	pthread_mutex_t lock;		/* everything below but the I/O part */
	pthread_cond_t work_cond;	/* a job became pending, or closing */
	pthread_cond_t space_cond;	/* bytes were released */
	pthread_cond_t done_cond;	/* a job was written */
	struct job *head, *tail;	/* sealed jobs in file order */
	struct job *records, *blobs;	/* the open jobs */
	struct state *state;
	struct hmap blob_set;		/* hash -> delta chain depth (1: full payload), stored or queued */
	struct hmap chains;		/* hash of a delta -> struct writer_chain *, owned (writer_chain.c) */
	struct hwct_writer_stats stats;
	bool mid_frame;			/* a call came since the last FrameEnd */
	bool closing;
	int error;			/* first failure, sticky */
	pthread_t *threads;
	unsigned thread_count;

	pthread_mutex_t pool_lock;	/* pool */
	struct bytebuf pool[WRITER_POOL_SIZE];
	size_t pool_count;

	pthread_mutex_t io_lock;	/* the file and the index below */
	uint64_t ordinal;		/* zstd frames written */
	struct seek_entry *seek;	/* owned */
	size_t seek_count, seek_cap;
	struct trace_index index;
};

/*
 * Compresses a sealed job into job->out (taken from the writer's pool).
 * scratch is the worker's reusable buffer for the blob records. Returns 0
 * or -errno.
 */
int writer_job_compress(struct hwct_writer *w, ZSTD_CCtx *cctx, struct job *job, struct bytebuf *scratch);

/* Frees a job and everything it owns; its output buffer goes back to w's pool (w may be NULL). */
void writer_job_free(struct hwct_writer *w, struct job *job);

/*
 * A pool of large buffers for compressed frames, so that every frame does
 * not map (and fault in) fresh memory. take returns an empty buffer with at
 * least cap bytes reserved (0 or -ENOMEM); give keeps b for later or frees it.
 */
int writer_pool_take(struct hwct_writer *w, struct bytebuf *b, size_t cap);
void writer_pool_give(struct hwct_writer *w, struct bytebuf *b);

/*
 * Builds a blob item for desc (hash already known): a copy of the payload, or
 * of only the damaged rects when a delta against desc->base is worth it.
 * Returns 0 or -ENOMEM.
 */
int writer_blob_item(struct hwct_writer *w, struct blob_item *item, const struct hwct_blob_desc *desc,
	const struct hwct_hash *hash, bool base_known);

/* Appends the Blob record of item (predictor applied) to out. Returns 0 or -errno. */
int writer_blob_encode(struct bytebuf *out, const struct blob_item *item, int level);

/* Frees what item owns (its payload copy back to w's pool). */
void writer_blob_item_finish(struct hwct_writer *w, struct blob_item *item);

/* Writes all bytes to the file, retrying short writes. Returns 0 or -errno. */
int writer_write_all(int fd, const uint8_t *data, size_t size);

/* Writes the index and the seek table (io_lock held). Returns 0 or -errno. */
int writer_write_trailer(struct hwct_writer *w);

#endif
