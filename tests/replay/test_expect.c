/*
 * --expect: 0 against its own results, 1 after a controlled change (an
 * edited checksum or plane, the other planner), 125 when the trace or the
 * target cannot be used, and the -expected/-actual/-diff pictures.
 */
#include <string.h>

#include "replay_gen.h"
#include "replay_png.h"
#include "tests.h"

/* Runs args (NULL-terminated) and checks the exit status; stderr must contain err_has (may be NULL). */
static void expect_status(const struct fixture *fx, const char *const *args, int status, const char *err_has)
{
	struct test_run run;

	test_replay(fx, &run, args);
	CHECK_MSG(run.status == status, "exit %d, expected %d", run.status, status);
	CHECK_MSG(!err_has || test_contains(run.err, err_has), "stderr lacks '%s'", err_has);
	test_run_finish(&run);
}

int test_expect_self(const struct fixture *fx)
{
	const char *trace = test_reference_trace(fx, "home"), *good = test_path("good.json");
	const char *write[] = { trace, "--profile", fx->overlays, "--quiet", "--frames", "-39", "--results", good,
		NULL };
	const char *all[] = { trace, "--profile", fx->overlays, "--frames", "-39", "--expect", good, NULL };
	const char *pixels[] = { trace, "--profile", fx->overlays, "--frames", "-39", "--expect", good, "--compare",
		"pixels", NULL };
	const char *plans[] = { trace, "--profile", fx->overlays, "--expect", good, "--compare", "plans", "--no-pixels",
		"--frames", "-39", NULL };
	const char *part[] = { trace, "--profile", fx->overlays, "--expect", good, "--frames", "20-30", "--quiet",
		NULL };
	const char *loop[] = { trace, "--profile", fx->overlays, "--expect", good, "--frames", "5-9", "--loop", "2",
		"--quiet", NULL };

	expect_status(fx, write, 0, NULL);
	expect_status(fx, all, 0, "40 frames match");
	expect_status(fx, pixels, 0, NULL);
	expect_status(fx, plans, 0, NULL);
	expect_status(fx, part, 0, NULL);
	expect_status(fx, loop, 0, NULL);
	return 0;
}

static struct json_object *frame_of(struct json_object *results, size_t i)
{
	return json_object_array_get_idx(test_frames(results), i);
}

/* good.json with one checksum, then one plane, changed: a regression each, each on its own --compare. */
int test_expect_edited(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 5, 12, GEN_NONE);
	const char *good = test_path("good.json"), *bad_sum = test_path("bad-sum.json");
	const char *bad_plane = test_path("bad-plane.json");
	const char *write[] = { gen, "--profile", fx->overlays, "--quiet", "--results", good, NULL };
	const char *sum_all[] = { gen, "--profile", fx->overlays, "--expect", bad_sum, NULL };
	const char *sum_plans[] = { gen, "--profile", fx->overlays, "--expect", bad_sum, "--compare", "plans", NULL };
	const char *plane_all[] = { gen, "--profile", fx->overlays, "--expect", bad_plane, NULL };
	const char *plane_pixels[] = { gen, "--profile", fx->overlays, "--expect", bad_plane, "--compare", "pixels",
		NULL };
	struct json_object *r, *layer;
	char message[128];
	int64_t plane;

	expect_status(fx, write, 0, NULL);
	r = test_results(good);
	json_object_object_add(frame_of(r, 5), "checksum", json_object_new_string("0123456789abcdef0123456789abcdef"));
	test_write_json(bad_sum, r);
	json_object_put(r);
	r = test_results(good);
	layer = json_object_array_get_idx(test_get(frame_of(r, 7), "plan", NULL), 0);
	CHECK(json_object_get_int64(test_get(layer, "layer", NULL)) == 100);
	plane = json_object_get_int64(test_get(layer, "plane", NULL));	/* the background has a plane */
	CHECK(plane > 0);
	json_object_object_add(layer, "plane", json_object_new_int64(plane + 100));
	snprintf(message, sizeof(message), "layer 100: expected plane %lld, got plane %lld", (long long)plane + 100,
		(long long)plane);
	test_write_json(bad_plane, r);
	json_object_put(r);

	expect_status(fx, sum_all, 1, "regression: frame 5 ");
	expect_status(fx, sum_all, 1, "checksum: expected 0123456789abcdef0123456789abcdef");
	expect_status(fx, sum_plans, 0, NULL);
	expect_status(fx, plane_all, 1, "regression: frame 7 ");
	expect_status(fx, plane_all, 1, message);
	expect_status(fx, plane_pixels, 0, NULL);
	return 0;
}

/* Adds delta to every plane id of results r: the frames' planes and client target, and board.plane_ids. */
static void renumber(struct json_object *r, int64_t delta)
{
	struct json_object *ids = test_get(test_get(r, "board", NULL), "plane_ids", NULL);
	struct json_object *frames = test_frames(r);

	for (size_t i = 0; i < json_object_array_length(ids); i++) {
		json_object_array_put_idx(ids, i, json_object_new_int64(
			json_object_get_int64(json_object_array_get_idx(ids, i)) + delta));
	}
	for (size_t f = 0; f < json_object_array_length(frames); f++) {
		struct json_object *frame = json_object_array_get_idx(frames, f), *plan = test_get(frame, "plan", NULL);
		struct json_object *target = test_get(frame, "client_target_plane", NULL);

		for (size_t l = 0; l < json_object_array_length(plan); l++) {
			struct json_object *layer = json_object_array_get_idx(plan, l), *plane = test_get(layer, "plane", NULL);

			if (plane && json_object_get_int64(plane) > 0) {
				json_object_object_add(layer, "plane", json_object_new_int64(json_object_get_int64(plane) + delta));
			}
		}
		if (target && json_object_get_int64(target) > 0) {
			json_object_object_add(frame, "client_target_plane",
				json_object_new_int64(json_object_get_int64(target) + delta));
		}
	}
}

/*
 * Known-good results of a device that numbers its planes otherwise (another kernel: vkms's
 * primary is 31 on 6.1, 32 on 6.12, 35 on 7.3): plans compare by each plane's place in its
 * device's list (board.plane_ids), so the same places match; the same ids in another order
 * do not; results without plane_ids compare by id.
 */
int test_expect_renumbered(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 5, 12, GEN_NONE);
	const char *good = test_path("good.json"), *shifted = test_path("shifted.json");
	const char *swapped = test_path("swapped.json"), *no_ids = test_path("no-ids.json");
	const char *write[] = { gen, "--profile", fx->overlays, "--quiet", "--results", good, NULL };
	const char *against_shifted[] = { gen, "--profile", fx->overlays, "--expect", shifted, NULL };
	const char *against_swapped[] = { gen, "--profile", fx->overlays, "--expect", swapped, "--compare", "plans",
		NULL };
	const char *against_no_ids[] = { gen, "--profile", fx->overlays, "--expect", no_ids, "--compare", "plans",
		NULL };
	struct json_object *r, *ids, *board;
	size_t n;

	expect_status(fx, write, 0, NULL);
	r = test_results(good);
	renumber(r, 1000);
	test_write_json(shifted, r);
	json_object_put(r);
	expect_status(fx, against_shifted, 0, "frames match");

	/* the same ids, the list reversed: every plane now stands at another place */
	r = test_results(good);
	ids = test_get(test_get(r, "board", NULL), "plane_ids", NULL);
	n = json_object_array_length(ids);
	CHECK(n >= 2);
	for (size_t i = 0; i < n / 2; i++) {
		struct json_object *a = json_object_get(json_object_array_get_idx(ids, i));
		struct json_object *b = json_object_get(json_object_array_get_idx(ids, n - 1 - i));

		json_object_array_put_idx(ids, i, b);
		json_object_array_put_idx(ids, n - 1 - i, a);
	}
	test_write_json(swapped, r);
	json_object_put(r);
	expect_status(fx, against_swapped, 1, "of its device)");

	/* older results: no plane_ids, so shifted ids are other planes */
	r = test_results(good);
	renumber(r, 1000);
	board = test_get(r, "board", NULL);
	json_object_object_del(board, "plane_ids");
	test_write_json(no_ids, r);
	json_object_put(r);
	expect_status(fx, against_no_ids, 1, "regression: frame 0 ");
	return 0;
}

/* drmhwc's plans as known-good, search replayed against them: the planners differ on this stack. */
int test_expect_planner(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 10, 12, GEN_NONE), *good = test_path("drmhwc.json");
	const char *write[] = { gen, "--profile", fx->overlays, "--quiet", "--no-pixels", "--results", good, NULL };
	const char *same[] = { gen, "--profile", fx->overlays, "--no-pixels", "--expect", good, NULL };
	const char *other[] = { gen, "--profile", fx->overlays, "--no-pixels", "--expect", good, "--planner", "search",
		NULL };

	expect_status(fx, write, 0, NULL);
	expect_status(fx, same, 0, NULL);
	expect_status(fx, other, 1, "regression: frame 0 ");
	return 0;
}

int test_expect_untestable(const struct fixture *fx)
{
	const char *trace = test_reference_trace(fx, "home"), *good = test_path("good.json");
	const char *corrupt = test_path("corrupt.zst"), *missing_board = test_path("no-such-board.json");
	const char *write[] = { trace, "--profile", fx->overlays, "--quiet", "--frames", "0-3", "--results", good,
		NULL };
	static const char garbage[] = "this is not a trace\n";
	FILE *f = fopen(corrupt, "wb");
	const struct {
		const char *args[8];
		int without, with;	/* exit without and with --expect */
		const char *err;
	} cases[] = {
		{ { trace, "--device", "/nonexistent", NULL }, 4, 125, "/nonexistent" },
		{ { trace, "--vm", NULL }, 4, 125, "target vm" },
		{ { trace, "--hwc2", "/nonexistent/hwcomposer.so", NULL }, 4, 125, "/nonexistent/hwcomposer.so: cannot load" },
		{ { corrupt, "--profile", fx->overlays, NULL }, 3, 125, corrupt },
		{ { trace, "--profile", missing_board, NULL }, 4, 125, missing_board },
	};

	CHECK(f && fwrite(garbage, 1, sizeof(garbage) - 1, f) == sizeof(garbage) - 1 && fclose(f) == 0);
	/* a machine without the VM harness: --vm cannot be tested here */
	CHECK(setenv("HWCT_VM_RUN", "/nonexistent/vm-run", 1) == 0);
	expect_status(fx, write, 0, NULL);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *args[12];
		size_t n = 0;

		for (; cases[c].args[n]; n++) {
			args[n] = cases[c].args[n];
		}
		args[n] = NULL;
		expect_status(fx, args, cases[c].without, cases[c].err);
		args[n++] = "--expect";
		args[n++] = good;
		args[n] = NULL;
		expect_status(fx, args, cases[c].with, cases[c].err);
	}
	return 0;
}

static struct comp_target read_png(const char *path)
{
	struct comp_target img;
	FILE *f = fopen(path, "rb");

	CHECK_MSG(f, "%s is missing", path);
	CHECK(replay_png_read(f, &img) == 0);
	fclose(f);
	return img;
}

/* A run with other pixels against results that dumped images: the trio for the differing frames. */
int test_expect_images(const struct fixture *fx)
{
	const char *trace = test_reference_trace(fx, "home"), *good = test_path("good.json");
	char good_dir[1024], dir[1024];
	const char *write[] = { trace, "--profile", fx->overlays, "--quiet", "--frames", "0-19", "--results", good,
		"--dump-images", good_dir, NULL };
	const char *other[] = { trace, "--profile", fx->overlays, "--quiet", "--frames", "0-19", "--expect", good,
		"--dump-images", dir, "--mode-map", "scale", "--compare", "pixels", NULL };
	struct comp_target want, expected, actual, diff;

	snprintf(good_dir, sizeof(good_dir), "%s", test_path("good-images"));
	snprintf(dir, sizeof(dir), "%s", test_path("images"));
	expect_status(fx, write, 0, NULL);
	CHECK(test_dir_entries(good_dir) == 20);
	expect_status(fx, other, 1, "checksum: expected");
	/* 20 frames, and the trio of the first 16 that differ */
	CHECK_MSG(test_dir_entries(dir) == 20 + 16 * 3, "%zu pictures", test_dir_entries(dir));
	want = read_png(test_path("good-images/frame-000003.png"));
	expected = read_png(test_path("images/frame-000003-expected.png"));
	actual = read_png(test_path("images/frame-000003-actual.png"));
	diff = read_png(test_path("images/frame-000003-diff.png"));
	CHECK(want.width == expected.width && want.height == expected.height);
	CHECK(memcmp(want.data, expected.data, (size_t)want.stride * want.height) == 0);
	CHECK(actual.width == 1024 && actual.height == 768 && diff.width == 1024 && diff.height == 768);
	CHECK(memcmp(actual.data, expected.data, (size_t)actual.stride * actual.height) != 0);
	CHECK(!test_exists(test_path("images/frame-000019-diff.png")));
	free(want.data);
	free(expected.data);
	free(actual.data);
	free(diff.data);
	return 0;
}
