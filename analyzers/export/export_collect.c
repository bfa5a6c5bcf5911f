/*
 * Records to trace events (export.h). Calls learn their display frame when
 * the display's FrameEnd comes; fences are joined to the call that created
 * them once the whole trace was read (a Fence record follows its frame).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "export.h"

struct index_list {
	size_t *items;
	size_t count, cap;
};

/* The call that passed or returned a fence. */
struct creation {
	uint64_t fence;
	size_t event;			/* NOT_EXPORTED: a call of a display left out (--display) */
};

#define NOT_EXPORTED SIZE_MAX

struct signal {
	uint64_t fence;
	int32_t kind, status;
	bool has_display;
	uint64_t display;
	int64_t signal_ns;
};

struct collector {
	struct export_events *ev;
	struct index_list *pending;	/* per display index: calls waiting for their FrameEnd */
	struct creation *creations;
	size_t creation_count, creation_cap;
	struct signal *signals;
	size_t signal_count, signal_cap;
};

static int grow(void **items, size_t *cap, size_t count, size_t size)
{
	size_t n;
	void *p;

	if (count < *cap) {
		return 0;
	}
	n = *cap ? *cap * 2 : 64;
	p = realloc(*items, n * size);
	if (!p) {
		return -ENOMEM;
	}
	*items = p;
	*cap = n;
	return 0;
}

static struct export_event *add_event(struct export_events *ev, enum export_kind kind, int64_t ts, uint32_t pid,
	uint32_t tid)
{
	struct export_event *e;

	if (grow((void **)&ev->events, &ev->cap, ev->count, sizeof(*e)) < 0) {
		return NULL;
	}
	e = &ev->events[ev->count];
	*e = (struct export_event){ .kind = kind, .order = ev->count, .ts_ns = ts, .pid = pid, .tid = tid };
	ev->count++;
	return e;
}

static int add_track(struct export_track **tracks, size_t *count, uint32_t pid, uint32_t tid, const char *name,
	bool rename)
{
	struct export_track *t;

	for (size_t i = 0; i < *count; i++) {
		if ((*tracks)[i].pid == pid && (*tracks)[i].tid == tid) {
			if (rename) {
				snprintf((*tracks)[i].name, sizeof((*tracks)[i].name), "%s", name);
			}
			return 0;
		}
	}
	t = realloc(*tracks, (*count + 1) * sizeof(*t));
	if (!t) {
		return -ENOMEM;
	}
	*tracks = t;
	t = &t[(*count)++];
	*t = (struct export_track){ .pid = pid, .tid = tid };
	snprintf(t->name, sizeof(t->name), "%s", name);
	return 0;
}

/* The pid of a display, its tracks named on first sight; 0 on ENOMEM. */
static uint32_t display_pid(struct collector *c, uint64_t display, size_t *index)
{
	struct export_events *ev = c->ev;
	char name[96];
	uint64_t *ids;
	struct index_list *pending;
	uint32_t pid;
	size_t i;

	for (i = 0; i < ev->display_count; i++) {
		if (ev->display_ids[i] == display) {
			*index = i;
			return EXPORT_PID_FIRST_DISPLAY + (uint32_t)i;
		}
	}
	ids = realloc(ev->display_ids, (i + 1) * sizeof(*ids));
	if (!ids) {
		return 0;
	}
	ev->display_ids = ids;
	pending = realloc(c->pending, (i + 1) * sizeof(*pending));
	if (!pending) {
		return 0;
	}
	c->pending = pending;
	pending[i] = (struct index_list){ 0 };
	ids[i] = display;
	ev->display_count++;
	pid = EXPORT_PID_FIRST_DISPLAY + (uint32_t)i;
	snprintf(name, sizeof(name), "display %" PRIu64, display);
	if (add_track(&ev->processes, &ev->process_count, pid, 0, name, false) < 0 ||
		add_track(&ev->threads, &ev->thread_count, pid, EXPORT_TID_COMPOSITION, "validate/present", false) < 0 ||
		add_track(&ev->threads, &ev->thread_count, pid, EXPORT_TID_FENCES, "fences", false) < 0 ||
		add_track(&ev->threads, &ev->thread_count, pid, EXPORT_TID_CALLBACKS, "callbacks", false) < 0) {
		return 0;
	}
	*index = i;
	return pid;
}

/* Whether a record of display is exported: every display's, or only --display's. */
static bool exported(const struct collector *c, bool has_display, uint64_t display)
{
	return !has_display || c->ev->display == UINT64_MAX || c->ev->display == display;
}

/* The fences call passed or returned (ids, 0 for none) into *created; returns their count. */
static size_t created_fences(const Hwct__Call *call, uint64_t *one, const uint64_t **created)
{
	*created = one;
	switch (call->args_case) {
	case HWCT__CALL__ARGS_BUFFER:
		*one = call->buffer->fence;
		return 1;
	case HWCT__CALL__ARGS_PRESENT:
		*one = call->present->present_fence;
		return 1;
	case HWCT__CALL__ARGS_READBACK:
		*one = call->readback->fence;
		return 1;
	case HWCT__CALL__ARGS_RELEASE_FENCES:
		*created = call->release_fences->fences;
		return call->release_fences->n_fences;
	default:
		return 0;
	}
}

/* Notes the fences call created, as made by event (NOT_EXPORTED: by a call left out). */
static int note_creations(struct collector *c, const Hwct__Call *call, size_t event)
{
	uint64_t one;
	const uint64_t *created;
	size_t count = created_fences(call, &one, &created);

	for (size_t i = 0; i < count; i++) {
		if (!created[i]) {
			continue;	/* no fence */
		}
		if (grow((void **)&c->creations, &c->creation_cap, c->creation_count, sizeof(*c->creations)) < 0) {
			return -ENOMEM;
		}
		c->creations[c->creation_count++] = (struct creation){ created[i], event };
	}
	return 0;
}

static int note_call(struct collector *c, const Hwct__Call *call)
{
	struct export_events *ev = c->ev;
	uint32_t pid = EXPORT_PID_GLOBAL, tid = call->thread;
	struct export_event *e;
	size_t display = 0, index;
	char name[32];

	if (!exported(c, call->has_display, call->display)) {
		return note_creations(c, call, NOT_EXPORTED);
	}
	if (call->has_display && !(pid = display_pid(c, call->display, &display))) {
		return -ENOMEM;
	}
	if (call->has_display && (call->function == HWC2_FUNCTION_VALIDATE_DISPLAY ||
		call->function == HWC2_FUNCTION_PRESENT_DISPLAY)) {
		tid = EXPORT_TID_COMPOSITION;
	} else {
		snprintf(name, sizeof(name), "thread %u", tid);
		if (add_track(&ev->threads, &ev->thread_count, pid, tid, name, false) < 0) {
			return -ENOMEM;
		}
	}
	e = add_event(ev, EXPORT_CALL, (int64_t)call->t_enter_ns, pid, tid);
	if (!e) {
		return -ENOMEM;
	}
	index = ev->count - 1;
	e->dur_ns = call->t_exit_ns > call->t_enter_ns ? (int64_t)(call->t_exit_ns - call->t_enter_ns) : 0;
	e->code = call->function;
	e->error = call->error;
	e->has_display = call->has_display;
	e->display = call->display;
	e->has_layer = call->has_layer;
	e->layer = call->layer;
	e->seq = call->seq;
	e->thread = call->thread;
	ev->calls++;
	if (call->has_display) {
		struct index_list *l = &c->pending[display];

		if (grow((void **)&l->items, &l->cap, l->count, sizeof(*l->items)) < 0) {
			return -ENOMEM;
		}
		l->items[l->count++] = index;
	}
	return note_creations(c, call, index);
}

static int note_frame_end(struct collector *c, const Hwct__FrameEnd *fe)
{
	struct export_events *ev = c->ev;
	struct export_event *e;
	struct index_list *l;
	size_t display;
	uint32_t pid;

	if (!exported(c, true, fe->display)) {
		return 0;
	}
	if (!(pid = display_pid(c, fe->display, &display))) {
		return -ENOMEM;
	}
	l = &c->pending[display];
	for (size_t i = 0; i < l->count; i++) {
		ev->events[l->items[i]].has_frame = true;
		ev->events[l->items[i]].frame = fe->frame;
	}
	l->count = 0;
	e = add_event(ev, EXPORT_FRAME_END, (int64_t)fe->t_ns, pid, EXPORT_TID_COMPOSITION);
	if (!e) {
		return -ENOMEM;
	}
	e->has_display = e->has_frame = true;
	e->display = fe->display;
	e->frame = fe->frame;
	e->value = (int64_t)fe->display_frame;
	e->value2 = fe->flags;
	e->fence = fe->present_fence;
	ev->frames++;
	return 0;
}

static int note_callback(struct collector *c, const Hwct__Callback *cb)
{
	uint32_t pid = EXPORT_PID_GLOBAL, tid = EXPORT_TID_CALLBACKS;
	struct export_event *e;
	size_t display;

	if (!exported(c, cb->has_display, cb->display)) {
		return 0;
	}
	if (cb->has_display && !(pid = display_pid(c, cb->display, &display))) {
		return -ENOMEM;
	}
	if (!cb->has_display && add_track(&c->ev->threads, &c->ev->thread_count, pid, tid, "callbacks", false) < 0) {
		return -ENOMEM;
	}
	e = add_event(c->ev, EXPORT_CALLBACK, (int64_t)cb->t_ns, pid, tid);
	if (!e) {
		return -ENOMEM;
	}
	e->code = cb->descriptor;
	e->has_display = cb->has_display;
	e->display = cb->display;
	e->value = cb->descriptor == HWC2_CALLBACK_HOTPLUG ? cb->connection : cb->timestamp_ns;
	e->value2 = cb->vsync_period_ns;
	c->ev->callbacks++;
	return 0;
}

static int note_record(struct collector *c, const Hwct__Record *rec)
{
	struct export_events *ev = c->ev;
	char name[96];
	size_t display;
	uint32_t pid;

	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		return note_call(c, rec->call);
	case HWCT__RECORD__KIND_FRAME_END:
		return note_frame_end(c, rec->frame_end);
	case HWCT__RECORD__KIND_CALLBACK:
		return note_callback(c, rec->callback);
	case HWCT__RECORD__KIND_FENCE: {
		const Hwct__Fence *f = rec->fence;

		if (!exported(c, f->has_display, f->display)) {
			return 0;
		}
		if (grow((void **)&c->signals, &c->signal_cap, c->signal_count, sizeof(*c->signals)) < 0) {
			return -ENOMEM;
		}
		c->signals[c->signal_count++] = (struct signal){
			.fence = f->id, .kind = f->kind, .status = f->status,
			.has_display = f->has_display, .display = f->display,
			.signal_ns = f->has_signal_ns ? (int64_t)f->signal_ns : -1,
		};
		return 0;
	}
	case HWCT__RECORD__KIND_DISPLAY:
		if (!exported(c, true, rec->display->id)) {
			return 0;
		}
		if (!(pid = display_pid(c, rec->display->id, &display))) {
			return -ENOMEM;
		}
		snprintf(name, sizeof(name), "display %" PRIu64 "%s%s%s", rec->display->id,
			rec->display->name && *rec->display->name ? " (" : "", rec->display->name ? rec->display->name : "",
			rec->display->name && *rec->display->name ? ")" : "");
		return add_track(&ev->processes, &ev->process_count, pid, 0, name, true);
	case HWCT__RECORD__KIND_ENVIRONMENT:
		if (rec->environment->process && *rec->environment->process) {
			snprintf(name, sizeof(name), "hwc2 (%s)", rec->environment->process);
			return add_track(&ev->processes, &ev->process_count, EXPORT_PID_GLOBAL, 0, name, true);
		}
		return 0;
	default:
		return 0;
	}
}

static int by_fence_creation(const void *a, const void *b)
{
	const struct creation *x = a, *y = b;

	if (x->fence != y->fence) {
		return x->fence < y->fence ? -1 : 1;
	}
	return x->event < y->event ? -1 : x->event > y->event;
}

/* Instants at the signals; flows from the creating calls to them. */
static int join_fences(struct collector *c)
{
	struct export_events *ev = c->ev;

	if (c->creation_count) {
		qsort(c->creations, c->creation_count, sizeof(*c->creations), by_fence_creation);
	}
	for (size_t i = 0; i < c->signal_count; i++) {
		const struct signal *s = &c->signals[i];
		const struct creation *cr = NULL;
		struct creation key = { s->fence, 0 };
		struct export_event *e, call;
		uint32_t pid = EXPORT_PID_GLOBAL;
		size_t lo = 0, hi = c->creation_count, display;

		if (s->signal_ns < 0) {
			continue;	/* never signalled */
		}
		while (lo < hi) {	/* the first creation of that fence */
			size_t mid = lo + (hi - lo) / 2;

			if (by_fence_creation(&c->creations[mid], &key) < 0) {
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		if (lo < c->creation_count && c->creations[lo].fence == s->fence) {
			cr = &c->creations[lo];
		}
		if (cr && cr->event == NOT_EXPORTED) {
			continue;	/* created by a call of a display left out */
		}
		if (s->has_display && !(pid = display_pid(c, s->display, &display))) {
			return -ENOMEM;
		} else if (!s->has_display && cr) {
			pid = ev->events[cr->event].pid;
		}
		if (pid == EXPORT_PID_GLOBAL &&
			add_track(&ev->threads, &ev->thread_count, pid, EXPORT_TID_FENCES, "fences", false) < 0) {
			return -ENOMEM;
		}
		call = cr ? ev->events[cr->event] : (struct export_event){ 0 };
		e = add_event(ev, EXPORT_FENCE_SIGNAL, s->signal_ns, pid, EXPORT_TID_FENCES);
		if (!e) {
			return -ENOMEM;
		}
		e->code = s->kind;
		e->error = s->status;
		e->fence = s->fence;
		e->has_display = s->has_display || cr;
		e->display = s->has_display ? s->display : call.display;
		e->has_frame = cr && call.has_frame;
		e->frame = call.frame;
		e->has_layer = cr && call.has_layer;
		e->layer = call.layer;
		ev->fences++;
		if (!cr || s->signal_ns < call.ts_ns + call.dur_ns / 2) {
			continue;	/* no call to start from, or it signalled before it crossed */
		}
		/* inside the call's slice, which the flow binds to */
		e = add_event(ev, EXPORT_FLOW_START, call.ts_ns + call.dur_ns / 2, call.pid, call.tid);
		if (!e) {
			return -ENOMEM;
		}
		e->fence = s->fence;
		e = add_event(ev, EXPORT_FLOW_END, s->signal_ns, pid, EXPORT_TID_FENCES);
		if (!e) {
			return -ENOMEM;
		}
		e->fence = s->fence;
		ev->flows++;
	}
	return 0;
}

int export_collect(struct hwct_reader *r, uint64_t display, struct export_events *ev)
{
	struct collector c = { .ev = ev };
	const Hwct__Record *rec;
	int ret;

	ev->display = display;
	ev->complete = true;
	ret = add_track(&ev->processes, &ev->process_count, EXPORT_PID_GLOBAL, 0, "hwc2", false);
	while (ret == 0 && (ret = hwct_reader_next(r, &rec)) > 0) {
		ret = note_record(&c, rec);
	}
	if (ret < 0) {
		ev->complete = false;
		if (hwct_reader_error(r)) {
			ev->error = *hwct_reader_error(r);
		} else {
			hwct_error_set(&ev->error, ret, hwct_reader_name(r), UINT64_MAX, "out of memory");
		}
	}
	if (ret != -ENOMEM) {
		int join = join_fences(&c);

		ret = ret < 0 ? ret : join;
	}
	for (size_t i = 0; i < ev->display_count; i++) {
		free(c.pending[i].items);
	}
	free(c.pending);
	free(c.creations);
	free(c.signals);
	return ret;
}

void export_events_finish(struct export_events *ev)
{
	free(ev->events);
	free(ev->processes);
	free(ev->threads);
	free(ev->display_ids);
	*ev = (struct export_events){ 0 };
}
