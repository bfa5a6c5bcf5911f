/*
 * Reading hwc-replay's results.json for diff (diff.h; schema:
 * docs/results.md), one frame at a time. Only what diff compares is read; unknown members are
 * ignored. Syntax errors name the byte offset, schema errors the JSON path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <hwct/hwc2_names.h>

#include "diff.h"
#include "results_load.h"

struct loader {
	struct results_file rf;
	bool failed;			/* the first error is kept in rf.err */
};

static void schema_error(struct loader *l, const char *where, const char *what)
{
	if (!l->failed) {
		results_fail(&l->rf, where, "%s", what);
		l->failed = true;
	}
}

/* A non-negative integer member; false when absent or null and optional, else an error. */
static bool get_u64(struct loader *l, struct json_object *o, const char *key, const char *where, bool optional,
	uint64_t *out)
{
	struct json_object *v = results_member(o, key);
	char path[160];
	bool present;

	snprintf(path, sizeof(path), "%s.%s", where, key);
	if (l->failed || results_get_u64(&l->rf, v, path, UINT64_MAX, optional, out, &present) < 0) {
		l->failed = true;
		return false;
	}
	return present;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* s kept once in res's table (FNV-1a, open addressing); NULL when out of memory. */
static const char *intern(struct diff_results *res, const char *s)
{
	uint64_t h = 1469598103934665603u;
	size_t i;

	if (2 * (res->reasons_used + 1) > res->reasons_size) {
		size_t size = res->reasons_size ? res->reasons_size * 2 : 64;
		char **table = calloc(size, sizeof(*table));

		if (!table) {
			return NULL;
		}
		for (size_t k = 0; k < res->reasons_size; k++) {
			if (res->reasons[k]) {
				uint64_t g = 1469598103934665603u;

				for (const char *c = res->reasons[k]; *c; c++) {
					g = (g ^ (unsigned char)*c) * 1099511628211u;
				}
				for (i = g & (size - 1); table[i]; i = (i + 1) & (size - 1)) {
				}
				table[i] = res->reasons[k];
			}
		}
		free(res->reasons);
		res->reasons = table;
		res->reasons_size = size;
	}
	for (const char *c = s; *c; c++) {
		h = (h ^ (unsigned char)*c) * 1099511628211u;
	}
	for (i = h & (res->reasons_size - 1); res->reasons[i]; i = (i + 1) & (res->reasons_size - 1)) {
		if (strcmp(res->reasons[i], s) == 0) {
			return res->reasons[i];
		}
	}
	res->reasons[i] = strdup(s);
	res->reasons_used += res->reasons[i] != NULL;
	return res->reasons[i];
}

/* The reasons array as sorted names joined by ",", interned in res. */
static const char *read_reasons(struct loader *l, struct diff_results *res, struct json_object *array,
	const char *where)
{
	const char *names[32], *kept;
	size_t n = json_object_is_type(array, json_type_array) ? json_object_array_length(array) : 0, len = 0;
	char out[160];

	out[0] = '\0';
	if (array && !json_object_is_type(array, json_type_array)) {
		schema_error(l, where, "reasons: expected an array");
		return "";
	}
	n = n > 32 ? 32 : n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(array, i);

		names[i] = json_object_is_type(s, json_type_string) ? json_object_get_string(s) : "?";
	}
	qsort(names, n, sizeof(names[0]), compare_strings);
	for (size_t i = 0; i < n && len < sizeof(out); i++) {
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s", i ? "," : "", names[i]);
	}
	kept = intern(res, out);
	if (!kept) {
		schema_error(l, where, "out of memory");
		return "";
	}
	return kept;
}

static void read_plan(struct loader *l, struct diff_results *res, struct diff_result_frame *f,
	struct json_object *plan, const char *where)
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
		struct json_object *e = json_object_array_get_idx(plan, i), *plane = results_member(e, "plane");
		struct diff_plan_layer *p = &f->plan[f->plan_count++];
		char path[160];

		p->reasons = "";
		snprintf(path, sizeof(path), "%s.plan[%zu]", where, i);
		get_u64(l, e, "layer", path, false, &p->layer);
		p->on_plane = plane && !json_object_is_type(plane, json_type_null);
		if (p->on_plane) {
			get_u64(l, e, "plane", path, false, &p->plane);
		}
		p->reasons = read_reasons(l, res, results_member(e, "reasons"), path);
	}
}

static int32_t composition(struct json_object *v)
{
	return json_object_is_type(v, json_type_string) ? hwct_hwc2_composition_from_name(json_object_get_string(v)) :
		-1;
}

static void read_recorded(struct loader *l, struct diff_result_frame *f, struct json_object *rec, const char *where)
{
	struct json_object *layers = results_member(rec, "layers");
	size_t n = json_object_is_type(layers, json_type_array) ? json_object_array_length(layers) : 0;

	if (!rec || json_object_is_type(rec, json_type_null)) {
		return;
	}
	f->has_recorded = true;
	f->validated = json_object_get_boolean(results_member(rec, "validated"));
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
		r->requested = composition(results_member(e, "requested"));
		r->composition = composition(results_member(e, "composition"));
	}
}

static void read_frame(struct loader *l, struct diff_results *res, struct diff_result_frame *f,
	struct json_object *o, size_t index)
{
	static const char *const timing_keys[] = { "wait_ns", "plan_ns", "compose_ns", "commit_ns", "present_ns" };
	struct json_object *timing = results_member(o, "timing"), *checksum = results_member(o, "checksum");
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
	read_plan(l, res, f, results_member(o, "plan"), where);
	f->has_client_target_plane = get_u64(l, o, "client_target_plane", where, true, &f->client_target_plane);
	if (checksum && json_object_is_type(checksum, json_type_string)) {
		snprintf(f->checksum, sizeof(f->checksum), "%s", json_object_get_string(checksum));
	}
	for (size_t i = 0; i < 5; i++) {
		struct json_object *v = results_member(timing, timing_keys[i]);

		f->timing[i] = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
	}
	read_recorded(l, f, results_member(o, "recorded"), where);
}

static void copy_string(char *out, size_t size, struct json_object *v)
{
	snprintf(out, size, "%s", json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

/* board.plane_ids (results of before it have none: plans then compare by plane id). */
static void read_plane_ids(struct diff_results *res, struct json_object *ids)
{
	size_t n = ids && json_object_is_type(ids, json_type_array) ? json_object_array_length(ids) : 0;

	res->plane_ids = n ? calloc(n, sizeof(*res->plane_ids)) : NULL;
	for (size_t i = 0; res->plane_ids && i < n; i++) {
		struct json_object *v = json_object_array_get_idx(ids, i);

		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) <= 0) {
			free(res->plane_ids);
			res->plane_ids = NULL;
			return;
		}
		res->plane_ids[i] = (uint64_t)json_object_get_int64(v);
	}
	res->plane_id_count = res->plane_ids ? n : 0;
}

/* Room for one more frame in res. */
static bool grow(struct loader *l, struct diff_results *res, size_t *cap)
{
	struct diff_result_frame *frames;

	if (res->count < *cap) {
		return true;
	}
	frames = realloc(res->frames, (*cap ? *cap * 2 : 64) * sizeof(*frames));
	if (!frames) {
		schema_error(l, "frames", "out of memory");
		return false;
	}
	res->frames = frames;
	*cap = *cap ? *cap * 2 : 64;
	return true;
}

struct diff_results *diff_results_load(const char *path, char *msg, size_t size)
{
	struct hwct_error err;
	struct loader l = { 0 };
	struct json_object *root, *frame, *target;
	struct diff_results *res = NULL;
	size_t cap = 0;
	int got = 0;

	if (results_file_open(&l.rf, path, &err) < 0) {
		snprintf(msg, size, "%s", err.message);
		results_file_finish(&l.rf);
		return NULL;
	}
	res = calloc(1, sizeof(*res));
	if (!res) {
		schema_error(&l, "frames", "out of memory");
	}
	while (!l.failed && (got = results_file_next(&l.rf, &frame)) > 0) {
		if (grow(&l, res, &cap)) {
			struct diff_result_frame *f = &res->frames[res->count++];

			*f = (struct diff_result_frame){ 0 };
			read_frame(&l, res, f, frame, res->count - 1);
		}
		json_object_put(frame);
	}
	l.failed = l.failed || got < 0;
	if (!l.failed) {
		root = l.rf.root;
		target = results_member(root, "board");
		copy_string(res->planner, sizeof(res->planner), results_member(root, "planner"));
		copy_string(res->compositor, sizeof(res->compositor), results_member(root, "compositor"));
		copy_string(res->yuv_model, sizeof(res->yuv_model), results_member(root, "yuv_model"));
		copy_string(res->target, sizeof(res->target), results_member(target ? target : results_member(root,
			"target"), target ? "name" : "kind"));
		res->complete = json_object_get_boolean(results_member(root, "complete"));
		read_plane_ids(res, results_member(target, "plane_ids"));
	}
	results_file_finish(&l.rf);
	if (l.failed) {
		snprintf(msg, size, "%s", err.message);
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
	for (size_t i = 0; i < res->reasons_size; i++) {
		free(res->reasons[i]);
	}
	free(res->reasons);
	free(res->frames);
	free(res->plane_ids);
	free(res);
}

void diff_results_keep_display(struct diff_results *res, uint64_t display)
{
	size_t kept = 0;

	for (size_t i = 0; i < res->count; i++) {
		if (res->frames[i].display == display) {
			res->frames[kept++] = res->frames[i];
		} else {
			free(res->frames[i].plan);
			free(res->frames[i].recorded);
		}
	}
	res->count = kept;
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
