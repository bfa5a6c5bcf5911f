/*
 * The buffer fds a device's calls have seen (recorder/handle_cache.c),
 * deviceless, on memfd buffers behind native handles the way the test
 * allocator makes them (one fd, two ints):
 *
 * - hit: a handle's first call dups its fd (exact), its second takes the
 *   kept dup without one; the worker's resolve gives both events an fd of
 *   the buffer's inode; once the events and the cache let go, no fd is
 *   held and none is open that was not before.
 * - reused-fd: a hit whose fd number names another buffer by the time the
 *   worker looks (closed and reused: dup2 of another memfd), or nothing
 *   (closed): no fd, reported unconfirmed; the kept dup is not handed out.
 * - same-inode: the fd number re-opened as another file of the same
 *   buffer (/proc/self/fd): confirmed, the same inode.
 * - busy: while another thread holds the cache, a call gets nothing from
 *   it and takes no reference (the caller dups on its own).
 * - evict: 200 buffers through one cache: a buffer pushed out of its slot
 *   has its dup closed unless an event still holds it; fds held never
 *   exceed the slots plus the events alive.
 * - sweep: the worker's sweep empties the slots of buffers the composer
 *   freed (fd closed, or its number reused), keeps live ones, leaves a busy
 *   cache for later and an unwatched one alone.
 * - race: a calling thread and a worker thread at once, as in a recording:
 *   the caller takes hits and fills (more buffers than slots, buffers freed
 *   and their numbers reused), the worker resolves each event, drops it and
 *   sweeps. No event is given another buffer's inode, every dup is closed
 *   once (under ASan a dup closed early is a use after free), and when both
 *   are done no fd is held and none is open that was not before.
 * One meson test per case.
 */
#define _GNU_SOURCE	/* memfd_create(): Linux-specific, this file only */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "fds_open.h"
#include "event.h"
#include "fds.h"
#include "handle_cache.h"

struct check_tally check_tally;

/* A native handle with one fd and two ints, as the test allocator's. */
struct test_handle {
	native_handle_t *base;
	int32_t *data;		/* base->data */
};

static int new_buffer(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, 4096) < 0) {
		perror("memfd");
		exit(1);
	}
	return fd;
}

static void handle_init(struct test_handle *t, int fd)
{
	t->base = calloc(1, sizeof(native_handle_t) + 3 * sizeof(int));
	if (!t->base) {
		exit(1);
	}
	t->base->version = (int)sizeof(native_handle_t);
	t->base->numFds = 1;
	t->base->numInts = 2;
	t->data = t->base->data;
	t->data[0] = fd;
	t->data[1] = 1080;
	t->data[2] = 2400;
}

/* The event's snapshot of h, as rec_arg_handle takes it: the kept dup or NULL (cache busy). */
static struct rec_handle *snapshot(struct rec_handle_cache *c, const struct test_handle *t)
{
	struct rec_handle *h = calloc(1, sizeof(*h) + 3 * sizeof(int32_t));

	if (!h) {
		exit(1);
	}
	h->num_fds = 1;
	h->num_ints = 2;
	h->words = 3;
	h->fd = -1;
	memcpy(h->data, t->data, 3 * sizeof(int32_t));
	h->kept = rec_handle_cache_get(c, t->base, 3, &h->kept_exact);
	return h;
}

static uint64_t ino_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

static uint32_t held(void)
{
	struct rec_fds_stats st;

	rec_fds_get_stats(&st);
	return st.held;
}

/* The worker's part: resolve, then the capture closes the fd. Returns the fd's inode, 0 none. */
static uint64_t resolve_and_close(struct rec_handle *h, bool *unconfirmed)
{
	uint64_t ino;

	*unconfirmed = rec_handle_resolve(h);
	ino = h->fd >= 0 ? ino_of(h->fd) : 0;
	rec_fds_close(h->fd);
	CHECK(h->kept == NULL, "resolve left the kept dup on the event");
	free(h);
	return ino;
}

static void case_hit(void)
{
	struct rec_handle_cache c;
	struct test_handle t;
	int before = test_count_open_fds(), fd = new_buffer("hit");
	struct rec_handle *h1, *h2;
	bool unconfirmed;

	rec_handle_cache_init(&c);
	handle_init(&t, fd);
	h1 = snapshot(&c, &t);
	h2 = snapshot(&c, &t);
	CHECK(h1->kept && h1->kept_exact, "first call: no exact dup");
	CHECK(h2->kept == h1->kept && !h2->kept_exact, "second call: not the kept dup of the first");
	CHECK_INT(held(), 1);	/* one dup for both calls */
	CHECK_EQ_U64(resolve_and_close(h1, &unconfirmed), ino_of(fd));
	CHECK(!unconfirmed, "first call unconfirmed");
	CHECK_EQ_U64(resolve_and_close(h2, &unconfirmed), ino_of(fd));
	CHECK(!unconfirmed, "second call unconfirmed");
	rec_handle_cache_flush(&c);
	CHECK_INT(held(), 0);
	close(fd);
	free(t.base);
	CHECK_INT(test_count_open_fds(), before);
}

/* A cache that has seen t (a handle of fd) once, its event resolved. */
static void seen_once(struct rec_handle_cache *c, struct test_handle *t, int fd)
{
	bool unconfirmed;

	rec_handle_cache_init(c);
	handle_init(t, fd);
	CHECK(resolve_and_close(snapshot(c, t), &unconfirmed) == ino_of(fd) && !unconfirmed,
		"first call not confirmed");
}

static void case_reused_fd(void)
{
	struct rec_handle_cache c;
	struct test_handle t;
	int fd = new_buffer("a"), other = new_buffer("b");
	struct rec_handle *h;
	bool unconfirmed;

	seen_once(&c, &t, fd);
	/* the hit is taken while fd names buffer a; before the worker looks, the number names b */
	h = snapshot(&c, &t);
	CHECK(h->kept && !h->kept_exact, "no hit");
	CHECK(dup2(other, fd) == fd, "dup2");
	CHECK_EQ_U64(resolve_and_close(h, &unconfirmed), 0);
	CHECK(unconfirmed, "a reused fd number confirmed");
	/* and closed altogether */
	h = snapshot(&c, &t);
	CHECK(h->kept && !h->kept_exact, "no hit");
	close(fd);
	CHECK_EQ_U64(resolve_and_close(h, &unconfirmed), 0);
	CHECK(unconfirmed, "a closed fd confirmed");
	rec_handle_cache_flush(&c);
	CHECK_INT(held(), 0);
	close(other);
	free(t.base);
}

static void case_same_inode(void)
{
	struct rec_handle_cache c;
	struct test_handle t;
	int fd = new_buffer("same"), again;
	char path[64];
	struct rec_handle *h;
	bool unconfirmed;

	seen_once(&c, &t, fd);
	h = snapshot(&c, &t);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	again = open(path, O_RDWR | O_CLOEXEC);	/* a new file of the same buffer */
	CHECK(again >= 0 && dup2(again, fd) == fd, "reopen");
	CHECK_EQ_U64(resolve_and_close(h, &unconfirmed), ino_of(again));
	CHECK(!unconfirmed, "the same buffer, reopened, unconfirmed");
	rec_handle_cache_flush(&c);
	close(again);
	close(fd);
	free(t.base);
	CHECK_INT(held(), 0);
}

static void case_busy(void)
{
	struct rec_handle_cache c;
	struct test_handle t;
	int fd = new_buffer("busy");
	struct rec_handle *h;

	rec_handle_cache_init(&c);
	handle_init(&t, fd);
	CHECK(!atomic_flag_test_and_set(&c.lock), "lock");	/* another thread's call */
	h = snapshot(&c, &t);
	CHECK(h->kept == NULL, "a kept dup from a busy cache");
	CHECK_INT(held(), 0);
	atomic_flag_clear(&c.lock);
	free(h);
	h = snapshot(&c, &t);
	CHECK(h->kept && h->kept_exact, "no dup once free");
	rec_kept_fd_put(h->kept);
	free(h);
	rec_handle_cache_flush(&c);
	CHECK_INT(held(), 0);
	close(fd);
	free(t.base);
}

#define EVICT_BUFFERS 200
#define EVICT_LIVE 8	/* events alive at once */

static void case_evict(void)
{
	struct rec_handle_cache c;
	struct test_handle *t = calloc(EVICT_BUFFERS, sizeof(*t));
	struct rec_handle *live[EVICT_LIVE] = { 0 };
	int before = test_count_open_fds();
	uint32_t most = 0;

	if (!t) {
		exit(1);
	}
	rec_handle_cache_init(&c);
	for (int i = 0; i < EVICT_BUFFERS; i++) {
		bool unconfirmed;

		handle_init(&t[i], new_buffer("evict"));
		if (live[i % EVICT_LIVE]) {
			CHECK(resolve_and_close(live[i % EVICT_LIVE], &unconfirmed) != 0 && !unconfirmed,
				"event %d not confirmed", i);
		}
		live[i % EVICT_LIVE] = snapshot(&c, &t[i]);
		most = held() > most ? held() : most;
	}
	CHECK(most <= REC_HANDLE_CACHE_SLOTS + EVICT_LIVE, "%u fds held, more than %u slots and %d events",
		most, REC_HANDLE_CACHE_SLOTS, EVICT_LIVE);
	for (int i = 0; i < EVICT_LIVE; i++) {
		bool unconfirmed;

		resolve_and_close(live[i], &unconfirmed);
	}
	rec_handle_cache_flush(&c);
	CHECK_INT(held(), 0);
	for (int i = 0; i < EVICT_BUFFERS; i++) {
		close(t[i].data[0]);
		free(t[i].base);
	}
	free(t);
	CHECK_INT(test_count_open_fds(), before);
}

/* A buffer the composer freed (its fd closed, or the number reused) is not kept alive by its cached dup. */
static void case_sweep(void)
{
	struct rec_handle_cache c;
	struct test_handle a, b, r;
	int fa = new_buffer("a"), fb = new_buffer("b"), fr = new_buffer("r"), other = new_buffer("other");
	int before = test_count_open_fds();
	struct rec_handle *event;
	uint64_t ino_a;
	bool unconfirmed;

	rec_handle_cache_init(&c);
	CHECK(rec_handle_cache_watch(&c), "watch");
	handle_init(&a, fa);
	handle_init(&b, fb);
	handle_init(&r, fr);
	/* three buffers seen; an event of a's still queued holds a's dup */
	event = snapshot(&c, &b);
	rec_kept_fd_put(event->kept);
	free(event);
	event = snapshot(&c, &r);
	rec_kept_fd_put(event->kept);
	free(event);
	event = snapshot(&c, &a);
	ino_a = ino_of(fa);
	CHECK_INT(held(), 3);
	CHECK_INT(rec_handle_cache_sweep_all(REC_HANDLE_CACHE_SLOTS), 0);	/* all alive: nothing to sweep */
	CHECK_INT(held(), 3);
	/* the composer frees a (closes its fd) and r (its fd number now names another buffer) */
	close(fa);
	CHECK(dup2(other, fr) == fr, "dup2");
	CHECK_INT(rec_handle_cache_sweep_all(REC_HANDLE_CACHE_SLOTS), 2);
	CHECK_INT(held(), 2);	/* b's in its slot, a's until its event is done; r's closed */
	/* a's event dup'd a in its call (a's first): the sweep did not take the buffer from it */
	CHECK_EQ_U64(resolve_and_close(event, &unconfirmed), ino_a);
	CHECK(!unconfirmed, "an exact dup unconfirmed");
	CHECK_INT(held(), 1);
	/* b is still a hit */
	event = snapshot(&c, &b);
	CHECK(event->kept && !event->kept_exact, "b swept out while alive");
	CHECK(resolve_and_close(event, &unconfirmed) == ino_of(fb) && !unconfirmed, "b not confirmed");
	/* a busy cache is left for the next turn; an unwatched one is not swept */
	close(fb);
	CHECK(!atomic_flag_test_and_set(&c.lock), "lock");
	CHECK_INT(rec_handle_cache_sweep(&c, REC_HANDLE_CACHE_SLOTS), 0);
	atomic_flag_clear(&c.lock);
	rec_handle_cache_unwatch(&c);
	CHECK_INT(rec_handle_cache_sweep_all(REC_HANDLE_CACHE_SLOTS), 0);
	CHECK_INT(held(), 1);
	CHECK_INT(rec_handle_cache_sweep(&c, REC_HANDLE_CACHE_SLOTS), 1);
	CHECK_INT(held(), 0);
	rec_handle_cache_flush(&c);
	close(fr);
	close(other);
	free(a.base);
	free(b.base);
	free(r.base);
	CHECK_INT(test_count_open_fds(), before - 4);
}


/* ------------------------------------------------------------ race */

#define RACE_BUFFERS 40		/* more than the slots: fills push buffers out */
#define RACE_EVENTS 20000
#define RACE_RING 64		/* events between the two threads, as a worker behind */

struct race_event {
	struct rec_handle *h;
	uint64_t ino;		/* the buffer's inode when the call was made */
};

struct race {
	struct rec_handle_cache c;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct race_event ring[RACE_RING];
	unsigned head, tail;	/* under lock */
	bool done;
	unsigned wrong, confirmed, unconfirmed;	/* the worker's */
};

static void *race_worker(void *data)
{
	struct race *r = data;
	unsigned n = 0;

	for (;;) {
		struct race_event ev;
		bool unconfirmed;
		uint64_t ino;

		pthread_mutex_lock(&r->lock);
		while (r->head == r->tail && !r->done) {
			pthread_cond_wait(&r->changed, &r->lock);
		}
		if (r->head == r->tail) {
			pthread_mutex_unlock(&r->lock);
			return NULL;
		}
		ev = r->ring[r->tail++ % RACE_RING];
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
		ino = resolve_and_close(ev.h, &unconfirmed);
		/* a resolved fd is the call's buffer or none at all */
		r->wrong += ino != 0 && ino != ev.ino;
		r->confirmed += ino != 0;
		r->unconfirmed += unconfirmed;
		if (++n % 8 == 0) {
			rec_handle_cache_sweep(&r->c, 4);
		}
	}
}

static void case_race(void)
{
	struct race *r = calloc(1, sizeof(*r));
	struct test_handle t[RACE_BUFFERS];
	int spare = new_buffer("spare");
	int before = test_count_open_fds();
	pthread_t worker;
	unsigned seed = 1;

	if (!r) {
		exit(1);
	}
	rec_handle_cache_init(&r->c);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->changed, NULL);
	for (int i = 0; i < RACE_BUFFERS; i++) {
		handle_init(&t[i], new_buffer("race"));
	}
	if (!CHECK(pthread_create(&worker, NULL, race_worker, r) == 0, "pthread_create")) {
		return;
	}
	for (unsigned e = 0; e < RACE_EVENTS; e++) {
		/* mostly a few buffers (a queue's), now and then any of them */
		unsigned i = (seed = seed * 1103515245u + 12345u) >> 16;
		struct race_event ev;

		i = i % 8 < 6 ? i % 4 : i % RACE_BUFFERS;
		if (e % 97 == 0) {
			/* the composer frees a buffer and its fd number comes back as another one */
			int fresh = new_buffer("race");

			CHECK(dup2(fresh, t[i].data[0]) == t[i].data[0], "dup2");
			close(fresh);
		}
		ev.ino = ino_of(t[i].data[0]);
		ev.h = snapshot(&r->c, &t[i]);
		pthread_mutex_lock(&r->lock);
		while (r->head - r->tail == RACE_RING) {
			pthread_cond_wait(&r->changed, &r->lock);
		}
		r->ring[r->head++ % RACE_RING] = ev;
		pthread_cond_signal(&r->changed);
		pthread_mutex_unlock(&r->lock);
	}
	pthread_mutex_lock(&r->lock);
	r->done = true;
	pthread_cond_signal(&r->changed);
	pthread_mutex_unlock(&r->lock);
	pthread_join(worker, NULL);
	CHECK_INT(r->wrong, 0);
	CHECK(r->confirmed > RACE_EVENTS / 2, "%u of %d events confirmed", r->confirmed, RACE_EVENTS);
	CHECK(r->unconfirmed > 0, "no reused fd number was caught: the case tests less than it says");
	rec_handle_cache_flush(&r->c);
	CHECK_INT(held(), 0);
	for (int i = 0; i < RACE_BUFFERS; i++) {
		close(t[i].data[0]);
		free(t[i].base);
	}
	CHECK_INT(test_count_open_fds(), before);
	close(spare);
	pthread_cond_destroy(&r->changed);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

static const struct check_case tests[] = {
	{ "hit", case_hit },
	{ "reused-fd", case_reused_fd },
	{ "same-inode", case_same_inode },
	{ "busy", case_busy },
	{ "evict", case_evict },
	{ "sweep", case_sweep },
	{ "race", case_race },
};

int main(int argc, char **argv)
{
	rec_fds_init();
	return check_run_cases(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
