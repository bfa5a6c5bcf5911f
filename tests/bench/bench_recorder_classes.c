/*
 * Goal 3 of issue 16 per class of call (bench_recorder.h): the calls that
 * carry no fd, and those that carry a fence fd (which the recorder must
 * dup), each held against the enabled tracepoint's net cost, the fence
 * class with one measured dup + close added to its allowance.
 */
#include <stdio.h>

#include <hardware/hwcomposer2.h>

#include "bench_recorder.h"

#define GOAL_MEAN 1.5
#define GOAL_P99 3.0

bool bench_function_has_fence(int32_t function)
{
	switch (function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:		/* acquire fence in */
	case HWC2_FUNCTION_SET_CLIENT_TARGET:		/* acquire fence in */
	case HWC2_FUNCTION_SET_OUTPUT_BUFFER:		/* release fence in */
	case HWC2_FUNCTION_SET_READBACK_BUFFER:		/* acquire fence in */
	case HWC2_FUNCTION_PRESENT_DISPLAY:		/* present fence out */
	case HWC2_FUNCTION_GET_RELEASE_FENCES:		/* release fences out (its counting call too) */
	case HWC2_FUNCTION_GET_READBACK_BUFFER_FENCE:	/* fence out */
		return true;
	default:
		return false;
	}
}

struct bench_goal bench_class_goal(bool fence, double tp_mean, double tp_p99, const struct bench_stat *dup)
{
	struct bench_goal g = {
		.mean = GOAL_MEAN * (tp_mean + (fence ? dup->mean : 0.0)),
		.p99 = GOAL_P99 * (tp_p99 + (fence ? dup->p99 : 0.0)),
	};

	return g;
}

/* Statistics of the samples of s whose class is `fence`. */
static struct bench_stat class_stat(const struct bench_samples *s, bool fence)
{
	struct bench_samples part = { 0 };
	struct bench_stat st = { 0 };

	for (size_t i = 0; i < s->n; i++) {
		if (bench_function_has_fence(s->v[i].function) == fence &&
				bench_samples_add(&part, s->v[i].function, s->v[i].ns) < 0) {
			bench_samples_finish(&part);
			return st;
		}
	}
	st = bench_stat_of(&part, -1);
	bench_samples_finish(&part);
	return st;
}

static void print_class(const struct bench_results *r, enum bench_mode m, bool fence, double tp_mean, double tp_p99,
	const struct bench_stat *dup)
{
	struct bench_stat d = class_stat(&r->samples[MODE_DIRECT], fence);
	struct bench_stat w = class_stat(&r->samples[m], fence);
	double over_mean = w.mean - d.mean, over_p99 = w.p99 - d.p99;
	struct bench_goal goal = bench_class_goal(fence, tp_mean, tp_p99, dup);
	double goal_mean = goal.mean, goal_p99 = goal.p99;
	bool pass = over_mean <= goal_mean && over_p99 <= goal_p99;

	printf("  %-10s %-14s %6zu calls: overhead mean %6.0f ns (goal ≤ %4.0f, ratio %.2f), p99 %6.0f ns "
		"(goal ≤ %5.0f, ratio %.2f): %s\n", bench_mode_names[m], fence ? "fence-fd calls" : "no-fd calls",
		w.n, over_mean, goal_mean, over_mean / goal_mean, over_p99, goal_p99, over_p99 / goal_p99,
		pass ? "PASS" : "MISS");
}

/*
 * The tracepoint where the wrapper's cost is taken: in the client's own
 * calls (MODE_TP_IN_CALLS), per class, minus the direct calls of the class.
 */
static void print_in_calls(const struct bench_results *r)
{
	if (!r->ran[MODE_TP_IN_CALLS]) {
		return;
	}
	printf("the tracepoint fired inside each call of the class (tp-in-calls - direct), and each wrapper mode's "
		"overhead ÷ it:\n");
	for (int k = 0; k < 2; k++) {
		bool fence = k == 1;
		struct bench_stat d = class_stat(&r->samples[MODE_DIRECT], fence);
		struct bench_stat t = class_stat(&r->samples[MODE_TP_IN_CALLS], fence);
		double net = t.mean - d.mean;

		printf("  %-14s tracepoint mean %6.0f ns, median %4.0f ns", fence ? "fence-fd calls" : "no-fd calls", net,
			t.p50 - d.p50);
		for (int m = MODE_PIXELS_OFF; m <= MODE_PIXELS_ON; m++) {
			struct bench_stat w = class_stat(&r->samples[m], fence);

			printf("; %s %.2f", bench_mode_names[m], net >= 1.0 ? (w.mean - d.mean) / net : 0.0);
		}
		printf("\n");
	}
}

void bench_report_classes(const struct bench_results *r, double tp_mean, double tp_p99)
{
	struct bench_stat dup;

	if (!r->ran[MODE_DUP] || tp_mean < 1.0 || tp_p99 < 1.0) {
		printf("calls at tracepoint cost, per class: n/a (no dup baseline or no tracepoint baseline)\n");
		return;
	}
	dup = bench_stat_of(&r->samples[MODE_DUP], BENCH_FN_DUP);
	printf("calls at tracepoint cost, per class (overhead = wrapper - direct of the class; goal: mean ≤ 1.5 × "
		"tracepoint %.0f ns, p99 ≤ 3 × tracepoint %.0f ns; fence-fd calls: 1.5 × (tracepoint + one dup %.0f ns), "
		"3 × (tracepoint + one dup's p99 %.0f ns)):\n", tp_mean, tp_p99, dup.mean, dup.p99);
	for (int m = MODE_PIXELS_OFF; m <= MODE_PIXELS_ON; m++) {
		print_class(r, (enum bench_mode)m, false, tp_mean, tp_p99, &dup);
		print_class(r, (enum bench_mode)m, true, tp_mean, tp_p99, &dup);
	}
	print_in_calls(r);
}
