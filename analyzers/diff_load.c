/*
 * Reading hwc-replay's results.json for diff (diff.h; schema:
 * docs/results.md). Only what diff compares is read; unknown members are
 * ignored. Syntax errors name the byte offset, schema errors the JSON path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <hwct/hwc2_names.h>

#include "diff.h"
#include "json_int.h"
#include "results_version.h"

#define RESULTS_MAX_BYTES (1ull << 31)

struct loader {
	const char *path;
	char *msg;
	size_t size;
	bool failed;
};

static void schema_error(struct loader *l, const char *where, const char *what)
{
	if (!l->failed) {
		snprintf(l->msg, l->size, "%s: %s: %s", l->path, where, what);
		l->failed = true;
	}
}

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A non-negative integer member; false when absent or null and optional, else an error. */
static bool get_u64(struct loader *l, struct json_object *o, const char *key, const char *where, bool optional,
	uint64_t *out)
{
	struct json_object *v = member(o, key);
	char path[160];

	if (optional && (!v || json_object_is_type(v, json_type_null))) {
		return false;
	}
	if (!v || !hwct_json_get_u64(v, out)) {
		snprintf(path, sizeof(path), "%s.%s", where, key);
		schema_error(l, path, v ? "expected a non-negative integer" : "missing");
		return false;
	}
	return true;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The reasons array as sorted names joined by ",". */
static void read_reasons(struct loader *l, struct json_object *array, const char *where, char *out, size_t size)
{
	const char *names[32];
	size_t n = json_object_is_type(array, json_type_array) ? json_object_array_length(array) : 0, len = 0;

	out[0] = '\0';
	if (array && !json_object_is_type(array, json_type_array)) {
		schema_error(l, where, "reasons: expected an array");
		return;
	}
	n = n > 32 ? 32 : n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(array, i);

		names[i] = json_object_is_type(s, json_type_string) ? json_object_get_string(s) : "?";
	}
	qsort(names, n, sizeof(names[0]), compare_strings);
	for (size_t i = 0; i < n && len < size; i++) {
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? "," : "", names[i]);
	}
}

static void read_plan(struct loader *l, struct diff_result_frame *f, struct json_object *plan, const char *where)
{
	size_t n;

	if (!plan || json_object_is_type(plan, json_type_null)) {
		return;
	}
	if (!json_object_is_type(plan, json_type_array)) {
		schema_error(l, where, "plan: expected an array or null");
		return;
	}
	n = json_object_array_length(plan);
	f->has_plan = true;
	f->plan = calloc(n ? n : 1, sizeof(*f->plan));
	if (!f->plan) {
		schema_error(l, where, "out of memory");
		return;
	}
	for (size_t i = 0; i < n && !l->failed; i++) {
		struct json_object *e = json_object_array_get_idx(plan, i), *plane = member(e, "plane");
		struct diff_plan_layer *p = &f->plan[f->plan_count++];
		char path[160];

		snprintf(path, sizeof(path), "%s.plan[%zu]", where, i);
		get_u64(l, e, "layer", path, false, &p->layer);
		p->on_plane = plane && !json_object_is_type(plane, json_type_null);
		if (p->on_plane) {
			get_u64(l, e, "plane", path, false, &p->plane);
		}
		read_reasons(l, member(e, "reasons"), path, p->reasons, sizeof(p->reasons));
	}
}

static int32_t composition(struct json_object *v)
{
	return json_object_is_type(v, json_type_string) ? hwct_hwc2_composition_from_name(json_object_get_string(v)) :
		-1;
}

static void read_recorded(struct loader *l, struct diff_result_frame *f, struct json_object *rec, const char *where)
{
	struct json_object *layers = member(rec, "layers");
	size_t n = json_object_is_type(layers, json_type_array) ? json_object_array_length(layers) : 0;

	if (!rec || json_object_is_type(rec, json_type_null)) {
		return;
	}
	f->has_recorded = true;
	f->validated = json_object_get_boolean(member(rec, "validated"));
	f->recorded = calloc(n ? n : 1, sizeof(*f->recorded));
	if (!f->recorded) {
		schema_error(l, where, "out of memory");
		return;
	}
	for (size_t i = 0; i < n && !l->failed; i++) {
		struct json_object *e = json_object_array_get_idx(layers, i);
		struct diff_recorded_layer *r = &f->recorded[f->recorded_count++];
		char path[160];

		snprintf(path, sizeof(path), "%s.recorded.layers[%zu]", where, i);
		get_u64(l, e, "layer", path, false, &r->layer);
		r->requested = composition(member(e, "requested"));
		r->composition = composition(member(e, "composition"));
	}
}

static void read_frame(struct loader *l, struct diff_result_frame *f, struct json_object *o, size_t index)
{
	static const char *const timing_keys[] = { "wait_ns", "plan_ns", "compose_ns", "commit_ns", "present_ns" };
	struct json_object *timing = member(o, "timing"), *checksum = member(o, "checksum");
	char where[64];
	uint64_t loop = 0;

	snprintf(where, sizeof(where), "frames[%zu]", index);
	if (!json_object_is_type(o, json_type_object)) {
		schema_error(l, where, "expected an object");
		return;
	}
	get_u64(l, o, "frame", where, false, &f->frame);
	get_u64(l, o, "display", where, false, &f->display);
	get_u64(l, o, "loop", where, true, &loop);
	f->loop = (uint32_t)loop;
	read_plan(l, f, member(o, "plan"), where);
	f->has_client_target_plane = get_u64(l, o, "client_target_plane", where, true, &f->client_target_plane);
	if (checksum && json_object_is_type(checksum, json_type_string)) {
		snprintf(f->checksum, sizeof(f->checksum), "%s", json_object_get_string(checksum));
	}
	for (size_t i = 0; i < 5; i++) {
		struct json_object *v = member(timing, timing_keys[i]);

		f->timing[i] = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
	}
	read_recorded(l, f, member(o, "recorded"), where);
}

static void copy_string(char *out, size_t size, struct json_object *v)
{
	snprintf(out, size, "%s", json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

static struct json_object *parse(struct loader *l)
{
	FILE *f = fopen(l->path, "rb");
	struct json_tokener *tok;
	struct json_object *root = NULL;
	char *text = NULL;
	long size;

	if (!f) {
		snprintf(l->msg, l->size, "%s: %s", l->path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || (uint64_t)size > RESULTS_MAX_BYTES ||
		fseek(f, 0, SEEK_SET) != 0 || !(text = malloc((size_t)size + 1)) ||
		fread(text, 1, (size_t)size, f) != (size_t)size) {
		snprintf(l->msg, l->size, "%s: cannot read it", l->path);
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	tok = json_tokener_new();
	if (tok) {
		root = json_tokener_parse_ex(tok, text, (int)size);
		if (!root || json_tokener_get_parse_end(tok) < (size_t)size) {
			size_t end = json_tokener_get_parse_end(tok);
			enum json_tokener_error e = json_tokener_get_error(tok);

			while (root && end < (size_t)size && strchr(" \t\r\n", text[end])) {
				end++;
			}
			if (!root || end < (size_t)size) {
				snprintf(l->msg, l->size, "%s: offset %zu: not valid JSON: %s", l->path, end,
					root ? "text after the object" : e == json_tokener_continue ? "unexpected end of file" :
					json_tokener_error_desc(e));
				json_object_put(root);
				root = NULL;
			}
		}
		json_tokener_free(tok);
	} else {
		snprintf(l->msg, l->size, "%s: out of memory", l->path);
	}
	free(text);
	return root;
}

struct diff_results *diff_results_load(const char *path, char *msg, size_t size)
{
	struct loader l = { .path = path, .msg = msg, .size = size };
	struct json_object *root = parse(&l), *frames, *version, *target;
	struct diff_results *res;
	size_t n;

	if (!root) {
		return NULL;
	}
	version = member(root, "results_version");
	frames = member(root, "frames");
	if (!json_object_is_type(root, json_type_object) || !json_object_is_type(version, json_type_int)) {
		schema_error(&l, "results_version", "missing: not an hwc-replay results file");
	} else if (json_object_get_int64(version) != HWCT_RESULTS_VERSION) {
		snprintf(msg, size, "%s: results_version %" PRId64 " is not known (this program reads %d)", path,
			json_object_get_int64(version), HWCT_RESULTS_VERSION);
		l.failed = true;
	} else if (!json_object_is_type(frames, json_type_array)) {
		schema_error(&l, "frames", "expected an array");
	}
	res = l.failed ? NULL : calloc(1, sizeof(*res));
	n = res ? json_object_array_length(frames) : 0;
	if (res && !(res->frames = calloc(n ? n : 1, sizeof(*res->frames)))) {
		schema_error(&l, "frames", "out of memory");
	}
	for (size_t i = 0; res && i < n && !l.failed; i++) {
		read_frame(&l, &res->frames[res->count++], json_object_array_get_idx(frames, i), i);
	}
	if (res && !l.failed) {
		target = member(root, "board");
		copy_string(res->planner, sizeof(res->planner), member(root, "planner"));
		copy_string(res->compositor, sizeof(res->compositor), member(root, "compositor"));
		copy_string(res->target, sizeof(res->target), member(target ? target : member(root, "target"),
			target ? "name" : "kind"));
		res->complete = json_object_get_boolean(member(root, "complete"));
	}
	json_object_put(root);
	if (l.failed) {
		diff_results_destroy(res);
		return NULL;
	}
	return res;
}

void diff_results_destroy(struct diff_results *res)
{
	if (!res) {
		return;
	}
	for (size_t i = 0; i < res->count; i++) {
		free(res->frames[i].plan);
		free(res->frames[i].recorded);
	}
	free(res->frames);
	free(res);
}

int64_t diff_result_frame_work_ns(const struct diff_result_frame *f)
{
	int64_t sum = -1;

	for (size_t i = 1; i < 5; i++) {
		if (f->timing[i] >= 0) {
			sum = (sum < 0 ? 0 : sum) + f->timing[i];
		}
	}
	return sum;
}
