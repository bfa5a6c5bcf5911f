/*
 * hwc-trace diff: equal and different traces (the variant of gen2.c differs
 * in frames 3, 5 and 6, one category each), errors, results files written
 * here, and the agreement report.
 */
#include <string.h>

#include "tests.h"
#include "testjson.h"

int test_diff_equal(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *a = std_trace("a.zst", false, &info), *b = std_trace("b.zst", false, &info);
	struct test_run run;
	struct json_object *o;

	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s%s", run.status, run.out, run.err);
	CHECK(test_contains(run.out, "are equal (10 frames compared)"));
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, "--json", NULL });
	CHECK(run.status == 0);
	o = tj_parse(run.out, "diff --json");
	CHECK(json_object_get_boolean(tj_get(o, "equal")));
	CHECK_EQ_U64(tj_i64(o, "summary.compared"), STD_FRAMES);
	CHECK_EQ_U64(tj_i64(o, "summary.differing"), 0);
	CHECK(json_object_array_length(tj_get(o, "differences")) == 0);
	json_object_put(o);
	test_run_finish(&run);
	return 0;
}

int test_diff_traces(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *a = std_trace("a.zst", false, &info), *b = std_trace("b.zst", true, &info);
	struct gen_stack_options shorter = { .frames = STD_FRAMES - 2, .displays = 1, .keyframe_interval = 4 };
	const char *c = test_path("c.zst");
	struct test_run run;
	struct json_object *o, *d;

	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, NULL });
	CHECK_MSG(run.status == 1, "status %d: %s%s", run.status, run.out, run.err);
	CHECK_MSG(test_contains(run.out, "frame 3 (display 0): pixels: layer 1 content "), "%s", run.out);
	CHECK(test_contains(run.out, "frame 5 (display 0): geometry: layer 5 display frame [48,0,64,8] vs [48,8,64,16]"));
	CHECK(test_contains(run.out, "frame 6 (display 0): decisions: layer 2 final DEVICE vs CLIENT"));
	CHECK(!test_contains(run.out, "frame 4 "));
	CHECK(test_contains(run.out, "differ in 3 of 10 frames compared"));
	test_run_finish(&run);

	fixture_run(fx, &run, (const char *const[]){ "diff", "--json", a, b, NULL });
	CHECK(run.status == 1);
	o = tj_parse(run.out, "diff --json");
	CHECK(!json_object_get_boolean(tj_get(o, "equal")));
	CHECK_EQ_U64(tj_i64(o, "summary.compared"), STD_FRAMES);
	CHECK_EQ_U64(tj_i64(o, "summary.differing"), 3);
	CHECK_EQ_U64(tj_i64(o, "summary.categories.pixels"), 1);
	CHECK_EQ_U64(tj_i64(o, "summary.categories.geometry"), 1);
	CHECK_EQ_U64(tj_i64(o, "summary.categories.decisions"), 1);
	CHECK_EQ_U64(tj_i64(o, "summary.categories.layers"), 0);
	CHECK_EQ_U64(tj_i64(o, "summary.categories.properties"), 0);
	CHECK(json_object_array_length(tj_get(o, "differences")) == 3);
	d = json_object_array_get_idx(tj_get(o, "differences"), 1);
	CHECK_EQ_U64(tj_i64(d, "frame"), 5);
	CHECK(strcmp(json_object_get_string(tj_get(d, "category")), "geometry") == 0);
	json_object_put(o);
	test_run_finish(&run);

	/* frame counts differ: the extra frames are a difference */
	gen_stack_write(c, &shorter, &info);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, c, NULL });
	CHECK(run.status == 1);
	CHECK_MSG(test_contains(run.out, "only in A      2"), "%s", run.out);
	test_run_finish(&run);
	return 0;
}

int test_diff_errors(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *a = std_trace("a.zst", false, &info), *junk = test_path("junk.bin"), *bad = test_path("bad.json");
	struct test_run run;

	fixture_run(fx, &run, (const char *const[]){ "diff", a, "/nonexistent.zst", NULL });
	CHECK(run.status == 2 && test_contains(run.err, "/nonexistent.zst"));
	test_run_finish(&run);
	test_write_file(junk, "not a trace", 11);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, junk, NULL });
	CHECK(run.status == 2 && test_contains(run.err, "junk.bin: offset 0"));
	test_run_finish(&run);
	test_write_file(bad, "{\"results_version\": 1, \"frames\": [", 34);
	fixture_run(fx, &run, (const char *const[]){ "diff", bad, bad, NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "bad.json: offset 34"), "%d %s", run.status, run.err);
	test_run_finish(&run);
	test_write_file(bad, "{\"results_version\": 9, \"frames\": []}", 36);
	fixture_run(fx, &run, (const char *const[]){ "diff", bad, bad, NULL });
	CHECK(run.status == 2 && test_contains(run.err, "results_version: version 9"));
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, NULL });
	CHECK(run.status == 2);
	test_run_finish(&run);
	/* a display neither trace has: an error naming the ones they have, not "equal (0 frames compared)" */
	fixture_run(fx, &run, (const char *const[]){ "diff", a, a, "--display", "3", NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "no display 3 in ") &&
		test_contains(run.err, "a.zst (its displays: 0) nor in "), "status %d: %s", run.status, run.err);
	CHECK(run.out[0] == 0);
	test_run_finish(&run);
	return 0;
}

/*
 * A results file of frames 0..3 of display 0 as hwc-replay writes them
 * (docs/results.md), with layers 1 and 3. Layer 1 is on plane 40; layer 3
 * on plane 41 on even frames, client ("no-plane") on odd ones, as recorded.
 * changed 1: frame 1 layer 3 on plane 41; 2: frame 2's checksum; 3: the
 * reasons of frames 1 and 3; 4: frame 2 layer 3 client ("format").
 * work_ns: plan_ns of frame 0.
 */
static void write_results_yuv(const char *path, int changed, int work_ns, const char *yuv_model)
{
	FILE *f = fopen(path, "w");

	CHECK(f);
	fprintf(f, "{\"results_version\": 1, \"planner\": \"drmhwc\", \"compositor\": \"pixman\",%s%s%s\n"
		" \"target\": {\"kind\": \"profile\"}, \"board\": {\"name\": \"test-board\"}, \"frames\": [\n",
		yuv_model ? " \"yuv_model\": \"" : "", yuv_model ? yuv_model : "", yuv_model ? "\"," : "");
	for (int k = 0; k < 4; k++) {
		bool on_plane = (k % 2 == 0 && !(changed == 4 && k == 2)) || (changed == 1 && k == 1);
		const char *reasons = on_plane ? "" : changed == 4 ? "\"format\"" : changed == 3 ?
			"\"no-plane\", \"scaling\"" : "\"no-plane\"";

		fprintf(f, "%s {\"frame\": %d, \"display\": 0, \"display_frame\": %d, \"t_ns\": 1,"
			" \"plan\": [{\"layer\": 1, \"plane\": 40, \"reasons\": []},"
			" {\"layer\": 3, \"plane\": %s, \"reasons\": [%s]}],"
			" \"client_target_plane\": %s, \"efficiency\": 1, \"checksum\": \"%s\","
			" \"checksum_source\": \"reference\", \"missing_content\": [],"
			" \"timing\": {\"wait_ns\": null, \"plan_ns\": %d, \"compose_ns\": 1000, \"commit_ns\": null,"
			" \"present_ns\": null}, \"recorded\": {\"validated\": true, \"client_target\": false, \"layers\": ["
			"{\"layer\": 1, \"requested\": \"DEVICE\", \"composition\": \"DEVICE\"},"
			" {\"layer\": 3, \"requested\": \"DEVICE\", \"composition\": \"%s\"}]}}\n",
			k ? "," : "", k, k, on_plane ? "41" : "null", reasons, k % 2 == 1 ? "30" : "null",
			k == 2 && changed == 2 ? "ffffffffffffffffffffffffffffffff" : "0123456789abcdef0123456789abcdef",
			k == 0 ? work_ns : 1000, k % 2 == 1 ? "CLIENT" : "DEVICE");
	}
	fprintf(f, "], \"totals\": {}, \"complete\": true, \"error\": null, \"comparison\": null}\n");
	CHECK(fclose(f) == 0);
}

/* write_results_yuv without a yuv_model member, as results before it was written */
static void write_results(const char *path, int changed, int work_ns)
{
	write_results_yuv(path, changed, work_ns, NULL);
}

int test_diff_results(struct fixture *fx)
{
	const char *a = test_path("a.json"), *b = test_path("b.json");
	struct test_run run;
	struct json_object *o;

	/* equal but for the timing of frame 0 (x3): not a difference without a threshold */
	write_results(a, 0, 1000);
	write_results(b, 0, 3000);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s%s", run.status, run.out, run.err);
	CHECK(test_contains(run.out, "timing: mean work per frame"));
	CHECK(test_contains(run.out, "not a difference without --timing-threshold"));
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, "--timing-threshold", "50", "--json", NULL });
	CHECK(run.status == 1);
	o = tj_parse(run.out, "diff results --json");
	CHECK_EQ_U64(tj_i64(o, "summary.categories.timing"), 1);
	CHECK_EQ_U64(tj_i64(o, "summary.differing"), 1);
	CHECK(strcmp(json_object_get_string(tj_get(o, "kind")), "results") == 0);
	json_object_put(o);
	test_run_finish(&run);

	/* frame 1: layer 3 on plane 41 instead of client */
	write_results(b, 1, 1000);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, NULL });
	CHECK(run.status == 1);
	CHECK_MSG(test_contains(run.out, "frame 1 (display 0): plan: layer 3 client vs plane 41"), "%s", run.out);
	test_run_finish(&run);
	/* frame 2: the checksum */
	write_results(b, 2, 1000);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, NULL });
	CHECK(run.status == 1);
	CHECK(test_contains(run.out, "frame 2 (display 0): checksum: 0123456789abcdef0123456789abcdef vs ffff"));
	test_run_finish(&run);
	/* frames 1 and 3: reasons */
	write_results(b, 3, 1000);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, "--json", NULL });
	CHECK(run.status == 1);
	o = tj_parse(run.out, "diff results --json");
	CHECK_EQ_U64(tj_i64(o, "summary.categories.reasons"), 2);
	CHECK_EQ_U64(tj_i64(o, "summary.categories.plan"), 0);
	json_object_put(o);
	test_run_finish(&run);
	/* --display: display 0's frames are all of them; display 3 has none in either file */
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, "--display", "0", "--json", NULL });
	CHECK(run.status == 1);
	o = tj_parse(run.out, "diff results --json --display 0");
	CHECK_EQ_U64(tj_i64(o, "summary.categories.reasons"), 2);
	json_object_put(o);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, "--display", "3", NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "no frame of display 3 in ") &&
		test_contains(run.err, "a.json (its displays: 0) nor in "), "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "diff", "--against-recorded", a, "--display", "3", NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "a.json (its displays: 0)"), "status %d: %s", run.status,
		run.err);
	test_run_finish(&run);
	/* two YUV models: said only where a checksum differs, which they may explain */
	write_results_yuv(a, 0, 1000, "bilinear");
	write_results_yuv(b, 0, 1000, "vkms");
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, NULL });
	CHECK_MSG(run.status == 0 && !test_contains(run.out, "YUV:"), "status %d: %s", run.status, run.out);
	test_run_finish(&run);
	write_results_yuv(b, 2, 1000, "vkms");
	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, NULL });
	CHECK_MSG(run.status == 1 && test_contains(run.out, "YUV: A's pictures convert YUV by the bilinear model, B's "
		"by the vkms model"), "status %d: %s", run.status, run.out);
	test_run_finish(&run);
	return 0;
}

int test_diff_agreement(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *trace = std_trace("trace.zst", false, &info), *res = test_path("r.json");
	struct test_run run;
	struct json_object *o, *layers;

	/*
	 * Layer 3 is recorded CLIENT on odd frames, DEVICE on even ones; the
	 * results put it on plane 41 on even frames and leave it to the client
	 * on odd ones, except frame 1 (changed 1: plane 41): 7 of 8 agree.
	 */
	write_results(res, 1, 1000);
	fixture_run(fx, &run, (const char *const[]){ "diff", trace, res, "-v", NULL });
	CHECK_MSG(run.status == 1, "status %d: %s%s", run.status, run.out, run.err);
	CHECK_MSG(test_contains(run.out, "frame 1 (display 0): layer 3 recorded CLIENT, board plane 41"), "%s", run.out);
	CHECK(test_contains(run.out, "overall: 7 of 8 layer decisions agree (ratio 0.875); 0 device->client, "
		"1 client->device; 3 of 4 frames agree entirely"));
	test_run_finish(&run);

	fixture_run(fx, &run, (const char *const[]){ "diff", "--json", res, trace, NULL });
	CHECK(run.status == 1);
	o = tj_parse(run.out, "agreement --json");
	CHECK_EQ_U64(tj_i64(o, "counted"), 8);
	CHECK_EQ_U64(tj_i64(o, "agree"), 7);
	CHECK_EQ_U64(tj_i64(o, "client_to_device"), 1);
	layers = tj_get(o, "layers");
	CHECK(json_object_array_length(layers) == 2);
	CHECK_EQ_U64(tj_i64(json_object_array_get_idx(layers, 1), "layer"), 3);
	CHECK_EQ_U64(tj_i64(json_object_array_get_idx(layers, 1), "agree"), 3);
	json_object_put(o);
	test_run_finish(&run);

	/* a replay that agrees everywhere, judged by its own recorded decisions */
	write_results(res, 0, 1000);
	fixture_run(fx, &run, (const char *const[]){ "diff", "--against-recorded", res, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s%s", run.status, run.out, run.err);
	CHECK(test_contains(run.out, "overall: 8 of 8 layer decisions agree (ratio 1.000)"));
	test_run_finish(&run);
	/* ... with the reasons of a disagreement */
	write_results(res, 4, 1000);
	fixture_run(fx, &run, (const char *const[]){ "diff", res, trace, NULL });
	CHECK_MSG(run.status == 1, "%s", run.out);
	CHECK_MSG(test_contains(run.out, "format 1"), "%s", run.out);
	test_run_finish(&run);
	return 0;
}
