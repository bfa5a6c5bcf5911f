/*
 * The worker's index of buffers waiting for their release (worker_capture.c).
 * A buffer call's capture must learn when its buffer goes back to its
 * producer: the release fence a later getReleaseFences returns for its
 * layer, or the present fence of the next presentDisplay for a client
 * target. Every pending capture of that layer but the newest (the buffer
 * still on screen) gets that release. Walking the worker's whole FIFO for
 * each fence is quadratic when the worker is behind (an unpaced client
 * queues thousands of events); this index keeps, per layer (or client
 * target) with captures in the FIFO, the captures still without a release,
 * in call order, so a release visits only the captures it marks.
 *
 * Invariant the worker keeps: captures are added in call order as their
 * events enter the FIFO, and removed (rec_release_index_remove) as their
 * events leave it, which is in call order too.
 */
#ifndef REC_RELEASE_INDEX_H
#define REC_RELEASE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rec_capture;

/* One layer (or one display's client target) with captures in the FIFO. */
struct rec_release_key {
	uint64_t display, layer;	/* layer 0 for a client target */
	bool client_target;
	struct rec_capture *newest;	/* its last capture with a buffer still in the FIFO, NULL none */
	struct rec_capture *head, *tail;	/* captures still without a release, call order, linked by release_next */
};

struct rec_release_index {
	struct rec_release_key *keys;	/* owned; only keys with captures in the FIFO (a few per display) */
	size_t count, cap;
	uint64_t visited;		/* captures the releases looked at, in all (what they cost) */
};

/*
 * cap (with a buffer) entered the FIFO: it is its layer's newest and, when
 * not done, waits for a release. Out of memory it is marked released at
 * once (its pixels are then never trusted: late, never torn).
 */
void rec_release_index_add(struct rec_release_index *ix, struct rec_capture *cap);

/*
 * The buffers of (display, client target or layer) replaced since were
 * handed back with fence fd (borrowed by each capture; -1: without a
 * fence, or one the recorder holds no fd of): every waiting capture but
 * the newest gets release_fd = fd, or released when fd < 0. Captures done
 * by now are only dropped from the index. Costs one key lookup plus the
 * captures it visits, each of which (but the newest) leaves the index.
 */
void rec_release_index_release(struct rec_release_index *ix, uint64_t display, bool client_target,
	uint64_t layer, int fd);

/* cap's event leaves the FIFO (cap is about to be freed): forgets it. */
void rec_release_index_remove(struct rec_release_index *ix, struct rec_capture *cap);

/* Frees the index (the worker ends; the FIFO is empty or abandoned). */
void rec_release_index_finish(struct rec_release_index *ix);

#endif
