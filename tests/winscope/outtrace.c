/* Reading an imported trace back (outtrace.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/reader.h>

#include "outtrace.h"
#include "testlib.h"

struct layer {
	uint64_t id;
	int32_t requested, changed;	/* changed: 0 when the device kept the request */
};

struct state {
	struct layer layers[OUT_MAX_LAYERS];
	size_t count;
};

static struct layer *find(struct state *s, uint64_t id)
{
	for (size_t i = 0; i < s->count; i++) {
		if (s->layers[i].id == id) {
			return &s->layers[i];
		}
	}
	return NULL;
}

static int compare(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static void on_call(struct out_trace *t, struct state *states, const Hwct__Call *c)
{
	struct state *s = &states[c->display < OUT_MAX_DISPLAYS ? c->display : 0];
	struct layer *l;

	CHECK_MSG(c->display < OUT_MAX_DISPLAYS, "call on display %llu", (unsigned long long)c->display);
	switch (c->function) {
	case HWC2_FUNCTION_CREATE_LAYER:
		CHECK(c->args_case == HWCT__CALL__ARGS_VALUE && s->count < OUT_MAX_LAYERS);
		s->layers[s->count++] = (struct layer){ .id = (uint64_t)c->value->value };
		break;
	case HWC2_FUNCTION_DESTROY_LAYER:
		l = find(s, c->layer);
		CHECK(l);
		*l = s->layers[--s->count];
		break;
	case HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE:
		l = find(s, c->layer);
		CHECK(l && c->args_case == HWCT__CALL__ARGS_VALUE);
		l->requested = (int32_t)c->value->value;
		break;
	case HWC2_FUNCTION_VALIDATE_DISPLAY:
		for (size_t i = 0; i < s->count; i++) {
			s->layers[i].changed = 0;
		}
		break;
	case HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES:
		CHECK(c->args_case == HWCT__CALL__ARGS_CHANGED_TYPES);
		CHECK(c->changed_types->n_layers == c->changed_types->n_types);
		for (size_t i = 0; i < c->changed_types->n_layers; i++) {
			l = find(s, c->changed_types->layers[i]);
			CHECK(l);
			l->changed = c->changed_types->types[i];
		}
		break;
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
		CHECK(c->args_case == HWCT__CALL__ARGS_BUFFER);
		t->buffers_set++;
		if (c->buffer->has_capture && c->buffer->capture == HWCT_CAPTURE_SYNTHETIC &&
			c->buffer->has_content && c->buffer->content.len == 16) {
			t->buffers_synthetic++;
		}
		break;
	default:
		break;
	}
}

static void on_frame_end(struct out_trace *t, struct state *states, const Hwct__FrameEnd *fe)
{
	struct state *s;
	struct out_frame *f;

	CHECK(fe->display < OUT_MAX_DISPLAYS);
	s = &states[fe->display];
	t->display_frames[fe->display]++;
	t->frames = realloc(t->frames, (t->count + 1) * sizeof(*t->frames));
	CHECK(t->frames);
	f = &t->frames[t->count++];
	f->count = s->count;
	f->t_ns = fe->t_ns;
	f->display = fe->display;
	for (size_t i = 0; i < s->count; i++) {
		f->types[i] = s->layers[i].changed ? s->layers[i].changed : s->layers[i].requested;
	}
	qsort(f->types, f->count, sizeof(f->types[0]), compare);
}

void out_trace_load(struct out_trace *t, const char *path)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	static struct state s[OUT_MAX_DISPLAYS];
	const Hwct__Record *rec;
	int ret;

	memset(t, 0, sizeof(*t));
	memset(s, 0, sizeof(s));
	CHECK_MSG(r, "%s", err.message);
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		switch (rec->kind_case) {
		case HWCT__RECORD__KIND_CALL:
			on_call(t, s, rec->call);
			break;
		case HWCT__RECORD__KIND_FRAME_END:
			on_frame_end(t, s, rec->frame_end);
			break;
		case HWCT__RECORD__KIND_DISPLAY:
			CHECK(rec->display->n_configs >= 1);
			t->displays++;
			if (rec->display->id == 0) {
				t->width = rec->display->configs[0]->width;
				t->height = rec->display->configs[0]->height;
			}
			break;
		case HWCT__RECORD__KIND_ENVIRONMENT:
			snprintf(t->source, sizeof(t->source), "%s",
				rec->environment->source ? rec->environment->source : "");
			break;
		case HWCT__RECORD__KIND_NOTE:
			t->note = t->note || (rec->note->topic && strcmp(rec->note->topic, "synthesized-content") == 0);
			break;
		default:
			break;
		}
	}
	CHECK_MSG(ret == 0, "%s", hwct_reader_error(r) ? hwct_reader_error(r)->message : "?");
	hwct_reader_destroy(r);
}

void out_trace_finish(struct out_trace *t)
{
	free(t->frames);
	memset(t, 0, sizeof(*t));
}
