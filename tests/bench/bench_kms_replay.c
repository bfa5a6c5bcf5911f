/*
 * bench-kms-replay [--quick] [--frames N] [--planner drmhwc|search] [--device PATH]:
 * hwc-replay's own frame loop on a KMS device against the bare atomic
 * commit of bench-kms (bench_kms.h), in one run on vkms in the VM
 * (tests/vm). Goal: a replayed frame costs at most 1.10 bare commits.
 *
 * The trace is the replay tests' ARGB8888 stack (replay_gen.h): a 1024x768
 * background (vkms's mode: no mapping) under four 64x64 tiles, one tile
 * redrawn per frame; N frames (default 200; 40 with --quick, one round).
 * It is replayed the way `hwc-replay TRACE --device /dev/dri/card0
 * --planner P --timing fast --quiet --results FILE` does (replay_run, the
 * program's own code): per frame the scene decoded from the trace, the
 * plan (the previous one re-checked with one TEST_ONLY commit when a tile
 * changed), the import of the new tile, the client composition when the
 * plan has a client target, the commit, the wait for the flip, the
 * writeback readback and its checksum, the results line. The replay's
 * first frame also plans from nothing and sets the mode (seconds under
 * TCG, varying from run to run): what its plan, composition and commit
 * took beyond the other frames' median is left out, and the per-frame time
 * is the loop's time (totals.wall_ns) so corrected, divided by N.
 *
 * The baseline, in the same run on the same device: frame 0's scene as the
 * backend plans it, committed bare (kms_commit_present of that
 * configuration, framebuffers imported once, then the wait for the present
 * fence), N frames after WARM_UP.
 *
 * Each round replays twice: with --no-pixels (no composition, no writeback
 * readback: what the bare commit does too; the goal line) and with pixels
 * (every frame read back through writeback, compared with the bare frame
 * plus the same readback).
 *
 * Printed per planner (drmhwc, search), each the median of REPS rounds
 * (the replay, then the bare frames, so that the host's load (TCG) hits
 * both alike), against the baseline with the ratio and the goal:
 *   frame time  the replayed frame's wall time (mean) against the bare
 *               frame's (mean); both are paced by the 60 Hz vblank;
 *   cost        the replayed frame without its wait for the flip
 *               (present_ns - commit_ns of the results) against the bare
 *               commit call (mean).
 * Also, not held against the goal: what the replayed frame's time went to
 * (plan, compose, commit call and flip wait from the results; the rest is
 * the scene, imports, readback and the results line), and the bare frame
 * with the writeback readback that every --device frame has (at most
 * READBACK_FRAMES of them: with writeback on, vkms composes each frame in
 * software, which under TCG costs more than everything else).
 * A missed goal is reported, never a failure: exit 1 only when something
 * could not run, 2 on a usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include <hwct/frame.h>
#include <hwct/reader.h>

#include "bench.h"
#include "bench_kms.h"
#include "replay.h"
#include "replay_gen.h"
#include "replay_map.h"
#include "replay_scene.h"

#define GOAL 1.10
#define WARM_UP 5		/* bare frames before measuring */
#define REPS 3
#define READBACK_FRAMES 60	/* bare frames with readback, at most (vkms composes each in software) */
#define SEARCH_BUDGET_NS 200000000	/* the --device target's (replay_target_kms.c) */

/* What a replayed frame's time went to, from the results (timing of the frames after the first). */
enum part { PART_PLAN, PART_COMPOSE, PART_COMMIT, PART_FLIP, PART_COUNT };

static const char *const part_names[PART_COUNT] = { "plan", "compose", "commit call", "flip wait" };

struct round {
	double replay_ms, replay_work_ms;	/* per replayed frame: wall, and without the flip wait */
	double plain_ms, plain_work_ms;		/* the same with --no-pixels: no composition, no readback */
	double parts_ms[PART_COUNT];		/* per replayed frame */
	double bare_ms, bare_commit_ms;		/* per bare frame: wall, and the commit call */
	double bare_readback_ms;		/* per bare frame with the writeback readback: wall */
};

struct loop_times {
	double wall_ms;			/* totals.wall_ns less the first frame's extra planning and commit */
	double parts_ms[PART_COUNT];	/* means over the frames after the first */
};

static const char *device = "/dev/dri/card0";

static int64_t int_at(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v) || (b && !json_object_object_get_ex(v, b, &v)) ||
		!json_object_is_type(v, json_type_int)) {
		return -1;
	}
	return json_object_get_int64(v);
}

/*
 * One replay of frames 0..last by replay_run; *t from its results. Returns
 * 0 or -1 (said). The first frame plans from nothing and its commit sets
 * the mode (seconds under TCG, varying from run to run): what its plan,
 * composition and commit up to the flip took beyond the median of the
 * other frames' is left out of the loop's time.
 */
static int replay(const char *trace, const char *planner, uint64_t last, const char *results, bool pixels,
	struct loop_times *t)
{
	struct replay_options o;
	struct json_object *root, *frames;
	double *shown = calloc(last + 1, sizeof(double));	/* per frame: plan + compose + commit to flip */
	size_t n;
	int ret;

	if (!shown) {
		fprintf(stderr, "bench-kms-replay: out of memory\n");
		return -1;
	}

	replay_options_init(&o);
	o.trace = trace;
	o.target = REPLAY_TARGET_DEVICE;
	o.target_arg = device;
	o.planner = planner;
	o.timing = REPLAY_TIMING_FAST;
	o.last = last;
	o.quiet = true;
	o.results = results;
	o.no_pixels = !pixels;
	ret = replay_run(&o);
	if (ret != REPLAY_EXIT_OK) {
		fprintf(stderr, "bench-kms-replay: the replay (%s, frames 0-%llu) exited %d\n", planner,
			(unsigned long long)last, ret);
		free(shown);
		return -1;
	}
	root = json_object_from_file(results);
	if (!root || !json_object_object_get_ex(root, "frames", &frames) ||
		(uint64_t)int_at(root, "totals", "frames") != last + 1 || int_at(root, "totals", "wall_ns") <= 0) {
		fprintf(stderr, "bench-kms-replay: %s: no totals for %llu frames\n", results,
			(unsigned long long)last + 1);
		json_object_put(root);
		free(shown);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	n = json_object_array_length(frames);
	for (size_t i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(frames, i);
		int64_t plan = int_at(f, "timing", "plan_ns"), compose = int_at(f, "timing", "compose_ns");
		int64_t commit = int_at(f, "timing", "commit_ns"), present = int_at(f, "timing", "present_ns");

		/* -1: not measured (no composition, no flip within the wait) */
		double parts[PART_COUNT] = {
			[PART_PLAN] = plan > 0 ? (double)plan / 1e6 : 0,
			[PART_COMPOSE] = compose > 0 ? (double)compose / 1e6 : 0,
			[PART_COMMIT] = commit > 0 ? (double)commit / 1e6 : 0,
			[PART_FLIP] = commit >= 0 && present >= commit ? (double)(present - commit) / 1e6 : 0,
		};

		for (int p = 0; p < PART_COUNT; p++) {
			shown[i] += parts[p];
			t->parts_ms[p] += i > 0 ? parts[p] / (double)(n - 1) : 0;
		}
	}
	t->wall_ms = (double)int_at(root, "totals", "wall_ns") / 1e6 - shown[0];
	t->wall_ms += bench_median(shown + 1, n - 1);	/* n > 1: main wants more than 10 frames */
	free(shown);
	json_object_put(root);
	return 0;
}

/* Frame 0 of trace as hwc-replay builds it for b's board into *scene (valid while rs lives). */
static int first_scene(struct hwct_reader *r, struct replay_scene *rs, struct backend *b, struct scene *scene)
{
	const struct board *board = backend_kms_board(b);
	struct hwct_frame_iter *it = hwct_frame_iter_create(r);
	const struct hwct_frame *f;
	const uint64_t *missing;
	struct replay_map m;
	size_t missing_count;
	int ret = it ? hwct_frame_iter_next(it, &f) : -errno;

	if (ret == 1) {
		replay_map_init(&m, REPLAY_MAP_LETTERBOX, f->width > 0 ? (uint32_t)f->width : 0,
			f->height > 0 ? (uint32_t)f->height : 0, board->width, board->height);
		ret = replay_scene_build(rs, f, &m, scene, &missing, &missing_count);
	} else if (ret == 0) {
		ret = -ENODATA;
	}
	hwct_frame_iter_destroy(it);
	return ret;
}

/* frames bare commits of trace's frame 0 after WARM_UP; per-frame means into rd. Returns 0 or -errno (said). */
static int bare(const char *trace, const char *planner, unsigned frames, struct compositor *c, struct round *rd)
{
	struct planner_options popts;
	struct backend_kms_options ko = { .path = device, .planner = planner_find(planner), .planner_opts = &popts,
		.compositor = c, .reuse_plans = true };
	struct hwct_error err = { 0 };
	struct hwct_reader *r = hwct_reader_open(trace, &err);
	struct replay_scene *rs = r ? replay_scene_create(r, true) : NULL;
	struct backend *b = NULL;
	struct bench_bare bb = { 0 };
	struct scene scene;
	unsigned readback_frames = frames < READBACK_FRAMES ? frames : READBACK_FRAMES;
	double wall = 0, commit = 0, readback = 0;
	int ret = rs ? 0 : -EIO;

	planner_options_init(&popts);
	popts.budget_ns = SEARCH_BUDGET_NS;
	if (ret == 0 && !(b = backend_kms_create(&ko, &err))) {
		ret = err.code ? err.code : -ENODEV;
	}
	if (ret < 0) {
		fprintf(stderr, "bench-kms-replay: %s\n", err.code ? err.message : strerror(-ret));
	}
	ret = ret ? ret : first_scene(r, rs, b, &scene);
	ret = ret ? ret : bench_bare_setup(&bb, b, &scene, false);
	for (unsigned i = 0; i < WARM_UP + frames && ret == 0; i++) {
		double k, w;

		ret = bench_bare_commit(&bb, &scene, &k, &w);
		if (i >= WARM_UP) {
			commit += k;
			wall += w;
		}
	}
	ret = ret ? ret : bench_bare_readback(&bb);
	for (unsigned i = 0; i < WARM_UP + readback_frames && ret == 0; i++) {
		double k, w;

		ret = bench_bare_commit(&bb, &scene, &k, &w);
		readback += i >= WARM_UP ? w : 0;
	}
	if (ret < 0 && b) {
		fprintf(stderr, "bench-kms-replay: the bare commit (%s): %s\n", planner, strerror(-ret));
	}
	rd->bare_ms = wall / frames;
	rd->bare_commit_ms = commit / frames;
	rd->bare_readback_ms = readback / readback_frames;
	bench_bare_finish(&bb);
	backend_destroy(b);
	replay_scene_destroy(rs);
	hwct_reader_destroy(r);
	return ret;
}

/* One round: the replay, then the bare frames. Returns 0 or -1. */
static int measure(const char *trace, const char *results, const char *planner, unsigned frames,
	struct compositor *c, struct round *rd)
{
	struct loop_times l;

	if (replay(trace, planner, frames - 1, results, false, &l) < 0) {
		return -1;
	}
	rd->plain_ms = l.wall_ms / (double)frames;
	rd->plain_work_ms = rd->plain_ms - l.parts_ms[PART_FLIP];
	if (replay(trace, planner, frames - 1, results, true, &l) < 0) {
		return -1;
	}
	memcpy(rd->parts_ms, l.parts_ms, sizeof(rd->parts_ms));
	rd->replay_ms = l.wall_ms / (double)frames;
	rd->replay_work_ms = rd->replay_ms - rd->parts_ms[PART_FLIP];
	return bare(trace, planner, frames, c, rd) < 0 ? -1 : 0;
}

static void report(const char *planner, struct round *rounds, unsigned reps)
{
	double replay_ms[REPS], work_ms[REPS], bare_ms[REPS], commit_ms[REPS], part_ms[REPS], readback_ms[REPS];
	double plain_ms[REPS], plain_work_ms[REPS];
	double rm, wm, bm, cm, rbm, pm, pwm, rest;
	char name[128];

	for (unsigned i = 0; i < reps; i++) {
		replay_ms[i] = rounds[i].replay_ms;
		work_ms[i] = rounds[i].replay_work_ms;
		bare_ms[i] = rounds[i].bare_ms;
		commit_ms[i] = rounds[i].bare_commit_ms;
		readback_ms[i] = rounds[i].bare_readback_ms;
		plain_ms[i] = rounds[i].plain_ms;
		plain_work_ms[i] = rounds[i].plain_work_ms;
	}
	pm = bench_median(plain_ms, reps);
	pwm = bench_median(plain_work_ms, reps);
	rm = bench_median(replay_ms, reps);
	wm = bench_median(work_ms, reps);
	bm = bench_median(bare_ms, reps);
	cm = bench_median(commit_ms, reps);
	rbm = bench_median(readback_ms, reps);
	printf("kms-replay %s: replayed frame %.3f ms (%.3f ms without the flip wait); bare frame %.3f ms "
		"(commit call %.3f ms)\n", planner, rm, wm, bm, cm);
	printf("kms-replay %s: the replayed frame's parts (median means):", planner);
	rest = rm;
	for (int p = 0; p < PART_COUNT; p++) {
		double v;

		for (unsigned i = 0; i < reps; i++) {
			part_ms[i] = rounds[i].parts_ms[p];
		}
		v = bench_median(part_ms, reps);
		rest -= v;
		printf(" %s %.3f ms,", part_names[p], v);
	}
	printf(" the rest (scene, imports, readback, results) %.3f ms\n", rest);
	printf("kms-replay %s: bare frame with the writeback readback hwc-replay adds (vkms then composes "
		"the frame in software) %.3f ms; replayed frame / that %.3f\n", planner, rbm, rm / rbm);
	snprintf(name, sizeof(name), "kms-replay %s frame time (hwc-replay --device --timing fast --no-pixels, "
		"no readback as the bare commit; mean, wall)", planner);
	bench_report(name, pm, bm, "ms", pm / bm, GOAL, false);
	snprintf(name, sizeof(name), "kms-replay %s cost --no-pixels (replayed frame without the flip wait / bare "
		"commit call)", planner);
	bench_report(name, pwm, cm, "ms", pwm / cm, GOAL, false);
	snprintf(name, sizeof(name), "kms-replay %s frame time with pixels (writeback readback each frame) / bare "
		"frame with the same readback", planner);
	bench_report(name, rm, rbm, "ms", rm / rbm, GOAL, false);
	snprintf(name, sizeof(name), "kms-replay %s frame time with pixels / bare commit (readback included on "
		"one side only)", planner);
	bench_report(name, rm, bm, "ms", rm / bm, GOAL, false);
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-kms-replay [--quick] [--frames N] [--planner drmhwc|search] [--device PATH]\n");
	return 2;
}

int main(int argc, char *argv[])
{
	static const char *const planners[] = { "drmhwc", "search" };
	struct round rounds[REPS];
	struct gen_options g;
	const char *only = NULL;
	unsigned reps = REPS;
	struct compositor *c;
	char *trace, *results;
	int ret = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	gen_options_init(&g);
	g.frames = 200;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			g.frames = 40;
			reps = 1;
		} else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
			g.frames = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--planner") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
			device = argv[++i];
		} else {
			return usage();
		}
	}
	if (g.frames <= 10) {
		return usage();
	}
	trace = bench_tmp_path(".zst");
	results = bench_tmp_path(".json");
	c = compositor_create("pixman");
	if (!trace || !results || !c) {
		fprintf(stderr, "bench-kms-replay: out of memory\n");
		return 1;
	}
	ret = gen_write(trace, &g);
	if (ret < 0) {
		fprintf(stderr, "bench-kms-replay: %s: %s\n", trace, strerror(-ret));
		return 1;
	}
	printf("bench-kms-replay: %s, %u frames of %u layers (%ux%u background, %ux%u tiles, one redrawn per frame), "
		"%s\n", device, g.frames, g.layers, g.width, g.height, g.tile, g.tile,
		reps == 1 ? "one round: a smoke test, not a measurement" : "median of 3 rounds");
	for (size_t p = 0; p < 2 && ret == 0; p++) {
		if (only && strcmp(only, planners[p]) != 0) {
			continue;
		}
		for (unsigned i = 0; i < reps && ret == 0; i++) {
			fprintf(stderr, "bench-kms-replay: %s round %u\n", planners[p], i + 1);
			ret = measure(trace, results, planners[p], g.frames, c, &rounds[i]);
		}
		if (ret == 0) {
			report(planners[p], rounds, reps);
		}
	}
	unlink(trace);
	unlink(results);
	free(trace);
	free(results);
	compositor_destroy(c);
	return ret == 0 ? 0 : 1;
}
