/*
 * The worker thread: queue -> pending FIFO -> captures (worker_capture.c) ->
 * records, in call order (worker.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hwct/format.h>

#include "capture.h"
#include "fence.h"
#include "handle_cache.h"
#include "hwc2_wrappers.h"
#include "worker.h"

#define ACTIVE_SLEEP_NS 1000000u		/* while events or captures are pending */
#define RECORDING_SLEEP_NS 10000000u	/* woken early only for captures to arm or a long queue (call.c) */
#define ARM_SLEEP_NS 2000000u		/* recording while frames come: presents need not wake us (call.c) */
#define PRESENTING_NS 100000000u	/* frames come: a present was seen this recently */
#define IDLE_SLEEP_NS 50000000u
#define FRAME_END_IDLE_NS 50000000u		/* a FrameEnd waiting for getReleaseFences that never came */
#define STATS_PERIOD_NS 1000000000u
#define SWEEP_PERIOD_NS 10000000u	/* the buffer-fd caches: SWEEP_SLOTS slots each per period */
#define SWEEP_SLOTS 4u
/*
 * Events moved from the queue into the FIFO at once: between batches the
 * worker steps captures and writes what it can, so a worker that fell
 * behind does not pile the whole queue into the FIFO before it captures
 * and writes again. At most DRAIN_BATCHES batches per pass of the main
 * loop, which then goes round again without sleeping.
 */
#define DRAIN_BATCH 256u
#define DRAIN_BATCHES 64u

struct rec_wdisplay *rec_worker_display(struct rec_worker *w, uint64_t display)
{
	struct rec_wdisplay *free_slot = NULL;

	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		if (w->displays[i].used && w->displays[i].id == display) {
			return &w->displays[i];
		}
		if (!w->displays[i].used && !free_slot) {
			free_slot = &w->displays[i];
		}
	}
	if (!free_slot) {
		return &w->displays[0];
	}
	*free_slot = (struct rec_wdisplay){ .used = true, .id = display };
	return free_slot;
}

/* ------------------------------------------------------------------ fences */

static int32_t fence_kind(int32_t function)
{
	switch (function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
		return HWCT_FENCE_ACQUIRE;
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		return HWCT_FENCE_CLIENT_TARGET;
	case HWC2_FUNCTION_PRESENT_DISPLAY:
		return HWCT_FENCE_PRESENT;
	case HWC2_FUNCTION_GET_RELEASE_FENCES:
		return HWCT_FENCE_RELEASE;
	case HWC2_FUNCTION_SET_OUTPUT_BUFFER:
		return HWCT_FENCE_OUTPUT;
	case HWC2_FUNCTION_SET_READBACK_BUFFER:
	case HWC2_FUNCTION_GET_READBACK_BUFFER_FENCE:
		return HWCT_FENCE_READBACK;
	default:
		return HWCT_FENCE_UNKNOWN;
	}
}

/* Hands the event's fences to the watcher (after its Call record is written). */
static void watch_fences(struct rec_worker *w, struct rec_event *ev)
{
	struct rec_fence_info info = {
		.kind = fence_kind(ev->function),
		.has_display = ev->has_display,
		.display = ev->display,
		.has_layer = ev->has_layer,
		.layer = ev->layer,
		.frame = w->frame,
	};

	for (unsigned i = 0; i < ev->nargs; i++) {
		struct rec_arg *a = &ev->args[i];

		if (a->kind == REC_ARG_FENCE && a->v.fence.id) {
			bool out = ev->function == HWC2_FUNCTION_PRESENT_DISPLAY ||
				ev->function == HWC2_FUNCTION_GET_READBACK_BUFFER_FENCE;

			info.id = a->v.fence.id;
			info.created_ns = out ? ev->t_exit : ev->t_enter;
			info.seen_ns = !out && ev->capture ? ev->capture->fence_seen_ns : 0;
			w->fences_unwatched += a->v.fence.fd < 0;
			rec_fence_watch_add(w->fences, a->v.fence.fd, &info);
			a->v.fence.fd = -1;
		} else if (a->kind == REC_ARG_FENCES) {
			struct rec_fence *f = (struct rec_fence *)(ev->extra + a->off);
			const struct rec_arg *layers = &ev->args[REC_ARG_GET_RELEASE_FENCES_OUT_LAYERS];
			const uint64_t *ids = layers->kind == REC_ARG_ARRAY && layers->count == a->count ?
				rec_arg_data(ev, layers) : NULL;

			for (uint32_t k = 0; k < a->count; k++) {
				if (!f[k].id) {
					continue;
				}
				info.id = f[k].id;
				info.created_ns = ev->t_exit;
				info.seen_ns = 0;
				info.has_layer = ids != NULL;
				info.layer = ids ? ids[k] : 0;
				w->fences_unwatched += f[k].fd < 0;
				rec_fence_watch_add(w->fences, f[k].fd, &info);
				f[k].fd = -1;
			}
		}
	}
}

/* ------------------------------------------------------------------ flushing */

/* A call on display d that is not part of the frame just presented ends that frame. */
static void end_frames_before(struct rec_worker *w, const struct rec_event *ev)
{
	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		struct rec_wdisplay *d = &w->displays[i];

		if (!d->used || !d->fe_pending) {
			continue;
		}
		if (ev->function == HWC2_FUNCTION_PRESENT_DISPLAY ||
				(ev->has_display && ev->display == d->id &&
				ev->function != HWC2_FUNCTION_GET_RELEASE_FENCES)) {
			rec_write_frame_end(w, d);
		}
	}
}

/* A virtual display was created: its Display record, kept for keyframes and later sessions. */
static void virtual_display(struct rec_worker *w, const struct rec_event *ev)
{
	struct rec_display_info *info = rec_display_virtual(ev);
	struct rec_wdisplay *d;

	if (!info) {
		return;
	}
	rec_write_display(w, info);
	d = rec_worker_display(w, info->display);
	free(d->info);
	d->info = info;
	d->connected = true;
}

static void flush_call(struct rec_worker *w, struct rec_event *ev)
{
	struct rec_wdisplay *d = ev->has_display ? rec_worker_display(w, ev->display) : NULL;

	end_frames_before(w, ev);
	if (ev->capture && ev->capture->has_buffer) {
		rec_write_buffer(w, ev->capture);
		/* the one place a drop is counted: where the call's record says DROPPED */
		if (ev->capture->status == HWCT_CAPTURE_DROPPED) {
			w->cctx.drops++;
			w->cctx.drop_bytes += ev->capture->dropped_bytes;
		}
		if (ev->capture->status == HWCT_CAPTURE_LATE && d) {
			d->late = true;
		}
	}
	rec_write_call(w, ev, ++w->seq);
	watch_fences(w, ev);
	if (ev->function == HWC2_FUNCTION_CREATE_VIRTUAL_DISPLAY && ev->error == HWC2_ERROR_NONE) {
		virtual_display(w, ev);
	}
	if (!d) {
		return;
	}
	switch (ev->function) {
	case HWC2_FUNCTION_DESTROY_VIRTUAL_DISPLAY:
		d->connected = ev->error != HWC2_ERROR_NONE && d->connected;	/* later sessions leave it out */
		break;
	case HWC2_FUNCTION_VALIDATE_DISPLAY:
		d->validated = true;
		break;
	case HWC2_FUNCTION_PRESENT_DISPLAY:
		d->fe_pending = true;
		d->fe_t_ns = ev->t_exit;
		d->fe_since = rec_now_ns();
		d->fe_fence = ev->args[REC_ARG_PRESENT_DISPLAY_OUT_PRESENT_FENCE].kind == REC_ARG_FENCE ?
			ev->args[REC_ARG_PRESENT_DISPLAY_OUT_PRESENT_FENCE].v.fence.id : 0;
		d->fe_validated = d->validated;
		d->fe_flags = ev->error != HWC2_ERROR_NONE ? HWCT_FRAME_PRESENT_ERROR : 0;
		break;
	case HWC2_FUNCTION_GET_RELEASE_FENCES:
		/* the filling call completes the frame */
		if (ev->args[REC_ARG_GET_RELEASE_FENCES_OUT_LAYERS].present &&
				ev->args[REC_ARG_GET_RELEASE_FENCES_OUT_LAYERS].kind == REC_ARG_ARRAY) {
			rec_write_frame_end(w, d);
		}
		break;
	default:
		break;
	}
}

static void flush_event(struct rec_worker *w, struct rec_event *ev)
{
	rec_worker_maps_written(w, ev);
	switch (ev->type) {
	case REC_EV_CALL:
	case REC_EV_OPAQUE:
		if (ev->type == REC_EV_OPAQUE) {
			rec_write_call(w, ev, ++w->seq);
		} else {
			flush_call(w, ev);
		}
		break;
	case REC_EV_CALLBACK:
		rec_write_callback(w, ev);
		break;
	case REC_EV_DISPLAY:
		if (ev->payload) {
			rec_write_display(w, ev->payload);
		}
		break;
	default:
		break;
	}
}

/* Writes the FIFO's head while its captures are done. */
static void flush(struct rec_worker *w)
{
	while (w->head && (!w->head->capture || w->head->capture->state == REC_CAPTURE_DONE)) {
		struct rec_event *ev = w->head;

		w->head = ev->wnext;
		if (!w->head) {
			w->tail = NULL;
		}
		if (w->session && !w->limit_reached) {
			flush_event(w, ev);
		}
		rec_worker_forget_capture(w, ev);
		rec_event_free(ev);
	}
}

/* ------------------------------------------------------------------ dispatch */

static void keep_display_facts(struct rec_worker *w, const struct rec_event *ev)
{
	struct rec_wdisplay *d = rec_worker_display(w, ev->display);
	struct rec_display_info *copy = malloc(sizeof(*copy));

	if (copy) {
		memcpy(copy, ev->payload, sizeof(*copy));
		free(d->info);
		d->info = copy;
	}
	d->connected = true;
}

static void dispatch(struct rec_worker *w, struct rec_event *ev)
{
	if (ev->type == REC_EV_CALL && ev->function == HWC2_FUNCTION_PRESENT_DISPLAY) {
		/* when taken, not when called: a worker kept from running for a while still sees frames come */
		w->present_seen_ns = rec_now_ns();
	}
	if (ev->type == REC_EV_DISPLAY && ev->payload) {
		keep_display_facts(w, ev);
	} else if (ev->type == REC_EV_CALLBACK && ev->function == HWC2_CALLBACK_HOTPLUG &&
			ev->has_display && ev->args[REC_CBARG_HOTPLUG_CONNECTION].kind == REC_ARG_INT) {
		rec_worker_display(w, ev->display)->connected =
			ev->args[REC_CBARG_HOTPLUG_CONNECTION].v.i == HWC2_CONNECTION_CONNECTED;
	}
	if (!w->session) {
		rec_event_free(ev);
		return;
	}
	if (ev->type == REC_EV_CALL) {
		rec_worker_attach_capture(w, ev);
		switch (ev->function) {
		case HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE:
			rec_worker_note_damage(w, ev);
			break;
		case HWC2_FUNCTION_VALIDATE_DISPLAY:
			rec_worker_arm(w, ev->display, false, 0);
			break;
		case HWC2_FUNCTION_PRESENT_DISPLAY:
			rec_worker_arm(w, ev->display, false, 0);
			rec_worker_note_release(w, ev);
			break;
		case HWC2_FUNCTION_GET_RELEASE_FENCES:
			rec_worker_note_release(w, ev);
			break;
		case HWC2_FUNCTION_DESTROY_LAYER:
			rec_worker_arm(w, ev->display, true, ev->layer);
			rec_worker_damage_forget(w, ev->display, ev->layer, false);
			break;
		default:
			break;
		}
	}
	ev->wnext = NULL;
	if (w->tail) {
		w->tail->wnext = ev;
	} else {
		w->head = ev;
	}
	w->tail = ev;
}

/* Moves up to max queued events into the FIFO. Returns how many came. */
static unsigned drain(struct rec_worker *w, unsigned max)
{
	struct rec_event *ev;
	unsigned n = 0;

	while (n < max && (ev = rec_queue_pop(&w->r->queue))) {
		dispatch(w, ev);
		n++;
	}
	return n;
}

/*
 * Drains the queue in batches, stepping the captures and writing the FIFO's
 * head after each (DRAIN_BATCH). Returns how many captures are not done.
 */
static unsigned pump(struct rec_worker *w)
{
	unsigned pending, n, batches = 0;

	do {
		n = drain(w, DRAIN_BATCH);
		pending = rec_worker_step_captures(w, false);
		flush(w);
		rec_worker_publish_resolved(w);
	} while ((n == DRAIN_BATCH || w->step_cut) && ++batches < DRAIN_BATCHES);
	return pending;
}

/* ------------------------------------------------------------- session end */

void rec_worker_finish_session(struct rec_worker *w)
{
	struct recorder *r = w->r;
	uint64_t deadline = rec_now_ns() + 1000000000u;
	struct timespec step = { 0, 1000000 };

	/*
	 * Calls that were already recording still push their events; one of
	 * them may be a present waiting for captures, so keep capturing.
	 */
	for (;;) {
		pump(w);
		if ((atomic_load(&r->inflight) <= 0 && !rec_event_pools_busy()) || rec_now_ns() >= deadline) {
			break;
		}
		nanosleep(&step, NULL);
	}
	drain(w, UINT_MAX);
	rec_worker_arm_all(w);
	deadline = rec_now_ns() + 250000000u;
	while (rec_worker_step_captures(w, false) && rec_now_ns() < deadline) {
		flush(w);
		rec_worker_publish_resolved(w);
		nanosleep(&step, NULL);
		drain(w, UINT_MAX);
	}
	rec_worker_step_captures(w, true);
	flush(w);
	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		if (w->displays[i].used) {
			rec_write_frame_end(w, &w->displays[i]);
		}
	}
	rec_worker_damage_forget(w, 0, 0, true);
	rec_worker_resolve_all(w);
}

/* ------------------------------------------------------------------ main */

static void sleep_for(struct rec_worker *w, uint64_t ns)
{
	struct recorder *r = w->r;
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += (long)ns;
	until.tv_sec += until.tv_nsec / 1000000000;
	until.tv_nsec %= 1000000000;
	pthread_mutex_lock(&r->lock);
	/* before worker_idle: a call that sees us idle sees when we wake (rec_worker_due) */
	atomic_store(&r->worker_wake_ns, (uint64_t)until.tv_sec * 1000000000u + (uint64_t)until.tv_nsec);
	atomic_store(&r->worker_idle, true);
	if (!atomic_load(&r->quit) && rec_queue_empty(&r->queue)) {
		pthread_cond_timedwait(&r->wake, &r->lock, &until);
	}
	atomic_store(&r->worker_idle, false);
	pthread_mutex_unlock(&r->lock);
}

static void idle_work(struct rec_worker *w, uint64_t now)
{
	if (!w->session) {
		return;
	}
	if (!w->head) {
		for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
			struct rec_wdisplay *d = &w->displays[i];

			/* fe_since may be later than now: the frame's present was dispatched after now was taken */
			if (d->used && d->fe_pending && now > d->fe_since && now - d->fe_since > FRAME_END_IDLE_NS) {
				rec_write_frame_end(w, d);
			}
		}
	}
	if (now - w->last_stats_ns > STATS_PERIOD_NS) {
		rec_write_capture_stats(w);
	}
}

/*
 * Frames come: a present taken from the queue within PRESENTING_NS of now
 * (which was read before the drain, so the present can be later).
 */
static bool presenting(const struct rec_worker *w, uint64_t now)
{
	return w->present_seen_ns && (w->present_seen_ns >= now || now - w->present_seen_ns < PRESENTING_NS);
}

void *rec_worker_main(void *data)
{
	struct rec_worker *w = data;
	struct recorder *r = w->r;

	rec_thread_background();	/* the writer's threads, made by this one, inherit it */
	w->cctx.buffers = &w->buffers;
	w->cctx.cfg = &r->cfg;
	for (;;) {
		bool quit = atomic_load(&r->quit);
		uint64_t now = rec_now_ns();
		unsigned pending;

		rec_session_triggers(w, now);
		if (quit) {
			w->want = false;
		}
		if (w->want && !w->session && !w->broken) {
			rec_session_start(w);
		} else if (!w->want && w->session) {
			rec_session_stop(w);
		}
		pending = pump(w);
		if (!w->session) {
			rec_worker_resolve_all(w);
		}
		idle_work(w, rec_now_ns());	/* not `now`: pump() may have run for a while */
		if (now - w->last_sweep_ns >= SWEEP_PERIOD_NS) {
			/* recording or not: a buffer the composer freed is not kept alive by its cached dup */
			rec_handle_cache_sweep_all(SWEEP_SLOTS);
			w->last_sweep_ns = now;
		}
		if (quit) {
			break;
		}
		sleep_for(w, pending || w->head ? ACTIVE_SLEEP_NS :
			!atomic_load(&r->recording) ? IDLE_SLEEP_NS :
			presenting(w, now) ? ARM_SLEEP_NS : RECORDING_SLEEP_NS);
	}
	drain(w, UINT_MAX);
	flush(w);
	rec_worker_resolve_all(w);
	atomic_store(&r->worker_done, true);
	return NULL;
}
