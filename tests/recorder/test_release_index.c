/*
 * The worker's release index (recorder/release_index.c), deviceless: which
 * pending captures a release fence marks, and what finding them costs.
 *
 * - equivalence: a seeded random session of 2 displays, 4 layers each and
 *   their client targets (captures added, stepped to done, released with a
 *   fence or without, written from the head of the FIFO) is run twice: the
 *   index against a plain walk of the whole FIFO, which is how the worker
 *   found them before (the oracle). Every capture's release_fd and released
 *   must agree after every step.
 * - many-pending: 20 000 captures of one layer queued behind a worker that
 *   reads none, a release fence per call: every capture but the newest gets
 *   the fence of the first release after it, in call order, and the
 *   releases together look at no more captures than were added plus one
 *   per release (the plain walk looks at ~200 million).
 * One meson test per case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "capture.h"
#include "release_index.h"

struct check_tally check_tally;

#define MAX_CAPS 6000

/* A FIFO of captures as the worker's: added at the tail, written from the head. */
struct fifo {
	struct rec_capture *caps[MAX_CAPS];
	size_t head, tail;
};

/* The oracle: the whole FIFO walked per fence, as worker_capture.c did before the index. */
static void walk_release(struct fifo *f, uint64_t display, bool client_target, uint64_t layer, int fd)
{
	struct rec_capture *newest = NULL;

	for (size_t i = f->head; i < f->tail; i++) {
		struct rec_capture *cap = f->caps[i];

		if (cap->has_buffer && cap->display == display && cap->client_target == client_target &&
				(client_target || cap->layer == layer)) {
			newest = cap;
		}
	}
	for (size_t i = f->head; i < f->tail; i++) {
		struct rec_capture *cap = f->caps[i];

		if (cap == newest || cap->state == REC_CAPTURE_DONE || !cap->has_buffer ||
				cap->display != display || cap->client_target != client_target ||
				(!client_target && cap->layer != layer) || cap->released || cap->release_fd >= 0) {
			continue;
		}
		cap->release_fd = fd;
		cap->released = fd < 0;
	}
}

static struct rec_capture *new_capture(uint64_t display, bool client_target, uint64_t layer, bool has_buffer,
	bool done)
{
	struct rec_capture *cap = calloc(1, sizeof(*cap));

	if (!cap) {
		abort();
	}
	cap->display = display;
	cap->client_target = client_target;
	cap->layer = layer;
	cap->has_buffer = has_buffer;
	cap->state = done ? REC_CAPTURE_DONE : REC_CAPTURE_ARMED;
	cap->release_fd = -1;
	return cap;
}

/* xorshift64: the same sequence on every host */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void case_equivalence(void)
{
	static struct fifo a, b;	/* a: the index's, b: the oracle's */
	struct rec_release_index ix = { 0 };
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	unsigned releases = 0, marked = 0;

	for (unsigned step = 0; step < 40000 && a.tail < MAX_CAPS; step++) {
		unsigned op = (unsigned)(next_random(&seed) % 100);
		uint64_t display = next_random(&seed) % 2;
		bool target = next_random(&seed) % 5 == 0;
		uint64_t layer = target ? 0 : next_random(&seed) % 4;

		if (op < 35) {
			/* a buffer call: ~1 in 10 done at once (pixels off, dropped), ~1 in 20 without a buffer */
			bool has_buffer = next_random(&seed) % 20 != 0, done = next_random(&seed) % 10 == 0;

			a.caps[a.tail++] = new_capture(display, target, layer, has_buffer, done);
			b.caps[b.tail++] = new_capture(display, target, layer, has_buffer, done);
			rec_release_index_add(&ix, a.caps[a.tail - 1]);
		} else if (op < 60) {
			/* a fence, or none (-1) */
			int fd = next_random(&seed) % 4 == 0 ? -1 : (int)(step + 3);

			rec_release_index_release(&ix, display, target, layer, fd);
			walk_release(&b, display, target, layer, fd);
			releases++;
		} else if (op < 85 && a.tail > a.head) {
			/* the worker finishes some capture, most often one of the oldest */
			size_t n = a.tail - a.head, i = a.head + next_random(&seed) % (n < 8 || op < 70 ? n : 8);

			a.caps[i]->state = REC_CAPTURE_DONE;
			b.caps[i]->state = REC_CAPTURE_DONE;
		} else {
			/* the worker writes the FIFO's head while its captures are done */
			while (a.head < a.tail && a.caps[a.head]->state == REC_CAPTURE_DONE) {
				rec_release_index_remove(&ix, a.caps[a.head]);
				a.head++;
				b.head++;
			}
		}
		for (size_t i = a.head; i < a.tail; i++) {
			if (!CHECK(a.caps[i]->release_fd == b.caps[i]->release_fd &&
					a.caps[i]->released == b.caps[i]->released,
					"step %u, capture %zu: index fd %d released %d, walk fd %d released %d", step, i,
					a.caps[i]->release_fd, a.caps[i]->released, b.caps[i]->release_fd,
					b.caps[i]->released)) {
				goto out;
			}
		}
	}
	for (size_t i = 0; i < a.tail; i++) {
		marked += a.caps[i]->release_fd >= 0 || a.caps[i]->released;
	}
	/* the run must exercise what it compares */
	CHECK(a.tail > 2000 && releases > 2000 && marked > 1000 && a.head > 1000,
		"%zu captures, %u releases, %u marked, %zu written", a.tail, releases, marked, a.head);
	/* every capture written: the index holds nothing */
	while (a.head < a.tail) {
		a.caps[a.head]->state = REC_CAPTURE_DONE;
		rec_release_index_remove(&ix, a.caps[a.head++]);
	}
	CHECK(ix.count == 0, "%zu keys left with an empty FIFO", ix.count);
out:
	for (size_t i = 0; i < a.tail; i++) {
		free(a.caps[i]);
		free(b.caps[i]);
	}
	rec_release_index_finish(&ix);
}

static void case_many_pending(void)
{
	enum { N = 20000 };
	struct rec_capture **caps = calloc(N, sizeof(*caps));
	struct rec_release_index ix = { 0 };
	unsigned wrong = 0;

	if (!CHECK(caps)) {
		return;
	}
	for (int i = 0; i < N; i++) {
		caps[i] = new_capture(0, false, 7, true, false);
		rec_release_index_add(&ix, caps[i]);
		/* a capture of another layer and a client target in between: not touched */
		rec_release_index_release(&ix, 0, false, 7, 100 + i);
		rec_release_index_release(&ix, 0, true, 0, -1);
		rec_release_index_release(&ix, 1, false, 7, -1);
	}
	/* capture i was the newest until capture i + 1 came: the release after that one is its own */
	for (int i = 0; i < N; i++) {
		int want = i < N - 1 ? 100 + i + 1 : -1;

		wrong += caps[i]->release_fd != want || caps[i]->released;
		if (wrong == 1 && (caps[i]->release_fd != want || caps[i]->released)) {
			CHECK(false, "capture %d: release fd %d released %d, want fd %d", i, caps[i]->release_fd,
				caps[i]->released, want);
		}
	}
	CHECK(wrong == 0, "%u of %d captures with the wrong release", wrong, N);
	CHECK(ix.visited <= 2ull * N, "the releases looked at %llu captures for %d added",
		(unsigned long long)ix.visited, N);
	for (int i = 0; i < N; i++) {
		caps[i]->state = REC_CAPTURE_DONE;
		rec_release_index_remove(&ix, caps[i]);
		free(caps[i]);
	}
	CHECK(ix.count == 0, "%zu keys left with an empty FIFO", ix.count);
	rec_release_index_finish(&ix);
	free(caps);
}

static const struct check_case tests[] = {
	{ "equivalence", case_equivalence },
	{ "many-pending", case_many_pending },
};

int main(int argc, char **argv)
{
	return check_run_cases(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
