/*
 * --display ID of stats, export and extract on the standard trace written
 * with its second display (gen.h: display 1 presents after display 0 in
 * each step): the output with the option is the output without it less
 * exactly the other display's content, and an id the trace does not have
 * is a usage error naming the ids it does have. export-display-fences: a
 * Fence record without a display goes with the display of its call.
 */
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>

#include "tests.h"
#include "testjson.h"

#define TWO_FRAMES 6u		/* display frames per display */

static const char *two_display_trace(void)
{
	struct gen_stack_options o = { .frames = TWO_FRAMES, .displays = 2, .keyframe_interval = 4 };
	struct gen_stack_info info;
	const char *path = test_path("two.zst");

	gen_stack_write(path, &o, &info);
	CHECK_EQ_U64(info.frames, 2 * TWO_FRAMES);
	return path;
}

/* An id not in the trace: exit 2, nothing on stdout, the message names the ids there are. */
static void check_unknown_display(const struct fixture *fx, const char *const *args)
{
	struct test_run run;

	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 2, "%s --display 7: status %d: %s", args[0], run.status, run.err);
	CHECK_MSG(test_contains(run.err, "no display 7 in the trace (its displays: 0, 1)"), "%s", run.err);
	CHECK_MSG(run.out[0] == 0, "%s", run.out);
	test_run_finish(&run);
}

/* ------------------------------------------------------------------ stats */

/* The text of display `id`'s section in stats text t: from "\ndisplay ID " to the next section or the end. */
static void section(const char *t, unsigned id, size_t *start, size_t *end)
{
	char head[32];
	const char *s, *next;

	snprintf(head, sizeof(head), "\ndisplay %u ", id);
	s = strstr(t, head);
	CHECK_MSG(s, "no '%s' in:\n%s", head + 1, t);
	next = strstr(s + 1, "\ndisplay ");
	*start = (size_t)(s - t);
	*end = next ? (size_t)(next - t) : strlen(t);
}

static void check_stats_text(const struct fixture *fx, const char *trace, unsigned id, const char *all)
{
	size_t start, end;
	struct test_run run;
	char *expected, arg[8];

	snprintf(arg, sizeof(arg), "%u", id);
	fixture_run(fx, &run, (const char *const[]){ "stats", trace, "--display", arg, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	/* all of the text less the other display's section */
	section(all, 1 - id, &start, &end);
	expected = malloc(strlen(all) + 1);
	CHECK(expected);
	memcpy(expected, all, start);
	strcpy(expected + start, all + end);
	CHECK_MSG(strcmp(run.out, expected) == 0, "stats --display %u:\n%s\nexpected:\n%s", id, run.out, expected);
	free(expected);
	test_run_finish(&run);
}

static void check_stats_json(const struct fixture *fx, const char *trace, unsigned id, struct json_object *all)
{
	struct json_object *o, *displays, *rest_all = NULL, *rest = NULL;
	struct test_run run;
	char arg[8];

	snprintf(arg, sizeof(arg), "%u", id);
	fixture_run(fx, &run, (const char *const[]){ "stats", trace, "--json", "--display", arg, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	o = tj_parse(run.out, "stats --json --display");
	displays = tj_get(o, "displays");
	CHECK(json_object_array_length(displays) == 1);
	CHECK(json_object_equal(json_object_array_get_idx(displays, 0),
		json_object_array_get_idx(tj_get(all, "displays"), id)));
	/* the facts of the whole trace are unchanged */
	CHECK(json_object_deep_copy(o, &rest, NULL) == 0 && json_object_deep_copy(all, &rest_all, NULL) == 0);
	json_object_object_del(rest, "displays");
	json_object_object_del(rest_all, "displays");
	CHECK(json_object_equal(rest, rest_all));
	json_object_put(rest);
	json_object_put(rest_all);
	json_object_put(o);
	test_run_finish(&run);
}

int test_stats_display(struct fixture *fx)
{
	const char *trace = two_display_trace();
	struct test_run text, json, run;
	struct json_object *all;

	fixture_run(fx, &text, (const char *const[]){ "stats", trace, NULL });
	CHECK_MSG(text.status == 0, "status %d: %s", text.status, text.err);
	CHECK(test_contains(text.out, "on 2 displays"));
	fixture_run(fx, &json, (const char *const[]){ "stats", trace, "--json", NULL });
	CHECK_MSG(json.status == 0, "status %d: %s", json.status, json.err);
	all = tj_parse(json.out, "stats --json");
	CHECK(json_object_array_length(tj_get(all, "displays")) == 2);
	CHECK_EQ_U64(tj_i64(all, "displays.0.id"), 0);
	CHECK_EQ_U64(tj_i64(all, "displays.1.id"), 1);
	for (unsigned id = 0; id < 2; id++) {
		check_stats_text(fx, trace, id, text.out);
		check_stats_json(fx, trace, id, all);
	}
	json_object_put(all);
	test_run_finish(&text);
	test_run_finish(&json);

	check_unknown_display(fx, (const char *const[]){ "stats", trace, "--display", "7", NULL });
	fixture_run(fx, &run, (const char *const[]){ "stats", trace, "--display", "one", NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "bad --display 'one'"), "%s", run.err);
	test_run_finish(&run);
	/* info is about the whole trace: no --display */
	fixture_run(fx, &run, (const char *const[]){ "info", trace, "--display", "1", NULL });
	CHECK(run.status == 2 && test_contains(run.err, "unknown option --display"));
	test_run_finish(&run);
	return 0;
}

/* ----------------------------------------------------------------- export */

struct keyed {
	char **keys;		/* owned, sorted */
	size_t count;
	size_t other;		/* of them: on a track of the display not kept */
};

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Each event of an exported file as a string that does not depend on the
 * pid numbers (which follow the displays' order of appearance): the event
 * without its pid, with its process's name instead.
 */
static void export_keys(const char *path, unsigned other, struct keyed *k)
{
	size_t size;
	uint8_t *text = test_read_file(path, &size);
	struct json_object *doc = tj_parse((const char *)text, path), *events = tj_get(doc, "traceEvents");
	size_t n = json_object_array_length(events);
	char other_name[32];
	const char *names[16] = { 0 };

	snprintf(other_name, sizeof(other_name), "display %u", other);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(events, i);

		if (strcmp(tj_str(e, "name"), "process_name") == 0) {
			int64_t pid = tj_i64(e, "pid");

			CHECK(pid >= 0 && pid < 16);
			names[pid] = tj_str(e, "args.name");
		}
	}
	*k = (struct keyed){ .keys = calloc(n, sizeof(char *)), .count = n };
	CHECK(k->keys);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = NULL;
		int64_t pid = tj_i64(json_object_array_get_idx(events, i), "pid");
		const char *process;

		CHECK(json_object_deep_copy(json_object_array_get_idx(events, i), &e, NULL) == 0);
		CHECK(pid >= 0 && pid < 16 && names[pid]);
		process = names[pid];
		k->other += strncmp(process, other_name, strlen(other_name)) == 0 &&
			(process[strlen(other_name)] == 0 || process[strlen(other_name)] == ' ');
		json_object_object_del(e, "pid");
		json_object_object_add(e, "process", json_object_new_string(process));
		k->keys[i] = strdup(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
		CHECK(k->keys[i]);
		json_object_put(e);
	}
	qsort(k->keys, n, sizeof(char *), by_string);
	json_object_put(doc);
	free(text);
}

static void keyed_finish(struct keyed *k)
{
	for (size_t i = 0; i < k->count; i++) {
		free(k->keys[i]);
	}
	free(k->keys);
}

int test_export_display(struct fixture *fx)
{
	const char *trace = two_display_trace();
	const char *all_path = test_path("all.json"), *one_path = test_path("one.json");
	struct keyed all, one;
	struct test_run run;
	size_t j = 0;

	fixture_run(fx, &run, (const char *const[]){ "export", trace, "--format", "chrome-json", all_path, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	CHECK(test_contains(run.out, "on 2 displays"));
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "export", trace, "--format", "chrome-json", one_path,
		"--display", "1", NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	CHECK_MSG(test_contains(run.out, "on 1 display\n"), "%s", run.out);
	test_run_finish(&run);
	export_keys(all_path, 0, &all);
	export_keys(one_path, 0, &one);
	CHECK_MSG(one.other == 0, "%zu events of display 0 exported with --display 1", one.other);
	CHECK(all.other > 0);
	/* one's events are all's, less those on display 0's tracks: a merge of the two sorted lists */
	CHECK_EQ_U64(one.count, all.count - all.other);
	for (size_t i = 0; i < all.count; i++) {
		bool other = strstr(all.keys[i], "\"process\":\"display 0") != NULL;

		if (other) {
			continue;
		}
		CHECK_MSG(j < one.count && strcmp(all.keys[i], one.keys[j]) == 0, "event missing with --display 1: %s",
			all.keys[i]);
		j++;
	}
	keyed_finish(&all);
	keyed_finish(&one);
	check_unknown_display(fx, (const char *const[]){ "export", trace, "--format", "chrome-json",
		test_path("none.json"), "--display", "7", NULL });
	CHECK(!test_file_exists(test_path("none.json")));
	return 0;
}

/*
 * Two displays, one frame each: display d's setLayerBuffer passes fence
 * d + 1, whose Fence record names no display (as a recorder that did not
 * learn it writes it), signalled 1 ms later.
 */
static const char *fences_without_display(void)
{
	struct hwct_writer_options opts;
	struct gen_writer g = { .thread = 5 };
	const char *path = test_path("nodisplay.zst");
	uint64_t t = GEN_STACK_T0;

	hwct_writer_options_init(&opts);
	opts.workers = 1;
	opts.writer_name = "analyzers-test fences";
	gen_writer_open(&g, path, &opts);
	for (uint64_t d = 0; d < 2; d++, t += GEN_STACK_FRAME_NS) {
		gen_buffer_call(&g, HWC2_FUNCTION_SET_LAYER_BUFFER, d, 10 + (int64_t)d, 100 + d, d + 1, NULL, t);
		gen_present(&g, d, 0, 10 + d, 0, t + 5000, t + 6000);
		gen_frame_end(&g, d, 0, 0, 0, t + 7000);
	}
	for (uint64_t d = 0; d < 2; d++) {
		Hwct__Fence f;

		gen_fence_init(&f, d + 1, HWCT_FENCE_ACQUIRE, d, 0, GEN_STACK_T0 + d * GEN_STACK_FRAME_NS, 1000000);
		f.has_display = false;
		gen_fence(&g, &f);
	}
	gen_writer_close(&g);
	return path;
}

/* The fence ids of the signal instants in an exported file, as bits (1 << id). */
static unsigned signalled_fences(const char *path)
{
	size_t size;
	uint8_t *text = test_read_file(path, &size);
	struct json_object *doc = tj_parse((const char *)text, path), *events = tj_get(doc, "traceEvents");
	unsigned bits = 0;

	for (size_t i = 0; i < json_object_array_length(events); i++) {
		struct json_object *e = json_object_array_get_idx(events, i);

		if (strcmp(tj_str(e, "ph"), "i") == 0 && tj_get(e, "args.fence")) {
			CHECK(tj_i64(e, "args.fence") < 32);
			bits |= 1u << tj_i64(e, "args.fence");
		}
	}
	json_object_put(doc);
	free(text);
	return bits;
}

int test_export_display_fences(struct fixture *fx)
{
	const char *trace = fences_without_display(), *out = test_path("fences.json");
	struct test_run run;

	for (int display = -1; display < 2; display++) {
		char arg[8];
		const char *args[] = { "export", trace, "--format", "chrome-json", out, "--display", arg, NULL };

		snprintf(arg, sizeof(arg), "%d", display);
		if (display < 0) {
			args[5] = NULL;	/* every display */
		}
		fixture_run(fx, &run, args);
		CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
		test_run_finish(&run);
		/* a fence without a display belongs to the display of the call that passed it */
		CHECK_EQ_U64(signalled_fences(out), display < 0 ? 1u << 1 | 1u << 2 : 1u << (display + 1));
	}
	return 0;
}

/* ---------------------------------------------------------------- extract */

/* extract's --json report of args; the caller puts it. */
static struct json_object *extract_json(const struct fixture *fx, const char *const *args)
{
	struct test_run run;
	struct json_object *o;

	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	o = tj_parse(run.out, "extract --json");
	test_run_finish(&run);
	return o;
}

int test_extract_display(struct fixture *fx)
{
	const char *trace = two_display_trace();
	struct json_object *by_display, *by_frame;
	struct test_run run;
	char frame[16];

	for (unsigned id = 0; id < 2; id++) {
		char arg[8];

		snprintf(arg, sizeof(arg), "%u", id);
		/* display id's frame 3 is the trace's frame 2 * 3 + id (the displays present in turn) */
		by_display = extract_json(fx, (const char *const[]){ "extract", trace, "--display", arg, "--frame", "3",
			test_path(id ? "d1" : "d0"), "--json", NULL });
		CHECK_EQ_U64(tj_i64(by_display, "display"), id);
		CHECK_EQ_U64(tj_i64(by_display, "display_frame"), 3);
		CHECK_EQ_U64(tj_i64(by_display, "frame"), 2 * 3 + id);
		snprintf(frame, sizeof(frame), "%u", 2 * 3 + id);
		by_frame = extract_json(fx, (const char *const[]){ "extract", trace, "--frame", frame,
			test_path(id ? "f1" : "f0"), "--json", NULL });
		CHECK(json_object_equal(by_display, by_frame));
		json_object_put(by_display);
		json_object_put(by_frame);
	}
	/* past the display's last frame: a usage error saying how many it has; nothing written */
	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--display", "1", "--frame", "6",
		test_path("past"), NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "has no frame 6 of display 1 (it has 6 of that display)"),
		"status %d: %s", run.status, run.err);
	CHECK(!test_file_exists(test_path("past")));
	test_run_finish(&run);
	check_unknown_display(fx, (const char *const[]){ "extract", trace, "--display", "7", "--frame", "0",
		test_path("none"), NULL });
	CHECK(!test_file_exists(test_path("none")));
	return 0;
}
