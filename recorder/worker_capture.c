/*
 * The worker's pending captures (worker.h): surface damage per layer,
 * captures attached to buffer calls, armed at validate/present, stepped,
 * and the per-display "resolved" ticket the hot path waits for.
 */
#include <stdlib.h>
#include <string.h>

#include <hwct/format.h>

#include "capture.h"
#include "fds.h"
#include "hwc2_wrappers.h"
#include "worker.h"

#define REC_CLIENT_TARGET_KEY UINT64_MAX	/* the per-layer state of a display's client target */
#define STEP_ORDERED 64			/* pending captures stepped by urgency; past that, in call order */
#define STEP_SLICE_NS 4000000u		/* a pass of captures longer than this lets new events in first */

static struct rec_wdamage *damage_of(struct rec_worker *w, uint64_t display, uint64_t layer, bool create)
{
	for (size_t i = 0; i < w->damage_count; i++) {
		if (w->damage[i].display == display && w->damage[i].layer == layer) {
			return &w->damage[i];
		}
	}
	if (!create) {
		return NULL;
	}
	if (w->damage_count == w->damage_cap) {
		size_t cap = w->damage_cap ? w->damage_cap * 2 : 32;
		struct rec_wdamage *d = realloc(w->damage, cap * sizeof(*d));

		if (!d) {
			return NULL;
		}
		w->damage = d;
		w->damage_cap = cap;
	}
	w->damage[w->damage_count] = (struct rec_wdamage){ .display = display, .layer = layer };
	return &w->damage[w->damage_count++];
}

void rec_worker_damage_forget(struct rec_worker *w, uint64_t display, uint64_t layer, bool all)
{
	for (size_t i = 0; i < w->damage_count;) {
		if (all || (w->damage[i].display == display && w->damage[i].layer == layer)) {
			free(w->damage[i].rects);
			w->damage[i] = w->damage[--w->damage_count];
		} else {
			i++;
		}
	}
}

/* setLayerSurfaceDamage: the hint stays until the next call (HWC2 semantics). */
void rec_worker_note_damage(struct rec_worker *w, const struct rec_event *ev)
{
	const struct rec_arg *a = &ev->args[REC_ARG_SET_LAYER_SURFACE_DAMAGE_DAMAGE];
	struct rec_wdamage *d = damage_of(w, ev->display, ev->layer, true);
	hwc_rect_t *rects = NULL;

	if (!d || a->kind != REC_ARG_REGION) {
		return;
	}
	if (a->count && (rects = malloc(a->count * sizeof(*rects)))) {
		memcpy(rects, rec_arg_data(ev, a), a->count * sizeof(*rects));
	}
	free(d->rects);
	d->rects = rects;
	d->count = rects ? a->count : 0;
	/* no rects: the whole layer changed (no delta); a lost copy counts the same */
	d->set = rects != NULL;
}

/* ----------------------------------------------------------------- captures */

static struct rec_handle *handle_arg(struct rec_event *ev, int i)
{
	struct rec_arg *a = &ev->args[i];

	return a->kind == REC_ARG_HANDLE && a->present ? (struct rec_handle *)(ev->extra + a->off) : NULL;
}

static int fence_fd_arg(const struct rec_event *ev, int i)
{
	const struct rec_arg *a = &ev->args[i];

	return a->kind == REC_ARG_FENCE ? a->v.fence.fd : -1;
}

/*
 * A capture whose buffer fd or acquire fence the hot path could not dup
 * (the fd budget was spent, fds.h): nothing to read, or no way to know when
 * the pixels are ready. Dropped (capture 2, counted with the other drops
 * where its call is written, and in captures_no_fd); its buffer fd, if
 * any, goes back to the budget at once.
 */
static void drop_without_fds(struct rec_worker *w, struct rec_capture *cap, const struct rec_handle *h,
	const struct rec_arg *fence)
{
	bool no_buffer_fd = h && h->num_fds > 0 && cap->fd < 0;
	bool no_fence_fd = fence->kind == REC_ARG_FENCE && fence->v.fence.id && fence->v.fence.fd < 0;

	if (cap->state == REC_CAPTURE_DONE || !cap->has_buffer || (!no_buffer_fd && !no_fence_fd)) {
		return;
	}
	rec_fds_close(cap->fd);
	cap->fd = -1;
	cap->fence_fd = -1;
	cap->state = REC_CAPTURE_DONE;
	cap->status = HWCT_CAPTURE_DROPPED;
	w->captures_no_fd++;
}

/* A layer's (or client target's) buffer interval: what the capture's urgency goes by. */
static void note_interval(struct rec_worker *w, struct rec_event *ev)
{
	bool target = ev->function == HWC2_FUNCTION_SET_CLIENT_TARGET;
	struct rec_wdamage *d = damage_of(w, ev->display, target ? REC_CLIENT_TARGET_KEY : ev->layer, true);

	if (!d) {
		return;
	}
	if (d->last_buffer_ns && ev->t_enter > d->last_buffer_ns) {
		d->interval_ns = ev->t_enter - d->last_buffer_ns;
	}
	d->last_buffer_ns = ev->t_enter;
	ev->capture->interval_ns = d->interval_ns;
}

/* Buffer calls get a capture (which also names the buffer for its Buffer record). */
void rec_worker_attach_capture(struct rec_worker *w, struct rec_event *ev)
{
	struct recorder *r = w->r;
	int handle = -1, fence = -1;

	switch (ev->function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
		handle = REC_ARG_SET_LAYER_BUFFER_BUFFER;
		fence = REC_ARG_SET_LAYER_BUFFER_ACQUIRE_FENCE;
		break;
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		handle = REC_ARG_SET_CLIENT_TARGET_TARGET;
		fence = REC_ARG_SET_CLIENT_TARGET_ACQUIRE_FENCE;
		break;
	case HWC2_FUNCTION_SET_OUTPUT_BUFFER:
		handle = REC_ARG_SET_OUTPUT_BUFFER_BUFFER;
		break;
	case HWC2_FUNCTION_SET_READBACK_BUFFER:
		handle = REC_ARG_SET_READBACK_BUFFER_BUFFER;
		break;
	default:
		return;
	}
	ev->capture = rec_capture_create(ev, handle_arg(ev, handle), fence >= 0 ? fence_fd_arg(ev, fence) : -1,
		rec_display_slot(r, ev->display), &r->cfg);
	if (ev->capture && fence >= 0) {
		drop_without_fds(w, ev->capture, handle_arg(ev, handle), &ev->args[fence]);
		note_interval(w, ev);
	}
	if (ev->capture) {
		rec_release_index_add(&w->releases, ev->capture);
	}
	if (ev->capture && ev->capture->state != REC_CAPTURE_DONE && !rec_pending_add(&w->pending, ev)) {
		/* out of memory for the index: given up (dropped), as a capture nobody would step */
		rec_fds_close(ev->capture->fd);
		ev->capture->fd = -1;
		ev->capture->state = REC_CAPTURE_DONE;
		ev->capture->status = HWCT_CAPTURE_DROPPED;
	}
	if (ev->ticket) {
		struct rec_wdisplay *d = rec_worker_display(w, ev->display);

		d->max_ticket = ev->ticket > d->max_ticket ? ev->ticket : d->max_ticket;
	}
}

void rec_worker_note_release(struct rec_worker *w, const struct rec_event *ev)
{
	if (ev->function == HWC2_FUNCTION_GET_RELEASE_FENCES) {
		const struct rec_arg *layers = &ev->args[REC_ARG_GET_RELEASE_FENCES_OUT_LAYERS];
		const struct rec_arg *fences = &ev->args[REC_ARG_GET_RELEASE_FENCES_OUT_FENCES];
		const uint64_t *ids;
		const struct rec_fence *f;

		if (!layers->present || layers->kind != REC_ARG_ARRAY || fences->kind != REC_ARG_FENCES ||
				fences->count != layers->count) {
			return;
		}
		ids = rec_arg_data(ev, layers);
		f = rec_arg_data(ev, fences);
		for (uint32_t k = 0; k < layers->count; k++) {
			rec_release_index_release(&w->releases, ev->display, false, ids[k], f[k].fd);
		}
	} else if (ev->function == HWC2_FUNCTION_PRESENT_DISPLAY) {
		/* a client target goes back to SurfaceFlinger when the next frame's present fence signals */
		const struct rec_arg *a = &ev->args[REC_ARG_PRESENT_DISPLAY_OUT_PRESENT_FENCE];

		if (ev->error == HWC2_ERROR_NONE) {
			rec_release_index_release(&w->releases, ev->display, true, 0,
				a->kind == REC_ARG_FENCE ? a->v.fence.fd : -1);
		}
	}
}

/*
 * ev is being written: every capture before it is done. What it tells of
 * the buffers whose mappings the captures keep (capture_map.h): set on a
 * layer again, replaced, or gone with their layer or display.
 */
void rec_worker_maps_written(struct rec_worker *w, const struct rec_event *ev)
{
	struct rec_map_cache *c = &w->cctx.maps;
	const struct rec_capture *cap = ev->capture;

	if (ev->type == REC_EV_CALLBACK) {
		if (ev->function == HWC2_CALLBACK_HOTPLUG && ev->has_display &&
				ev->args[REC_CBARG_HOTPLUG_CONNECTION].kind == REC_ARG_INT &&
				ev->args[REC_CBARG_HOTPLUG_CONNECTION].v.i == HWC2_CONNECTION_DISCONNECTED) {
			rec_map_cache_forget(c, ev->display, true, 0);
		}
		return;
	}
	if (ev->type != REC_EV_CALL) {
		return;
	}
	switch (ev->function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		if (cap && cap->has_buffer && cap->has_inode) {
			rec_map_cache_buffer_set(c, cap->display, cap->client_target, cap->layer, cap->buffer_dev,
				cap->buffer_id, rec_now_ns());
		}
		break;
	case HWC2_FUNCTION_DESTROY_LAYER:
		if (ev->error == HWC2_ERROR_NONE) {
			rec_map_cache_forget(c, ev->display, false, ev->layer);
		}
		break;
	case HWC2_FUNCTION_DESTROY_VIRTUAL_DISPLAY:
		if (ev->error == HWC2_ERROR_NONE) {
			rec_map_cache_forget(c, ev->display, true, 0);
		}
		break;
	case HWC2_FUNCTION_PRESENT_DISPLAY:
		rec_map_cache_expire(c, rec_now_ns());
		break;
	default:
		break;
	}
}

void rec_worker_forget_capture(struct rec_worker *w, struct rec_event *ev)
{
	if (ev->capture) {
		rec_release_index_remove(&w->releases, ev->capture);
		rec_pending_remove(&w->pending, ev->capture);
	}
}

/*
 * validate/present of a display: the frame's damage is known, its captures
 * may run. Visits only the display's captures waiting to be armed
 * (pending_index.h), in call order.
 */
void rec_worker_arm(struct rec_worker *w, uint64_t display, bool one_layer, uint64_t layer)
{
	struct rec_capture *cap, *next;

	for (cap = rec_pending_arm_first(&w->pending, display); cap; cap = next) {
		struct rec_event *ev = rec_pending_event(cap);
		struct rec_wdamage *d;

		next = rec_pending_next(cap, REC_PENDING_ARM);
		if (cap->state != REC_CAPTURE_WAIT_ARM) {
			rec_pending_armed(&w->pending, cap);	/* a step armed it: it waited too long */
			continue;
		}
		if (one_layer && (cap->client_target || cap->layer != layer)) {
			continue;
		}
		if (cap->client_target) {
			const struct rec_arg *a = &ev->args[REC_ARG_SET_CLIENT_TARGET_DAMAGE];
			bool hint = a->kind == REC_ARG_REGION && a->count > 0;

			rec_capture_arm(cap, hint ? rec_arg_data(ev, a) : NULL, hint ? a->count : 0, hint);
		} else {
			d = damage_of(w, cap->display, cap->layer, false);
			rec_capture_arm(cap, d ? d->rects : NULL, d ? d->count : 0, d && d->set);
		}
		rec_pending_armed(&w->pending, cap);
	}
}

void rec_worker_arm_all(struct rec_worker *w)
{
	for (struct rec_capture *cap = rec_pending_first(&w->pending); cap; cap = rec_pending_next(cap, REC_PENDING_ALL)) {
		rec_capture_arm(cap, NULL, 0, false);
		rec_pending_armed(&w->pending, cap);
	}
}

/*
 * Steps cap. One buffer's captures run in call order (its delta base must
 * be the previous one): an earlier pending capture of the same buffer is
 * stepped first, in cap's place (it inherits cap's urgency), and cap only
 * once that one is done. A capture that is done leaves the index. Returns
 * whether cap is not done.
 */
static bool step_one(struct rec_worker *w, struct rec_capture *cap, bool force)
{
	if (cap->state == REC_CAPTURE_DONE) {
		/* it ran after every earlier capture of its buffer: none of those is pending */
		return false;
	}
	for (;;) {
		/* the oldest of the buffer's pending captures: cap, or one before it */
		struct rec_capture *first = cap->pending.link[REC_PENDING_BUFFER].listed ?
			rec_pending_first_of_buffer(&w->pending, cap->buffer_id) : cap;
		bool done = rec_capture_step(first, &w->cctx, force);

		if (done) {
			rec_pending_remove(&w->pending, first);
		}
		if (first == cap) {
			return !done;
		}
		if (!done) {
			return true;
		}
	}
}

/*
 * Steps every pending capture, the most urgent first (rec_capture_more_urgent:
 * a layer that gets a new buffer every frame loses its buffer within two
 * frames; one that changes once a second can wait behind it); returns how
 * many are not done.
 */
unsigned rec_worker_step_captures(struct rec_worker *w, bool force)
{
	struct rec_capture *order[STEP_ORDERED], *rest = NULL, *cap, *next;
	unsigned pending = 0, n = 0;
	uint64_t start = rec_now_ns();

	for (cap = rec_pending_first(&w->pending); cap; cap = rec_pending_next(cap, REC_PENDING_ALL)) {
		unsigned k;

		if (n == STEP_ORDERED) {
			rest = cap;
			break;
		}
		/* insertion, stable: equal urgency keeps call order */
		for (k = n; k > 0 && rec_capture_more_urgent(cap, order[k - 1]); k--) {
			order[k] = order[k - 1];
		}
		order[k] = cap;
		n++;
	}
	w->step_cut = false;
	for (unsigned k = 0; k < n; k++) {
		/*
		 * Past the slice, the rest wait for the next pass (pump, worker.c),
		 * after the events queued meanwhile: a status bar's next buffer
		 * must not wait behind every full-screen capture of the pass.
		 */
		if (!force && k > 0 && rec_now_ns() - start > STEP_SLICE_NS) {
			w->step_cut = true;
			pending += n - k;
			return pending + (rest != NULL);
		}
		pending += step_one(w, order[k], force);
	}
	/*
	 * past STEP_ORDERED pending captures (an overload): the rest in call
	 * order (a step removes only the capture it steps and earlier ones)
	 */
	for (cap = rest; cap; cap = next) {
		next = rec_pending_next(cap, REC_PENDING_ALL);
		pending += step_one(w, cap, force);
	}
	return pending;
}

/*
 * Publishes, per display, the highest ticket below which every capture is
 * resolved: below its lowest pending ticket (pending_index.h).
 */
void rec_worker_publish_resolved(struct rec_worker *w)
{
	struct recorder *r = w->r;

	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		struct rec_wdisplay *d = &w->displays[i];
		uint64_t resolved = d->max_ticket, lowest;
		struct rec_display_slot *s;

		if (!d->used) {
			continue;
		}
		lowest = rec_pending_min_ticket(&w->pending, d->id);
		if (lowest && lowest - 1 < resolved) {
			resolved = lowest - 1;
		}
		s = rec_display_slot(r, d->id);
		if (resolved > atomic_load(&s->resolved)) {
			atomic_store(&s->resolved, resolved);
		}
	}
}

/* Outside a session every ticket counts as resolved: nobody will capture them. */
void rec_worker_resolve_all(struct rec_worker *w)
{
	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		struct rec_display_slot *s = &w->r->displays[i];
		uint64_t t = atomic_load(&s->tickets);

		if (atomic_load(&s->resolved) < t) {
			atomic_store(&s->resolved, t);
		}
	}
}
