/*
 * hwc-trace export --format chrome-json: the document checked against the
 * Trace Event Format's rules (a checker written here: required fields per
 * phase, flow pairs, per-track time order), then its content against what
 * gen2.c wrote.
 */
#include <math.h>
#include <string.h>

#include "tests.h"
#include "testjson.h"

#define MAX_TRACKS 64
#define MAX_FLOWS 4096

struct track_time {
	int64_t pid, tid;
	double last_ts;
};

struct flow {
	int64_t id;
	char cat[32], name[32];
	double ts_s, ts_f;
	int s, f;
};

struct counts {
	size_t x, i, s, f, m, vsync, fence_instants, frame_ends, calls_with_frame, display_calls;
};

static bool is_number(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

static const char *string_of(struct json_object *e, const char *key)
{
	struct json_object *v = tj_get(e, key);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* Events of one track ("X" and "i" of a pid/tid) come in time order. */
static void check_track_order(struct track_time *tracks, size_t *n, struct json_object *e, size_t index)
{
	int64_t pid = tj_i64(e, "pid"), tid = tj_i64(e, "tid");
	double ts = tj_double(e, "ts");
	size_t i;

	for (i = 0; i < *n; i++) {
		if (tracks[i].pid == pid && tracks[i].tid == tid) {
			break;
		}
	}
	if (i == *n) {
		CHECK(*n < MAX_TRACKS);
		tracks[(*n)++] = (struct track_time){ pid, tid, ts };
	}
	CHECK_MSG(ts >= tracks[i].last_ts, "event %zu: ts %f before %f on track %lld/%lld", index, ts,
		tracks[i].last_ts, (long long)pid, (long long)tid);
	tracks[i].last_ts = ts;
}

static void note_flow(struct flow *flows, size_t *n, struct json_object *e, char ph)
{
	struct json_object *id = tj_get(e, "id");
	const char *cat = string_of(e, "cat"), *name = string_of(e, "name");
	size_t i;

	CHECK_MSG(id && json_object_is_type(id, json_type_int) && cat && name, "flow event without id/cat/name");
	for (i = 0; i < *n; i++) {
		if (flows[i].id == json_object_get_int64(id)) {
			break;
		}
	}
	if (i == *n) {
		CHECK(*n < MAX_FLOWS);
		flows[i] = (struct flow){ .id = json_object_get_int64(id) };
		snprintf(flows[i].cat, sizeof(flows[i].cat), "%s", cat);
		snprintf(flows[i].name, sizeof(flows[i].name), "%s", name);
		(*n)++;
	}
	/* s and f of one flow share id, cat and name */
	CHECK(strcmp(flows[i].cat, cat) == 0 && strcmp(flows[i].name, name) == 0);
	if (ph == 's') {
		flows[i].s++;
		flows[i].ts_s = tj_double(e, "ts");
	} else {
		flows[i].f++;
		flows[i].ts_f = tj_double(e, "ts");
	}
}

/* The checker: every event has ph; each phase its required fields. */
static void check_document(struct json_object *doc, struct counts *c)
{
	static struct flow flows[MAX_FLOWS];
	struct track_time tracks[MAX_TRACKS];
	struct json_object *events = tj_get(doc, "traceEvents");
	size_t n_tracks = 0, n_flows = 0;

	CHECK_MSG(json_object_is_type(events, json_type_array), "no traceEvents array");
	*c = (struct counts){ 0 };
	for (size_t i = 0; i < json_object_array_length(events); i++) {
		struct json_object *e = json_object_array_get_idx(events, i);
		const char *ph = string_of(e, "ph"), *name = string_of(e, "name");

		CHECK_MSG(json_object_is_type(e, json_type_object) && ph && strlen(ph) == 1, "event %zu: no ph", i);
		CHECK_MSG(name, "event %zu: no name", i);
		CHECK_MSG(is_number(tj_get(e, "pid")), "event %zu: no pid", i);
		switch (ph[0]) {
		case 'M':
			CHECK(strcmp(name, "process_name") == 0 || strcmp(name, "thread_name") == 0);
			CHECK(string_of(e, "args.name"));
			CHECK(strcmp(name, "process_name") == 0 || is_number(tj_get(e, "tid")));
			c->m++;
			break;
		case 'X':
			CHECK_MSG(is_number(tj_get(e, "ts")) && is_number(tj_get(e, "dur")) && is_number(tj_get(e, "tid")),
				"event %zu: X without ts/dur/tid", i);
			CHECK(tj_double(e, "dur") >= 0.0);
			check_track_order(tracks, &n_tracks, e, i);
			c->x++;
			if (tj_get(e, "args.display")) {
				c->display_calls++;
				c->calls_with_frame += tj_get(e, "args.frame") != NULL;
			}
			break;
		case 'i':
			CHECK(is_number(tj_get(e, "ts")) && is_number(tj_get(e, "tid")));
			CHECK(!tj_get(e, "s") || strchr("gpt", string_of(e, "s")[0]));
			check_track_order(tracks, &n_tracks, e, i);
			c->i++;
			c->vsync += strcmp(name, "VSYNC") == 0;
			c->frame_ends += strncmp(name, "frame ", 6) == 0;
			c->fence_instants += strstr(name, "fence") != NULL;
			break;
		case 's':
		case 'f':
			CHECK(is_number(tj_get(e, "ts")) && is_number(tj_get(e, "tid")));
			note_flow(flows, &n_flows, e, ph[0]);
			c->s += ph[0] == 's';
			c->f += ph[0] == 'f';
			break;
		default:
			CHECK_MSG(false, "event %zu: phase '%s' not expected", i, ph);
		}
	}
	for (size_t i = 0; i < n_flows; i++) {
		CHECK_MSG(flows[i].s == 1 && flows[i].f == 1, "flow %lld: %d s, %d f", (long long)flows[i].id, flows[i].s,
			flows[i].f);
		CHECK(flows[i].ts_s <= flows[i].ts_f);
	}
}

int test_export_chrome(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *trace = std_trace("trace.zst", false, &info), *out = test_path("trace.json");
	struct test_run run;
	struct counts c;
	struct json_object *doc, *events;
	uint8_t *text;
	size_t size;
	bool acquire_seen = false;

	fixture_run(fx, &run, (const char *const[]){ "export", trace, "--format", "chrome-json", out, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	CHECK(test_contains(run.out, "calls"));
	test_run_finish(&run);
	text = test_read_file(out, &size);
	doc = tj_parse((const char *)text, "the exported trace");
	check_document(doc, &c);
	CHECK_EQ_U64(c.x, info.calls);
	CHECK_EQ_U64(c.vsync, info.callbacks);
	CHECK_EQ_U64(c.frame_ends, info.frames);
	CHECK_EQ_U64(c.fence_instants, info.fences_signalled);
	/* every signalled fence was created by a call of the trace */
	CHECK_EQ_U64(c.s, info.fences_signalled);
	CHECK_EQ_U64(c.f, info.fences_signalled);
	/* display calls before the last FrameEnd know their frame */
	CHECK(c.display_calls > 0 && c.calls_with_frame == c.display_calls);
	CHECK(c.m >= 4);
	/* the first setLayerBuffer of layer 1: method name, args, µs times */
	events = tj_get(doc, "traceEvents");
	for (size_t i = 0; i < json_object_array_length(events) && !acquire_seen; i++) {
		struct json_object *e = json_object_array_get_idx(events, i);

		if (strcmp(string_of(e, "ph"), "X") == 0 && strcmp(string_of(e, "name"), "setLayerBuffer") == 0 &&
			tj_i64(e, "args.layer") == 1) {
			CHECK(fabs(tj_double(e, "ts") - (GEN_STACK_T0 + 1000) / 1000.0) < 1e-3);
			CHECK(fabs(tj_double(e, "dur") - 1.5) < 1e-9);
			CHECK_EQ_U64(tj_i64(e, "tid"), 77);
			CHECK_EQ_U64(tj_i64(e, "args.frame"), 0);
			CHECK(strcmp(string_of(e, "args.error"), "NONE") == 0);
			acquire_seen = true;
		}
		if (strcmp(string_of(e, "ph"), "X") == 0 && (strcmp(string_of(e, "name"), "validateDisplay") == 0 ||
			strcmp(string_of(e, "name"), "presentDisplay") == 0)) {
			/* on the display's own validate/present track */
			CHECK(tj_i64(e, "tid") != 77 && tj_i64(e, "args.thread") == 77);
		}
	}
	CHECK(acquire_seen);
	json_object_put(doc);
	free(text);

	/* unknown format: usage error */
	fixture_run(fx, &run, (const char *const[]){ "export", trace, "--format", "svg", out, NULL });
	CHECK(run.status == 2);
	test_run_finish(&run);
	return 0;
}
