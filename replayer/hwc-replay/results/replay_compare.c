/* Comparing a replayed frame with its known-good entry (replay_compare.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <hwct/hwc2_names.h>

#include "replay_compare.h"

/* The place of plane id in order, or -1 (none, unknown, or no order). */
static long place(struct replay_plane_order order, uint32_t id)
{
	for (size_t i = 0; id && i < order.count; i++) {
		if (order.ids[i] == id) {
			return (long)i;
		}
	}
	return -1;
}

/* "plane 33", "client (no-plane,zpos)" or, from an HWC2 module, "DEVICE" into buf (a plane's
 * place in its device's list, when known, is in the plan difference's message as "#k"). */
static const char *placement(uint32_t plane, long at, int32_t composition, uint32_t reasons, char *buf,
	size_t size)
{
	const char *type = hwct_hwc2_composition_name(composition);
	char names[160];

	if (plane && at >= 0) {
		snprintf(buf, size, "plane %" PRIu32 " (#%ld of its device)", plane, at);
	} else if (plane) {
		snprintf(buf, size, "plane %" PRIu32, plane);
	} else if (composition != HWC2_COMPOSITION_CLIENT) {
		snprintf(buf, size, "%s (no plane)", type ? type : "?");
	} else if (reasons) {
		snprintf(buf, size, "client (%s)", plan_reasons_format(reasons, names, sizeof(names)));
	} else {
		snprintf(buf, size, "client");
	}
	return buf;
}

/* Whether plane a of the expected device and plane b of this one are the same plane (the header). */
static bool same_plane(struct replay_plane_order ea, uint32_t a, struct replay_plane_order eb, uint32_t b)
{
	long pa = place(ea, a), pb = place(eb, b);

	if (!a || !b || pa < 0 || pb < 0) {
		return a == b;
	}
	return pa == pb;
}

static bool plan_differs(const struct replay_expect_frame *e, struct replay_plane_order eo, const struct scene *scene,
	const struct plan *plan, struct replay_plane_order po, char *msg, size_t size)
{
	char a[200], b[200];

	if (!e->has_plan || !plan) {
		if (e->has_plan != (plan != NULL)) {
			snprintf(msg, size, "plan: expected %s, got %s", e->has_plan ? "a plan" : "none",
				plan ? "a plan" : "none");
			return true;
		}
		return false;
	}
	if (e->layer_count != plan->layer_count) {
		snprintf(msg, size, "plan: expected %zu layers, got %zu", e->layer_count, plan->layer_count);
		return true;
	}
	for (size_t i = 0; i < e->layer_count; i++) {
		const struct replay_expect_layer *x = &e->layers[i];
		const struct plan_layer *y = &plan->layers[i];
		uint64_t id = i < scene->layer_count ? scene->layers[i].id : 0;

		if (x->id != id) {
			snprintf(msg, size, "plan: layer #%zu: expected layer %" PRIu64 ", got layer %" PRIu64, i,
				x->id, id);
			return true;
		}
		if (!same_plane(eo, x->plane, po, y->plane_id) || x->composition != y->composition ||
			(x->composition == HWC2_COMPOSITION_CLIENT && x->reasons != y->reasons)) {
			snprintf(msg, size, "layer %" PRIu64 ": expected %s, got %s", id,
				placement(x->plane, place(eo, x->plane), x->composition, x->reasons, a, sizeof(a)),
				placement(y->plane_id, place(po, y->plane_id), y->composition, y->reasons, b, sizeof(b)));
			return true;
		}
	}
	if (!same_plane(eo, e->client_target_plane, po, plan->client_target_plane)) {
		snprintf(msg, size, "client target: expected %s, got %s",
			e->client_target_plane ?
				placement(e->client_target_plane, place(eo, e->client_target_plane), HWC2_COMPOSITION_DEVICE,
					0, a, sizeof(a)) : "none",
			plan->client_target_plane ?
				placement(plan->client_target_plane, place(po, plan->client_target_plane),
					HWC2_COMPOSITION_DEVICE, 0, b, sizeof(b)) : "none");
		return true;
	}
	return false;
}

unsigned replay_compare_frame(const struct replay_expect_frame *expected, struct replay_plane_order expected_order,
	const struct scene *scene, const struct backend_result *result, struct replay_plane_order order,
	enum replay_compare what, char *msg, size_t size)
{
	char pixels[128] = "";
	unsigned differs = REPLAY_SAME;

	if (size) {
		msg[0] = '\0';
	}
	if (!expected) {
		snprintf(msg, size, "not in the expected results");
		return REPLAY_DIFFERS_PLAN;
	}
	if (what != REPLAY_COMPARE_PIXELS &&
		plan_differs(expected, expected_order, scene, result->plan, order, msg, size)) {
		differs |= REPLAY_DIFFERS_PLAN;
	}
	if (what != REPLAY_COMPARE_PLANS && expected->has_checksum && result->has_checksum &&
		!hwct_hash_equal(&expected->checksum, &result->checksum)) {
		char x[HWCT_HASH_HEX], y[HWCT_HASH_HEX];

		snprintf(pixels, sizeof(pixels), "checksum: expected %s, got %s",
			hwct_hash_to_hex(&expected->checksum, x), hwct_hash_to_hex(&result->checksum, y));
		differs |= REPLAY_DIFFERS_PIXELS;
	}
	if (differs == REPLAY_DIFFERS_PIXELS) {
		snprintf(msg, size, "%s", pixels);
	} else if (differs == (REPLAY_DIFFERS_PLAN | REPLAY_DIFFERS_PIXELS)) {
		size_t len = strlen(msg);

		snprintf(msg + len, size - len, "; %s", pixels);
	}
	return differs;
}
