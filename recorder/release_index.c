/* The worker's index of buffers waiting for their release (release_index.h). */
#include <stdlib.h>

#include "capture.h"
#include "release_index.h"

/*
 * A linear search: the index holds only the layers with captures in the
 * FIFO (a key goes as its last capture leaves), a handful per display,
 * however far behind the worker is.
 */
static struct rec_release_key *find(struct rec_release_index *ix, uint64_t display, bool client_target,
	uint64_t layer)
{
	for (size_t i = 0; i < ix->count; i++) {
		struct rec_release_key *k = &ix->keys[i];

		if (k->display == display && k->client_target == client_target &&
				(client_target || k->layer == layer)) {
			return k;
		}
	}
	return NULL;
}

static struct rec_release_key *find_or_add(struct rec_release_index *ix, const struct rec_capture *cap)
{
	struct rec_release_key *k = find(ix, cap->display, cap->client_target, cap->layer);

	if (k) {
		return k;
	}
	if (ix->count == ix->cap) {
		size_t n = ix->cap ? ix->cap * 2 : 16;
		struct rec_release_key *keys = realloc(ix->keys, n * sizeof(*keys));

		if (!keys) {
			return NULL;
		}
		ix->keys = keys;
		ix->cap = n;
	}
	k = &ix->keys[ix->count++];
	*k = (struct rec_release_key){
		.display = cap->display,
		.layer = cap->client_target ? 0 : cap->layer,
		.client_target = cap->client_target,
	};
	return k;
}

void rec_release_index_add(struct rec_release_index *ix, struct rec_capture *cap)
{
	struct rec_release_key *k;

	if (!cap->has_buffer) {
		return;
	}
	k = find_or_add(ix, cap);
	if (!k) {
		cap->released = cap->state != REC_CAPTURE_DONE;
		return;
	}
	k->newest = cap;
	if (cap->state == REC_CAPTURE_DONE) {
		return;	/* nothing left to read: no release to wait for */
	}
	cap->release_next = NULL;
	cap->release_listed = true;
	if (k->tail) {
		k->tail->release_next = cap;
	} else {
		k->head = cap;
	}
	k->tail = cap;
}

void rec_release_index_release(struct rec_release_index *ix, uint64_t display, bool client_target,
	uint64_t layer, int fd)
{
	struct rec_release_key *k = find(ix, display, client_target, layer);
	struct rec_capture *cap, *next;

	if (!k) {
		return;
	}
	/* the newest is the last one added, so the list's tail when listed: everything before it goes */
	for (cap = k->head; cap && cap != k->newest; cap = next) {
		next = cap->release_next;
		ix->visited++;
		cap->release_next = NULL;
		cap->release_listed = false;
		if (cap->state == REC_CAPTURE_DONE || cap->released || cap->release_fd >= 0) {
			continue;
		}
		/*
		 * Borrowed: the event that returned fd is queued after cap's, so the
		 * FIFO (written in order) keeps it until cap is done. -1: released
		 * without a fence, or a fence the recorder could not dup (fds.h):
		 * either way the pixels cannot be trusted from now on.
		 */
		cap->release_fd = fd;
		cap->released = fd < 0;
	}
	k->head = cap;
	if (!cap) {
		k->tail = NULL;
	}
}

/* Unlinks cap from k's list: its head when the worker keeps the invariant, else found by a walk. */
static void unlink_capture(struct rec_release_key *k, struct rec_capture *cap)
{
	struct rec_capture *prev = NULL;

	for (struct rec_capture *c = k->head; c; prev = c, c = c->release_next) {
		if (c != cap) {
			continue;
		}
		if (prev) {
			prev->release_next = c->release_next;
		} else {
			k->head = c->release_next;
		}
		if (k->tail == c) {
			k->tail = prev;
		}
		break;
	}
	cap->release_next = NULL;
	cap->release_listed = false;
}

void rec_release_index_remove(struct rec_release_index *ix, struct rec_capture *cap)
{
	struct rec_release_key *k;

	if (!cap->has_buffer || !(k = find(ix, cap->display, cap->client_target, cap->layer))) {
		return;
	}
	if (cap->release_listed) {
		unlink_capture(k, cap);
	}
	if (k->newest == cap) {
		k->newest = NULL;
	}
	if (!k->newest && !k->head) {
		*k = ix->keys[--ix->count];
	}
}

void rec_release_index_finish(struct rec_release_index *ix)
{
	free(ix->keys);
	*ix = (struct rec_release_index){ 0 };
}
