/*
 * Collecting `hwc-trace stats` (stats.h): a pass over the records for what
 * the frame model does not keep (capture statuses, CaptureStats), then one
 * over the frame model. Fences usually signal after their frame, so their
 * ids are collected and resolved once the whole trace was read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/frame.h>
#include <hwct/hwc2_names.h>

#include "stats.h"

enum fence_use {
	USE_ACQUIRE,
	USE_PRESENT,
	USE_RELEASE,
};

struct id_list {
	uint64_t *ids;			/* owned */
	size_t count, cap;
};

/* A fence met in a frame, resolved at the end. */
struct pending_fence {
	uint64_t id;
	int64_t start_ns;		/* what its latency is measured from */
	size_t display;			/* index into facts->displays */
	enum fence_use use;
};

struct collector {
	struct stats_facts *facts;
	struct hwct_frame_iter *it;	/* the frame-model pass */
	struct pending_fence *fences;
	size_t fence_count, fence_cap;
	struct id_list *buffers;	/* per display index: buffer ids on layers, duplicates kept */
	struct id_list seen;		/* every display's id, --display or not */
};

static struct stats_display *display_entry(struct collector *c, uint64_t id, size_t *index)
{
	struct stats_facts *facts = c->facts;
	struct stats_display *d;
	struct id_list *b;
	size_t n = facts->display_count;

	for (size_t i = 0; i < n; i++) {
		if (facts->displays[i].id == id) {
			*index = i;
			return &facts->displays[i];
		}
	}
	d = realloc(facts->displays, (n + 1) * sizeof(*d));
	if (!d) {
		return NULL;
	}
	facts->displays = d;
	d[n] = (struct stats_display){ .id = id, .layers_min = SIZE_MAX };
	b = realloc(c->buffers, (n + 1) * sizeof(*b));
	if (!b) {
		return NULL;
	}
	c->buffers = b;
	b[n] = (struct id_list){ 0 };
	facts->display_count++;
	*index = n;
	return &d[n];
}

static int push_id(struct id_list *l, uint64_t id)
{
	if (l->count == l->cap) {
		size_t n = l->cap ? l->cap * 2 : 64;
		uint64_t *p = realloc(l->ids, n * sizeof(*p));

		if (!p) {
			return -ENOMEM;
		}
		l->ids = p;
		l->cap = n;
	}
	l->ids[l->count++] = id;
	return 0;
}

static int push_latency(struct stats_latency *l, int64_t ns)
{
	if (l->count == l->cap) {
		size_t n = l->cap ? l->cap * 2 : 64;
		int64_t *p = realloc(l->values, n * sizeof(*p));

		if (!p) {
			return -ENOMEM;
		}
		l->values = p;
		l->cap = n;
	}
	l->values[l->count++] = ns;
	return 0;
}

static int push_fence(struct collector *c, uint64_t id, int64_t start_ns, size_t display, enum fence_use use)
{
	if (!id || start_ns < 0) {
		return 0;	/* no fence (already signalled), or nothing to measure from */
	}
	if (c->fence_count == c->fence_cap) {
		size_t n = c->fence_cap ? c->fence_cap * 2 : 256;
		struct pending_fence *p = realloc(c->fences, n * sizeof(*p));

		if (!p) {
			return -ENOMEM;
		}
		c->fences = p;
		c->fence_cap = n;
	}
	c->fences[c->fence_count++] = (struct pending_fence){ id, start_ns, display, use };
	return 0;
}

/* ---------------------------------------------------------- records pass */

/* Counts display among the trace's; returns whether it has its section (every one, or --display's). */
static int shown(struct collector *c, uint64_t display)
{
	size_t i = 0;

	while (i < c->seen.count && c->seen.ids[i] != display) {
		i++;
	}
	if (i == c->seen.count && push_id(&c->seen, display) < 0) {
		return -ENOMEM;
	}
	c->facts->trace_displays = c->seen.count;
	return c->facts->display == UINT64_MAX || c->facts->display == display;
}

static int note_record(struct collector *c, const Hwct__Record *rec)
{
	struct stats_facts *facts = c->facts;
	struct stats_display *d;
	size_t index;

	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL: {
		const Hwct__Call *call = rec->call;
		int32_t capture;
		int show;

		if (call->function != HWC2_FUNCTION_SET_LAYER_BUFFER || call->args_case != HWCT__CALL__ARGS_BUFFER ||
			!call->has_display) {
			return 0;
		}
		if ((show = shown(c, call->display)) <= 0) {
			return show;
		}
		d = display_entry(c, call->display, &index);
		if (!d) {
			return -ENOMEM;
		}
		capture = call->buffer->has_capture ? call->buffer->capture : HWCT_CAPTURE_OK;
		d->capture[capture >= 0 && capture < STATS_CAPTURES - 1 ? capture : STATS_CAPTURES - 1]++;
		return 0;
	}
	case HWCT__RECORD__KIND_CAPTURE_STATS: {
		const Hwct__CaptureStats *cs = rec->capture_stats;

		/* the counters are cumulative: the last record has the totals */
		facts->capture_stats++;
		facts->blobs_dropped = cs->blobs_dropped;
		facts->bytes_dropped = cs->bytes_dropped;
		facts->records_dropped = cs->records_dropped;
		facts->frames_capture_late = cs->frames_capture_late;
		facts->has_fd_budget = cs->has_fd_budget;
		facts->fd_budget = cs->fd_budget;
		facts->fds_held_peak = cs->fds_held_peak;
		facts->captures_no_fd = cs->captures_no_fd;
		facts->fences_unwatched = cs->fences_unwatched;
		facts->has_worker_wakes = cs->has_worker_wakes;
		facts->worker_wakes = cs->worker_wakes;
		return 0;
	}
	case HWCT__RECORD__KIND_FRAME_END:
		facts->capture_late_frames += (rec->frame_end->flags & HWCT_FRAME_CAPTURE_LATE) != 0;
		return 0;
	default:
		return 0;
	}
}

/* -------------------------------------------------------- frame-model pass */

static bool on_device(int32_t composition)
{
	switch (composition) {
	case HWC2_COMPOSITION_DEVICE:
	case HWC2_COMPOSITION_SOLID_COLOR:
	case HWC2_COMPOSITION_CURSOR:
	case HWC2_COMPOSITION_SIDEBAND:
	case HWC2_COMPOSITION_DISPLAY_DECORATION:
		return true;
	default:
		return false;
	}
}

/* Pixels of r inside (0, 0, width, height); not clipped when the mode is unknown. */
static double clipped_area(const struct hwct_rect *r, int32_t width, int32_t height)
{
	int64_t l = r->left, t = r->top, rt = r->right, b = r->bottom;

	if (width > 0 && height > 0) {
		l = l < 0 ? 0 : l;
		t = t < 0 ? 0 : t;
		rt = rt > width ? width : rt;
		b = b > height ? height : b;
	}
	return rt > l && b > t ? (double)(rt - l) * (double)(b - t) : 0.0;
}

static int note_frame(struct collector *c, const struct hwct_frame *f)
{
	struct stats_display *d;
	bool client = false;
	size_t index;
	int ret = shown(c, f->display);

	c->facts->frames++;
	if (ret <= 0) {
		return ret;
	}
	ret = 0;
	d = display_entry(c, f->display, &index);
	if (!d) {
		return -ENOMEM;
	}
	if (!d->frames) {
		const Hwct__Display *info = hwct_frame_iter_display(c->it, f->display);

		d->t_first = f->t_ns;
		if (info && info->name) {
			snprintf(d->name, sizeof(d->name), "%s", info->name);
		}
	}
	d->t_last = f->t_ns;
	d->frames++;
	d->validated_frames += f->validated;
	if (f->width > 0 && f->height > 0) {
		d->width = f->width;
		d->height = f->height;
	}
	d->layers += f->layer_count;
	d->layers_min = f->layer_count < d->layers_min ? f->layer_count : d->layers_min;
	d->layers_max = f->layer_count > d->layers_max ? f->layer_count : d->layers_max;
	for (size_t i = 0; i < f->layer_count && ret == 0; i++) {
		const struct hwct_layer *l = &f->layers[i];
		double area = clipped_area(&l->display_frame, f->width, f->height);

		d->composition[l->final >= 0 && l->final < STATS_COMPOSITIONS - 1 ? l->final : STATS_COMPOSITIONS - 1]++;
		d->layer_pixels += area;
		if (l->final == HWC2_COMPOSITION_CLIENT) {
			d->client_layers++;
			d->client_pixels += area;
			client = true;
		} else if (on_device(l->final)) {
			d->device_layers++;
		}
		if (l->buffer.buffer) {
			ret = push_id(&c->buffers[index], l->buffer.buffer);
		}
		if (ret == 0) {
			ret = push_fence(c, l->buffer.acquire.id, l->buffer.acquire.created_ns, index, USE_ACQUIRE);
		}
		if (ret == 0) {
			ret = push_fence(c, l->release.id, l->release.created_ns, index, USE_RELEASE);
		}
	}
	d->client_frames += client;
	if (ret == 0) {
		ret = push_fence(c, f->present.id, (int64_t)f->t_ns, index, USE_PRESENT);
	}
	return ret;
}

static int compare_pending(const void *a, const void *b)
{
	const struct pending_fence *x = a, *y = b;

	if (x->use != y->use) {
		return x->use < y->use ? -1 : 1;
	}
	if (x->id != y->id) {
		return x->id < y->id ? -1 : 1;
	}
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

static int compare_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Each fence once (a layer keeps its acquire fence over frames), then its latency. */
static int resolve_fences(struct collector *c, struct hwct_frame_iter *it)
{
	int ret = 0;

	if (c->fence_count) {
		qsort(c->fences, c->fence_count, sizeof(*c->fences), compare_pending);
	}
	for (size_t i = 0; i < c->fence_count && ret == 0; i++) {
		const struct pending_fence *p = &c->fences[i];
		struct stats_display *d = &c->facts->displays[p->display];
		struct stats_latency *l = p->use == USE_ACQUIRE ? &d->acquire :
			p->use == USE_PRESENT ? &d->present : &d->release;
		struct hwct_fence_time t;

		if (i > 0 && c->fences[i - 1].id == p->id && c->fences[i - 1].use == p->use) {
			continue;
		}
		if (!hwct_frame_iter_fence(it, p->id, &t) || t.signal_ns < 0) {
			l->unsignalled++;
		} else if (t.status < 0) {
			l->errors++;
		} else {
			/* an acquire fence may have signalled before the call that passed it */
			ret = push_latency(l, t.signal_ns > p->start_ns ? t.signal_ns - p->start_ns : 0);
		}
	}
	for (size_t i = 0; i < c->facts->display_count; i++) {
		struct stats_display *d = &c->facts->displays[i];
		struct stats_latency *all[] = { &d->acquire, &d->present, &d->release };

		for (size_t k = 0; k < 3; k++) {
			if (all[k]->count) {
				qsort(all[k]->values, all[k]->count, sizeof(int64_t), compare_i64);
			}
		}
		if (c->buffers[i].count) {
			qsort(c->buffers[i].ids, c->buffers[i].count, sizeof(uint64_t), compare_u64);
		}
		for (size_t k = 0; k < c->buffers[i].count; k++) {
			d->buffers += k == 0 || c->buffers[i].ids[k] != c->buffers[i].ids[k - 1];
		}
		if (d->layers_min == SIZE_MAX) {
			d->layers_min = 0;
		}
	}
	return ret;
}

static int by_id(const void *a, const void *b)
{
	const struct stats_display *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void note_error(struct stats_facts *facts, struct hwct_reader *r, int ret)
{
	if (!facts->complete) {
		return;	/* keep the first */
	}
	facts->complete = false;
	if (hwct_reader_error(r)) {
		facts->error = *hwct_reader_error(r);
	} else {
		hwct_error_set(&facts->error, ret, hwct_reader_name(r), UINT64_MAX, "%s",
			ret == -ENOMEM ? "out of memory" : strerror(-ret));
	}
}

int stats_collect(struct hwct_reader *r, uint64_t display, struct stats_facts *facts)
{
	struct collector c = { .facts = facts };
	struct hwct_frame_iter *it;
	const struct hwct_frame *f;
	const Hwct__Record *rec;
	int ret, first_error = 0;

	facts->trace = hwct_reader_info(r);
	facts->display = display;
	facts->complete = true;
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		ret = note_record(&c, rec);
		if (ret < 0) {
			break;
		}
	}
	if (ret < 0) {
		note_error(facts, r, ret);
		first_error = ret;
	}
	it = hwct_frame_iter_create(r);
	c.it = it;
	ret = it ? hwct_reader_rewind(r) : -ENOMEM;
	while (ret == 0 && (ret = hwct_frame_iter_next(it, &f)) > 0) {
		ret = note_frame(&c, f);
	}
	if (ret < 0) {
		note_error(facts, r, ret);
		first_error = first_error ? first_error : ret;
	}
	if (it && (ret = resolve_fences(&c, it)) < 0) {
		note_error(facts, r, ret);
		first_error = first_error ? first_error : ret;
	}
	hwct_frame_iter_destroy(it);
	for (size_t i = 0; i < facts->display_count; i++) {
		free(c.buffers[i].ids);
	}
	free(c.buffers);
	free(c.fences);
	free(c.seen.ids);
	if (facts->display_count) {
		qsort(facts->displays, facts->display_count, sizeof(*facts->displays), by_id);
	}
	return first_error;
}

void stats_facts_finish(struct stats_facts *facts)
{
	for (size_t i = 0; i < facts->display_count; i++) {
		free(facts->displays[i].acquire.values);
		free(facts->displays[i].present.values);
		free(facts->displays[i].release.values);
	}
	free(facts->displays);
	*facts = (struct stats_facts){ 0 };
}

struct stats_percentiles stats_latency_percentiles(const struct stats_latency *l)
{
	struct stats_percentiles p = { 0 };
	/* nearest rank: the smallest value with at least q of the values at or below it */
	size_t n = l->count;

	if (!n) {
		return p;
	}
	p.p50 = l->values[(n * 50 + 99) / 100 - 1];
	p.p90 = l->values[(n * 90 + 99) / 100 - 1];
	p.p99 = l->values[(n * 99 + 99) / 100 - 1];
	p.max = l->values[n - 1];
	return p;
}

double stats_frame_rate(const struct stats_display *d)
{
	if (d->frames < 2 || d->t_last <= d->t_first) {
		return 0.0;
	}
	return (double)(d->frames - 1) * 1e9 / (double)(d->t_last - d->t_first);
}

double stats_efficiency(const struct stats_display *d)
{
	return d->layer_pixels > 0.0 ? 1.0 - d->client_pixels / d->layer_pixels : -1.0;
}

double stats_offload(const struct stats_display *d)
{
	uint64_t n = d->device_layers + d->client_layers;

	return n ? (double)d->device_layers / (double)n : -1.0;
}

double stats_bytes_per_frame(const struct stats_facts *facts)
{
	return facts->frames ? (double)facts->trace->stored_bytes / (double)facts->frames : 0.0;
}

const char *stats_composition_name(size_t i)
{
	const char *name = i + 1 < STATS_COMPOSITIONS ? hwct_hwc2_composition_name((int32_t)i) : NULL;

	return name ? name : "OTHER";
}

const char *stats_capture_name(size_t i)
{
	const char *name = i + 1 < STATS_CAPTURES ? hwct_capture_status_name((int32_t)i) : NULL;

	return name ? name : "OTHER";
}
