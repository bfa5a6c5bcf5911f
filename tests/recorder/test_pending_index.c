/*
 * The worker's index of pending captures (recorder/pending_index.c),
 * deviceless: what it answers, against the walks of the whole FIFO that
 * worker_capture.c made before it (the oracle), and what each costs.
 *
 * - equivalence: a seeded random session of 3 displays, 4 layers and their
 *   client targets, 48 buffers shared among them (buffer calls added with a
 *   ticket, sometimes two of a display out of ticket order as racing
 *   threads queue them; some done at once; armed per display or per
 *   layer; armed by a step that waited too long; done in any order;
 *   written from the FIFO's head) is checked after every step: the pending
 *   captures in call order, per display the captures an arm arms and the
 *   lowest pending ticket, per buffer its oldest pending capture, all as
 *   the walks find them.
 * - walk-cost: a worker behind by 31 to 31 000 events of bench-recorder's
 *   goal-1 frame (31 calls, 2 of them buffer calls), with one old capture
 *   that blocks the FIFO's head and the last frame's captures pending, or
 *   with every capture pending (as many as an fd budget of 4096 allows):
 *   the walks' steps and time per pass against the index's. The index
 *   must look at no capture that is not its answer (counted), whatever the
 *   FIFO's length; the times are printed, not judged.
 * One meson test per case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "capture.h"
#include "event.h"
#include "pending_index.h"

struct check_tally check_tally;

/* The worker's FIFO: events added at the tail, written from the head. */
struct fifo {
	struct rec_event *head, *tail;
	size_t count;
};

static void append(struct fifo *f, struct rec_event *ev)
{
	if (f->tail) {
		f->tail->wnext = ev;
	} else {
		f->head = ev;
	}
	f->tail = ev;
	f->count++;
}

static struct rec_event *push(struct fifo *f, struct rec_pending_index *ix, uint64_t display, bool target,
	uint64_t layer, uint64_t buffer, uint64_t ticket, bool done)
{
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct rec_capture *cap = calloc(1, sizeof(*cap));

	if (!ev || !cap) {
		abort();
	}
	ev->display = display;
	ev->layer = layer;
	ev->ticket = ticket;
	ev->capture = cap;
	cap->display = display;
	cap->layer = target ? 0 : layer;
	cap->client_target = target;
	cap->has_buffer = true;
	cap->buffer_id = buffer;
	cap->ticket = ticket;
	cap->state = done ? REC_CAPTURE_DONE : REC_CAPTURE_WAIT_ARM;
	append(f, ev);
	if (!done && !CHECK(rec_pending_add(ix, ev), "rec_pending_add failed")) {
		abort();
	}
	return ev;
}

/* An event without a capture (a setter, validate, present). */
static void push_plain(struct fifo *f)
{
	struct rec_event *ev = calloc(1, sizeof(*ev));

	if (!ev) {
		abort();
	}
	append(f, ev);
}

/* Writes the head while its captures are done (worker.c's flush, with rec_worker_forget_capture). */
static void flush(struct fifo *f, struct rec_pending_index *ix)
{
	while (f->head && (!f->head->capture || f->head->capture->state == REC_CAPTURE_DONE)) {
		struct rec_event *ev = f->head;

		f->head = ev->wnext;
		if (!f->head) {
			f->tail = NULL;
		}
		f->count--;
		if (ev->capture) {
			rec_pending_remove(ix, ev->capture);
		}
		free(ev->capture);
		free(ev);
	}
}

static void free_all(struct fifo *f, struct rec_pending_index *ix)
{
	while (f->head) {
		if (f->head->capture) {
			f->head->capture->state = REC_CAPTURE_DONE;
		}
		flush(f, ix);
	}
	rec_pending_finish(ix);
}

/* ------------------------------------------------------------- the oracle */

static bool pending(const struct rec_event *ev)
{
	return ev->capture && ev->capture->state != REC_CAPTURE_DONE;
}

/* rec_worker_arm's walk: the captures arm(display, one_layer, layer) arms, in call order. */
static size_t walk_arm(const struct fifo *f, uint64_t display, bool one_layer, uint64_t layer,
	struct rec_capture **out, size_t max, uint64_t *steps)
{
	size_t n = 0;

	for (struct rec_event *ev = f->head; ev; ev = ev->wnext) {
		struct rec_capture *cap = ev->capture;

		(*steps)++;
		if (!cap || cap->state != REC_CAPTURE_WAIT_ARM || cap->display != display ||
				(one_layer && (cap->client_target || cap->layer != layer))) {
			continue;
		}
		if (n < max) {
			out[n] = cap;
		}
		n++;
	}
	return n;
}

/* rec_worker_publish_resolved's walk: the lowest pending ticket of display, 0 none. */
static uint64_t walk_min_ticket(const struct fifo *f, uint64_t display, uint64_t *steps)
{
	uint64_t min = 0;

	for (struct rec_event *ev = f->head; ev; ev = ev->wnext) {
		(*steps)++;
		if (pending(ev) && ev->ticket && ev->display == display && (!min || ev->ticket < min)) {
			min = ev->ticket;
		}
	}
	return min;
}

/* step_one's walk: the first pending capture of buffer from the head, up to ev. */
static struct rec_capture *walk_first_of_buffer(const struct fifo *f, const struct rec_event *upto, uint64_t buffer,
	uint64_t *steps)
{
	for (struct rec_event *ev = f->head; ev && ev != upto; ev = ev->wnext) {
		(*steps)++;
		if (pending(ev) && ev->capture->has_buffer && ev->capture->buffer_id == buffer) {
			return ev->capture;
		}
	}
	return upto && pending(upto) ? upto->capture : NULL;
}

/* ------------------------------------------------------------- the index */

/* rec_worker_arm's loop over the index (state ARMED stands for rec_capture_arm). */
static size_t index_arm(struct rec_pending_index *ix, uint64_t display, bool one_layer, uint64_t layer,
	struct rec_capture **out, size_t max, uint64_t *steps)
{
	struct rec_capture *cap, *next;
	size_t n = 0;

	for (cap = rec_pending_arm_first(ix, display); cap; cap = next) {
		next = rec_pending_next(cap, REC_PENDING_ARM);
		(*steps)++;
		if (cap->state != REC_CAPTURE_WAIT_ARM) {
			rec_pending_armed(ix, cap);
			continue;
		}
		if (one_layer && (cap->client_target || cap->layer != layer)) {
			continue;
		}
		cap->state = REC_CAPTURE_ARMED;
		rec_pending_armed(ix, cap);
		if (n < max) {
			out[n] = cap;
		}
		n++;
	}
	return n;
}

/* xorshift64: the same sequence on every host */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define DISPLAYS 3
#define ARM_MAX 4096
#define BUFFERS 48	/* enough for the buffer table to grow and its probes to collide */

static const uint64_t display_ids[DISPLAYS] = { 0, 1, 5 };
static uint64_t buffer_ids[BUFFERS];	/* random, as inode numbers may be: colliding probes */

/* The index agrees with the walks: pending order, lowest tickets, each buffer's oldest. */
static bool agree(const struct fifo *f, const struct rec_pending_index *ix, unsigned step)
{
	const struct rec_capture *c = rec_pending_first(ix);
	uint64_t steps = 0;
	size_t i = 0;

	for (const struct rec_event *ev = f->head; ev; ev = ev->wnext, i++) {
		if (!pending(ev)) {
			continue;
		}
		if (!CHECK(c == ev->capture && rec_pending_event(c) == ev,
				"step %u: FIFO entry %zu pending, the index lists %p next", step, i, (const void *)c)) {
			return false;
		}
		c = rec_pending_next(c, REC_PENDING_ALL);
	}
	if (!CHECK(!c, "step %u: the index lists a capture past the FIFO's pending ones", step)) {
		return false;
	}
	for (int d = 0; d < DISPLAYS; d++) {
		uint64_t want = walk_min_ticket(f, display_ids[d], &steps), got = rec_pending_min_ticket(ix,
			display_ids[d]);

		if (!CHECK(got == want, "step %u: display %llu lowest ticket %llu, walk %llu", step,
				(unsigned long long)display_ids[d], (unsigned long long)got,
				(unsigned long long)want)) {
			return false;
		}
	}
	for (int b = 0; b < BUFFERS; b++) {
		const struct rec_capture *want = walk_first_of_buffer(f, NULL, buffer_ids[b], &steps);
		const struct rec_capture *got = rec_pending_first_of_buffer(ix, buffer_ids[b]);

		if (!CHECK(got == want, "step %u: buffer %d oldest pending %p, walk %p", step, b, (const void *)got,
				(const void *)want)) {
			return false;
		}
	}
	return true;
}

static void case_equivalence(void)
{
	static struct rec_capture *want[ARM_MAX], *got[ARM_MAX];
	struct rec_pending_index ix = { 0 };
	struct fifo f = { 0 };
	uint64_t seed = 0x9E3779B97F4A7C15ull, tickets[DISPLAYS] = { 0 }, steps = 0;
	unsigned added = 0, armed = 0, arms = 0, done = 0, out_of_order = 0, max_buffers = 0;

	for (int b = 0; b < BUFFERS; b++) {
		buffer_ids[b] = next_random(&seed);
	}

	for (unsigned step = 0; step < 20000; step++) {
		unsigned op = (unsigned)(next_random(&seed) % 100);
		int d = (int)(next_random(&seed) % DISPLAYS);
		bool target = next_random(&seed) % 5 == 0;
		uint64_t layer = target ? 0 : next_random(&seed) % 4, b = next_random(&seed) % BUFFERS, buffer = buffer_ids[b];

		if (op < 30) {
			/* a buffer call; 1 in 10 done at once (dropped); 1 in 10 queued after the next ticket's call */
			bool now_done = next_random(&seed) % 10 == 0;

			if (next_random(&seed) % 10 == 0) {
				push(&f, &ix, display_ids[d], target, layer, buffer, tickets[d] + 2, now_done);
				push(&f, &ix, display_ids[d], false, (layer + 1) % 4, buffer_ids[(b + 1) % BUFFERS], tickets[d] + 1,
					false);
				tickets[d] += 2;
				out_of_order++;
			} else {
				push(&f, &ix, display_ids[d], target, layer, buffer, ++tickets[d], now_done);
			}
			added++;
		} else if (op < 35) {
			push_plain(&f);
		} else if (op < 50) {
			/* validate/present (every layer) or destroyLayer (one) */
			bool one = op < 38;
			size_t nw = walk_arm(&f, display_ids[d], one, layer, want, ARM_MAX, &steps);
			size_t ng = index_arm(&ix, display_ids[d], one, layer, got, ARM_MAX, &steps);

			if (!CHECK(nw == ng && nw <= ARM_MAX && memcmp(want, got, nw * sizeof(*want)) == 0,
					"step %u: arm of display %llu%s armed %zu captures, the walk %zu (or others)",
					step, (unsigned long long)display_ids[d], one ? " (one layer)" : "", ng, nw)) {
				break;
			}
			armed += (unsigned)ng;
			arms++;
		} else if (op < 55 && f.head) {
			/* a step arms a capture that waited too long to be armed */
			for (struct rec_event *ev = f.head; ev; ev = ev->wnext) {
				if (ev->capture && ev->capture->state == REC_CAPTURE_WAIT_ARM &&
						next_random(&seed) % 4 == 0) {
					ev->capture->state = REC_CAPTURE_ARMED;
					break;
				}
			}
		} else if (op < 85 && f.head) {
			/* a capture is done (stepped: the worker removes it), most often an old one */
			size_t n = 0, k;
			struct rec_event *ev = f.head;

			for (struct rec_event *e = f.head; e; e = e->wnext) {
				n++;
			}
			k = next_random(&seed) % (op < 75 && n > 8 ? 8 : n);
			while (k--) {
				ev = ev->wnext;
			}
			if (pending(ev)) {
				ev->capture->state = REC_CAPTURE_DONE;
				rec_pending_remove(&ix, ev->capture);
				done++;
			}
		} else {
			flush(&f, &ix);
		}
		max_buffers = ix.buffer_count > max_buffers ? (unsigned)ix.buffer_count : max_buffers;
		if (!agree(&f, &ix, step)) {
			break;
		}
	}
	/* the run must exercise what it compares */
	CHECK(added > 4000 && armed > 1500 && arms > 1500 && done > 1500 && out_of_order > 300 &&
		max_buffers > BUFFERS / 2,
		"%u buffer calls (%u out of ticket order), %u armed by %u arms, %u done, %u buffers at most",
		added, out_of_order, armed, arms, done, max_buffers);
	free_all(&f, &ix);
	CHECK(ix.display_count == 0 && ix.buffer_count == 0, "the index keeps %zu displays, %zu buffers when empty",
		ix.display_count, ix.buffer_count);
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/*
 * One worker pass over a FIFO of `frames` goal-1 frames, as the walks made
 * it and as the index makes it: the publish of display 0's resolved
 * ticket, the collection of the pending captures, the same-buffer look-up
 * for each of them, and the arm at the last frame's validate.
 */
static void walk_cost(unsigned frames, bool all_pending)
{
	static struct rec_capture *out[ARM_MAX];
	struct rec_pending_index ix = { 0 };
	struct fifo f = { 0 };
	uint64_t ticket = 0, walk_steps = 0, index_steps = 0, sink = 0;
	unsigned rounds = frames >= 1000 ? 1 : frames >= 100 ? 10 : 200, pend = 0;
	double t0, t_walk, t_index;

	for (unsigned fr = 0; fr < frames; fr++) {
		bool last = fr == frames - 1;
		/* pending: the first frame's screen capture (it blocks the head), the last frame's, or all */
		bool screen_pending = all_pending || fr == 0 || last, bar_pending = all_pending || last;

		for (int c = 0; c < 31; c++) {
			if (c == 0) {
				push(&f, &ix, 0, false, 1, 1 + fr % 3, ++ticket, !screen_pending);
			} else if (c == 1) {
				push(&f, &ix, 0, false, 2, 4 + fr % 3, ++ticket, !bar_pending);
			} else {
				push_plain(&f);
			}
		}
		if (!last) {
			/* armed at the frame's validate, as the worker does when dispatching it */
			for (struct rec_capture *cap = rec_pending_arm_first(&ix, 0), *next; cap; cap = next) {
				next = rec_pending_next(cap, REC_PENDING_ARM);
				cap->state = REC_CAPTURE_ARMED;
				rec_pending_armed(&ix, cap);
			}
		}
	}
	for (struct rec_capture *c = rec_pending_first(&ix); c; c = rec_pending_next(c, REC_PENDING_ALL)) {
		pend++;
	}
	t0 = now_ns();
	for (unsigned r = 0; r < rounds; r++) {
		sink += walk_min_ticket(&f, 0, &walk_steps);
		for (struct rec_event *ev = f.head; ev; ev = ev->wnext) {
			walk_steps++;
			if (pending(ev)) {
				sink += (uintptr_t)walk_first_of_buffer(&f, ev, ev->capture->buffer_id, &walk_steps);
			}
		}
		sink += walk_arm(&f, 0, false, 0, out, ARM_MAX, &walk_steps);
	}
	t_walk = (now_ns() - t0) / rounds;
	t0 = now_ns();
	for (unsigned r = 0; r < rounds; r++) {
		sink += rec_pending_min_ticket(&ix, 0);
		index_steps++;
		for (struct rec_capture *c = rec_pending_first(&ix); c; c = rec_pending_next(c, REC_PENDING_ALL)) {
			index_steps += 2;
			sink += (uintptr_t)rec_pending_first_of_buffer(&ix, c->buffer_id);
		}
		/* armed in the last round only: the earlier rounds find the same captures waiting */
		for (struct rec_capture *c = rec_pending_arm_first(&ix, 0); c; c = rec_pending_next(c, REC_PENDING_ARM)) {
			index_steps++;
			sink += c->ticket;
		}
	}
	t_index = (now_ns() - t0) / rounds;
	walk_steps /= rounds;
	index_steps /= rounds;
	printf("%6u events, %5u pending: walks %10llu steps %12.1f us a pass; index %5llu steps %8.2f us "
		"(%llx)\n", frames * 31, pend, (unsigned long long)walk_steps, t_walk / 1000.0,
		(unsigned long long)index_steps, t_index / 1000.0, (unsigned long long)(sink & 0xf));
	/* the index looks at its answers only: each pending capture twice, the last frame's arms, one ticket */
	CHECK(index_steps <= 2ull * pend + 2 + 1, "%u frames: the index took %llu steps for %u pending",
		frames, (unsigned long long)index_steps, pend);
	free_all(&f, &ix);
}

static void case_walk_cost(void)
{
	printf("one worker pass (publish, collect, same-buffer look-ups, arm) over a FIFO of goal-1 frames:\n");
	for (unsigned frames = 1; frames <= 1000; frames *= 10) {
		walk_cost(frames, false);
	}
	for (unsigned frames = 1; frames <= 1000; frames *= 10) {
		walk_cost(frames, true);
	}
	/* an fd budget of 4096 bounds the pending captures: 2048 frames of 2 */
	walk_cost(2048, true);
}

static const struct check_case tests[] = {
	{ "equivalence", case_equivalence },
	{ "walk-cost", case_walk_cost },
};

int main(int argc, char **argv)
{
	return check_run_cases(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
