/* The hot path around every wrapped call (call.h); the argument helpers are in call_args.c. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call.h"
#include "device.h"
#include "display_query.h"
#include "fds.h"
#include "handle_cache.h"
#include "hotline.h"
#include "hwc2_wrappers.h"
#include "queue.h"
#include "tp.h"

#define WAIT_STEP_NS 100000		/* 100 us between looks at the worker's progress */

REC_HOT uint64_t rec_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ calls */

/*
 * The code a call goes on to run in the recorder's other files, asked for
 * together with the data (hot.h, REC_PREFETCH_CODE), so that in a frame's
 * first call each file's code is not a miss after the one before
 * (recorder/README.md, "The frame's first call, line by line").
 */
static REC_HOT void prefetch_code(void)
{
	REC_PREFETCH_CODE(rec_event_pool_hinted);
	REC_PREFETCH_CODE(rec_event_take);
	REC_PREFETCH_CODE(rec_event_extra);
	REC_PREFETCH_CODE(rec_device_lookup);
#if REC_HAVE_LTTNG
	REC_PREFETCH_CODE(rec_tp_call_enabled);
#endif
	REC_PREFETCH_CODE(rec_arg_display);
	REC_PREFETCH_CODE(rec_arg_handle);
	REC_PREFETCH_CODE(rec_arg_fence_in);
	REC_PREFETCH_CODE(rec_handle_cache_get);
	REC_PREFETCH_CODE(rec_fds_dup_credit);
	REC_PREFETCH_CODE(rec_call_end);
	REC_PREFETCH_CODE(rec_queue_push);
}

REC_HOT void rec_inflight_enter(struct recorder *r, struct rec_call *c)
{
	rec_inflight_enter_pool(r, c, rec_event_pool_self());
}

REC_HOT void rec_inflight_enter_pool(struct recorder *r, struct rec_call *c, struct rec_event_pool *pool)
{
	/* the thread's pool counts the call on a line only its thread writes */
	c->pool = pool;
	if (c->pool) {
		rec_event_pool_enter(c->pool);
	} else {
		atomic_fetch_add(&r->inflight, 1);
	}
}

REC_HOT void rec_inflight_leave(struct recorder *r, struct rec_call *c)
{
	if (c->pool) {
		rec_event_pool_leave(c->pool);
	} else {
		atomic_fetch_sub(&r->inflight, 1);
	}
}

REC_HOT hwc2_function_pointer_t rec_call_begin(struct rec_call *c, hwc2_device_t *device, int32_t function,
	unsigned nargs)
{
	struct recorder *r = rec_get();
	struct rec_event_pool *p = NULL;
	struct rec_device *d;
	hwc2_function_pointer_t fn;

	/*
	 * Every line this call goes on to read is asked for before any is
	 * waited for: in a frame's first call all of them are cold, and the
	 * chains of loads (the recorder's `recording`; the thread's pool and its
	 * next event; the device and its function table) then overlap instead
	 * of each waiting for the one before (recorder/README.md, "What each
	 * call class costs, and why"). The hot line's first line came with
	 * rec_get(); its second holds the devices.
	 */
	__builtin_prefetch(&rec_hotline.devices[0]);
	prefetch_code();
	if (r) {
		__builtin_prefetch(&r->recording);
		p = rec_event_pool_hinted();
		if (p) {
			rec_event_pool_prefetch(p);
		}
	}
	d = rec_device_lookup(device);
	if (d) {
		__builtin_prefetch(&d->real[function > 0 && function <= HWCT_HWC2_FUNCTION_MAX ? function : 0]);
	}
	c->rec = r;
	c->dev = d;
	c->ev = NULL;
	c->keep = false;
	c->function = function;
	c->has_display = c->has_layer = false;
	c->display = c->layer = 0;
	c->t_enter = 0;
	c->tracing = false;
	c->pool = NULL;
	c->wake = false;
	if (!d || !r) {
		return NULL;
	}
	fn = rec_device_real(d, function);
	if (!fn) {
		return NULL;
	}
	c->tracing = rec_tp_call_enabled() ||
		(function == HWC2_FUNCTION_PRESENT_DISPLAY && rec_tp_present_enabled());
	if (atomic_load_explicit(&r->recording, memory_order_relaxed)) {
		rec_inflight_enter_pool(r, c, p ? p : rec_event_pool_self());
		if (atomic_load(&r->recording)) {
			c->ev = rec_event_take(c->pool, REC_EV_CALL, function, nargs, &c->wake);
		}
		if (c->ev) {
			c->keep = true;
		} else {
			if (atomic_load(&r->recording)) {
				atomic_fetch_add(&r->events_dropped, 1);
			}
			rec_inflight_leave(r, c);
		}
	}
	if (!c->ev && c->tracing) {
		c->ev = &c->local;
		rec_event_init(c->ev, REC_EV_CALL, function, nargs);
	}
	return fn;
}

REC_HOT void rec_call_enter(struct rec_call *c)
{
	/* the hot line says whether any display waits for its facts: most calls read no slot */
	if (c->has_display && c->rec && atomic_load(&rec_hotline.info_needed)) {
		struct rec_display_slot *s = rec_display_slot(c->rec, c->display);
		int expected = REC_INFO_NEEDED;

		if (atomic_load(&s->info) == REC_INFO_NEEDED &&
				atomic_compare_exchange_strong(&s->info, &expected, REC_INFO_QUERYING)) {
			atomic_fetch_sub(&rec_hotline.info_needed, 1);
			rec_display_query(c->dev, c->display);
			atomic_store(&s->info, REC_INFO_DONE);
		}
	}
	if (c->tracing) {
		rec_tp_call_entry(c->function, rec_functions[c->function].name, c->display, c->layer);
	}
	/* a call neither recorded nor traced (the recorder waits for its trigger) reads no clock */
	if (c->ev) {
		c->t_enter = rec_now_ns();
	}
}

REC_HOT void rec_call_exit(struct rec_call *c, int32_t error)
{
	uint64_t now;

	if (!c->ev) {
		return;	/* tracing sets c->ev too (rec_call_begin) */
	}
	now = rec_now_ns();
	c->ev->t_enter = c->t_enter;
	c->ev->t_exit = now;
	c->ev->error = error;
	c->ev->tid = c->pool ? rec_event_pool_tid(c->pool) : rec_tid();
	c->ev->has_display = c->has_display;
	c->ev->display = c->display;
	c->ev->has_layer = c->has_layer;
	c->ev->layer = c->layer;
	if (c->tracing) {
		rec_tp_call_exit(c->function, rec_functions[c->function].name, c->display, c->layer,
			error, now - c->t_enter);
	}
}

/*
 * Waits until the worker resolved every capture ticket <= target of slot,
 * at most the configured time. Returns false when it gave up: those
 * captures are then marked late (the worker sees `late`).
 */
static bool capture_wait(struct recorder *r, struct rec_display_slot *s, uint64_t target)
{
	uint64_t deadline;
	struct timespec step = { 0, WAIT_STEP_NS };
	uint64_t late;

	if (atomic_load(&s->resolved) >= target) {
		return true;
	}
	if (atomic_load(&s->late) >= target) {
		/* presentDisplay gave up on these already: they are marked late, waiting changes nothing */
		return false;
	}
	deadline = rec_now_ns() + (uint64_t)r->cfg.capture_wait_ms * 1000000u;
	rec_wake_worker(r);
	while (atomic_load(&s->resolved) < target) {
		if (rec_now_ns() >= deadline) {
			late = atomic_load(&s->late);
			while (late < target && !atomic_compare_exchange_weak(&s->late, &late, target)) {
			}
			rec_wake_worker(r);
			return false;
		}
		nanosleep(&step, NULL);
	}
	return true;
}

static void capture_release_wait(struct rec_call *c);

/* Capture tickets and the release wait (recorder/README.md, "Capture before release"). */
static REC_HOT void capture_bookkeeping(struct rec_call *c)
{
	struct recorder *r = c->rec;
	struct rec_event *ev = c->ev;
	struct rec_display_slot *s;

	if (!c->has_display || !r->cfg.pixels || r->cfg.budget_zero) {
		return;
	}
	switch (c->function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		s = rec_display_slot(r, c->display);
		ev->ticket = atomic_fetch_add(&s->tickets, 1) + 1;
		break;
	case HWC2_FUNCTION_PRESENT_DISPLAY:
	case HWC2_FUNCTION_GET_RELEASE_FENCES:
		if (!r->cfg.capture_wait_ms) {
			/* never waits: the worker checks each capture against its buffer's release fence */
			break;
		}
		capture_release_wait(c);
		break;
	default:
		break;
	}
}

/* HWCT_CAPTURE_WAIT_MS > 0: present and getReleaseFences wait for the previous frames' captures. */
static void capture_release_wait(struct rec_call *c)
{
	struct recorder *r = c->rec;
	struct rec_event *ev = c->ev;
	struct rec_display_slot *s;

	switch (c->function) {
	case HWC2_FUNCTION_PRESENT_DISPLAY: {
		uint64_t target;

		s = rec_display_slot(r, c->display);
		/* buffers replaced by this frame were set in earlier frames */
		target = atomic_exchange(&s->at_present, atomic_load(&s->tickets));
		atomic_store(&s->release_target, target);
		ev->late = !capture_wait(r, s, target);
		break;
	}
	case HWC2_FUNCTION_GET_RELEASE_FENCES:
		s = rec_display_slot(r, c->display);
		ev->late = !capture_wait(r, s, atomic_load(&s->release_target));
		break;
	default:
		break;
	}
}

/*
 * Whether this call should wake the worker now: a present of a display with
 * captures not yet resolved, which the worker arms at present and the next
 * present waits for; unless the worker wakes on its own within
 * REC_WAKE_SLACK_NS anyway, as it does while frames come (worker.c,
 * ARM_SLEEP_NS). Anything else waits for the worker's own periodic wake-up,
 * so the hot path pays no futex wake and no reschedule.
 */
static REC_HOT bool captures_to_arm(const struct rec_call *c)
{
	struct rec_display_slot *s;

	if (c->function != HWC2_FUNCTION_PRESENT_DISPLAY || !c->has_display || !c->rec->cfg.pixels ||
			c->rec->cfg.budget_zero) {
		return false;
	}
	s = rec_display_slot(c->rec, c->display);
	return atomic_load(&s->resolved) < atomic_load(&s->tickets);
}

static uint64_t present_fence_id(const struct rec_event *ev)
{
	const struct rec_arg *a = &ev->args[REC_ARG_PRESENT_DISPLAY_OUT_PRESENT_FENCE];

	return a->kind == REC_ARG_FENCE ? a->v.fence.id : 0;
}

REC_HOT void rec_call_end(struct rec_call *c)
{
	struct recorder *r = c->rec;
	struct rec_event *ev = c->ev;

	if (!ev) {
		return;
	}
	if (c->function == HWC2_FUNCTION_PRESENT_DISPLAY && c->tracing) {
		rec_tp_present(c->display, present_fence_id(ev), ev->error);
	}
	if (!c->keep) {
		rec_event_release(ev);
		return;
	}
	capture_bookkeeping(c);
	rec_queue_push(&r->queue, ev);
	if (c->wake || (captures_to_arm(c) && !rec_worker_due(r, ev->t_exit))) {
		rec_wake_worker(r);
	}
	rec_inflight_leave(r, c);
}
