/*
 * Two replay results side by side (diff.h): frames matched by frame number
 * and play. Timings vary from run to run, so they are summarized in a note
 * and count as a difference only beyond --timing-threshold.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

enum {
	CAT_PLAN,
	CAT_REASONS,
	CAT_CHECKSUM,
	CAT_TIMING,
};

static const char *const categories[] = { "plan", "reasons", "checksum", "timing" };

static int by_key(const void *a, const void *b)
{
	const struct diff_result_frame *x = *(const struct diff_result_frame *const *)a;
	const struct diff_result_frame *y = *(const struct diff_result_frame *const *)b;

	if (x->loop != y->loop) {
		return x->loop < y->loop ? -1 : 1;
	}
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* By key, then file order: the first of equal keys sorts first. */
static int by_key_then_order(const void *a, const void *b)
{
	const struct diff_result_frame *x = *(const struct diff_result_frame *const *)a;
	const struct diff_result_frame *y = *(const struct diff_result_frame *const *)b;
	int c = by_key(a, b);

	return c ? c : x < y ? -1 : x > y;
}

/* B's frames sorted by (play, frame); a frame listed twice keeps its first entry. */
static const struct diff_result_frame **sorted(const struct diff_results *res)
{
	const struct diff_result_frame **v = malloc((res->count ? res->count : 1) * sizeof(*v));

	if (!v) {
		return NULL;
	}
	for (size_t i = 0; i < res->count; i++) {
		v[i] = &res->frames[i];
	}
	if (res->count) {
		qsort(v, res->count, sizeof(*v), by_key_then_order);
	}
	return v;
}

static const struct diff_result_frame *lookup(const struct diff_result_frame **v, size_t n,
	const struct diff_result_frame *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (by_key(&v[mid], &key) < 0) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo < n && by_key(&v[lo], &key) == 0 ? v[lo] : NULL;
}

static const char *placement(char *buf, size_t size, const struct diff_plan_layer *p)
{
	if (!p->on_plane) {
		return "client";
	}
	snprintf(buf, size, "plane %" PRIu64, p->plane);
	return buf;
}

/* The place of plane in res's device plane list, or -1. */
static long place(const struct diff_results *res, uint64_t plane)
{
	for (size_t i = 0; i < res->plane_id_count; i++) {
		if (res->plane_ids[i] == plane) {
			return (long)i;
		}
	}
	return -1;
}

/* Whether plane a of A's device and plane b of B's are the same: the same place in their
 * devices' plane lists when both are known (kernels number planes differently), else the same id. */
static bool same_plane(const struct diff_results *ra, uint64_t a, const struct diff_results *rb, uint64_t b)
{
	long pa = place(ra, a), pb = place(rb, b);

	return pa >= 0 && pb >= 0 ? pa == pb : a == b;
}

/* Layer decisions of both plans (the same layer of the same frame), and how many place it alike. */
struct placement_sums {
	uint64_t layers, agree;
};

static void compare_plans(struct diff_report *r, const struct diff_results *ra, const struct diff_result_frame *a,
	const struct diff_results *rb, const struct diff_result_frame *b, struct placement_sums *sums)
{
	char x[32], y[32];

	if (a->has_plan != b->has_plan) {
		diff_report_add(r, CAT_PLAN, "A %s a plan, B %s", a->has_plan ? "has" : "has no",
			b->has_plan ? "has one" : "has none");
		return;
	}
	if (a->plan_count != b->plan_count) {
		diff_report_add(r, CAT_PLAN, "%zu layers vs %zu", a->plan_count, b->plan_count);
		return;
	}
	for (size_t i = 0; i < a->plan_count; i++) {
		const struct diff_plan_layer *pa = &a->plan[i], *pb = &b->plan[i];

		if (pa->layer != pb->layer) {
			diff_report_add(r, CAT_PLAN, "layer %zu of the stack is %" PRIu64 " vs %" PRIu64, i, pa->layer,
				pb->layer);
			return;
		}
		sums->layers++;
		if (pa->on_plane != pb->on_plane || (pa->on_plane && !same_plane(ra, pa->plane, rb, pb->plane))) {
			diff_report_add(r, CAT_PLAN, "layer %" PRIu64 " %s vs %s", pa->layer, placement(x, sizeof(x), pa),
				placement(y, sizeof(y), pb));
		} else {
			sums->agree++;
		}
		if (strcmp(pa->reasons, pb->reasons) != 0) {
			diff_report_add(r, CAT_REASONS, "layer %" PRIu64 " [%s] vs [%s]", pa->layer, pa->reasons, pb->reasons);
		}
	}
	if (a->has_client_target_plane != b->has_client_target_plane || (a->has_client_target_plane &&
		!same_plane(ra, a->client_target_plane, rb, b->client_target_plane))) {
		snprintf(x, sizeof(x), "plane %" PRIu64, a->client_target_plane);
		snprintf(y, sizeof(y), "plane %" PRIu64, b->client_target_plane);
		diff_report_add(r, CAT_PLAN, "client target on %s vs %s", a->has_client_target_plane ? x : "no plane",
			b->has_client_target_plane ? y : "no plane");
	}
}

struct timing_sums {
	double a, b;			/* ns, frames with both known */
	uint64_t frames;
};

static void compare_timing(struct diff_report *r, const struct diff_result_frame *a,
	const struct diff_result_frame *b, double threshold, struct timing_sums *t)
{
	int64_t ta = diff_result_frame_work_ns(a), tb = diff_result_frame_work_ns(b);
	double change;

	if (ta < 0 || tb < 0) {
		return;
	}
	t->a += (double)ta;
	t->b += (double)tb;
	t->frames++;
	change = ta ? 100.0 * ((double)tb - (double)ta) / (double)ta : tb ? INFINITY : 0.0;
	if (threshold >= 0.0 && fabs(change) > threshold) {
		diff_report_add(r, CAT_TIMING, "work %.3f ms vs %.3f ms (%+.1f%%, threshold %g%%)", (double)ta / 1e6,
			(double)tb / 1e6, change, threshold);
	}
}

int diff_results_compare(const struct diff_results *a, const struct diff_results *b, double threshold,
	struct diff_report *r)
{
	const struct diff_result_frame **vb = sorted(b), **va = sorted(a);
	struct timing_sums t = { 0 };
	struct placement_sums placed = { 0 };

	r->kind = "results";
	r->categories = categories;
	r->category_count = threshold >= 0.0 ? 4 : 3;
	if (!va || !vb) {
		free(va);
		free(vb);
		return -ENOMEM;
	}
	diff_report_note(r, "A: planner %s, compositor %s, target %s%s", a->planner, a->compositor[0] ? a->compositor :
		"none", a->target, a->complete ? "" : " (incomplete run)");
	diff_report_note(r, "B: planner %s, compositor %s, target %s%s", b->planner, b->compositor[0] ? b->compositor :
		"none", b->target, b->complete ? "" : " (incomplete run)");
	if (a->plane_id_count && b->plane_id_count && (a->plane_id_count != b->plane_id_count ||
		memcmp(a->plane_ids, b->plane_ids, a->plane_id_count * sizeof(*a->plane_ids)) != 0)) {
		diff_report_note(r, "planes: A's and B's devices number their planes differently (%zu and %zu "
			"planes): a plane compares by its place in its device's list", a->plane_id_count,
			b->plane_id_count);
	}
	for (size_t i = 0; i < a->count; i++) {
		const struct diff_result_frame *fa = &a->frames[i], *fb;

		if (lookup(va, a->count, fa) != fa) {
			continue;	/* listed twice in A: the first counts */
		}
		fb = lookup(vb, b->count, fa);
		if (!fb) {
			r->only_a++;
			continue;
		}
		diff_report_frame(r, fa->frame, fa->display, fa->loop);
		compare_plans(r, a, fa, b, fb, &placed);
		if (strcmp(fa->checksum, fb->checksum) != 0) {
			diff_report_add(r, CAT_CHECKSUM, "%s vs %s", fa->checksum[0] ? fa->checksum : "null",
				fb->checksum[0] ? fb->checksum : "null");
		}
		compare_timing(r, fa, fb, threshold, &t);
	}
	/* only where pictures differ: the models explain a checksum, and say nothing when all are equal */
	if (r->frames_with[CAT_CHECKSUM] && a->yuv_model[0] && b->yuv_model[0] &&
		strcmp(a->yuv_model, b->yuv_model) != 0) {
		diff_report_note(r, "YUV: A's pictures convert YUV by the %s model, B's by the %s model: a YUV "
			"layer's pixels differ by that alone (docs/yuv-models.md)", a->yuv_model, b->yuv_model);
	}
	for (size_t i = 0; i < b->count; i++) {
		r->only_b += lookup(vb, b->count, &b->frames[i]) == &b->frames[i] && !lookup(va, a->count, &b->frames[i]);
	}
	if (placed.layers) {
		diff_report_note(r, "placement: %" PRIu64 " of %" PRIu64 " layer decisions alike (%.1f%%): the same plane, "
			"or the client, in both", placed.agree, placed.layers, 100.0 * (double)placed.agree /
			(double)placed.layers);
	}
	if (t.frames) {
		double ma = t.a / (double)t.frames / 1e6, mb = t.b / (double)t.frames / 1e6;

		diff_report_note(r, "timing: mean work per frame (plan + compose + commit + present) A %.3f ms, B %.3f ms"
			" (%+.1f%%) over %" PRIu64 " frames%s", ma, mb, ma > 0.0 ? 100.0 * (mb - ma) / ma : 0.0, t.frames,
			threshold >= 0.0 ? "" : "; not a difference without --timing-threshold");
	} else {
		diff_report_note(r, "timing: no frame has work times in both");
	}
	free(va);
	free(vb);
	return 0;
}
