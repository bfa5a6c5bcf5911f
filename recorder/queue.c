/* The MPSC event queue (queue.h). */
#include <errno.h>
#include <stdlib.h>

#include "event.h"
#include "queue.h"

int rec_queue_init(struct rec_queue *q)
{
	q->stub = calloc(1, sizeof(*q->stub));
	if (!q->stub) {
		return -ENOMEM;
	}
	atomic_store(&q->stub->next, NULL);
	atomic_store(&q->head, q->stub);
	q->tail = q->stub;
	return 0;
}

void rec_queue_finish(struct rec_queue *q)
{
	free(q->stub);
	q->stub = NULL;
}

REC_HOT void rec_queue_push(struct rec_queue *q, struct rec_event *ev)
{
	struct rec_event *prev;

	atomic_store_explicit(&ev->next, NULL, memory_order_relaxed);
	prev = atomic_exchange_explicit(&q->head, ev, memory_order_seq_cst);
	atomic_store_explicit(&prev->next, ev, memory_order_release);
}

bool rec_queue_empty(struct rec_queue *q)
{
	/* the tail is the stub or an event not yet popped; the head is the last push */
	atomic_thread_fence(memory_order_seq_cst);
	return q->tail == q->stub && atomic_load_explicit(&q->head, memory_order_seq_cst) == q->stub;
}

struct rec_event *rec_queue_pop(struct rec_queue *q)
{
	struct rec_event *tail = q->tail;
	struct rec_event *next = atomic_load_explicit(&tail->next, memory_order_acquire);

	if (tail == q->stub) {
		if (!next) {
			return NULL;
		}
		q->tail = next;
		tail = next;
		next = atomic_load_explicit(&next->next, memory_order_acquire);
	}
	if (next) {
		q->tail = next;
		return tail;
	}
	if (tail != atomic_load_explicit(&q->head, memory_order_acquire)) {
		return NULL;	/* a push is half done */
	}
	rec_queue_push(q, q->stub);
	next = atomic_load_explicit(&tail->next, memory_order_acquire);
	if (next) {
		q->tail = next;
		return tail;
	}
	return NULL;
}
