/*
 * The composition-type bookkeeping behind the LTTng validate event
 * (recorder/track.c), deviceless: track.c is linked with a stand-in for
 * tp.c's two validate functions that keeps the events instead of tracing
 * them (the real event, read back with babeltrace2, is recorder-lttng's).
 *
 * One session of two displays, driven call by call as the generated
 * wrappers drive it: each validate event must count the layers of its own
 * display by the type the composer set, or by the device's change once
 * getChangedCompositionTypes gave it, and a change becomes the layer's type
 * at acceptDisplayChanges. Failed calls, the counting call of the
 * two-call pattern and a composer's capacity smaller than the count are
 * honoured; nothing is counted while the event is disabled, but the types
 * are still kept, so a session that starts later counts right.
 */
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "check.h"
#include "tp.h"

static bool enabled = true;
static struct rec_tp_validate events[16];
static int nevents;

bool rec_tp_validate_enabled(void)
{
	return enabled;
}

void rec_tp_validate(const struct rec_tp_validate *v)
{
	if (CHECK(nevents < 16, "more validate events than the test makes")) {
		events[nevents++] = *v;
	}
}

/* The newest event: of display, with these counts. */
static void expect(int n, uint64_t display, int32_t error, uint32_t client, uint32_t device,
	uint32_t solid, uint32_t other)
{
	const struct rec_tp_validate *v = &events[nevents - 1];

	CHECK_INT(nevents, n);
	CHECK_EQ_U64(v->display, display);
	CHECK_INT(v->error, error);
	CHECK_INT(v->client, client);
	CHECK_INT(v->device, device);
	CHECK_INT(v->solid_color, solid);
	CHECK_INT(v->other, other);
}

static void create(uint64_t display, hwc2_layer_t layer)
{
	rec_track_create_layer(display, HWC2_ERROR_NONE, &layer);
}

static void validate(uint64_t display, int32_t error, uint32_t types)
{
	uint32_t requests = 0;

	rec_track_validate(display, error, &types, &requests);
}

int main(void)
{
	hwc2_layer_t failed = 99, changed[3] = { 2, 3, 11 };
	int32_t types[3] = { HWC2_COMPOSITION_CLIENT, HWC2_COMPOSITION_CLIENT, HWC2_COMPOSITION_CLIENT };
	uint32_t n;

	/* display 0: layers 1, 2, 3; display 1: layer 11 */
	create(0, 1);
	create(0, 2);
	create(0, 3);
	create(1, 11);
	rec_track_create_layer(0, HWC2_ERROR_NO_RESOURCES, &failed);
	rec_track_create_layer(0, HWC2_ERROR_NONE, NULL);
	rec_track_composition_type(0, 1, HWC2_COMPOSITION_DEVICE, HWC2_ERROR_NONE);
	rec_track_composition_type(0, 2, HWC2_COMPOSITION_DEVICE, HWC2_ERROR_NONE);
	rec_track_composition_type(0, 3, HWC2_COMPOSITION_SOLID_COLOR, HWC2_ERROR_NONE);
	rec_track_composition_type(1, 11, HWC2_COMPOSITION_DEVICE, HWC2_ERROR_NONE);
	/* a failed call changes nothing; an unknown layer is not added */
	rec_track_composition_type(0, 3, HWC2_COMPOSITION_CLIENT, HWC2_ERROR_BAD_LAYER);
	rec_track_composition_type(0, 99, HWC2_COMPOSITION_CLIENT, HWC2_ERROR_NONE);

	/* no changes: the event comes with validate, counting display 0's layers only */
	validate(0, HWC2_ERROR_NONE, 0);
	expect(1, 0, HWC2_ERROR_NONE, 0, 2, 1, 0);

	/* changes: the event waits for the call that fills the arrays */
	validate(0, HWC2_ERROR_HAS_CHANGES, 2);
	CHECK_INT(nevents, 1);
	n = 2;
	rec_track_changed_types(0, HWC2_ERROR_NONE, 0, &n, NULL, NULL);	/* the counting call */
	CHECK_INT(nevents, 1);
	/* a composer that asks for 1 of 2 reads only the first; the failed fill is ignored */
	rec_track_changed_types(0, HWC2_ERROR_NOT_VALIDATED, 2, &n, changed, types);
	CHECK_INT(nevents, 1);
	rec_track_changed_types(0, HWC2_ERROR_NONE, 1, &n, changed, types);
	expect(2, 0, HWC2_ERROR_HAS_CHANGES, 1, 1, 1, 0);
	/* only once per validate */
	rec_track_changed_types(0, HWC2_ERROR_NONE, 1, &n, changed, types);
	CHECK_INT(nevents, 2);

	/* another display's validate counts its own layer, untouched by display 0's change */
	validate(1, HWC2_ERROR_NONE, 0);
	expect(3, 1, HWC2_ERROR_NONE, 0, 1, 0, 0);

	/* accepted: layer 2 is client from now on (layer 3 stays: its change was not read) */
	rec_track_accept(0);
	validate(0, HWC2_ERROR_NONE, 0);
	expect(4, 0, HWC2_ERROR_NONE, 1, 1, 1, 0);

	/* a change not accepted is forgotten by the next validate */
	validate(0, HWC2_ERROR_HAS_CHANGES, 1);
	n = 1;
	changed[0] = 1;
	rec_track_changed_types(0, HWC2_ERROR_NONE, 1, &n, changed, types);
	expect(5, 0, HWC2_ERROR_HAS_CHANGES, 2, 0, 1, 0);
	validate(0, HWC2_ERROR_NONE, 0);
	expect(6, 0, HWC2_ERROR_NONE, 1, 1, 1, 0);

	/* disabled: no event, but the types are kept for a session that starts later */
	enabled = false;
	rec_track_destroy_layer(0, 3);
	create(0, 4);
	rec_track_composition_type(0, 4, HWC2_COMPOSITION_CURSOR, HWC2_ERROR_NONE);
	validate(0, HWC2_ERROR_NONE, 0);
	CHECK_INT(nevents, 6);
	enabled = true;
	validate(0, HWC2_ERROR_NONE, 0);
	expect(7, 0, HWC2_ERROR_NONE, 1, 1, 0, 0);
	CHECK_INT(events[6].cursor, 1);
	return 0;
}
