/*
 * bench-kms: the cost of the KMS backend over a bare atomic commit, on vkms
 * in the VM (tests/vm). Usage: bench-kms [--quick] [--frames N] [--planner drmhwc|search]
 *
 * The scene is fixed and plan-able: the "rgba5" stack of tests/kms/vm_stack.c
 * (five opaque layers, all on planes), at 256x192@60. Per planner (drmhwc,
 * search) and per planning mode (replan: the planner every frame, as the
 * backend did; reuse: backend_kms_options.reuse_plans, libliftoff's
 * reuse_previous_alloc), N frames go through backend_present (plan with
 * TEST_ONLY commits, import through the cache, NONBLOCK commit with
 * OUT_FENCE_PTR, wait for the present fence), and N frames through
 * kms_commit_present of the same configuration with framebuffers imported
 * once (the same request, flags and fence wait), in blocks of BLOCK frames
 * in turn so that the host's load (TCG) hits both alike. The planner has no time budget
 * (budget_ns = INT64_MAX): TEST_ONLY commits under TCG take milliseconds, so
 * libliftoff's 1 ms default would cut the search short.
 *
 * Printed per planner and mode, against the bare commit with the ratio and
 * the goal (<= 1.10): the frame time (wall, paced by the 60 Hz vblank), and
 * the cost of a frame without the wait for its flip: the bare commit call
 * plus the backend's own work (planning with its TEST_ONLY commits,
 * imports, bookkeeping; the backend's frame minus its commit call, which is
 * the same code on the same configuration — on a loaded TCG host the commit
 * call alone varies by tens of per cent between runs). Also the TEST_ONLY
 * commits per frame and the median planning time. A missed goal is
 * reported, never a failure: the exit status says whether it ran.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>

#include "backend_kms.h"
#include "bench.h"
#include "bench_kms.h"
#include "commit.h"
#include "device.h"
#include "fb.h"
#include "vm_stack.h"

#define GOAL 1.10
#define WARM_UP 5
#define BLOCK 25		/* frames of one kind in a row */

struct times {
	double *wall, *work;		/* per frame, ms */
	double *plan, *commit;		/* backend: planning and the commit call, ms */
	size_t n;
	unsigned long tests;
};

static double now_ms(void)
{
	return bench_now() * 1e3;
}

static int backend_frames(struct backend *b, const struct scene *scene, unsigned n, struct times *t)
{
	for (unsigned i = 0; i < n; i++) {
		struct backend_result res;
		double t0 = now_ms(), t1;
		int ret = backend_present(b, scene, false, &res);

		t1 = now_ms();
		if (ret < 0) {
			fprintf(stderr, "bench-kms: backend_present (frame %zu, after %.1f ms): %s\n", t->n,
				t1 - t0, strerror(-ret));
			backend_result_finish(&res);
			return ret;
		}
		if (t1 - t0 > 1000) {
			fprintf(stderr, "bench-kms: backend frame %zu took %.0f ms (plan %.1f, commit %.1f ms)\n",
				t->n, t1 - t0, (double)res.plan_ns / 1e6, (double)res.commit_ns / 1e6);
		}
		if (res.present_ns < 0) {
			fprintf(stderr, "bench-kms: frame %zu: no flip within the backend's wait (%.1f ms)\n",
				t->n, t1 - t0);
		}
		t->wall[t->n] = t1 - t0;
		/* without the wait for the flip: present_ns counts from the commit's start */
		t->work[t->n] = t1 - t0 - (res.present_ns >= 0 ? (double)(res.present_ns - res.commit_ns) / 1e6 : 0);
		t->plan[t->n] = (double)res.plan_ns / 1e6;
		t->commit[t->n] = (double)res.commit_ns / 1e6;
		t->tests += res.plan->test_count;
		t->n++;
		backend_result_finish(&res);
	}
	return 0;
}

static int bare_frames(struct bench_bare *bare, const struct scene *scene, unsigned n, struct times *t)
{
	for (unsigned i = 0; i < n; i++) {
		int ret = bench_bare_commit(bare, scene, &t->commit[t->n], &t->wall[t->n]);

		if (ret < 0) {
			return ret;
		}
		if (t->wall[t->n] > 1000) {
			fprintf(stderr, "bench-kms: bare frame %zu took %.0f ms (commit %.1f ms)\n", t->n,
				t->wall[t->n], t->commit[t->n]);
		}
		t->work[t->n] = t->commit[t->n];
		t->plan[t->n] = 0;
		t->n++;
	}
	return 0;
}

static struct backend *open_backend(const char *planner, bool reuse, struct compositor *c)
{
	struct planner_options popts;
	struct backend_kms_options o = { .width = VS_WIDTH, .height = VS_HEIGHT, .refresh_hz = 60,
		.planner = planner_find(planner), .planner_opts = &popts, .compositor = c,
		.reuse_plans = reuse };
	struct hwct_error err;
	struct backend *b;

	planner_options_init(&popts);
	popts.budget_ns = INT64_MAX;	/* no budget: see the header */
	b = backend_kms_create(&o, &err);
	if (!b) {
		fprintf(stderr, "bench-kms: %s\n", err.message);
	}
	return b;
}

static bool alloc_times(struct times *t, size_t n)
{
	t->wall = calloc(n, sizeof(double));
	t->work = calloc(n, sizeof(double));
	t->plan = calloc(n, sizeof(double));
	t->commit = calloc(n, sizeof(double));
	t->n = 0;
	t->tests = 0;
	return t->wall && t->work && t->plan && t->commit;
}

static void free_times(struct times *t)
{
	free(t->wall);
	free(t->work);
	free(t->plan);
	free(t->commit);
}

/* One planner and mode: blocks of backend and bare frames in turn, then the report. */
static int measure(const char *planner, bool reuse, const struct scene *scene, unsigned frames,
	struct compositor *c)
{
	struct backend *b = open_backend(planner, reuse, c);
	struct times tb, tr;
	struct bench_bare bare;
	char name[96];
	double wb, wr, kb, kr;
	int ret;

	if (!b) {
		return -ENODEV;
	}
	fprintf(stderr, "bench-kms: %s %s: start\n", planner, reuse ? "reuse" : "replan");
	if (!alloc_times(&tb, frames + WARM_UP) || !alloc_times(&tr, frames + WARM_UP)) {
		backend_destroy(b);
		return -ENOMEM;
	}
	ret = bench_bare_setup(&bare, b, scene, true);
	/* warm-up: the first commit sets the mode, the first frames fill the caches */
	for (int i = 0; i < WARM_UP && ret == 0; i++) {
		ret = backend_frames(b, scene, 1, &tb);
		ret = ret ? ret : bare_frames(&bare, scene, 1, &tr);
	}
	tb.n = tr.n = 0;
	tb.tests = 0;
	/*
	 * Blocks in turn, so that the host's load (TCG) hits both alike. Not
	 * frame by frame: vkms maps a framebuffer into the kernel when it goes on
	 * a plane (vkms_prepare_fb) unless it already is, so switching between
	 * two sets of framebuffers every frame would charge both for that.
	 */
	for (unsigned done = 0; done < frames && ret == 0; done += BLOCK) {
		unsigned n = frames - done < BLOCK ? frames - done : BLOCK;

		ret = backend_frames(b, scene, n, &tb);
		ret = ret ? ret : bare_frames(&bare, scene, n, &tr);
	}
	if (ret == 0) {
		printf("kms %s %s: %.2f TEST_ONLY commits per frame over %zu frames; median planning "
			"%.3f ms, commit call %.3f ms (bare %.3f ms)\n", planner, reuse ? "reuse" : "replan",
			(double)tb.tests / (double)tb.n, tb.n, bench_median(tb.plan, tb.n),
			bench_median(tb.commit, tb.n), bench_median(tr.commit, tr.n));
		wb = bench_median(tb.wall, tb.n);
		wr = bench_median(tr.wall, tr.n);
		kr = bench_median(tr.commit, tr.n);
		/* the commit call is the same code on the same configuration in both: compare the rest */
		for (size_t i = 0; i < tb.n; i++) {
			tb.work[i] -= tb.commit[i];
		}
		kb = kr + bench_median(tb.work, tb.n);
		snprintf(name, sizeof(name), "kms %s %s frame time (median, wall)", planner,
			reuse ? "reuse" : "replan");
		bench_report(name, wb, wr, "ms", wb / wr, GOAL, false);
		snprintf(name, sizeof(name), "kms %s %s cost (bare commit + backend's own work, median)",
			planner, reuse ? "reuse" : "replan");
		bench_report(name, kb, kr, "ms", kb / kr, GOAL, false);
	}
	bench_bare_finish(&bare);
	free_times(&tb);
	free_times(&tr);
	backend_destroy(b);
	return ret;
}

int main(int argc, char *argv[])
{
	static const char *const planners[] = { "drmhwc", "search" };
	const struct vs_stack *stack = vs_stack_find("rgba5");
	struct scene_image images[VS_MAX_LAYERS] = { 0 };
	struct scene_layer layers[VS_MAX_LAYERS];
	struct scene scene = { .width = VS_WIDTH, .height = VS_HEIGHT, .layers = layers,
		.layer_count = stack->count };
	unsigned frames = 300;
	const char *only = NULL;
	struct compositor *c = compositor_create("pixman");
	int ret = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			frames = 30;
		} else if (strcmp(argv[i], "--planner") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
			frames = (unsigned)strtoul(argv[++i], NULL, 10);
		} else {
			fprintf(stderr, "usage: bench-kms [--quick] [--frames N] [--planner NAME]\n");
			return 2;
		}
	}
	for (size_t i = 0; i < stack->count; i++) {
		if (!vs_image_make(&stack->layers[i], 0, &images[i])) {
			return 1;
		}
		layers[i] = vs_scene_layer(&stack->layers[i], i, &images[i], -1);
	}
	printf("bench-kms: %s (%s), %ux%u@60, %u frames of each per run in blocks of %d, "
		"planner budget unlimited\n", stack->name, stack->about, VS_WIDTH, VS_HEIGHT, frames, BLOCK);
	for (size_t p = 0; p < 2 && ret == 0 && c; p++) {
		if (only && strcmp(only, planners[p]) != 0) {
			continue;
		}
		ret = measure(planners[p], false, &scene, frames, c);
		ret = ret ? ret : measure(planners[p], true, &scene, frames, c);
	}
	for (size_t i = 0; i < stack->count; i++) {
		free((void *)images[i].data);
	}
	compositor_destroy(c);
	return ret == 0 && c ? 0 : 1;
}
