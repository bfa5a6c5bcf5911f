/*
 * What a wrapper hands to the worker: one event per HWC2 call, callback or
 * recorder-internal fact, with the call's arguments copied by value (the
 * caller's pointers are borrowed for the call only). Filled on the hot path,
 * read and freed by the worker (worker.c), which puts it back in the pool
 * of the thread that took it.
 */
#ifndef REC_EVENT_H
#define REC_EVENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>

#include "hot.h"

/* Parameters of the longest HWC2 prototype, the device excluded. */
#define REC_MAX_ARGS 8
#define REC_INLINE_EXTRA 256

enum rec_event_type {
	REC_EV_CALL = 1,	/* a wrapped HWC2 function returned */
	REC_EV_CALLBACK,	/* the module called one of the client's callbacks */
	REC_EV_DISPLAY,		/* display facts queried by the recorder itself (display_query.c) */
	REC_EV_OPAQUE,		/* getFunction handed out an unknown descriptor unwrapped */
};

enum rec_arg_kind {
	REC_ARG_NONE = 0,
	REC_ARG_INT,		/* v.i: an integer or bool, in or out */
	REC_ARG_FLOAT,		/* v.f */
	REC_ARG_BYTES,		/* `count` raw bytes at `off`: a struct passed by value or pointer */
	REC_ARG_ARRAY,		/* `count` elements of `elem_size` bytes at `off` */
	REC_ARG_REGION,		/* `count` hwc_rect_t at `off` */
	REC_ARG_COUNT,		/* count-then-fill size or in/out value: v.count */
	REC_ARG_FENCE,		/* one fence: v.fence */
	REC_ARG_FENCES,		/* `count` struct rec_fence at `off` */
	REC_ARG_HANDLE,		/* a struct rec_handle at `off` */
	REC_ARG_POINTER,	/* a pointer of which only NULL-ness is kept (`present`) */
};

struct rec_arg {
	uint8_t kind;		/* enum rec_arg_kind */
	bool present;		/* a pointer argument was non-NULL / an out value was written */
	uint16_t elem_size;	/* REC_ARG_ARRAY */
	uint32_t count;		/* elements (ARRAY, REGION, FENCES) or bytes (BYTES) */
	uint32_t off;		/* offset into the event's extra bytes */
	union {
		int64_t i;
		double f;
		struct {
			int64_t in;	/* before the call, -1 when the pointer was NULL */
			int64_t out;	/* after the call */
		} count;
		struct {
			uint64_t id;	/* Fence.id, 0 = no fence (-1 at the boundary) */
			int32_t fd;	/* our dup, owned by the event; -1 none */
		} fence;
	} v;
};

/* One fence of an array (getReleaseFences). */
struct rec_fence {
	uint64_t id;
	int32_t fd;		/* our dup, owned by the event, -1 none */
};

/* Snapshot of a buffer_handle_t (cutils/native_handle.h) taken during the call. */
#define REC_HANDLE_MAX_WORDS 128
struct rec_kept_fd;
struct rec_handle {
	int32_t fd;		/* our dup of data[0], -1 when there was none or no dup was made */
	int32_t num_fds, num_ints;	/* as the handle said */
	int32_t words;		/* how many data[] entries were copied (<= REC_HANDLE_MAX_WORDS) */
	uint64_t ident;		/* handle pointer, for buffers without fds */
	uint64_t ino;		/* data[0]'s inode when it had an fd but no dup was made (fds.h), else 0 */
	/* a dup kept from the buffer's first call (handle_cache.h), NULL none; the worker turns it into fd */
	struct rec_kept_fd *kept;
	bool kept_exact;	/* kept was dup'd from data[0] in this very call */
	int32_t data[];		/* data[0 .. words) */
};

struct rec_event_pool;

/*
 * The fields the hot path always writes come first (one cache line), then
 * only the arguments the call has: an event from a pool was last touched by
 * the worker's core, and every line written here has to move back. The
 * fields of the second line are reset by rec_event_free, so a call writes
 * them only when it uses them (extra bytes, a ticket).
 */
struct rec_event {
	_Atomic(struct rec_event *) next;	/* queue.c link */
	uint8_t type;			/* enum rec_event_type */
	uint8_t nargs;			/* args[0 .. nargs) are initialised */
	bool has_display, has_layer;
	bool late;			/* present/release wait gave up (call.c) */
	bool extra_failed;		/* an allocation failed: some argument was not copied */
	int32_t function;		/* HWC2_FUNCTION_* or HWC2_CALLBACK_* */
	int32_t error;			/* returned hwc2_error_t, 0 for functions without one */
	uint32_t tid;
	uint64_t t_enter, t_exit;	/* CLOCK_MONOTONIC ns */
	uint64_t display, layer;
	uint64_t ticket;		/* capture ticket of a buffer call, 0 none (call.c) */
	void *payload;			/* REC_EV_DISPLAY: struct rec_display_info, owned */

	/* extra bytes: arrays, regions, handle snapshots */
	uint8_t *extra;			/* inline_extra or a heap block (owned) */
	uint32_t extra_len, extra_cap;

	/* worker side (worker.c): the pending FIFO; also the pool's free-list link */
	struct rec_event *wnext;
	struct rec_capture *capture;	/* pixel capture of a buffer call, owned */
	struct rec_event_pool *pool;	/* where rec_event_free puts it back, NULL: malloc'd alone */

	struct rec_arg args[REC_MAX_ARGS];
	uint8_t inline_extra[REC_INLINE_EXTRA];
};

/* Pointer into the extra bytes of an argument. */
static inline const void *rec_arg_data(const struct rec_event *ev, const struct rec_arg *a)
{
	return ev->extra + a->off;
}

/*
 * (event.c) Resets ev to nargs arguments of kind REC_ARG_NONE and no extra
 * bytes (args past nargs are left as they are; rec_event_arg_grow covers them).
 */
void rec_event_init(struct rec_event *ev, uint8_t type, int32_t function, unsigned nargs);

/* Makes nargs at least n (<= REC_MAX_ARGS), the new arguments REC_ARG_NONE. */
void rec_event_arg_grow(struct rec_event *ev, unsigned n);

/*
 * An event with no arguments yet, NULL when out of memory; the caller owns
 * it until it hands it to the queue, and rec_event_free (any thread) gives
 * it back. It comes from the calling thread's pool: no malloc, and no free
 * on the worker's side of the heap, once the pool holds what is in flight
 * (at most 512 per thread, event.c; past that events are malloc'd alone,
 * at most 65 536 at once: then NULL).
 */
struct rec_event *rec_event_new(uint8_t type, int32_t function, unsigned nargs);

/*
 * The calling thread's pool (made or adopted on first use), NULL when it
 * cannot have one; it stays the thread's until the thread ends.
 */
struct rec_event_pool *rec_event_pool_self(void);

/*
 * The calling thread's pool when it is the one that called last (the hint,
 * hotline.h), else NULL: a check that makes nothing and touches two lines.
 */
struct rec_event_pool *rec_event_pool_hinted(void);

/*
 * Asks for the lines of p that a call takes an event from, and the event's
 * first lines, without waiting for them: a call that starts with this has
 * them arrive while it finds its device (a composer's first call of a frame
 * finds all of them cold).
 */
void rec_event_pool_prefetch(struct rec_event_pool *p);

/* The credits p's calls dup on (fds.h); borrowed, for p's owner thread only. */
struct rec_fds_credit *rec_event_pool_fds(struct rec_event_pool *p);

/* The kernel tid of p's owner (rec_tid() of the thread that took p). */
uint32_t rec_event_pool_tid(const struct rec_event_pool *p);

/*
 * rec_event_new from pool p (the caller's own, or NULL: malloc'd alone).
 * *backlog is set when the worker is behind: p had no event left with 256
 * or more in flight, or the event was malloc'd alone; else left as it is.
 */
struct rec_event *rec_event_take(struct rec_event_pool *p, uint8_t type, int32_t function, unsigned nargs,
	bool *backlog);

/*
 * A call of p's owner is under way from enter to leave (they nest), as
 * rec_event_pools_busy sees. enter ends with a full fence: a flag the
 * caller reads after it (`recording`) is read after busy is visible.
 */
void rec_event_pool_enter(struct rec_event_pool *p);
void rec_event_pool_leave(struct rec_event_pool *p);

/* Whether a thread is between rec_event_pool_enter and _leave (after a full fence). */
bool rec_event_pools_busy(void);

/*
 * fork() child: the pools of the threads the child does not have are free
 * to be adopted by its threads (their events stay in them).
 */
void rec_event_pools_after_fork(void);

/* Extra bytes for an argument (8-aligned), NULL when out of memory (extra_failed is set). */
void *rec_event_extra(struct rec_event *ev, size_t size, uint32_t *off);

/* Closes the fds ev still owns and frees its heap parts, not ev itself. */
void rec_event_release(struct rec_event *ev);

/* Frees ev (back to its pool), closing the fds it still owns. ev may be NULL. Any thread. */
void rec_event_free(struct rec_event *ev);

#endif
