/*
 * Composition types per layer, kept from the calls so the LTTng validate
 * event can say how many layers of each type a validated frame has
 * (tp.h). Built only with LTTng. The table is kept whether or not a session
 * traces (a session may start mid-run); the counting is done only while
 * hwc2:validate is enabled.
 */
#include <stdatomic.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "event.h"
#include "hwc2_wrappers.h"
#include "tp.h"

#define MAX_LAYERS 256
#define MAX_DISPLAYS 8

struct tlayer {
	uint64_t display, layer;
	int32_t type;		/* requested */
	int32_t changed;	/* from getChangedCompositionTypes, 0 none */
};

/*
 * The layers in use, packed: layers[0 .. nlayers). Every walk is over the
 * layers that exist (a handful), never over MAX_LAYERS slots: this runs on
 * the hot path whether or not a session traces.
 */
static struct tlayer layers[MAX_LAYERS];
static int nlayers;
static struct rec_tp_validate pending[MAX_DISPLAYS];
static bool pending_set[MAX_DISPLAYS];
static atomic_flag lock = ATOMIC_FLAG_INIT;

REC_HOT bool rec_track_wants(int32_t function)
{
	switch (function) {
	case HWC2_FUNCTION_CREATE_LAYER:
	case HWC2_FUNCTION_DESTROY_LAYER:
	case HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE:
	case HWC2_FUNCTION_VALIDATE_DISPLAY:
	case HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES:
	case HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES:
		return true;
	default:
		return false;
	}
}

static REC_HOT struct tlayer *find(uint64_t display, uint64_t layer)
{
	for (int i = 0; i < nlayers; i++) {
		if (layers[i].layer == layer && layers[i].display == display) {
			return &layers[i];
		}
	}
	return NULL;
}

static REC_HOT void count(struct rec_tp_validate *v, bool with_changes)
{
	for (int i = 0; i < nlayers; i++) {
		struct tlayer *l = &layers[i];
		int32_t type;

		if (l->display != v->display) {
			continue;
		}
		type = with_changes && l->changed ? l->changed : l->type;
		switch (type) {
		case HWC2_COMPOSITION_CLIENT:
			v->client++;
			break;
		case HWC2_COMPOSITION_DEVICE:
			v->device++;
			break;
		case HWC2_COMPOSITION_SOLID_COLOR:
			v->solid_color++;
			break;
		case HWC2_COMPOSITION_CURSOR:
			v->cursor++;
			break;
		case HWC2_COMPOSITION_SIDEBAND:
			v->sideband++;
			break;
		default:
			v->other++;
			break;
		}
	}
}

static REC_HOT int slot(uint64_t display)
{
	return (int)(display % MAX_DISPLAYS);
}

static REC_HOT int64_t ival(const struct rec_event *ev, int i)
{
	return ev->args[i].kind == REC_ARG_COUNT ? ev->args[i].v.count.out : ev->args[i].v.i;
}

static REC_HOT void changed_types(const struct rec_event *ev)
{
	const struct rec_arg *ls = &ev->args[REC_ARG_GET_CHANGED_COMPOSITION_TYPES_OUT_LAYERS];
	const struct rec_arg *ts = &ev->args[REC_ARG_GET_CHANGED_COMPOSITION_TYPES_OUT_TYPES];
	struct rec_tp_validate v;
	int s = slot(ev->display);

	if (ls->kind != REC_ARG_ARRAY || !ls->present || ts->kind != REC_ARG_ARRAY) {
		return;	/* the counting call */
	}
	for (uint32_t k = 0; k < ls->count && k < ts->count; k++) {
		uint64_t id;
		int32_t type;
		struct tlayer *l;

		memcpy(&id, (const uint8_t *)rec_arg_data(ev, ls) + k * sizeof(id), sizeof(id));
		memcpy(&type, (const uint8_t *)rec_arg_data(ev, ts) + k * sizeof(type), sizeof(type));
		if ((l = find(ev->display, id))) {
			l->changed = type;
		}
	}
	if (pending_set[s]) {
		pending_set[s] = false;
		if (rec_tp_validate_enabled()) {
			v = pending[s];
			count(&v, true);
			rec_tp_validate(&v);
		}
	}
}

REC_HOT void rec_track_call(const struct rec_event *ev)
{
	struct tlayer *l;

	if (!rec_track_wants(ev->function) || !ev->has_display) {
		return;
	}
	while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) {
	}
	switch (ev->function) {
	case HWC2_FUNCTION_CREATE_LAYER:
		if (ev->error == HWC2_ERROR_NONE && ev->args[REC_ARG_CREATE_LAYER_OUT_LAYER].present &&
				nlayers < MAX_LAYERS &&
				!find(ev->display, (uint64_t)ival(ev, REC_ARG_CREATE_LAYER_OUT_LAYER))) {
			layers[nlayers++] = (struct tlayer){ ev->display,
				(uint64_t)ival(ev, REC_ARG_CREATE_LAYER_OUT_LAYER), 0, 0 };
		}
		break;
	case HWC2_FUNCTION_DESTROY_LAYER:
		if ((l = find(ev->display, ev->layer))) {
			*l = layers[--nlayers];
		}
		break;
	case HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE:
		if (ev->error == HWC2_ERROR_NONE && (l = find(ev->display, ev->layer))) {
			l->type = (int32_t)ival(ev, REC_ARG_SET_LAYER_COMPOSITION_TYPE_TYPE);
			l->changed = 0;
		}
		break;
	case HWC2_FUNCTION_VALIDATE_DISPLAY: {
		struct rec_tp_validate v = {
			.display = ev->display,
			.error = ev->error,
			.num_types = (uint32_t)ival(ev, REC_ARG_VALIDATE_DISPLAY_OUT_NUM_TYPES),
			.num_requests = (uint32_t)ival(ev, REC_ARG_VALIDATE_DISPLAY_OUT_NUM_REQUESTS),
		};

		for (int i = 0; i < nlayers; i++) {
			if (layers[i].display == ev->display) {
				layers[i].changed = 0;
			}
		}
		if (ev->error == HWC2_ERROR_HAS_CHANGES && v.num_types) {
			/* the decision is known with getChangedCompositionTypes */
			pending[slot(ev->display)] = v;
			pending_set[slot(ev->display)] = true;
		} else if (rec_tp_validate_enabled()) {
			count(&v, false);
			rec_tp_validate(&v);
		}
		break;
	}
	case HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES:
		changed_types(ev);
		break;
	case HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES:
		for (int i = 0; i < nlayers; i++) {
			if (layers[i].display == ev->display && layers[i].changed) {
				layers[i].type = layers[i].changed;
				layers[i].changed = 0;
			}
		}
		break;
	default:
		break;
	}
	atomic_flag_clear_explicit(&lock, memory_order_release);
}
