/*
 * The trace side of `hwc-trace report` (report.h): a pass over the records
 * for what the frame model does not keep (Environment, CaptureStats, frame
 * flags), then one over the frame model. Each distinct layer state and each
 * distinct stack of them is kept once as JSON text, so a long trace of a
 * steady screen stays small. Fences usually signal after their frame: their
 * ids are kept and resolved once the whole trace was read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/frame.h>
#include <hwct/hwc2_names.h>

#include "report.h"

enum fence_use {
	USE_ACQUIRE,
	USE_PRESENT,
	USE_RELEASE,
};

struct pending_fence {
	uint64_t id;
	int64_t start_ns;		/* what the latency is measured from */
	size_t frame;			/* index into t->frames */
	enum fence_use use;
};

struct collector {
	struct report_trace *t;
	struct hwct_frame_iter *it;
	struct pending_fence *fences;	/* owned */
	size_t fence_count, fence_cap;
};

static void name_or_number(FILE *f, const char *name, int32_t value)
{
	if (name) {
		report_json_cstr(f, name);
	} else {
		fprintf(f, "%" PRId32, value);
	}
}

static void key_values(FILE *f, Hwct__KeyValue *const *kv, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",[" : "[", f);
		report_json_cstr(f, kv[i]->key);
		fputc(',', f);
		report_json_cstr(f, kv[i]->value);
		fputc(']', f);
	}
	fputc(']', f);
}

/* The Environment as a JSON object (strings null when absent). Returns 0 or -ENOMEM. */
static int environment_json(struct report_trace *t, const Hwct__Environment *e)
{
	const struct {
		const char *key;
		const char *value;
	} strings[] = {
		{ "source", e->source }, { "host", e->host }, { "process", e->process }, { "kernel", e->kernel },
		{ "machine", e->machine }, { "android_fingerprint", e->android_fingerprint },
		{ "mesa_version", e->mesa_version }, { "libdrm_version", e->libdrm_version },
		{ "hwc2_module", e->hwc2_module },
	};
	size_t size = 0;
	FILE *f = open_memstream(&t->environment_json, &size);

	if (!f) {
		return -ENOMEM;
	}
	fputc('{', f);
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		fprintf(f, "%s\"%s\":", i ? "," : "", strings[i].key);
		report_json_cstr(f, strings[i].value);
	}
	fputs(",\"pid\":", f);
	if (e->has_pid) {
		fprintf(f, "%" PRId32, e->pid);
	} else {
		fputs("null", f);
	}
	fputs(",\"hwc2_capabilities\":[", f);
	for (size_t i = 0; i < e->n_hwc2_capabilities; i++) {
		fputs(i ? "," : "", f);
		name_or_number(f, hwct_hwc2_capability_name(e->hwc2_capabilities[i]), e->hwc2_capabilities[i]);
	}
	fputs("],\"android_props\":", f);
	key_values(f, e->android_props, e->n_android_props);
	fputs(",\"extra\":", f);
	key_values(f, e->extra, e->n_extra);
	fprintf(f, ",\"kms_snapshot\":%s}", e->kms_snapshot_json && *e->kms_snapshot_json ? "true" : "false");
	return fclose(f) == 0 ? 0 : -ENOMEM;
}

static int note_record(struct report_trace *t, const Hwct__Record *rec)
{
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_ENVIRONMENT:
		return t->environment_json ? 0 : environment_json(t, rec->environment);
	case HWCT__RECORD__KIND_CAPTURE_STATS:
		/* cumulative counters: the last record has the totals */
		t->blobs_dropped = rec->capture_stats->blobs_dropped;
		t->bytes_dropped = rec->capture_stats->bytes_dropped;
		t->records_dropped = rec->capture_stats->records_dropped;
		t->frames_capture_late = rec->capture_stats->frames_capture_late;
		return 0;
	case HWCT__RECORD__KIND_FRAME_END:
		t->capture_late_frames += (rec->frame_end->flags & HWCT_FRAME_CAPTURE_LATE) != 0;
		return 0;
	default:
		return 0;
	}
}

static int push_fence(struct collector *c, uint64_t id, int64_t start_ns, enum fence_use use)
{
	if (!id || start_ns < 0) {
		return 0;	/* no fence (already signalled), or nothing to measure from */
	}
	if (c->fence_count == c->fence_cap) {
		size_t n = c->fence_cap ? c->fence_cap * 2 : 1024;
		struct pending_fence *p = realloc(c->fences, n * sizeof(*p));

		if (!p) {
			return -ENOMEM;
		}
		c->fences = p;
		c->fence_cap = n;
	}
	c->fences[c->fence_count++] = (struct pending_fence){ id, start_ns, c->t->frame_count, use };
	return 0;
}

static struct report_display *display_entry(struct report_trace *t, uint64_t id)
{
	struct report_display *d;

	for (size_t i = 0; i < t->display_count; i++) {
		if (t->displays[i].id == id) {
			return &t->displays[i];
		}
	}
	d = realloc(t->displays, (t->display_count + 1) * sizeof(*d));
	if (!d) {
		return NULL;
	}
	t->displays = d;
	d = &d[t->display_count++];
	*d = (struct report_display){ .id = id };
	return d;
}

/* Pixels of r inside (0, 0, width, height); not clipped when the mode is unknown. */
static double clipped_area(const struct hwct_rect *r, int32_t width, int32_t height)
{
	int64_t l = r->left, tp = r->top, rt = r->right, b = r->bottom;

	if (width > 0 && height > 0) {
		l = l < 0 ? 0 : l;
		tp = tp < 0 ? 0 : tp;
		rt = rt > width ? width : rt;
		b = b > height ? height : b;
	}
	return rt > l && b > tp ? (double)(rt - l) * (double)(b - tp) : 0.0;
}

static void fourcc(FILE *f, uint32_t code)
{
	char s[4];

	for (size_t i = 0; i < 4; i++) {
		s[i] = (char)(code >> (8 * i));
	}
	report_json_string(f, s, 4);
}

/* One layer's state as JSON text (what the frame view shows). */
static void layer_json(FILE *f, const struct hwct_layer *l)
{
	const Hwct__Buffer *b = l->buffer.info;

	fprintf(f, "{\"id\":%" PRIu64 ",\"z\":%" PRId32 ",\"req\":", l->id, l->z);
	name_or_number(f, hwct_hwc2_composition_name(l->requested), l->requested);
	fputs(",\"fin\":", f);
	name_or_number(f, hwct_hwc2_composition_name(l->final), l->final);
	if (l->buffer.buffer) {
		fprintf(f, ",\"buf\":%" PRIu64, l->buffer.buffer);
	} else {
		fputs(",\"buf\":null", f);
	}
	if (b) {
		fprintf(f, ",\"size\":[%" PRIu32 ",%" PRIu32 "],\"fmt\":", b->width, b->height);
		if (b->has_drm_format && b->drm_format) {
			fourcc(f, b->drm_format);
		} else {
			fputs("null", f);
		}
		fputs(",\"hal\":", f);
		if (b->has_hal_format) {
			name_or_number(f, hwct_hwc2_pixel_format_name(b->hal_format), b->hal_format);
		} else {
			fputs("null", f);
		}
		fprintf(f, ",\"mod\":\"0x%" PRIx64 "\"", b->modifier);
	} else {
		fputs(",\"size\":null,\"fmt\":null,\"hal\":null,\"mod\":null", f);
	}
	fprintf(f, ",\"df\":[%" PRId32 ",%" PRId32 ",%" PRId32 ",%" PRId32 "],\"crop\":[%g,%g,%g,%g],\"tr\":",
		l->display_frame.left, l->display_frame.top, l->display_frame.right, l->display_frame.bottom,
		(double)l->source_crop.left, (double)l->source_crop.top, (double)l->source_crop.right,
		(double)l->source_crop.bottom);
	if (l->transform) {
		name_or_number(f, hwct_hwc2_transform_name(l->transform), l->transform);
	} else {
		fputs("null", f);
	}
	fputs(",\"blend\":", f);
	name_or_number(f, hwct_hwc2_blend_mode_name(l->blend), l->blend);
	fprintf(f, ",\"alpha\":%g", (double)l->plane_alpha);
	if (l->requested == HWC2_COMPOSITION_SOLID_COLOR) {
		fprintf(f, ",\"color\":\"#%02x%02x%02x%02x\"", l->color & 0xff, l->color >> 8 & 0xff, l->color >> 16 & 0xff,
			l->color >> 24);
	}
	fprintf(f, ",\"ds\":%" PRId32 ",\"content\":%s,\"capture\":%" PRId32 "}", l->dataspace,
		l->buffer.has_content ? "true" : "false", l->buffer.capture);
}

/* Interns text (a memstream's buffer, freed). Returns the index or -ENOMEM. */
static long intern_stream(struct report_intern *in, FILE *f, char **buf)
{
	long index;

	if (fclose(f) != 0) {
		free(*buf);
		return -ENOMEM;
	}
	index = report_intern_add(in, *buf);
	free(*buf);
	*buf = NULL;
	return index;
}

static int note_frame(struct collector *c, const struct hwct_frame *fr)
{
	struct report_trace *t = c->t;
	struct report_display *d = display_entry(t, fr->display);
	struct report_frame *out;
	double area = 0.0, client_area = 0.0;
	char *stack_buf = NULL;
	size_t stack_size = 0;
	FILE *stack;
	long index;
	int ret = 0;

	if (!d) {
		return -ENOMEM;
	}
	if (!d->frames) {
		const Hwct__Display *info = hwct_frame_iter_display(c->it, fr->display);

		if (info && info->name && !(d->name = strdup(info->name))) {
			return -ENOMEM;
		}
	}
	d->frames++;
	if (fr->width > 0 && fr->height > 0) {
		d->width = fr->width;
		d->height = fr->height;
	}
	d->vsync_period_ns = fr->vsync_period_ns ? fr->vsync_period_ns : d->vsync_period_ns;
	if (t->frame_count == t->frame_cap) {
		size_t n = t->frame_cap ? t->frame_cap * 2 : 1024;
		struct report_frame *p = realloc(t->frames, n * sizeof(*p));

		if (!p) {
			return -ENOMEM;
		}
		t->frames = p;
		t->frame_cap = n;
	}
	out = &t->frames[t->frame_count];
	*out = (struct report_frame){
		.frame = fr->frame, .display = fr->display, .display_frame = fr->display_frame, .t_ns = fr->t_ns,
		.flags = fr->flags, .layers = (uint32_t)fr->layer_count, .acquire_ns = -1, .present_ns = -1,
		.release_ns = -1,
	};
	stack = open_memstream(&stack_buf, &stack_size);
	if (!stack) {
		return -ENOMEM;
	}
	fputc('[', stack);
	for (size_t i = 0; i < fr->layer_count && ret == 0; i++) {
		const struct hwct_layer *l = &fr->layers[i];
		double a = clipped_area(&l->display_frame, fr->width, fr->height);
		char *buf = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&buf, &size);

		if (!f) {
			ret = -ENOMEM;
			break;
		}
		layer_json(f, l);
		index = intern_stream(&t->layers, f, &buf);
		if (index < 0) {
			ret = -ENOMEM;
			break;
		}
		fprintf(stack, "%s%ld", i ? "," : "", index);
		area += a;
		if (l->final == HWC2_COMPOSITION_CLIENT) {
			out->client_layers++;
			client_area += a;
		}
		ret = push_fence(c, l->buffer.acquire.id, l->buffer.acquire.created_ns, USE_ACQUIRE);
		if (ret == 0) {
			ret = push_fence(c, l->release.id, l->release.created_ns, USE_RELEASE);
		}
	}
	fputc(']', stack);
	index = intern_stream(&t->stacks, stack, &stack_buf);
	if (ret < 0 || index < 0) {
		return -ENOMEM;
	}
	out->stack = (size_t)index;
	out->efficiency = area > 0.0 ? (int32_t)(1000.0 * (1.0 - client_area / area) + 0.5) : -1;
	ret = push_fence(c, fr->present.id, (int64_t)fr->t_ns, USE_PRESENT);
	t->frame_count++;
	return ret;
}

static int by_use_id_frame(const void *a, const void *b)
{
	const struct pending_fence *x = a, *y = b;

	if (x->use != y->use) {
		return x->use < y->use ? -1 : 1;
	}
	if (x->id != y->id) {
		return x->id < y->id ? -1 : 1;
	}
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* Each fence in the first frame that has it (a layer keeps its acquire fence); the slowest per frame. */
static void resolve_fences(struct collector *c)
{
	if (c->fence_count) {
		qsort(c->fences, c->fence_count, sizeof(*c->fences), by_use_id_frame);
	}
	for (size_t i = 0; i < c->fence_count; i++) {
		const struct pending_fence *p = &c->fences[i];
		struct report_frame *fr = &c->t->frames[p->frame];
		int64_t *slot = p->use == USE_ACQUIRE ? &fr->acquire_ns : p->use == USE_PRESENT ? &fr->present_ns :
			&fr->release_ns;
		struct hwct_fence_time ft;
		int64_t ns;

		if (i > 0 && c->fences[i - 1].id == p->id && c->fences[i - 1].use == p->use) {
			continue;
		}
		if (!hwct_frame_iter_fence(c->it, p->id, &ft) || ft.signal_ns < 0 || ft.status < 0) {
			continue;
		}
		/* an acquire fence may have signalled before the call that passed it */
		ns = ft.signal_ns > p->start_ns ? ft.signal_ns - p->start_ns : 0;
		*slot = ns > *slot ? ns : *slot;
	}
}

static void note_error(struct report_trace *t, struct hwct_reader *r, int ret)
{
	if (!t->complete) {
		return;	/* keep the first */
	}
	t->complete = false;
	if (hwct_reader_error(r)) {
		t->error = *hwct_reader_error(r);
	} else {
		hwct_error_set(&t->error, ret, hwct_reader_name(r), UINT64_MAX, "%s",
			ret == -ENOMEM ? "out of memory" : strerror(-ret));
	}
}

int report_collect_trace(struct hwct_reader *r, struct report_trace *t)
{
	struct collector c = { .t = t };
	const struct hwct_frame *f;
	const Hwct__Record *rec;
	int ret, first_error = 0;

	t->info = hwct_reader_info(r);
	t->complete = true;
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		if ((ret = note_record(t, rec)) < 0) {
			break;
		}
	}
	if (ret < 0) {
		note_error(t, r, ret);
		first_error = ret;
	}
	c.it = hwct_frame_iter_create(r);
	ret = c.it ? hwct_reader_rewind(r) : -ENOMEM;
	while (ret == 0 && (ret = hwct_frame_iter_next(c.it, &f)) > 0) {
		ret = note_frame(&c, f);
	}
	if (ret < 0) {
		note_error(t, r, ret);
		first_error = first_error ? first_error : ret;
	}
	if (c.it) {
		resolve_fences(&c);
	}
	hwct_frame_iter_destroy(c.it);
	free(c.fences);
	return first_error;
}

void report_trace_finish(struct report_trace *t)
{
	for (size_t i = 0; i < t->display_count; i++) {
		free(t->displays[i].name);
	}
	free(t->displays);
	free(t->frames);
	free(t->environment_json);
	report_intern_finish(&t->layers);
	report_intern_finish(&t->stacks);
	*t = (struct report_trace){ 0 };
}
