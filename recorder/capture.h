/*
 * Pixel capture of one buffer call (setLayerBuffer, setClientTarget), on the
 * worker. A capture waits to be armed (the display's validate or present
 * was seen, so the frame's surface damage is known), then for its acquire
 * fence, then maps the buffer, reads it between DMA_BUF_IOCTL_SYNC
 * START/END, and hands the content to the writer: whole, or as a delta
 * against the buffer's previous content (surface damage, checked against
 * per-tile hashes so a wrong damage hint can never produce a wrong delta).
 */
#ifndef REC_CAPTURE_H
#define REC_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hash.h>

#include "bufinfo.h"
#include "capture_map.h"
#include "pending_index.h"

struct hwct_writer;
struct rec_buffers;
struct rec_config;
struct rec_display_slot;

enum rec_capture_state {
	REC_CAPTURE_WAIT_ARM = 0,
	REC_CAPTURE_ARMED,
	REC_CAPTURE_DONE,
};

struct rec_capture {
	int state;			/* enum rec_capture_state */
	uint64_t ticket;		/* 0: nothing to capture (status is final at creation) */
	struct rec_display_slot *slot;	/* the display's shared counters */
	uint64_t display, layer;
	bool client_target;
	int fd;				/* dup of the buffer's fd (fds.h), owned, -1 none */
	int fence_fd;			/* acquire fence, borrowed from the event, -1 none */
	/*
	 * The buffer's release (worker_capture.c): the fence that hands it back
	 * to its producer (borrowed from the later event that returned it, which
	 * stays in the worker's FIFO until this capture is done; -1 none yet),
	 * or released when it was handed back without a fence (or with a fence
	 * the recorder holds no fd of). Pixels read after that may be torn.
	 */
	int release_fd;
	bool released;
	/* the worker's index of captures waiting for their release (release_index.h) */
	struct rec_capture *release_next;	/* next in its layer's list, NULL last */
	bool release_listed;			/* in that list */
	struct rec_pending_links pending;	/* the worker's index of pending captures (pending_index.h) */
	bool has_buffer;
	uint64_t buffer_id;		/* Buffer.id: inode of the buffer fd */
	uint64_t buffer_dev;		/* st_dev of the buffer fd (with the inode: the mapping cache's key) */
	bool has_inode;			/* buffer_id and buffer_dev are the fd's fstat */
	bool has_layout;
	struct rec_buffer_layout layout;
	bool has_damage;		/* damage is a hint for a delta */
	hwc_rect_t *damage;		/* owned */
	uint32_t damage_count;
	int32_t status;			/* HWCT_CAPTURE_* once DONE */
	uint64_t dropped_bytes;		/* what a DROPPED capture would have stored, 0 unknown */
	bool has_hash;
	struct hwct_hash hash;
	uint64_t created_ns, armed_ns;
	/*
	 * How long after arming an unsignalled acquire fence makes the capture
	 * late: 2 s, or HWCT_CAPTURE_WAIT_MS when that is longer (the hot path
	 * waits that long for the capture; the worker must not give up first).
	 */
	uint64_t acquire_limit_ns;
	/*
	 * How often its layer (or client target) gets a new buffer: the time
	 * between the two buffer calls before this one, 0 unknown. The buffer
	 * goes back to its producer about two such intervals after its call,
	 * so a short interval means a near deadline (rec_capture_more_urgent).
	 */
	uint64_t interval_ns;
	uint64_t bytes;			/* about what a read of it costs: plane 0's rows, 0 unknown */
	uint64_t fence_seen_ns;		/* when the capture first saw the acquire fence signalled, 0 not yet */
};

/* What a capture needs from the worker. */
struct rec_capture_ctx {
	struct hwct_writer *writer;
	struct rec_buffers *buffers;
	const struct rec_config *cfg;
	/*
	 * Buffer calls written with capture DROPPED (CaptureStats.blobs_dropped,
	 * bytes_dropped): counted in flush_call (worker.c) where the call's
	 * record is written, so the two counts agree by construction.
	 */
	uint64_t drops, drop_bytes;
	uint64_t late;			/* captures marked late (counted here) */
	uint8_t *scratch;		/* copy buffer reused between captures, owned */
	size_t scratch_size;
	struct rec_map_cache maps;	/* buffers' mappings kept between captures */
};

/*
 * A capture for a buffer call: takes the buffer fd from the handle snapshot
 * (h may be NULL: a null buffer), borrows fence_fd. ticket 0 means pixels
 * are not captured (status off). Returns NULL when out of memory.
 */
struct rec_capture *rec_capture_create(struct rec_event *ev, struct rec_handle *h, int fence_fd,
	struct rec_display_slot *slot, const struct rec_config *cfg);

void rec_capture_free(struct rec_capture *cap);

/* Arms cap with the damage hint of its layer (copied; count 0 with has_damage: nothing changed). */
void rec_capture_arm(struct rec_capture *cap, const hwc_rect_t *damage, uint32_t count, bool has_damage);

/* Frees the copy buffer and drops the kept mappings (the session ends). */
void rec_capture_ctx_release(struct rec_capture_ctx *ctx);

/*
 * Whether a should be captured before b (the worker steps its pending
 * captures in this order): a capture whose buffer was already handed back
 * with a fence still pending comes first (its deadline is that fence);
 * then the shorter layer interval, compared by powers of two of ms (so a
 * 60 Hz layer's jitter does not reorder it; unknown counts as one 60 Hz
 * frame); then the smaller buffer (quick to read: it holds the others up
 * least); else neither (call order stays).
 */
bool rec_capture_more_urgent(const struct rec_capture *a, const struct rec_capture *b);

/*
 * Advances cap: marks it late when the hot path gave up on it, captures it
 * when armed and its fence signalled, or when force is set gives up
 * waiting (late). Returns true once cap is DONE.
 */
bool rec_capture_step(struct rec_capture *cap, struct rec_capture_ctx *ctx, bool force);

#endif
