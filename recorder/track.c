/*
 * Composition types per layer, kept from the calls so the LTTng validate
 * event can say how many layers of each type a validated frame has
 * (tp.h). Built only with LTTng. The table is kept whether or not a session
 * traces (a session may start mid-run, and a composer sets a layer's type
 * only when it changes); the counting is done only while hwc2:validate is
 * enabled.
 *
 * The generated wrappers of the six functions that matter call these
 * directly, with the call's own arguments (gen-wrappers.py, TRACK): no
 * other call pays a test, and none builds an event for them. Each entry
 * point is a small function of its own, so a frame's first
 * setLayerCompositionType finds a few cold lines, not a whole dispatcher.
 */
#include <stdatomic.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "hot.h"
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
 * layers that exist (a handful), never over MAX_LAYERS slots. The lock and
 * the count share the first line with the first layers, so a frame's
 * first tracked call finds them together.
 */
struct track_state {
	atomic_flag lock;
	int nlayers;
	bool pending_set[MAX_DISPLAYS];
	struct tlayer layers[MAX_LAYERS];
	struct rec_tp_validate pending[MAX_DISPLAYS];
};

static _Alignas(REC_LINE) struct track_state t = { .lock = ATOMIC_FLAG_INIT };

static REC_HOT void lock(void)
{
	while (atomic_flag_test_and_set_explicit(&t.lock, memory_order_acquire)) {
	}
}

static REC_HOT void unlock(void)
{
	atomic_flag_clear_explicit(&t.lock, memory_order_release);
}

static REC_HOT struct tlayer *find(uint64_t display, uint64_t layer)
{
	for (int i = 0; i < t.nlayers; i++) {
		if (t.layers[i].layer == layer && t.layers[i].display == display) {
			return &t.layers[i];
		}
	}
	return NULL;
}

static REC_HOT int slot(uint64_t display)
{
	return (int)(display % MAX_DISPLAYS);
}

/* Adds display's layers to v by type (the changed type where with_changes and there is one). */
static void count(struct rec_tp_validate *v, bool with_changes)
{
	for (int i = 0; i < t.nlayers; i++) {
		struct tlayer *l = &t.layers[i];
		int32_t type;

		if (l->display != v->display) {
			continue;
		}
		type = with_changes && l->changed ? l->changed : l->type;
		if (type == HWC2_COMPOSITION_CLIENT) {
			v->client++;
		} else if (type == HWC2_COMPOSITION_DEVICE) {
			v->device++;
		} else if (type == HWC2_COMPOSITION_SOLID_COLOR) {
			v->solid_color++;
		} else if (type == HWC2_COMPOSITION_CURSOR) {
			v->cursor++;
		} else if (type == HWC2_COMPOSITION_SIDEBAND) {
			v->sideband++;
		} else {
			v->other++;
		}
	}
}

/*
 * Counts and fires the validate event (under the lock). Out of line and
 * cold: only a traced session runs it, and the callers' hot lines stay few.
 */
static __attribute__((cold, noinline)) void emit(struct rec_tp_validate v, bool with_changes)
{
	count(&v, with_changes);
	rec_tp_validate(&v);
}

void rec_track_create_layer(uint64_t display, int32_t error, const hwc2_layer_t *out_layer)
{
	if (error != HWC2_ERROR_NONE || !out_layer) {
		return;
	}
	lock();
	if (t.nlayers < MAX_LAYERS && !find(display, *out_layer)) {
		t.layers[t.nlayers++] = (struct tlayer){ display, *out_layer, 0, 0 };
	}
	unlock();
}

void rec_track_destroy_layer(uint64_t display, uint64_t layer)
{
	struct tlayer *l;

	lock();
	if ((l = find(display, layer))) {
		*l = t.layers[--t.nlayers];
	}
	unlock();
}

REC_HOT void rec_track_composition_type(uint64_t display, uint64_t layer, int32_t type, int32_t error)
{
	struct tlayer *l;

	if (error != HWC2_ERROR_NONE) {
		return;
	}
	lock();
	if ((l = find(display, layer))) {
		l->type = type;
		l->changed = 0;
	}
	unlock();
}

REC_HOT void rec_track_validate(uint64_t display, int32_t error, const uint32_t *out_num_types,
	const uint32_t *out_num_requests)
{
	struct rec_tp_validate v = {
		.display = display,
		.error = error,
		.num_types = out_num_types ? *out_num_types : 0,
		.num_requests = out_num_requests ? *out_num_requests : 0,
	};

	lock();
	for (int i = 0; i < t.nlayers; i++) {
		if (t.layers[i].display == display) {
			t.layers[i].changed = 0;
		}
	}
	if (error == HWC2_ERROR_HAS_CHANGES && v.num_types) {
		/* the decision is known with getChangedCompositionTypes */
		t.pending[slot(display)] = v;
		t.pending_set[slot(display)] = true;
	} else if (rec_tp_validate_enabled()) {
		emit(v, false);
	}
	unlock();
}

REC_HOT void rec_track_changed_types(uint64_t display, int32_t error, uint32_t capacity,
	const uint32_t *out_count, const hwc2_layer_t *out_layers, const int32_t *out_types)
{
	int s = slot(display);
	uint32_t n;

	if (error != HWC2_ERROR_NONE || !out_count || !out_layers || !out_types) {
		return;	/* failed, or the counting call */
	}
	n = *out_count < capacity ? *out_count : capacity;
	lock();
	for (uint32_t k = 0; k < n; k++) {
		struct tlayer *l = find(display, out_layers[k]);

		if (l) {
			l->changed = out_types[k];
		}
	}
	if (t.pending_set[s]) {
		t.pending_set[s] = false;
		if (rec_tp_validate_enabled()) {
			emit(t.pending[s], true);
		}
	}
	unlock();
}

REC_HOT void rec_track_accept(uint64_t display)
{
	lock();
	for (int i = 0; i < t.nlayers; i++) {
		struct tlayer *l = &t.layers[i];

		if (l->display == display && l->changed) {
			l->type = l->changed;
			l->changed = 0;
		}
	}
	unlock();
}
