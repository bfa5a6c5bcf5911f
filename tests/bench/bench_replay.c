/*
 * bench-replay [--quick] --board BOARD.json: hwc-replay's profile path.
 * Writes a trace of a 10-layer stack (a full-screen background and nine
 * 64x64 tiles, one redrawn per frame; 2000 frames) and replays it the way
 * `hwc-replay TRACE --profile BOARD --planner drmhwc --no-pixels --timing
 * fast --results FILE` does (replay_run, the program's own code), with no
 * pixels: plans only, nothing composed or decoded. Reports the replay
 * loop's frames/s (the results' totals.fps) against the goal of 10000, and
 * in the same run the baseline of iterating the same frames alone
 * (hwct_frame_iter, no planning, no results). Median of repetitions; never
 * fails on a missed goal (exit 0), exit 1 only when something could not run.
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
#include "replay.h"
#include "replay_gen.h"

#define GOAL_FPS 10000.0
#define MAX_REPS 9

static void die(const char *what, int err)
{
	fprintf(stderr, "bench-replay: %s: %s\n", what, strerror(err));
	exit(1);
}

/* Frames per second of iterating the trace's frames alone. */
static double iterate(const char *path)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	struct hwct_frame_iter *it = r ? hwct_frame_iter_create(r) : NULL;
	const struct hwct_frame *f;
	uint64_t n = 0;
	double t0;
	int ret;

	if (!it) {
		fprintf(stderr, "bench-replay: %s\n", r ? strerror(errno) : err.message);
		exit(1);
	}
	t0 = bench_now();
	while ((ret = hwct_frame_iter_next(it, &f)) == 1) {
		n++;
	}
	t0 = bench_now() - t0;
	if (ret < 0) {
		die("reading the trace", -ret);
	}
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
	return (double)n / t0;
}

/* The replay loop's frames per second, from the results it wrote. */
static double replay(const char *trace, const char *board, const char *results, uint64_t frames)
{
	struct replay_options o;
	struct json_object *root, *fps, *count;
	double value;
	int ret;

	replay_options_init(&o);
	o.trace = trace;
	o.target = REPLAY_TARGET_PROFILE;
	o.target_arg = board;
	o.planner = "drmhwc";
	o.timing = REPLAY_TIMING_FAST;
	o.no_pixels = true;
	o.quiet = true;
	o.results = results;
	ret = replay_run(&o);
	if (ret != REPLAY_EXIT_OK) {
		fprintf(stderr, "bench-replay: the replay exited %d\n", ret);
		exit(1);
	}
	root = json_object_from_file(results);
	if (!root || !json_object_object_get_ex(root, "totals", &count) ||
		!json_object_object_get_ex(count, "fps", &fps) ||
		!json_object_object_get_ex(count, "frames", &count) ||
		(uint64_t)json_object_get_int64(count) != frames) {
		fprintf(stderr, "bench-replay: %s: no totals for %llu frames\n", results, (unsigned long long)frames);
		exit(1);
	}
	value = json_object_get_double(fps);
	json_object_put(root);
	return value;
}

int main(int argc, char **argv)
{
	struct gen_options g;
	const char *board = NULL;
	double iterated[MAX_REPS], replayed[MAX_REPS], fps, base;
	unsigned reps = 5;
	char *trace, *results;
	bool quick = false;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			quick = true;
		} else if (strcmp(argv[i], "--board") == 0 && i + 1 < argc) {
			board = argv[++i];
		} else {
			fprintf(stderr, "usage: bench-replay [--quick] --board BOARD.json\n");
			return 2;
		}
	}
	if (!board) {
		fprintf(stderr, "usage: bench-replay [--quick] --board BOARD.json\n");
		return 2;
	}
	gen_options_init(&g);
	g.layers = 10;
	g.frames = quick ? 200 : 2000;
	reps = quick ? 1 : reps;
	trace = bench_tmp_path(".zst");
	results = bench_tmp_path(".json");
	if (!trace || !results) {
		die("out of memory", ENOMEM);
	}
	ret = gen_write(trace, &g);
	if (ret < 0) {
		die(trace, -ret);
	}
	printf("trace: %u frames of %u layers (%ux%u background, %ux%u tiles), %s\n", g.frames, g.layers, g.width,
		g.height, g.tile, g.tile, quick ? "quick run: a smoke test, not a measurement" : "median of 5 runs");
	for (unsigned r = 0; r < reps; r++) {
		iterated[r] = iterate(trace);
		replayed[r] = replay(trace, board, results, g.frames);
	}
	base = bench_median(iterated, reps);
	fps = bench_median(replayed, reps);
	printf("replay (profile, drmhwc, --no-pixels, --timing fast, results written): %.0f frames/s "
		"(goal >= %.0f): %s\n", fps, GOAL_FPS, fps >= GOAL_FPS ? "PASS" : "MISS");
	printf("baseline, the same frames iterated alone: %.0f frames/s; replay/baseline %.3f\n", base, fps / base);
	unlink(trace);
	unlink(results);
	free(trace);
	free(results);
	return 0;
}
