/*
 * Events: per-thread pools, extra bytes, release (event.h).
 *
 * A pool belongs to one thread at a time (`owned`). The owner takes events
 * from its private `free` list without atomics; rec_event_free (the worker,
 * mostly) pushes them onto `returned` with a compare-and-swap, and the owner
 * takes that whole list with one exchange when `free` runs dry. Pushes by
 * CAS and a take-all by exchange have no ABA problem, so no tags or locks.
 * Pools are never freed: one whose thread ended (the key's destructor) is
 * adopted, events and all, by the next thread that needs one, so there are
 * never more pools than threads that were alive at once, and every pooled
 * event stays reachable from `pools`.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hotline.h"
#include "capture.h"
#include "event.h"
#include "fds.h"
#include "handle_cache.h"
#include "hot_arena.h"
#include "module.h"
#include "recorder.h"

#define MAX_EXTRA (16u << 20)
#define POOL_MAX_EVENTS 512u		/* per pool; more in flight at once are malloc'd alone */
#define POOL_BACKLOG 256u		/* a pool dry with this many in flight: the worker is behind */
#define MAX_LOOSE_EVENTS 65536u		/* malloc'd alone and not yet freed; past it rec_event_new fails */

/*
 * What the owner writes and what the freeing thread writes are on separate
 * cache lines: a call touches no line the worker wrote since its last
 * drain, except the events themselves.
 */
struct rec_event_pool {
	/* owner's line */
	struct rec_event *free;			/* owner only: ready to hand out, wnext-linked */
	unsigned count;				/* owner only: events made for this pool */
	atomic_int busy;			/* owner writes: calls between rec_event_pool_enter and _leave */
	uint32_t tid;				/* the owner's rec_tid() */
	atomic_bool owned;			/* a live thread takes events from it */
	struct rec_event_pool *next;		/* in `pools`, never removed */
	_Atomic(pthread_t) thread;		/* the owner, (pthread_t)0 while none (rec_hotline.hint) */
	struct rec_fds_credit fds;		/* owner writes: its calls' dups (fds.h) */
	/* the freeing threads' line */
	_Alignas(REC_LINE) _Atomic(struct rec_event *) returned;	/* given back by any thread, wnext-linked */
};

_Static_assert(offsetof(struct rec_event_pool, returned) == REC_LINE, "the owner's fields fill one line");

static _Atomic(struct rec_event_pool *) pools;
static atomic_uint loose;		/* events malloc'd alone, not yet freed */
static _Thread_local struct rec_event_pool *own_pool;
/*
 * rec_hotline.hint (hotline.h), the pool of the thread that called last, NULL
 * none: a call of the same
 * thread finds its pool here by comparing pthread_self() with the pool's
 * `thread`, a load off the thread pointer, instead of through own_pool. In a
 * dlopen'd library own_pool is dynamic TLS: __tls_get_addr, the thread's
 * vector of TLS blocks, then the block, three more cold lines on other pages
 * in a frame's first call (recorder/README.md, "What each call class costs,
 * and why"). `thread` is set by an owner only after it took the pool and
 * cleared before the pool is given up, and no live thread's pthread_t is 0,
 * so a pool whose `thread` is the caller's is the caller's.
 */

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t key;		/* its destructor gives the pool up when its thread ends */
static bool key_ok;

static void pool_disown(void *data)
{
	struct rec_event_pool *p = data;

	own_pool = NULL;
	atomic_store_explicit(&p->thread, (pthread_t)0, memory_order_relaxed);
	atomic_store_explicit(&p->owned, false, memory_order_release);
}

static void key_create(void)
{
	key_ok = pthread_key_create(&key, pool_disown) == 0;
	if (key_ok) {
		/* the destructor is our code: it must outlive every thread that has a pool */
		rec_pin_self();
	}
}

/* The calling thread's pool (adopted or made on first use), NULL when none can be had. */
static REC_HOT struct rec_event_pool *pool_get(void)
{
	pthread_t self = pthread_self();
	struct rec_event_pool *p = rec_event_pool_hinted();

	if (p) {
		return p;
	}
	p = own_pool;
	if (p) {
		atomic_store_explicit(&rec_hotline.hint, p, memory_order_relaxed);
		return p;
	}
	pthread_once(&key_once, key_create);
	if (!key_ok) {
		return NULL;
	}
	for (p = atomic_load_explicit(&pools, memory_order_acquire); p; p = p->next) {
		bool expected = false;

		if (!atomic_load_explicit(&p->owned, memory_order_relaxed) &&
				atomic_compare_exchange_strong_explicit(&p->owned, &expected, true,
				memory_order_acquire, memory_order_relaxed)) {
			break;
		}
	}
	if (!p) {
		p = rec_hot_alloc(sizeof(*p));
		if (!p) {
			return NULL;
		}
		memset(p, 0, sizeof(*p));
		atomic_init(&p->owned, true);
		atomic_init(&p->busy, 0);
		atomic_init(&p->returned, NULL);
		atomic_init(&p->thread, (pthread_t)0);
		p->next = atomic_load_explicit(&pools, memory_order_relaxed);
		while (!atomic_compare_exchange_weak_explicit(&pools, &p->next, p,
				memory_order_release, memory_order_relaxed)) {
		}
	}
	if (pthread_setspecific(key, p) != 0) {
		atomic_store_explicit(&p->owned, false, memory_order_release);
		return NULL;
	}
	p->tid = rec_tid();
	own_pool = p;
	atomic_store_explicit(&p->thread, self, memory_order_relaxed);
	atomic_store_explicit(&rec_hotline.hint, p, memory_order_relaxed);
	return p;
}

REC_HOT struct rec_event_pool *rec_event_pool_self(void)
{
	return pool_get();
}

static void prefetch_event(struct rec_event *ev);

REC_HOT struct rec_event_pool *rec_event_pool_hinted(void)
{
	struct rec_event_pool *p = atomic_load_explicit(&rec_hotline.hint, memory_order_relaxed);

	return p && pthread_equal(atomic_load_explicit(&p->thread, memory_order_relaxed), pthread_self()) ? p : NULL;
}

REC_HOT void rec_event_pool_prefetch(struct rec_event_pool *p)
{
	struct rec_event *ev = p->free;

	__builtin_prefetch(p, 1);
	if (ev) {
		prefetch_event(ev);
	}
}

REC_HOT struct rec_fds_credit *rec_event_pool_fds(struct rec_event_pool *p)
{
	return &p->fds;
}

REC_HOT uint32_t rec_event_pool_tid(const struct rec_event_pool *p)
{
	return p->tid;
}

REC_HOT void rec_event_pool_enter(struct rec_event_pool *p)
{
	atomic_store_explicit(&p->busy, atomic_load_explicit(&p->busy, memory_order_relaxed) + 1,
		memory_order_relaxed);
	/* the stopper clears `recording`, then reads `busy`: one of the two sees the other */
	atomic_thread_fence(memory_order_seq_cst);
}

REC_HOT void rec_event_pool_leave(struct rec_event_pool *p)
{
	atomic_store_explicit(&p->busy, atomic_load_explicit(&p->busy, memory_order_relaxed) - 1,
		memory_order_release);
}

bool rec_event_pools_busy(void)
{
	atomic_thread_fence(memory_order_seq_cst);
	for (struct rec_event_pool *p = atomic_load(&pools); p; p = p->next) {
		if (atomic_load_explicit(&p->busy, memory_order_acquire) > 0) {
			return true;
		}
	}
	return false;
}

/*
 * Asks for the lines of ev that the next call writes (the first, the
 * arguments of a call with up to four, and the first extra bytes: a
 * region, a handle, an output array): the pool's next event was last
 * written by the worker, or not at all since the thread slept, and its
 * lines then arrive while this call and the caller go on, not during the
 * next call.
 */
static void prefetch_event(struct rec_event *ev)
{
	__builtin_prefetch(ev, 1);
	__builtin_prefetch((char *)ev + REC_LINE, 1);
	__builtin_prefetch(&ev->args[0], 1);
	__builtin_prefetch(&ev->args[3], 1);
	__builtin_prefetch(ev->inline_extra, 1);
}

/* The fields past the event's first line, as an idle event has them: no extra bytes, no payload, no capture. */
static void init_tail(struct rec_event *ev)
{
	ev->ticket = 0;
	ev->payload = NULL;
	ev->extra = ev->inline_extra;
	ev->extra_len = 0;
	ev->extra_cap = REC_INLINE_EXTRA;
	ev->capture = NULL;
}

/*
 * An event whose first line is a cache line (struct rec_event), uninitialised:
 * a pool's from the hot arena, beside the pool; one malloc'd alone (a
 * backlog) from the heap, so that a backlog does not fill the arena.
 */
static struct rec_event *event_alloc(bool pooled)
{
	size_t size = (sizeof(struct rec_event) + REC_LINE - 1) / REC_LINE * REC_LINE;

	return pooled ? rec_hot_alloc(size) : aligned_alloc(REC_LINE, size);
}

/*
 * An event of the caller's pool, NULL when the pool is at its size and all
 * in flight. *backlog: every event of the pool is in flight, and at least
 * POOL_BACKLOG of them.
 */
static REC_HOT struct rec_event *pool_take(struct rec_event_pool *p, bool *backlog)
{
	struct rec_event *ev = p->free;

	if (!ev && atomic_load_explicit(&p->returned, memory_order_relaxed)) {
		ev = atomic_exchange_explicit(&p->returned, NULL, memory_order_acquire);
	}
	if (ev) {
		p->free = ev->wnext;
		if (p->free) {
			prefetch_event(p->free);
		}
		return ev;
	}
	*backlog = p->count >= POOL_BACKLOG;
	if (p->count >= POOL_MAX_EVENTS || !(ev = event_alloc(true))) {
		return NULL;
	}
	p->count++;
	ev->pool = p;
	init_tail(ev);
	return ev;
}

static void pool_put(struct rec_event_pool *p, struct rec_event *ev)
{
	struct rec_event *head = atomic_load_explicit(&p->returned, memory_order_relaxed);

	do {
		ev->wnext = head;
	} while (!atomic_compare_exchange_weak_explicit(&p->returned, &head, ev,
		memory_order_release, memory_order_relaxed));
}

void rec_event_pools_after_fork(void)
{
	for (struct rec_event_pool *p = atomic_load(&pools); p; p = p->next) {
		if (p != own_pool) {
			/* a thread of the child may get the pthread_t of one the parent had */
			atomic_store(&p->thread, (pthread_t)0);
			atomic_store(&p->owned, false);
		}
		atomic_store(&p->busy, 0);	/* calls of threads the child does not have never end */
	}
}

/*
 * The fields of the event's first cache line, and the arguments. The rest
 * is as rec_event_free (or pool_take) left it: no extra bytes, no payload,
 * no capture, ticket 0.
 */
static REC_HOT void init_head(struct rec_event *ev, uint8_t type, int32_t function, unsigned nargs)
{
	ev->type = type;
	ev->nargs = (uint8_t)(nargs < REC_MAX_ARGS ? nargs : REC_MAX_ARGS);
	ev->has_display = ev->has_layer = ev->late = false;
	ev->extra_failed = false;
	ev->function = function;
	ev->error = 0;
	ev->tid = 0;
	ev->t_enter = ev->t_exit = 0;
	ev->display = ev->layer = 0;
	for (unsigned i = 0; i < ev->nargs; i++) {
		ev->args[i] = (struct rec_arg){ 0 };
	}
}

void rec_event_init(struct rec_event *ev, uint8_t type, int32_t function, unsigned nargs)
{
	init_head(ev, type, function, nargs);
	init_tail(ev);
	ev->wnext = NULL;
}

void rec_event_arg_grow(struct rec_event *ev, unsigned n)
{
	n = n < REC_MAX_ARGS ? n : REC_MAX_ARGS;
	if (n > ev->nargs) {
		memset(&ev->args[ev->nargs], 0, (n - ev->nargs) * sizeof(ev->args[0]));
		ev->nargs = (uint8_t)n;
	}
}

REC_HOT struct rec_event *rec_event_take(struct rec_event_pool *p, uint8_t type, int32_t function, unsigned nargs,
	bool *backlog)
{
	struct rec_event *ev = p ? pool_take(p, backlog) : NULL;

	if (ev) {
		init_head(ev, type, function, nargs);
		return ev;
	}
	*backlog = true;
	if (atomic_fetch_add_explicit(&loose, 1, memory_order_relaxed) >= MAX_LOOSE_EVENTS ||
			!(ev = event_alloc(false))) {
		atomic_fetch_sub_explicit(&loose, 1, memory_order_relaxed);
		return NULL;
	}
	ev->pool = NULL;
	rec_event_init(ev, type, function, nargs);
	return ev;
}

struct rec_event *rec_event_new(uint8_t type, int32_t function, unsigned nargs)
{
	bool backlog = false;

	return rec_event_take(pool_get(), type, function, nargs, &backlog);
}

REC_HOT void *rec_event_extra(struct rec_event *ev, size_t size, uint32_t *off)
{
	size_t start = (ev->extra_len + 7u) & ~(size_t)7u;

	if (size > MAX_EXTRA || start + size > MAX_EXTRA) {
		ev->extra_failed = true;
		return NULL;
	}
	if (start + size > ev->extra_cap) {
		size_t cap = ev->extra_cap * 2;
		uint8_t *p;

		while (cap < start + size) {
			cap *= 2;
		}
		if (ev->extra == ev->inline_extra) {
			p = malloc(cap);
			if (p) {
				memcpy(p, ev->inline_extra, ev->extra_len);
			}
		} else {
			p = realloc(ev->extra, cap);
		}
		if (!p) {
			ev->extra_failed = true;
			return NULL;
		}
		ev->extra = p;
		ev->extra_cap = (uint32_t)cap;
	}
	*off = (uint32_t)start;
	ev->extra_len = (uint32_t)(start + size);
	return ev->extra + start;
}

static void close_fd(int32_t *fd)
{
	rec_fds_close(*fd);
	*fd = -1;
}

/* Closes the fds ev still owns and frees its heap parts (not ev itself). */
void rec_event_release(struct rec_event *ev)
{
	for (unsigned i = 0; i < ev->nargs; i++) {
		struct rec_arg *a = &ev->args[i];

		if (a->kind == REC_ARG_FENCE) {
			close_fd(&a->v.fence.fd);
		} else if (a->kind == REC_ARG_FENCES) {
			struct rec_fence *f = (struct rec_fence *)(ev->extra + a->off);

			for (uint32_t k = 0; k < a->count; k++) {
				close_fd(&f[k].fd);
			}
		} else if (a->kind == REC_ARG_HANDLE && a->present) {
			struct rec_handle *h = (struct rec_handle *)(ev->extra + a->off);

			close_fd(&h->fd);
			rec_kept_fd_put(h->kept);
			h->kept = NULL;
		}
	}
	if (ev->extra != ev->inline_extra) {
		free(ev->extra);
		ev->extra = ev->inline_extra;
		ev->extra_cap = REC_INLINE_EXTRA;
	}
	ev->extra_len = 0;
	free(ev->payload);
	ev->payload = NULL;
}

void rec_event_free(struct rec_event *ev)
{
	if (!ev) {
		return;
	}
	rec_event_release(ev);
	rec_capture_free(ev->capture);
	ev->capture = NULL;
	ev->ticket = 0;
	if (ev->pool) {
		pool_put(ev->pool, ev);
	} else {
		free(ev);
		atomic_fetch_sub_explicit(&loose, 1, memory_order_relaxed);
	}
}
