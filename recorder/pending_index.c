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
	if (!d->arm.head && !d->ticket.head) {
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
	for (i = buffer_hash(ix, id); ix->buffers[i].list.head && ix->buffers[i].id != id; i = (i + 1) & (ix->buffer_cap - 1)) {
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
		if (old[i].list.head) {
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
		if (!ix->buffers[j].list.head) {
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

/* Puts cap into chain c (its list `list`) after `after`, at the head when after is NULL. */
static void chain_insert(struct rec_pending_chain *c, enum rec_pending_list list, struct rec_capture *after,
	struct rec_capture *cap)
{
	struct rec_pending_link *l = &cap->pending.link[list];

	l->listed = true;
	l->prev = after;
	l->next = after ? after->pending.link[list].next : c->head;
	if (l->next) {
		l->next->pending.link[list].prev = cap;
	} else {
		c->tail = cap;
	}
	if (after) {
		after->pending.link[list].next = cap;
	} else {
		c->head = cap;
	}
}

/* Takes cap out of chain c (its list `list`). */
static void chain_unlink(struct rec_pending_chain *c, enum rec_pending_list list, struct rec_capture *cap)
{
	struct rec_pending_link *l = &cap->pending.link[list];

	if (l->prev) {
		l->prev->pending.link[list].next = l->next;
	} else {
		c->head = l->next;
	}
	if (l->next) {
		l->next->pending.link[list].prev = l->prev;
	} else {
		c->tail = l->prev;
	}
	*l = (struct rec_pending_link){ 0 };
}

bool rec_pending_add(struct rec_pending_index *ix, struct rec_event *ev)
{
	struct rec_capture *cap = ev->capture;
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
	cap->pending = (struct rec_pending_links){ .ev = ev };
	chain_insert(&ix->all, REC_PENDING_ALL, ix->all.tail, cap);
	if (d && cap->state == REC_CAPTURE_WAIT_ARM) {
		chain_insert(&d->arm, REC_PENDING_ARM, d->arm.tail, cap);
	}
	if (d && cap->ticket) {
		/* from the tail back: tickets come in order but for threads that raced */
		struct rec_capture *after = d->ticket.tail;

		while (after && after->ticket > cap->ticket) {
			after = after->pending.link[REC_PENDING_TICKET].prev;
		}
		chain_insert(&d->ticket, REC_PENDING_TICKET, after, cap);
	}
	if (b) {
		if (!b->list.head) {
			b->id = cap->buffer_id;
			ix->buffer_count++;
		}
		chain_insert(&b->list, REC_PENDING_BUFFER, b->list.tail, cap);
	}
	return true;
}

void rec_pending_remove(struct rec_pending_index *ix, struct rec_capture *cap)
{
	const struct rec_pending_link *link = cap->pending.link;

	if (!link[REC_PENDING_ALL].listed) {
		return;
	}
	chain_unlink(&ix->all, REC_PENDING_ALL, cap);
	if (link[REC_PENDING_ARM].listed || link[REC_PENDING_TICKET].listed) {
		struct rec_pending_display *d = display_find(ix, cap->display);

		if (link[REC_PENDING_ARM].listed) {
			chain_unlink(&d->arm, REC_PENDING_ARM, cap);
		}
		if (link[REC_PENDING_TICKET].listed) {
			chain_unlink(&d->ticket, REC_PENDING_TICKET, cap);
		}
		display_drop_if_empty(ix, d);
	}
	if (link[REC_PENDING_BUFFER].listed) {
		struct rec_pending_buffer *b = buffer_slot(ix, cap->buffer_id);

		chain_unlink(&b->list, REC_PENDING_BUFFER, cap);
		if (!b->list.head) {
			buffer_delete(ix, b);
		}
	}
	cap->pending = (struct rec_pending_links){ 0 };
}

struct rec_capture *rec_pending_first(const struct rec_pending_index *ix)
{
	return ix->all.head;
}

struct rec_capture *rec_pending_next(const struct rec_capture *cap, enum rec_pending_list list)
{
	return cap->pending.link[list].next;
}

struct rec_event *rec_pending_event(const struct rec_capture *cap)
{
	return cap->pending.ev;
}

struct rec_capture *rec_pending_arm_first(struct rec_pending_index *ix, uint64_t display)
{
	struct rec_pending_display *d = display_find(ix, display);

	return d ? d->arm.head : NULL;
}

void rec_pending_armed(struct rec_pending_index *ix, struct rec_capture *cap)
{
	struct rec_pending_display *d;

	if (!cap->pending.link[REC_PENDING_ARM].listed) {
		return;
	}
	d = display_find(ix, cap->display);
	chain_unlink(&d->arm, REC_PENDING_ARM, cap);
	display_drop_if_empty(ix, d);
}

uint64_t rec_pending_min_ticket(const struct rec_pending_index *ix, uint64_t display)
{
	const struct rec_pending_display *d = display_find(ix, display);

	return d && d->ticket.head ? d->ticket.head->ticket : 0;
}

struct rec_capture *rec_pending_first_of_buffer(const struct rec_pending_index *ix, uint64_t id)
{
	const struct rec_pending_buffer *b = buffer_slot(ix, id);

	return b ? b->list.head : NULL;
}

void rec_pending_finish(struct rec_pending_index *ix)
{
	free(ix->displays);
	free(ix->buffers);
	*ix = (struct rec_pending_index){ 0 };
}
