/*
 * The paired measure of the recorder benchmark (bench_recorder.h): the
 * same calls of the same frames, direct and through the recorder, in one
 * process, alternating frame by frame (bench_client_run_paired). A
 * difference of means taken in different processes (the other modes)
 * moves by microseconds between runs with what else the machine does;
 * here both halves of a pair see the same machine, so their difference
 * holds still, and the spread of the differences says how well it is
 * known: the frames are cut into ten blocks of consecutive frames, the
 * statistic is taken per block, and the interval is the t interval (9
 * degrees of freedom, 95 %) of the block values around the whole run's.
 * The goal is judged on the 10 % trimmed mean of the differences: the
 * fake's presentDisplay now and then waits microseconds in one half of a
 * pair (its signaller thread, the host's scheduling), which moves a plain
 * mean of the fence-fd calls by more than the recorder's whole cost and
 * flips its sign; the plain mean is printed beside it.
 *
 * The goals' baseline, the tracepoint (and the dup), is measured in a burst
 * in a process of its own (bench_recorder_tp.c), warm, and moves by a
 * factor of two between runs with the machine. paired-ref measures it the
 * way the overhead is measured: fired inside the same calls of the same
 * frames, paired with the same direct calls, so it sees the same cold
 * caches and the same machine, with an interval of its own. Each paired
 * class is judged against it as well (mean <= 1.5 x the reference's
 * trimmed mean of the class; the ratio's interval combines both).
 *
 * Last, the frame: per frame, the differences of its 31 calls summed, what
 * the recorder (or the reference) adds to the composer's frame, against
 * the reference's, goal 1.5 x. The classes split the frame's first call
 * (cold: setLayerBuffer, in the fence-fd class) from the warm ones, which
 * the frame as a whole does not; under each class line the class is split
 * once more, into each function's first call in the frame and its repeats
 * (enum call_set), each against the reference's calls of the same set.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwc2_names.h>

#include "bench_recorder.h"

#define BLOCKS 10
#define T_95_9 2.262		/* Student's t, 97.5th percentile, 9 degrees of freedom */

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank 99th percentile of v[0..n) (sorts it). */
static double p99_of(uint32_t *v, size_t n)
{
	size_t rank;

	if (!n) {
		return 0.0;
	}
	qsort(v, n, sizeof(*v), compare_u32);
	rank = (size_t)ceil(0.99 * (double)n);
	return v[rank ? rank - 1 : 0];
}

struct paired_stat {
	size_t n;
	double mean, mean_ci;		/* ns: mean of wrapper - direct, its 95 % half-width */
	double trimmed, trimmed_ci;	/* ns: the same without the 10 % largest and 10 % smallest differences */
	double p99, p99_ci;		/* ns: p99 of wrapper - p99 of direct, its 95 % half-width */
	bool matched;			/* every pair is the same function */
};

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Mean and 10 % trimmed mean of v[0..n) (sorts it). */
static void mean_trimmed(double *v, size_t n, double *mean, double *trimmed)
{
	double sum = 0.0, t = 0.0;
	size_t cut = n / 10;

	qsort(v, n, sizeof(*v), compare_double);
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		t += i >= cut && i < n - cut ? v[i] : 0.0;
	}
	*mean = n ? sum / (double)n : 0.0;
	*trimmed = n > 2 * cut ? t / (double)(n - 2 * cut) : 0.0;
}

/*
 * The 95 % half-width of a statistic from its values in the BLOCKS blocks:
 * the t interval (BLOCKS - 1 degrees of freedom) of their mean.
 */
static double interval(const double block[BLOCKS])
{
	double avg = 0.0, var = 0.0;

	for (size_t b = 0; b < BLOCKS; b++) {
		avg += block[b] / BLOCKS;
	}
	for (size_t b = 0; b < BLOCKS; b++) {
		var += (block[b] - avg) * (block[b] - avg);
	}
	return T_95_9 * sqrt(var / (BLOCKS - 1)) / sqrt(BLOCKS);
}

/*
 * Which calls of a class a statistic takes: all of them, or split by where
 * the call falls in its frame. A function's first call in the frame finds
 * its own code and data (the wrapper's, the fake's, the argument helpers')
 * as the frame's drawing left them; a repeat (the second layer's setters,
 * the second getReleaseFences) finds them warm. The reference pays its
 * cold misses in the frame's first call, which is in the fence-fd class;
 * the recorder pays some of its own in each function's first call.
 */
enum call_set { SET_ALL, SET_FIRST, SET_REPEAT };

/* Whether pair i's function was called before in the same frame. */
static bool repeat_in_frame(const struct bench_samples *d, size_t i)
{
	for (size_t j = i - i % BENCH_CALLS_PER_FRAME; j < i; j++) {
		if (d->v[j].function == d->v[i].function) {
			return true;
		}
	}
	return false;
}

static bool in_set(const struct bench_samples *d, size_t i, bool fence, enum call_set set)
{
	if (bench_function_has_fence(d->v[i].function) != fence) {
		return false;
	}
	return set == SET_ALL || repeat_in_frame(d, i) == (set == SET_REPEAT);
}

/*
 * Mean, 10 % trimmed mean and p99 overhead of pairs [lo, hi) of class
 * fence, of the calls set; *n pairs taken. diff, vd, vw: room for hi - lo values.
 */
static void block_stat(const struct bench_samples *d, const struct bench_samples *w, size_t lo, size_t hi, bool fence,
	enum call_set set, double *diff, uint32_t *vd, uint32_t *vw, double stat[3], size_t *n)
{
	size_t k = 0;

	for (size_t i = lo; i < hi; i++) {
		if (!in_set(d, i, fence, set)) {
			continue;
		}
		diff[k] = (double)w->v[i].ns - (double)d->v[i].ns;
		vd[k] = d->v[i].ns;
		vw[k] = w->v[i].ns;
		k++;
	}
	*n = k;
	mean_trimmed(diff, k, &stat[0], &stat[1]);
	stat[2] = p99_of(vw, k) - p99_of(vd, k);
}

static struct paired_stat paired_stat_of(const struct bench_samples *d, const struct bench_samples *w, bool fence,
	enum call_set set)
{
	/* the split needs whole frames: a frame's calls are [31 k, 31 (k + 1)) */
	struct paired_stat st = { .matched = d->n == w->n && d->n > 0 &&
		(set == SET_ALL || d->n % BENCH_CALLS_PER_FRAME == 0) };
	size_t room = d->n ? d->n : 1, n;
	uint32_t *vd = malloc(room * sizeof(*vd)), *vw = malloc(room * sizeof(*vw));
	double *diff = malloc(room * sizeof(*diff));
	double all[3], block[3][BLOCKS], stat[3];

	for (size_t i = 0; st.matched && i < d->n; i++) {
		st.matched = d->v[i].function == w->v[i].function;
	}
	if (!st.matched || !vd || !vw || !diff) {
		st.matched = false;
		free(vd);
		free(vw);
		free(diff);
		return st;
	}
	block_stat(d, w, 0, d->n, fence, set, diff, vd, vw, all, &st.n);
	for (size_t b = 0; b < BLOCKS; b++) {
		block_stat(d, w, d->n * b / BLOCKS, d->n * (b + 1) / BLOCKS, fence, set, diff, vd, vw, stat, &n);
		for (int j = 0; j < 3; j++) {
			block[j][b] = stat[j];
		}
	}
	/* a block's p99 rests on a tenth of the samples: its spread over-states the whole run's, as it should */
	st.mean = all[0];
	st.trimmed = all[1];
	st.p99 = all[2];
	st.mean_ci = interval(block[0]);
	st.trimmed_ci = interval(block[1]);
	st.p99_ci = interval(block[2]);
	free(vd);
	free(vw);
	free(diff);
	return st;
}


/*
 * Per frame, the wrapper's calls minus the direct ones, summed: the mean and
 * trimmed mean over the frames and their intervals over ten blocks of
 * frames. Not matched when the halves do not pair up or hold no whole frames.
 */
static struct paired_stat frame_stat_of(const struct bench_samples *d, const struct bench_samples *w)
{
	struct paired_stat st = { .matched = d->n == w->n && d->n >= BLOCKS * BENCH_CALLS_PER_FRAME &&
		d->n % BENCH_CALLS_PER_FRAME == 0 };
	size_t frames = d->n / BENCH_CALLS_PER_FRAME;
	double *v = st.matched ? malloc(frames * sizeof(*v)) : NULL, *b = v ? malloc(frames * sizeof(*b)) : NULL;
	double bm[BLOCKS], bt[BLOCKS];

	for (size_t i = 0; st.matched && i < d->n; i++) {
		st.matched = d->v[i].function == w->v[i].function;
	}
	if (!st.matched || !b) {
		st.matched = false;
		free(v);
		return st;
	}
	for (size_t f = 0; f < frames; f++) {
		v[f] = 0.0;
		for (size_t i = f * BENCH_CALLS_PER_FRAME; i < (f + 1) * BENCH_CALLS_PER_FRAME; i++) {
			v[f] += (double)w->v[i].ns - (double)d->v[i].ns;
		}
	}
	for (size_t k = 0; k < BLOCKS; k++) {
		size_t lo = frames * k / BLOCKS, hi = frames * (k + 1) / BLOCKS;

		memcpy(b, v + lo, (hi - lo) * sizeof(*b));
		mean_trimmed(b, hi - lo, &bm[k], &bt[k]);
	}
	st.n = frames;
	mean_trimmed(v, frames, &st.mean, &st.trimmed);
	st.mean_ci = interval(bm);
	st.trimmed_ci = interval(bt);
	free(v);
	free(b);
	return st;
}

/* What each paired mode adds to a frame, the recorder's against the reference's (goal 1.5 x). */
static void print_frames(const struct bench_results *r)
{
	struct paired_stat ref = frame_stat_of(&r->paired_direct[MODE_PAIRED_REF], &r->samples[MODE_PAIRED_REF]);

	if (!r->ran[MODE_PAIRED_REF] || !ref.matched || ref.trimmed < 1.0) {
		return;
	}
	printf("per frame (the differences of its %d calls summed; trimmed mean over the frames ± 95 %%, plain mean "
		"beside it):\n  %-10s %6zu frames: %6.2f ± %4.2f µs (mean %6.2f ± %4.2f µs)\n", BENCH_CALLS_PER_FRAME,
		bench_mode_names[MODE_PAIRED_REF], ref.n, ref.trimmed / 1000, ref.trimmed_ci / 1000, ref.mean / 1000,
		ref.mean_ci / 1000);
	for (int m = MODE_PAIRED_OFF; m <= MODE_PAIRED_ON; m++) {
		struct paired_stat st = r->ran[m] ? frame_stat_of(&r->paired_direct[m], &r->samples[m]) : ref;
		double goal = 1.5 * ref.trimmed;

		if (!r->ran[m] || !st.matched) {
			continue;
		}
		printf("  %-10s %6zu frames: %6.2f ± %4.2f µs (mean %6.2f ± %4.2f µs); against paired-ref: goal ≤ %.2f µs, "
			"ratio %.2f ± %.2f: %s\n", bench_mode_names[m], st.n, st.trimmed / 1000, st.trimmed_ci / 1000,
			st.mean / 1000, st.mean_ci / 1000, goal / 1000, st.trimmed / goal,
			sqrt(pow(st.trimmed_ci / goal, 2) + pow(st.trimmed * 1.5 * ref.trimmed_ci / (goal * goal), 2)),
			st.trimmed <= goal ? "PASS" : "MISS");
	}
}

/* Per fence-carrying function of the frame: the paired mean overhead and its interval. */
static void print_functions(const struct bench_samples *d, const struct bench_samples *w)
{
	static const int32_t fns[] = { HWC2_FUNCTION_SET_LAYER_BUFFER, HWC2_FUNCTION_PRESENT_DISPLAY,
		HWC2_FUNCTION_GET_RELEASE_FENCES };

	printf("   ");
	for (size_t k = 0; k < sizeof(fns) / sizeof(fns[0]); k++) {
		double bm[BLOCKS] = { 0 }, all = 0.0;
		size_t n = 0;

		for (size_t b = 0; b < BLOCKS; b++) {
			size_t lo = d->n * b / BLOCKS, hi = d->n * (b + 1) / BLOCKS, nb = 0;

			for (size_t i = lo; i < hi; i++) {
				if (d->v[i].function == fns[k]) {
					bm[b] += (double)w->v[i].ns - (double)d->v[i].ns;
					nb++;
				}
			}
			all += bm[b];
			n += nb;
			bm[b] = nb ? bm[b] / (double)nb : 0.0;
		}
		printf(" %s %.0f ± %.0f ns%s", hwct_hwc2_function_method(fns[k]), n ? all / (double)n : 0.0,
			interval(bm), k + 1 < sizeof(fns) / sizeof(fns[0]) ? ";" : "\n");
	}
}

/* A fence-fd class's trimmed overhead against the goal with the dup it allows measured inside the calls (dup_in ns). */
static void print_fence_goal_in_calls(double trimmed, double trimmed_ci, double tp_mean, double dup_in)
{
	struct bench_stat in = { .mean = dup_in };
	double goal = bench_class_goal(true, tp_mean, 0.0, &in).mean;

	printf("    with the dup where the calls pay it (paired-dup, %.0f ns): goal ≤ %4.0f, ratio %.2f ± %.2f\n",
		dup_in, goal, trimmed / goal, trimmed_ci / goal);
}

/* st's trimmed mean over 1.5 x ref's, and the ratio's 95 % half-width from both intervals. */
static double ratio_to_ref(const struct paired_stat *st, const struct paired_stat *ref, double *ci)
{
	double goal = 1.5 * ref->trimmed;

	*ci = sqrt(pow(st->trimmed_ci / goal, 2) + pow(st->trimmed * 1.5 * ref->trimmed_ci / (goal * goal), 2));
	return st->trimmed / goal;
}

/* A class's trimmed overhead st against 1.5 x the reference's (paired-ref) of the same class; p99_ok: its p99 goal held. */
static void print_goal_ref(const struct paired_stat *st, const struct paired_stat *ref, bool p99_ok)
{
	double ratio, ci;

	if (!ref->matched || ref->trimmed < 1.0) {
		return;
	}
	ratio = ratio_to_ref(st, ref, &ci);
	printf("    against the reference in the same calls (paired-ref %.0f ± %.0f ns): goal ≤ %4.0f, ratio %.2f ± %.2f: "
		"%s\n", ref->trimmed, ref->trimmed_ci, 1.5 * ref->trimmed, ratio, ci,
		ratio <= 1.0 && p99_ok ? "PASS" : "MISS");
}

/*
 * Mode m's class split into each function's first call in the frame and
 * its repeats (enum call_set), each against the reference's calls of the
 * same set: where the recorder's cost is cold misses and where it is the
 * warm path.
 */
static void print_split(const struct bench_results *r, int m, bool fence)
{
	static const char *const what[] = { [SET_FIRST] = "first of its function in the frame",
		[SET_REPEAT] = "repeated in the frame (warm)" };

	for (enum call_set set = SET_FIRST; set <= SET_REPEAT; set++) {
		struct paired_stat st = paired_stat_of(&r->paired_direct[m], &r->samples[m], fence, set);
		struct paired_stat ref = paired_stat_of(&r->paired_direct[MODE_PAIRED_REF], &r->samples[MODE_PAIRED_REF],
			fence, set);
		double ratio, ci;

		if (!st.matched || !ref.matched || !st.n || ref.trimmed < 1.0) {
			continue;
		}
		ratio = ratio_to_ref(&st, &ref, &ci);
		printf("      %-35s %5zu pairs: trimmed mean %6.0f ± %4.0f ns, paired-ref %6.0f ± %4.0f ns: ratio to "
			"1.5 × it %.2f ± %.2f\n", what[set], st.n, st.trimmed, st.trimmed_ci, ref.trimmed, ref.trimmed_ci,
			ratio, ci);
	}
}

/* The reference's own line: what a tracepoint (and a dup) costs in the calls of the class. */
static void print_ref(const struct bench_results *r, const struct paired_stat ref[2])
{
	for (int k = 0; k < 2; k++) {
		if (ref[k].matched) {
			printf("  %-10s %-14s %6zu pairs: the tracepoint%s inside each call: trimmed mean %6.0f ± %4.0f ns, "
				"mean %6.0f ± %4.0f ns, p99 %6.0f ± %5.0f ns\n", bench_mode_names[MODE_PAIRED_REF],
				k ? "fence-fd calls" : "no-fd calls", ref[k].n, k ? " + one dup + close" : "", ref[k].trimmed,
				ref[k].trimmed_ci, ref[k].mean, ref[k].mean_ci, ref[k].p99, ref[k].p99_ci);
		}
	}
	if (ref[1].matched) {
		print_functions(&r->paired_direct[MODE_PAIRED_REF], &r->samples[MODE_PAIRED_REF]);
	}
}

void bench_report_paired(const struct bench_results *r, double tp_mean, double tp_p99)
{
	struct bench_stat dup;
	struct paired_stat in_calls = { 0 }, ref[2] = { { 0 }, { 0 } };

	if (!r->paired_direct || (!r->ran[MODE_PAIRED_OFF] && !r->ran[MODE_PAIRED_ON])) {
		return;
	}
	if (!r->ran[MODE_DUP] || tp_mean < 1.0 || tp_p99 < 1.0) {
		printf("paired (direct and wrapper alternating in one process), per class: n/a (no dup or tracepoint "
			"baseline)\n");
		return;
	}
	dup = bench_stat_of(&r->samples[MODE_DUP], BENCH_FN_DUP);
	printf("paired (direct and wrapper alternating frame by frame in one process; overhead = wrapper - direct of "
		"the same call, over the pairs; ± 95 %% interval over 10 blocks of frames; goals as above, the mean's "
		"judged on the trimmed mean):\n");
	if (r->ran[MODE_PAIRED_DUP]) {
		in_calls = paired_stat_of(&r->paired_direct[MODE_PAIRED_DUP], &r->samples[MODE_PAIRED_DUP], true, SET_ALL);
		if (in_calls.matched) {
			printf("  %-10s %-14s %6zu pairs: one dup + close inside each call: trimmed mean %6.0f ± %4.0f ns, "
				"mean %6.0f ± %4.0f ns (the dup baseline in a burst: %.0f ns)\n", bench_mode_names[MODE_PAIRED_DUP],
				"fence-fd calls", in_calls.n, in_calls.trimmed, in_calls.trimmed_ci, in_calls.mean,
				in_calls.mean_ci, dup.mean);
			print_functions(&r->paired_direct[MODE_PAIRED_DUP], &r->samples[MODE_PAIRED_DUP]);
		}
	}
	if (r->ran[MODE_PAIRED_REF]) {
		for (int k = 0; k < 2; k++) {
			ref[k] = paired_stat_of(&r->paired_direct[MODE_PAIRED_REF], &r->samples[MODE_PAIRED_REF], k == 1,
				SET_ALL);
		}
		print_ref(r, ref);
	}
	for (int m = MODE_PAIRED_OFF; m <= MODE_PAIRED_ON; m++) {
		for (int k = 0; k < 2 && r->ran[m]; k++) {
			bool fence = k == 1;
			struct paired_stat st = paired_stat_of(&r->paired_direct[m], &r->samples[m], fence, SET_ALL);
			struct bench_goal goal = bench_class_goal(fence, tp_mean, tp_p99, &dup);
			double goal_mean = goal.mean, goal_p99 = goal.p99;

			if (!st.matched) {
				printf("  %-10s %-14s n/a: the two halves' calls do not pair up\n", bench_mode_names[m],
					fence ? "fence-fd calls" : "no-fd calls");
				continue;
			}
			printf("  %-10s %-14s %6zu pairs: overhead trimmed mean %6.0f ± %4.0f ns (goal ≤ %4.0f, ratio %.2f ± "
				"%.2f), mean %6.0f ± %4.0f ns (ratio %.2f ± %.2f), p99 %6.0f ± %5.0f ns (goal ≤ %5.0f, ratio "
				"%.2f ± %.2f): %s\n", bench_mode_names[m], fence ? "fence-fd calls" : "no-fd calls", st.n,
				st.trimmed, st.trimmed_ci, goal_mean, st.trimmed / goal_mean, st.trimmed_ci / goal_mean, st.mean,
				st.mean_ci, st.mean / goal_mean, st.mean_ci / goal_mean, st.p99, st.p99_ci, goal_p99,
				st.p99 / goal_p99, st.p99_ci / goal_p99,
				st.trimmed <= goal_mean && st.p99 <= goal_p99 ? "PASS" : "MISS");
			print_goal_ref(&st, &ref[k], st.p99 <= goal_p99);
			if (r->ran[MODE_PAIRED_REF]) {
				print_split(r, m, fence);
			}
			if (fence) {
				print_functions(&r->paired_direct[m], &r->samples[m]);
				if (in_calls.matched) {
					print_fence_goal_in_calls(st.trimmed, st.trimmed_ci, tp_mean, in_calls.trimmed);
				}
			}
		}
	}
	print_frames(r);
}
