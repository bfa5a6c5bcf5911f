/*
 * The "drmhwc" planner: drm_hwcomposer's generic backend at its last HWC2
 * version (upstream 1d5e2015, January 2025), before its cursor-plane path.
 * docs/drmhwc.md states the policy and where each rule is tested; in short:
 *
 * 1. Client layers: a type other than DEVICE or CURSOR (CLIENT, and also
 *    SOLID_COLOR: drm_hwcomposer ignores the colour), no buffer, and a
 *    buffer whose ADDFB2 fails, which only happens on drivers that refuse a
 *    format no plane has (board addfb_checks_format; not vkms).
 * 2. They are merged into one contiguous z-range. If there are more layers
 *    than usable planes, one plane is kept for the client target and the
 *    range widens by the overflow, sliding to where it covers the fewest
 *    display-frame pixels (the first such position).
 * 3. When the range covers every layer, all are client and nothing is
 *    tested. A range that does not, on a display never given a client
 *    target (PLANNER_DRMHWC_NO_CLIENT_TARGET), fails before any test: all
 *    client. Otherwise layers and the client target (at the z of the
 *    range) are assigned greedily in z-order to the usable planes -
 *    primary first, then overlays in object-id order; cursors are not used -
 *    skipping (and so using up) each plane IsValidForLayer refuses:
 *    rotation, plane alpha, blend, format. A skipped primary stays off.
 *    Modifiers are not matched (PLANNER_DRMHWC_CHECK_MODIFIERS matches
 *    them), scaling and position are not looked at. zpos is written as the
 *    plan index + min when the plane's zpos is mutable.
 * 4. ONE test. If planes run out or the test is refused, everything
 *    becomes client (reason test-failed, with what the static check finds
 *    against the plane the layer had); there is no second try. A tester
 *    error that is no refusal (not -EINVAL/-ERANGE/-ENOSPC: the device
 *    failed) stops planning, as in search, where drm_hwcomposer would fall
 *    back to client all the same.
 */
#include <errno.h>
#include <stdlib.h>

#include <hardware/hwcomposer2.h>

#include "plane_check.h"
#include "planner_private.h"

struct drmhwc {
	const struct planner_options *opts;
	const struct board *board;
	const struct scene *scene;
	const struct board_tester *tester;
	struct plan *plan;
	uint32_t check_flags;
	size_t np;
	const struct board_plane **planes;	/* usable: primary, overlays by id */
	uint32_t *forced;			/* per layer: why it is a client layer */
	const struct board_plane **assigned;	/* per layer: its plane in the plan */
};

static void usable_planes(struct drmhwc *d)
{
	const struct board *board = d->board;
	const struct board_plane *primary = board_primary(board);

	if (primary) {
		d->planes[d->np++] = primary;
	}
	if (d->opts->flags & PLANNER_DRMHWC_PRIMARY_ONLY) {
		return;
	}
	/* board->planes are in object-id order. */
	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *plane = &board->planes[i];

		if (plane->type == BOARD_PLANE_OVERLAY && board_plane_usable(board, plane)) {
			d->planes[d->np++] = plane;
		}
	}
}

/* Step 1: why each layer is a client layer (0: it is not). */
static void client_layers(struct drmhwc *d)
{
	for (size_t i = 0; i < d->scene->layer_count; i++) {
		const struct scene_layer *l = &d->scene->layers[i];
		uint32_t r = plane_check_layer(l);

		if (l->composition == HWC2_COMPOSITION_SOLID_COLOR) {
			r |= PLAN_REASON_SOLID_COLOR;
		}
		if (l->image && d->board->addfb_checks_format &&
			!board_any_plane_has_format(d->board, l->image->fourcc, l->image->modifier)) {
			r |= PLAN_REASON_IMPORT |
				(board_any_plane_has_format(d->board, l->image->fourcc,
					BOARD_MOD_INVALID) ? PLAN_REASON_MODIFIER : PLAN_REASON_FORMAT);
		}
		d->forced[i] = r;
	}
}

/* Backend::CalcPixOps: display-frame area of layers [first, first + size). */
static uint64_t pixops(const struct scene *scene, size_t first, size_t size)
{
	uint64_t sum = 0;

	for (size_t i = first; i < first + size && i < scene->layer_count; i++) {
		const struct hwct_rect *f = &scene->layers[i].frame;
		int64_t w = (int64_t)f->right - f->left, h = (int64_t)f->bottom - f->top;

		sum += (uint64_t)(w > 0 ? w : 0) * (uint64_t)(h > 0 ? h : 0);
	}
	return sum;
}

/* Step 2: GetClientLayers + GetExtraClientRange, quirks included. */
static void client_range(const struct drmhwc *d, size_t *start, size_t *size)
{
	size_t n = d->scene->layer_count, avail = d->np;

	*start = 0;
	*size = 0;
	for (size_t z = 0; z < n; z++) {
		if (d->forced[z]) {
			if (*size == 0) {
				*start = z;
			}
			*size = z - *start + 1;
		}
	}
	if (avail < n) {
		avail--;	/* one plane for the client target */
	}
	if (n - *size > avail) {
		size_t extra = n - *size - avail;
		size_t first = 0, steps;
		uint64_t best = UINT64_MAX;

		if (*size) {
			size_t prepend = *start < extra ? *start : extra;
			size_t after = n - (*start + *size);
			size_t append = after < extra ? after : extra;

			first = *start - prepend;
			*size += extra;
			steps = append < prepend ? append : prepend;
			if (n - (first + *size) < steps) {
				steps = n - (first + *size);
			}
			steps++;
		} else {
			*size = extra;
			steps = 1 + n - extra;
		}
		for (size_t i = 0; i < steps; i++) {
			uint64_t po = pixops(d->scene, first + i, *size);

			if (po < best) {
				best = po;
				*start = first + i;
			}
		}
	}
}

/* Whether some usable plane has layer i's format (or it has no buffer). */
static bool usable_format(const struct drmhwc *d, size_t i)
{
	const struct scene_image *img = d->scene->layers[i].image;

	if (!img) {
		return true;
	}
	for (size_t k = 0; k < d->np; k++) {
		if (board_plane_has_format(d->planes[k], img->fourcc, BOARD_MOD_INVALID)) {
			return true;
		}
	}
	return false;
}

/* What the full static check finds for layer i: against its plane, or every plane. */
static uint32_t diagnose(const struct drmhwc *d, size_t i)
{
	uint32_t all = 0;

	if (d->assigned[i]) {
		return plane_check(d->board, d->assigned[i], d->scene, i, 0);
	}
	if (!usable_format(d, i)) {
		return PLAN_REASON_FORMAT;	/* nothing else matters */
	}
	for (size_t k = 0; k < d->np; k++) {
		uint32_t r = plane_check(d->board, d->planes[k], d->scene, i, 0);

		if (r == 0) {
			return 0;
		}
		all |= r;
	}
	return all;
}

/*
 * Why layer i, in the client range [start, start + size), is client: its
 * own reasons, else ZPOS inside the merged range of client layers
 * [first, last] (a device layer cannot sit between them), else NO_PLANE
 * (the range widened over it for lack of planes).
 */
static uint32_t range_reason(const struct drmhwc *d, size_t i, size_t first, size_t last)
{
	if (d->forced[i]) {
		return d->forced[i];
	}
	return first != SIZE_MAX && i >= first && i <= last ? PLAN_REASON_ZPOS : PLAN_REASON_NO_PLANE;
}

/*
 * The client target alone (every layer client): like any layer, on the
 * first usable plane that takes its format; 0 when none does (drm_hwcomposer
 * could not present it).
 */
static uint32_t lone_client_target_plane(const struct drmhwc *d)
{
	for (size_t k = 0; k < d->np; k++) {
		struct plan_plane_state s;

		if (planner_client_target_state(d->board, d->planes[k], d->scene, d->opts, true, &s)) {
			return d->planes[k]->id;
		}
	}
	return 0;
}

/*
 * All client: the range was everything; or the plan failed, before any
 * plane was chosen (failed false) or when it could not be made or was
 * refused (failed true). The layers meant for planes get TEST_FAILED and,
 * with failed, what the full static check finds.
 */
static void all_client(struct drmhwc *d, size_t start, size_t size, size_t first, size_t last,
	bool failed)
{
	for (size_t i = 0; i < d->scene->layer_count; i++) {
		struct plan_layer *pl = &d->plan->layers[i];

		pl->plane_id = 0;
		if (i >= start && i < start + size) {
			pl->reasons = range_reason(d, i, first, last);
		} else {
			pl->reasons = PLAN_REASON_TEST_FAILED | (failed ? diagnose(d, i) : 0);
		}
	}
	d->plan->client_target_plane = lone_client_target_plane(d);
}

static void set_zpos(const struct board_plane *plane, size_t z, struct plan_plane_state *s)
{
	if (plane->has_zpos && !plane->zpos_immutable) {
		s->set_zpos = true;
		s->zpos = (int64_t)z + plane->zpos_min;
	}
}

/*
 * Step 3: CreateDrmKmsPlan. Fills states (and the client target). Returns
 * false when the planes run out.
 */
static bool create_plan(struct drmhwc *d, size_t start, size_t size,
	struct plan_plane_state *states, size_t *count, struct plan_candidate *cand)
{
	size_t next = 0, z_pos = 0;

	*count = 0;
	for (size_t z = 0; z < d->scene->layer_count; z++) {
		bool is_target = z == start && size > 0;
		const struct board_plane *plane;
		struct plan_plane_state s;
		bool valid;

		if (z >= start && z < start + size && !is_target) {
			continue;
		}
		do {
			if (next == d->np) {
				return false;
			}
			plane = d->planes[next++];
			if (is_target) {
				valid = planner_client_target_state(d->board, plane, d->scene, d->opts,
					z_pos == 0, &s);
			} else {
				valid = plane_check(d->board, plane, d->scene, z, d->check_flags) == 0;
			}
		} while (!valid);
		if (is_target) {
			set_zpos(plane, z_pos++, &s);
			cand->has_client_target = true;
			cand->client_target = s;
		} else {
			plane_check_state(d->board, plane, d->scene, z, d->check_flags, &s);
			set_zpos(plane, z_pos++, &s);
			states[(*count)++] = s;
			d->assigned[z] = plane;
		}
	}
	return true;
}

static int drmhwc_run(struct drmhwc *d, struct plan_plane_state *states)
{
	size_t n = d->scene->layer_count;
	size_t start, size, first = SIZE_MAX, last = 0, count;
	struct plan_candidate cand = { .planes = states };
	int ret;

	client_layers(d);
	for (size_t i = 0; i < n; i++) {
		if (d->forced[i]) {
			first = first == SIZE_MAX ? i : first;
			last = i;
		}
	}
	if (n == 0) {
		return 0;
	}
	if (d->np == 0) {
		all_client(d, 0, n, first, last, false);
		return 0;
	}
	client_range(d, &start, &size);
	if (start == 0 && size == n) {
		all_client(d, start, size, first, last, false);
		return 0;
	}
	if (size > 0 && (d->opts->flags & PLANNER_DRMHWC_NO_CLIENT_TARGET)) {
		/* CreateComposition: the client target has no buffer to import (BadLayer). */
		all_client(d, start, size, first, last, false);
		return 0;
	}
	if (!create_plan(d, start, size, states, &count, &cand)) {
		all_client(d, start, size, first, last, true);
		return 0;
	}
	cand.count = count;
	ret = planner_test(d->tester, &cand, d->plan);
	if (ret != 0 && !board_tester_refused(ret)) {
		return ret;	/* not a refusal: the device failed */
	}
	if (ret != 0) {
		all_client(d, start, size, first, last, true);
		return 0;
	}
	ret = plan_keep_candidate(d->plan, &cand);
	if (ret < 0) {
		return ret;
	}
	for (size_t i = 0; i < count; i++) {
		d->plan->layers[states[i].layer].plane_id = states[i].plane_id;
	}
	for (size_t i = 0; i < n; i++) {
		if (i >= start && i < start + size) {
			d->plan->layers[i].reasons = range_reason(d, i, first, last);
		}
	}
	d->plan->client_target_plane = cand.has_client_target ? cand.client_target.plane_id : 0;
	return 0;
}

static int drmhwc_plan(const struct planner_options *opts, const struct board *board,
	const struct scene *scene, const struct board_tester *tester, struct plan *plan)
{
	size_t n = scene->layer_count ? scene->layer_count : 1;
	struct drmhwc d = {
		.opts = opts,
		.board = board,
		.scene = scene,
		.tester = tester,
		.plan = plan,
		.check_flags = PLANE_CHECK_DRMHWC,
	};
	struct plan_plane_state *states;
	int ret = -ENOMEM;

	if (opts->flags & PLANNER_DRMHWC_CHECK_MODIFIERS) {
		d.check_flags &= ~PLANE_CHECK_NO_MODIFIER;
	}
	d.planes = calloc(board->plane_count ? board->plane_count : 1, sizeof(*d.planes));
	d.forced = calloc(n, sizeof(*d.forced));
	d.assigned = calloc(n, sizeof(*d.assigned));
	states = calloc(n, sizeof(*states));
	if (d.planes && d.forced && d.assigned && states) {
		usable_planes(&d);
		ret = drmhwc_run(&d, states);
		planner_finish(plan);
	}
	free(states);
	free(d.assigned);
	free(d.forced);
	free(d.planes);
	return ret;
}

const struct planner_impl planner_drmhwc_impl = {
	.name = "drmhwc",
	.plan = drmhwc_plan,
};
