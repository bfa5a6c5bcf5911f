/* The worker's index of its pending captures (pending_index.h). */
#include <stdlib.h>

#include "capture.h"
#include "pending_index.h"

/* ------------------------------------------------------------------ displays */

/* A linear search: only displays with captures pending are kept (a key goes with its last one). */
static struct rec_pending_display *display_find(const struct rec_pending_index *ix, uint64_t display)
{
	for (size_t i = 0; i < ix->display_count; i++) {
		if (ix->displays[i].display == display) {
			return &ix->displays[i];
		}
	}
	return NULL;
}

static struct rec_pending_display *display_find_or_add(struct rec_pending_index *ix, uint64_t display)
{
	struct rec_pending_display *d = display_find(ix, display);

	if (d) {
		return d;
	}
	if (ix->display_count == ix->display_cap) {
		size_t n = ix->display_cap ? ix->display_cap * 2 : 8;
		struct rec_pending_display *ds = realloc(ix->displays, n * sizeof(*ds));

		if (!ds) {
			return NULL;
		}
		ix->displays = ds;
		ix->display_cap = n;
	}
	d = &ix->displays[ix->display_count++];
	*d = (struct rec_pending_display){ .display = display };
	return d;
}

static void display_drop_if_empty(struct rec_pending_index *ix, struct rec_pending_display *d)
{
	if (!d->arm_head && !d->ticket_head) {
		*d = ix->displays[--ix->display_count];
	}
}

/* ------------------------------------------------------------------- buffers */

static size_t buffer_hash(const struct rec_pending_index *ix, uint64_t id)
{
	uint64_t h = id * 0x9E3779B97F4A7C15ull;

	return (size_t)(h ^ (h >> 29)) & (ix->buffer_cap - 1);
}

/* id's slot, or the free slot where it would go; NULL with an empty table. */
static struct rec_pending_buffer *buffer_slot(const struct rec_pending_index *ix, uint64_t id)
{
	size_t i;

	if (!ix->buffer_cap) {
		return NULL;
	}
	for (i = buffer_hash(ix, id); ix->buffers[i].head && ix->buffers[i].id != id; i = (i + 1) & (ix->buffer_cap - 1)) {
	}
	return &ix->buffers[i];
}

/* Makes room for one more buffer (at most half the slots used). Returns false out of memory. */
static bool buffer_reserve(struct rec_pending_index *ix)
{
	struct rec_pending_buffer *old = ix->buffers;
	size_t old_cap = ix->buffer_cap, n = old_cap ? old_cap * 2 : 64;

	if ((ix->buffer_count + 1) * 2 <= ix->buffer_cap) {
		return true;
	}
	ix->buffers = calloc(n, sizeof(*ix->buffers));
	if (!ix->buffers) {
		ix->buffers = old;
		return false;
	}
	ix->buffer_cap = n;
	for (size_t i = 0; i < old_cap; i++) {
		if (old[i].head) {
			*buffer_slot(ix, old[i].id) = old[i];
		}
	}
	free(old);
	return true;
}

/* Frees slot s (its list is empty), moving back the entries that probed past it. */
static void buffer_delete(struct rec_pending_index *ix, struct rec_pending_buffer *s)
{
	size_t mask = ix->buffer_cap - 1, i = (size_t)(s - ix->buffers), j = i;

	for (;;) {
		size_t k;

		j = (j + 1) & mask;
		if (!ix->buffers[j].head) {
			break;
		}
		k = buffer_hash(ix, ix->buffers[j].id);
		/* j's entry stays when its home k lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) {
			continue;
		}
		ix->buffers[i] = ix->buffers[j];
		i = j;
	}
	ix->buffers[i] = (struct rec_pending_buffer){ 0 };
	ix->buffer_count--;
}

/* ---------------------------------------------------------------------- lists */

bool rec_pending_add(struct rec_pending_index *ix, struct rec_event *ev)
{
	struct rec_capture *cap = ev->capture;
	struct rec_pending_links *l = &cap->pending;
	struct rec_pending_display *d = NULL;
	struct rec_pending_buffer *b = NULL;

	if (cap->state == REC_CAPTURE_WAIT_ARM || cap->ticket) {
		d = display_find_or_add(ix, cap->display);
		if (!d) {
			return false;
		}
	}
	if (cap->has_buffer) {
		if (!buffer_reserve(ix)) {
			if (d) {
				display_drop_if_empty(ix, d);
			}
			return false;
		}
		b = buffer_slot(ix, cap->buffer_id);
	}
	*l = (struct rec_pending_links){ .ev = ev, .listed = true, .prev = ix->tail };
	if (ix->tail) {
		ix->tail->pending.next = cap;
	} else {
		ix->head = cap;
	}
	ix->tail = cap;
	if (d && cap->state == REC_CAPTURE_WAIT_ARM) {
		l->arm_listed = true;
		l->arm_prev = d->arm_tail;
		if (d->arm_tail) {
			d->arm_tail->pending.arm_next = cap;
		} else {
			d->arm_head = cap;
		}
		d->arm_tail = cap;
	}
	if (d && cap->ticket) {
		/* from the tail back: tickets come in order but for threads that raced */
		struct rec_capture *after = d->ticket_tail;

		while (after && after->ticket > cap->ticket) {
			after = after->pending.ticket_prev;
		}
		l->ticket_listed = true;
		l->ticket_prev = after;
		l->ticket_next = after ? after->pending.ticket_next : d->ticket_head;
		if (l->ticket_next) {
			l->ticket_next->pending.ticket_prev = cap;
		} else {
			d->ticket_tail = cap;
		}
		if (after) {
			after->pending.ticket_next = cap;
		} else {
			d->ticket_head = cap;
		}
	}
	if (b) {
		if (!b->head) {
			b->id = cap->buffer_id;
			ix->buffer_count++;
		}
		l->buffer_listed = true;
		l->buffer_prev = b->tail;
		if (b->tail) {
			b->tail->pending.buffer_next = cap;
		} else {
			b->head = cap;
		}
		b->tail = cap;
	}
	return true;
}

static void arm_unlink(struct rec_pending_display *d, struct rec_capture *cap)
{
	struct rec_pending_links *l = &cap->pending;

	if (l->arm_prev) {
		l->arm_prev->pending.arm_next = l->arm_next;
	} else {
		d->arm_head = l->arm_next;
	}
	if (l->arm_next) {
		l->arm_next->pending.arm_prev = l->arm_prev;
	} else {
		d->arm_tail = l->arm_prev;
	}
	l->arm_prev = l->arm_next = NULL;
	l->arm_listed = false;
}

static void ticket_unlink(struct rec_pending_display *d, struct rec_capture *cap)
{
	struct rec_pending_links *l = &cap->pending;

	if (l->ticket_prev) {
		l->ticket_prev->pending.ticket_next = l->ticket_next;
	} else {
		d->ticket_head = l->ticket_next;
	}
	if (l->ticket_next) {
		l->ticket_next->pending.ticket_prev = l->ticket_prev;
	} else {
		d->ticket_tail = l->ticket_prev;
	}
	l->ticket_prev = l->ticket_next = NULL;
	l->ticket_listed = false;
}

static void buffer_unlink(struct rec_pending_index *ix, struct rec_capture *cap)
{
	struct rec_pending_links *l = &cap->pending;
	struct rec_pending_buffer *b = buffer_slot(ix, cap->buffer_id);

	if (l->buffer_prev) {
		l->buffer_prev->pending.buffer_next = l->buffer_next;
	} else {
		b->head = l->buffer_next;
	}
	if (l->buffer_next) {
		l->buffer_next->pending.buffer_prev = l->buffer_prev;
	} else {
		b->tail = l->buffer_prev;
	}
	l->buffer_prev = l->buffer_next = NULL;
	l->buffer_listed = false;
	if (!b->head) {
		buffer_delete(ix, b);
	}
}

void rec_pending_remove(struct rec_pending_index *ix, struct rec_capture *cap)
{
	struct rec_pending_links *l = &cap->pending;

	if (!l->listed) {
		return;
	}
	if (l->prev) {
		l->prev->pending.next = l->next;
	} else {
		ix->head = l->next;
	}
	if (l->next) {
		l->next->pending.prev = l->prev;
	} else {
		ix->tail = l->prev;
	}
	if (l->arm_listed || l->ticket_listed) {
		struct rec_pending_display *d = display_find(ix, cap->display);

		if (l->arm_listed) {
			arm_unlink(d, cap);
		}
		if (l->ticket_listed) {
			ticket_unlink(d, cap);
		}
		display_drop_if_empty(ix, d);
	}
	if (l->buffer_listed) {
		buffer_unlink(ix, cap);
	}
	*l = (struct rec_pending_links){ 0 };
}

struct rec_capture *rec_pending_first(const struct rec_pending_index *ix)
{
	return ix->head;
}

struct rec_event *rec_pending_event(const struct rec_capture *cap)
{
	return cap->pending.ev;
}

struct rec_capture *rec_pending_arm_first(struct rec_pending_index *ix, uint64_t display)
{
	struct rec_pending_display *d = display_find(ix, display);

	return d ? d->arm_head : NULL;
}

void rec_pending_armed(struct rec_pending_index *ix, struct rec_capture *cap)
{
	struct rec_pending_display *d;

	if (!cap->pending.arm_listed) {
		return;
	}
	d = display_find(ix, cap->display);
	arm_unlink(d, cap);
	display_drop_if_empty(ix, d);
}

uint64_t rec_pending_min_ticket(const struct rec_pending_index *ix, uint64_t display)
{
	const struct rec_pending_display *d = display_find(ix, display);

	return d && d->ticket_head ? d->ticket_head->ticket : 0;
}

struct rec_capture *rec_pending_first_of_buffer(const struct rec_pending_index *ix, uint64_t id)
{
	const struct rec_pending_buffer *b = buffer_slot(ix, id);

	return b ? b->head : NULL;
}

void rec_pending_finish(struct rec_pending_index *ix)
{
	free(ix->displays);
	free(ix->buffers);
	*ix = (struct rec_pending_index){ 0 };
}
