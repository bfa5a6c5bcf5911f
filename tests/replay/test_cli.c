/*
 * The command line (help, version, usage errors), the targets without a
 * backend in this build, and the known-good results reader against
 * hostile files.
 */
#include <stdio.h>
#include <string.h>

#include "json_int.h"
#include "replay_expect.h"
#include "replay_gen.h"
#include "replay_json.h"
#include "tests.h"

#define TRACE "@trace"	/* replaced by a generated trace */
#define BOARD "@board"	/* replaced by the overlays board */

int test_cli_usage(const struct fixture *fx)
{
	static const struct {
		const char *name;
		const char *args[8];
		int status;
		const char *out;	/* stdout must contain it, NULL: anything */
		const char *err;	/* stderr must contain it, NULL: must be empty */
	} cases[] = {
		{ "help", { "--help", NULL }, 0, "--profile BOARD", NULL },
		{ "help-short", { "-h", NULL }, 0, "exit status", NULL },
		{ "version", { "--version", NULL }, 0, "hwc-replay ", NULL },
		{ "no-trace", { "--profile", BOARD, NULL }, 2, NULL, "no trace file" },
		{ "two-traces", { TRACE, TRACE, NULL }, 2, NULL, "too many arguments" },
		{ "unknown-option", { TRACE, "--frobnicate", NULL }, 2, NULL, "unknown option --frobnicate" },
		{ "missing-value", { TRACE, "--profile", NULL }, 2, NULL, "--profile needs a value" },
		{ "flag-value", { TRACE, "--quiet=yes", NULL }, 2, NULL, "takes no value" },
		{ "two-targets", { TRACE, "--profile", BOARD, "--vm", NULL }, 2, NULL, "only one target" },
		{ "kernel-not-vm", { TRACE, "--profile", BOARD, "--kernel", "6.12", NULL }, 2, NULL,
			"the kernel, userland and device of --vm" },
		{ "board-not-vm", { TRACE, "--profile", BOARD, "--board", BOARD, NULL }, 2, NULL,
			"the kernel, userland and device of --vm" },
		{ "bad-arch", { TRACE, "--vm", "--arch", "sparc", NULL }, 2, NULL, "--arch: 'sparc' is not amd64 or arm64" },
		{ "arch-not-vm", { TRACE, "--profile", BOARD, "--arch", "arm64", NULL }, 2, NULL,
			"the kernel, userland and device of --vm" },
		{ "arm64-kernel", { TRACE, "--vm", "--arch", "arm64", "--kernel", "6.12", NULL }, 2, NULL,
			"--kernel and --board (a 7.x kernel) are amd64's only" },
		{ "arm64-not-elf", { TRACE, "--vm", "--arch", "arm64", "--vm-replay", TRACE, NULL }, 4, NULL,
			"not an ELF program" },
		{ "kernel-and-image", { TRACE, "--vm", "--kernel", "6.12", "--kernel-image", "bz", NULL }, 2, NULL,
			"exclude each other" },
		{ "modules-no-image", { TRACE, "--kernel-modules", "/tmp", NULL }, 2, NULL,
			"--kernel-modules needs --kernel-image" },
		{ "bad-planner", { TRACE, "--planner", "greedy", NULL }, 2, NULL, "unknown planner" },
		{ "bad-compositor", { TRACE, "--compositor", "vulkan", NULL }, 2, NULL, "unknown compositor" },
		{ "bad-range", { TRACE, "--frames", "9-3", NULL }, 2, NULL, "--frames" },
		{ "bad-range-text", { TRACE, "--frames", "x-", NULL }, 2, NULL, "--frames" },
		{ "bad-range-dash", { TRACE, "--frames", "-", NULL }, 2, NULL, "--frames" },
		{ "bad-loop", { TRACE, "--loop", "0", NULL }, 2, NULL, "--loop" },
		{ "bad-timing", { TRACE, "--timing", "slow", NULL }, 2, NULL, "--timing" },
		{ "bad-compare", { TRACE, "--compare", "colours", NULL }, 2, NULL, "--compare" },
		{ "bad-map", { TRACE, "--mode-map", "crop", NULL }, 2, NULL, "--mode-map" },
		{ "bad-display", { TRACE, "--display", "-1", NULL }, 2, NULL, "--display" },
		{ "pixels-without-pixels", { TRACE, "--compare", "pixels", "--no-pixels", NULL }, 2, NULL,
			"--no-pixels" },
		{ "past-the-end", { TRACE, "--profile", BOARD, "--frames", "50-", NULL }, 2, NULL, "has 4 frames" },
		{ "bad-expect", { TRACE, "--profile", BOARD, "--expect", "/nonexistent.json", NULL }, 2, NULL,
			"/nonexistent.json" },
		{ "options-first", { "--profile", BOARD, "--quiet", "--frames=1-2", TRACE, NULL }, 0, NULL, NULL },
		{ "no-display-frames", { TRACE, "--profile", BOARD, "--quiet", "--display", "7", NULL }, 0, NULL,
			NULL },
	};
	const char *trace = test_generated_trace("gen.zst", 2, 4, GEN_NONE);

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *args[8];
		struct test_run run;

		for (size_t i = 0; i < 8; i++) {
			const char *a = cases[c].args[i];

			args[i] = a && strcmp(a, TRACE) == 0 ? trace : a && strcmp(a, BOARD) == 0 ? fx->overlays : a;
		}
		test_replay(fx, &run, args);
		CHECK_MSG(run.status == cases[c].status, "%s: status %d, expected %d", cases[c].name, run.status,
			cases[c].status);
		CHECK_MSG(!cases[c].out || test_contains(run.out, cases[c].out), "%s: stdout lacks '%s'", cases[c].name,
			cases[c].out);
		CHECK_MSG(cases[c].err ? test_contains(run.err, cases[c].err) : run.err[0] == 0, "%s: stderr '%s'",
			cases[c].name, run.err);
		test_run_finish(&run);
	}
	return 0;
}

/*
 * The targets whose backends this build lacks: exit 4 and "not available in
 * this build", never a pretence. With no target given, the default is a
 * DRM node when one opens, else the VM: only the former says "not available
 * in this build" (the VM target is built everywhere).
 */
int test_targets(const struct fixture *fx)
{
	const char *trace = test_generated_trace("gen.zst", 2, 2, GEN_NONE);
	const char *version[] = { "--version", NULL };
	const char *device[] = { trace, "--device", "/dev/dri/card0", NULL };
	const char *none[] = { trace, NULL };
	struct test_run run;
	bool kms;

	test_replay(fx, &run, version);
	CHECK(run.status == 0);
	kms = test_contains(run.out, " kms");
	test_run_finish(&run);
	if (kms) {
		fprintf(stderr, "the kms target is built: its own tests cover the default target\n");
		return TEST_SKIP;
	}
	test_replay(fx, &run, device);
	CHECK(run.status == 4 && test_line_count(run.err) == 1);
	CHECK(test_contains(run.err, "target kms (--device /dev/dri/card0) is not available in this build"));
	test_run_finish(&run);
	/* a harness that is not there: else this build tree's own (replay_vm.c) would boot a VM */
	setenv("HWCT_VM_RUN", "/nonexistent/vm-run", 1);
	test_replay(fx, &run, none);
	unsetenv("HWCT_VM_RUN");
	CHECK(run.status == 4 && test_line_count(run.err) == 1);
	if (test_contains(run.err, "target kms")) {
		CHECK(test_contains(run.err, "is not available in this build") && test_contains(run.err, "default target"));
	} else {
		CHECK(test_contains(run.err, "target vm is not available"), "%s", run.err);
	}
	test_run_finish(&run);
	return 0;
}

/* Hostile known-good results: a clean error naming the file and the JSON path, never a crash. */
int test_results_reader(const struct fixture *fx)
{
	static const struct {
		const char *json;
		const char *err;	/* NULL: loads */
	} cases[] = {
		{ "{\"results_version\": 1, \"frames\": []}", NULL },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 3, \"plan\": [{\"layer\": 18446744073709551615, "
			"\"plane\": null, \"reasons\": [\"format\", \"no-plane\"]}], \"client_target_plane\": 31, "
			"\"checksum\": \"00112233445566778899aabbccddeeff\", \"image\": \"frame-000003.png\"}]}",
			NULL },
		{ "", "t.json: offset 0: line 1: JSON: truncated" },
		/* the streaming reader: one frame a line, errors name the line and the frame */
		{ "{\"results_version\": 1, \"frames\": [\n{\"frame\": 1},\n{\"frame\": 2,},\n{\"frame\": 3}\n]}",
			"t.json: offset 6" /* json-c stops at 61 or 62 */ },
		{ "{\"results_version\": 1, \"frames\": [\n{\"frame\": 1},\n{\"frame\": 2,},\n{\"frame\": 3}\n]}",
			"line 3: frames[1]: JSON:" },
		{ "{\"results_version\": 1, \"frames\": [\n{\"frame\": 1}\n{\"frame\": 2}]}",
			"line 3: frames: expected ',' or ']' after frames[0]" },
		{ "{\"results_version\": 1, \"frames\": [\n{\"frame\": 1},\n{\"frame\": 2", "frames[1] (from line 3): truncated" },
		{ "{\"results_version\": 1, \"frames\": [\n{\"frame\": 1}\n]", "line 3: truncated" },
		{ "{\"frames\": [], \"results_version\": 1}", "t.json: results_version: missing" },
		{ "{\"results_version\": 1, \"frames\": [], \"frames\": []}", "frames: a second frames member" },
		{ "{\"results_version\": 1, \"frames\": [], \"images_dir\": \"d\", \"complete\": true}", NULL },
		{ "{\"results_version\": 1, \"frames\": [], \"images_dir\": 5}", "t.json: images_dir: expected a string" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1}, ]}", "line 1: frames[1]: JSON: expected a value" },
		{ "[]", "t.json: (top level): expected an object, found array" },
		{ "{\"frames\": []}", "t.json: results_version: missing" },
		{ "{\"results_version\": 2, \"frames\": []}", "t.json: results_version: version 2" },
		{ "{\"results_version\": 1}", "t.json: frames: expected an array, found null" },
		{ "{\"results_version\": 1, \"frames\": [7]}", "t.json: frames[0]: expected an object, found int" },
		{ "{\"results_version\": 1, \"frames\": [{}]}", "t.json: frames[0].frame: missing" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": -1}]}",
			"t.json: frames[0].frame: -1 is negative" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1.5}]}", "frames[0].frame: expected an integer" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"checksum\": \"xyz\"}]}",
			"frames[0].checksum: not 32 hex digits" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"plan\": {}}]}",
			"frames[0].plan: expected an array or null, found object" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"plan\": [{\"layer\": 1, \"plane\": \"31\", "
			"\"reasons\": []}]}]}", "frames[0].plan[0].plane: expected an integer or null, found string" },
		/* 64-bit values beyond 2^53 come as strings (docs/results.md, "Integers") */
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": \"18446744073709551615\"}]}", NULL },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": \"18446744073709551616\"}]}",
			"frames[0].frame: expected an integer" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": \"-9007199254740993\"}]}",
			"frames[0].frame: expected an integer" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"plan\": [{\"layer\": 1, "
			"\"plane\": 4294967296, \"reasons\": []}]}]}",
			"frames[0].plan[0].plane: 4294967296 is out of range" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"plan\": [{\"layer\": 1, \"reasons\": "
			"[\"teleport\"]}]}]}", "frames[0].plan[0].reasons[0]: unknown reason \"teleport\"" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"plan\": [{\"layer\": 1}]}]}",
			"frames[0].plan[0].reasons: expected an array" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"image\": \"../../etc/passwd\"}]}",
			"frames[0].image: \"../../etc/passwd\" is not an image name" },
		{ "{\"results_version\": 1, \"frames\": [{\"frame\": 1, \"image\": \"frame-1/x.png\"}]}",
			"frames[0].image" },
		{ "{\"results_version\": 1, \"images_dir\": 5, \"frames\": []}",
			"t.json: images_dir: expected a string" },
		{ "{\"results_version\": 1, \"frames\": []} x", "t.json: offset 3" },
		{ "{\"results_version\": 1, \"frames\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
			"[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
			"]]]]]]]}",
			"t.json: offset" },
	};

	(void)fx;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct hwct_error err;
		struct replay_expect *e = replay_expect_load_buffer(cases[c].json, strlen(cases[c].json), "t.json",
			&err);

		if (!cases[c].err) {
			CHECK_MSG(e, "case %zu: %s", c, err.message);
		} else {
			CHECK_MSG(!e, "case %zu loaded", c);
			CHECK_MSG(test_contains(err.message, cases[c].err), "case %zu: '%s' lacks '%s'", c, err.message,
				cases[c].err);
		}
		if (c == 1) {
			const struct replay_expect_frame *f = replay_expect_find(e, 3);

			CHECK(f && f->has_plan && f->layer_count == 1 && f->client_target_plane == 31);
			CHECK(f->has_checksum);
			CHECK(f->layers[0].id == UINT64_MAX && f->layers[0].plane == 0 && f->layers[0].reasons != 0);
			CHECK(strcmp(f->image, "frame-000003.png") == 0 && !replay_expect_find(e, 2));
		}
		replay_expect_destroy(e);
	}
	return 0;
}

/* The 64-bit integer rule (docs/results.md, "Integers") in both JSON writers and the reader. */
int test_json_integers(const struct fixture *fx)
{
	static const uint64_t exact = 1ull << 53;
	char text[512] = { 0 };
	FILE *f = fmemopen(text, sizeof(text) - 1, "w");
	struct rjson j;
	struct json_object *root, *o;
	uint64_t v;

	(void)fx;
	CHECK(f);
	rjson_init(&j, f, 0);
	rjson_object_begin(&j, NULL);
	rjson_uint(&j, "a", exact);
	rjson_uint(&j, "b", exact + 1);
	rjson_int(&j, "c", -(int64_t)exact);
	rjson_int(&j, "d", INT64_MIN);
	rjson_uint(&j, "e", UINT64_MAX);
	rjson_object_end(&j);
	fclose(f);
	root = json_tokener_parse(text);
	CHECK_MSG(root, "not JSON: %s", text);
	CHECK(json_object_is_type(test_get(root, "a", NULL), json_type_int));
	CHECK(json_object_is_type(test_get(root, "b", NULL), json_type_string));
	CHECK(strcmp(json_object_get_string(test_get(root, "b", NULL)), "9007199254740993") == 0);
	CHECK(json_object_is_type(test_get(root, "c", NULL), json_type_int));
	CHECK(strcmp(json_object_get_string(test_get(root, "d", NULL)), "-9223372036854775808") == 0);
	CHECK(hwct_json_get_u64(test_get(root, "e", NULL), &v) && v == UINT64_MAX);
	CHECK(hwct_json_get_u64(test_get(root, "a", NULL), &v) && v == exact);
	CHECK(!hwct_json_get_u64(test_get(root, "c", NULL), &v));	/* negative */
	json_object_put(root);
	/* the json-c writer, the same rule */
	o = hwct_json_u64(exact);
	CHECK(json_object_is_type(o, json_type_int));
	json_object_put(o);
	o = hwct_json_u64(exact + 1);
	CHECK(json_object_is_type(o, json_type_string) && hwct_json_get_u64(o, &v) && v == exact + 1);
	json_object_put(o);
	o = hwct_json_i64(-(int64_t)exact - 1);
	CHECK(json_object_is_type(o, json_type_string));
	json_object_put(o);
	o = json_object_new_string("31");
	CHECK(!hwct_json_get_u64(o, &v));	/* small values are numbers, never strings */
	json_object_put(o);
	return 0;
}
