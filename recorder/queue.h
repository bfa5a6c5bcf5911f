/*
 * Intrusive multi-producer single-consumer queue (D. Vyukov's MPSC node
 * queue): any number of threads push without locks or syscalls (one atomic
 * exchange), one thread pops. FIFO in the order of the exchanges.
 */
#ifndef REC_QUEUE_H
#define REC_QUEUE_H

#include <stdatomic.h>
#include <stdbool.h>

#include "hot.h"

struct rec_event;

struct rec_queue {
	_Alignas(REC_LINE) _Atomic(struct rec_event *) head;	/* producers' end */
	_Alignas(REC_LINE) struct rec_event *tail;		/* consumer's end */
	struct rec_event *stub;			/* owned sentinel */
};

/* Returns 0 or -ENOMEM. */
int rec_queue_init(struct rec_queue *q);

/* Frees the sentinel; the queue must be empty (pop until NULL first). */
void rec_queue_finish(struct rec_queue *q);

/* Appends ev (any thread). The queue takes ownership. */
void rec_queue_push(struct rec_queue *q, struct rec_event *ev);

/*
 * Whether nothing is queued (the consumer thread only; after a full
 * fence, so that a producer that pushed before it reads a flag this
 * thread set before the call sees that flag).
 */
bool rec_queue_empty(struct rec_queue *q);

/*
 * Removes the oldest event (the consumer thread only). Returns NULL when the
 * queue is empty, or when a producer is between its exchange and its link:
 * call again later.
 */
struct rec_event *rec_queue_pop(struct rec_queue *q);

#endif
