/*
 * The worker's index of its pending captures (worker_capture.c): the
 * captures in its FIFO that are not done yet. The worker used to find
 * them by walking the whole FIFO, several times per pass (the captures to
 * step, an earlier capture of the same buffer for each of them, the
 * captures a validate or present arms, the lowest unresolved ticket of
 * each display), which is quadratic when it is behind: an unpaced client
 * or a loaded machine queues thousands of events, most without a pending
 * capture. This index keeps them, linked four ways, so that each of those
 * questions costs the captures it answers about:
 *
 * - every pending capture, in call order (what a pass steps);
 * - per display, those waiting to be armed, in call order;
 * - per display, those with a capture ticket, by ticket (the lowest first:
 *   tickets are taken before the events are queued, so two threads of one
 *   display may queue them out of order);
 * - per buffer (Buffer.id), in call order: one buffer's captures run in
 *   call order (a delta's base is the previous one).
 *
 * A capture enters when its event enters the FIFO (not done) and leaves
 * when it is done (the worker tells the index) or when its event leaves
 * the FIFO, whichever comes first. A capture armed by other means than
 * the index's list (rec_capture_step arms one that waited too long) stays
 * in the list until the next arm of its display drops it.
 */
#ifndef REC_PENDING_INDEX_H
#define REC_PENDING_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rec_capture;
struct rec_event;

/* The index's lists; a capture has one link per list. */
enum rec_pending_list {
	REC_PENDING_ALL,	/* every pending capture, call order */
	REC_PENDING_ARM,	/* its display's waiting to be armed, call order */
	REC_PENDING_TICKET,	/* its display's with a ticket, ascending */
	REC_PENDING_BUFFER,	/* its buffer's, call order */
	REC_PENDING_LISTS
};

/* A capture's place in one list. */
struct rec_pending_link {
	struct rec_capture *prev, *next;
	bool listed;
};

/* What a capture carries for the index (in struct rec_capture; zero: in no list). */
struct rec_pending_links {
	struct rec_event *ev;		/* its event, while listed */
	struct rec_pending_link link[REC_PENDING_LISTS];
};

/* The two ends of one list. */
struct rec_pending_chain {
	struct rec_capture *head, *tail;
};

/* A display with captures in the index (a few; found by a linear search). */
struct rec_pending_display {
	uint64_t display;
	struct rec_pending_chain arm;		/* REC_PENDING_ARM */
	struct rec_pending_chain ticket;	/* REC_PENDING_TICKET */
};

/* A buffer with pending captures: a slot of an open-addressing table; list.head NULL when free. */
struct rec_pending_buffer {
	uint64_t id;
	struct rec_pending_chain list;		/* REC_PENDING_BUFFER */
};

struct rec_pending_index {
	struct rec_pending_chain all;		/* REC_PENDING_ALL */
	struct rec_pending_display *displays;	/* owned */
	size_t display_count, display_cap;
	struct rec_pending_buffer *buffers;	/* owned; buffer_cap slots, a power of two, at most half used */
	size_t buffer_count, buffer_cap;
};

/*
 * ev's capture (not done) entered the FIFO. Returns false when out of
 * memory: nothing is listed and the caller gives the capture up.
 */
bool rec_pending_add(struct rec_pending_index *ix, struct rec_event *ev);

/* cap is done, or its event leaves the FIFO: it leaves every list it is in (any number of calls). */
void rec_pending_remove(struct rec_pending_index *ix, struct rec_capture *cap);

/* The oldest pending capture, NULL none; the next: rec_pending_next(cap, REC_PENDING_ALL). */
struct rec_capture *rec_pending_first(const struct rec_pending_index *ix);

/* The capture after cap in list (NULL: cap is the last, or not in it). */
struct rec_capture *rec_pending_next(const struct rec_capture *cap, enum rec_pending_list list);

/* The event of a listed capture (borrowed: the FIFO owns it). */
struct rec_event *rec_pending_event(const struct rec_capture *cap);

/*
 * The oldest capture of display that waits to be armed, NULL none; the
 * next: rec_pending_next(cap, REC_PENDING_ARM) (fetch it before rec_pending_armed).
 */
struct rec_capture *rec_pending_arm_first(struct rec_pending_index *ix, uint64_t display);

/* cap was armed (or is no longer waiting): it leaves its display's list of captures to arm. */
void rec_pending_armed(struct rec_pending_index *ix, struct rec_capture *cap);

/* The lowest ticket of display's pending captures, 0 none. */
uint64_t rec_pending_min_ticket(const struct rec_pending_index *ix, uint64_t display);

/* The oldest pending capture of buffer id, NULL none. */
struct rec_capture *rec_pending_first_of_buffer(const struct rec_pending_index *ix, uint64_t id);

/* Frees the index (the worker ends; the captures are the FIFO's). */
void rec_pending_finish(struct rec_pending_index *ix);

#endif
