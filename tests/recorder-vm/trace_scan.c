/*
 * One pass over the records: every Fence by id (a fence's record usually
 * comes after its frame, so the frame pass looks them up here), the calls
 * that carry the decisions and the present times per frame, the recorder's
 * own losses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "rec_vm_check.h"

const struct rvc_fence *rvc_trace_fence(const struct rvc_trace *t, uint64_t id)
{
	return id < t->fence_ids && t->fences[id].seen ? &t->fences[id] : NULL;
}

static void copy_string(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

static bool add_fence(struct rvc_trace *t, const Hwct__Fence *f)
{
	struct rvc_fence *x;

	t->fence_records++;
	if (!CHECK(f->has_id && f->id > 0 && f->id < RVC_MAX_FENCES, "a Fence record without a "
		"usable id (%llu)", (unsigned long long)f->id) ||
		!CHECK(!t->fences[f->id].seen, "fence %llu: two Fence records", (unsigned long long)f->id)) {
		return false;
	}
	x = &t->fences[f->id];
	x->seen = true;
	x->kind = f->kind;
	x->status = f->has_status ? f->status : -1000;
	x->has_signal = f->has_signal_ns;
	x->created_ns = f->created_ns;
	x->signal_ns = f->signal_ns;
	copy_string(x->driver, sizeof(x->driver), f->driver);
	t->fence_ids = f->id + 1 > t->fence_ids ? f->id + 1 : t->fence_ids;
	return true;
}

/* A call of the frame the records are in (frame = FrameEnd records so far). */
static void add_call(struct rvc_trace *t, const Hwct__Call *c)
{
	struct rvc_trace_frame *f = t->frame_ends < RVC_MAX_FRAMES ? &t->frame[t->frame_ends] : NULL;

	t->calls++;
	if (!f) {
		return;
	}
	switch (c->function) {
	case HWC2_FUNCTION_VALIDATE_DISPLAY:
		CHECK(!f->has_validate, "frame %llu: two validateDisplay calls",
			(unsigned long long)t->frame_ends);
		f->has_validate = true;
		f->validate_error = c->error;
		f->validate_exit_ns = c->t_exit_ns;
		f->num_types = c->args_case == HWCT__CALL__ARGS_VALIDATE ? c->validate->num_types : UINT32_MAX;
		break;
	case HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES:
		/* count, then fill: the lists are in the second call */
		if (c->args_case == HWCT__CALL__ARGS_CHANGED_TYPES && c->changed_types->n_layers > 0) {
			const Hwct__ChangedTypesArgs *a = c->changed_types;

			CHECK(!f->has_changed && a->n_layers == a->n_types && a->n_layers <= RVC_MAX_LAYERS,
				"frame %llu: changed types: %zu layers, %zu types, %s call",
				(unsigned long long)t->frame_ends, a->n_layers, a->n_types,
				f->has_changed ? "a second" : "one");
			f->has_changed = true;
			f->changed = 0;
			for (size_t i = 0; i < a->n_layers && i < a->n_types && i < RVC_MAX_LAYERS; i++) {
				f->changed_layers[f->changed] = a->layers[i];
				f->changed_types[f->changed++] = a->types[i];
			}
		}
		break;
	case HWC2_FUNCTION_PRESENT_DISPLAY:
		CHECK(!f->has_present && c->error == HWC2_ERROR_NONE, "frame %llu: %s presentDisplay "
			"(error %d)", (unsigned long long)t->frame_ends, f->has_present ? "a second" : "a",
			c->error);
		f->has_present = true;
		f->present_enter_ns = c->t_enter_ns;
		f->present_exit_ns = c->t_exit_ns;
		f->present_fence = c->args_case == HWCT__CALL__ARGS_PRESENT ? c->present->present_fence : 0;
		break;
	default:
		break;
	}
}

static void add_record(struct rvc_trace *t, const Hwct__Record *rec)
{
	t->records++;
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_ENVIRONMENT:
		copy_string(t->module, sizeof(t->module), rec->environment->hwc2_module);
		copy_string(t->source, sizeof(t->source), rec->environment->source);
		break;
	case HWCT__RECORD__KIND_CALL:
		add_call(t, rec->call);
		break;
	case HWCT__RECORD__KIND_BUFFER:
		t->buffers++;
		break;
	case HWCT__RECORD__KIND_BLOB:
		t->blobs++;
		break;
	case HWCT__RECORD__KIND_FENCE:
		add_fence(t, rec->fence);
		break;
	case HWCT__RECORD__KIND_FRAME_END:
		CHECK(rec->frame_end->frame == t->frame_ends, "FrameEnd %llu after %llu FrameEnds",
			(unsigned long long)rec->frame_end->frame, (unsigned long long)t->frame_ends);
		if (t->frame_ends < RVC_MAX_FRAMES) {
			t->frame[t->frame_ends].flags = rec->frame_end->flags;
		}
		t->frame_ends++;
		break;
	case HWCT__RECORD__KIND_CAPTURE_STATS:
		t->blobs_dropped = rec->capture_stats->blobs_dropped;
		t->records_dropped = rec->capture_stats->records_dropped;
		t->frames_late = rec->capture_stats->frames_capture_late;
		break;
	default:
		break;
	}
}

int rvc_trace_scan(struct hwct_reader *r, struct rvc_trace *t)
{
	const Hwct__Record *rec;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fences = calloc(RVC_MAX_FENCES, sizeof(*t->fences));
	t->frame = calloc(RVC_MAX_FRAMES, sizeof(*t->frame));
	if (!t->fences || !t->frame) {
		fprintf(stderr, "out of memory\n");
		return -ENOMEM;
	}
	ret = hwct_reader_rewind(r);
	while (ret == 0 && (ret = hwct_reader_next(r, &rec)) == 1) {
		add_record(t, rec);
		ret = 0;
	}
	if (ret < 0) {
		fprintf(stderr, "%s\n", hwct_reader_error(r) ? hwct_reader_error(r)->message : strerror(-ret));
		return ret;
	}
	return 0;
}

void rvc_trace_finish(struct rvc_trace *t)
{
	free(t->fences);
	free(t->frame);
	memset(t, 0, sizeof(*t));
}
