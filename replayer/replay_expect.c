/* Reading known-good results with json-c (replay_expect.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hardware/hwcomposer2.h>
#include <json-c/json.h>

#include <hwct/hwc2_names.h>

#include "json_int.h"
#include "replay.h"
#include "replay_dir.h"
#include "replay_expect.h"
#include "scene.h"

#define MAX_DEPTH 64
#define PATH_SIZE 128
#define MAX_LAYERS 4096		/* per frame: PLANNER_MAX_LAYERS */

struct loader {
	const char *name;
	struct hwct_error *err;
	struct replay_expect *e;
	size_t layer_cap, layer_used;
	size_t *first_layer;		/* per frame, index into e->layers until fixed up */
};

static int fail(struct loader *l, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct loader *l, const char *path, const char *fmt, ...)
{
	char what[192];
	va_list args;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	return hwct_error_set(l->err, -EINVAL, l->name, UINT64_MAX, "%s: %s", path, what);
}

static const char *type_name(struct json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

static struct json_object *member(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* o as an unsigned integer at most max; NULL o fails unless null_ok (then *out = 0, *present false). */
static int get_uint(struct loader *l, struct json_object *o, const char *path, uint64_t max, bool null_ok,
	uint64_t *out, bool *present)
{
	int64_t i;

	*out = 0;
	if (present) {
		*present = o != NULL;
	}
	if (!o) {
		return null_ok ? 0 : fail(l, path, "missing (expected an integer)");
	}
	if (!hwct_json_get_u64(o, out)) {
		if (json_object_is_type(o, json_type_int) && (i = json_object_get_int64(o)) < 0) {
			return fail(l, path, "%" PRId64 " is negative", i);
		}
		return fail(l, path, "expected an integer%s, found %s", null_ok ? " or null" : "", type_name(o));
	}
	if (*out > max) {
		return fail(l, path, "%" PRIu64 " is out of range (at most %" PRIu64 ")", *out, max);
	}
	return 0;
}

/* o as a string (NULL o: *out NULL when null_ok). */
static int get_string(struct loader *l, struct json_object *o, const char *path, bool null_ok, const char **out)
{
	*out = NULL;
	if (!o) {
		return null_ok ? 0 : fail(l, path, "missing (expected a string)");
	}
	if (!json_object_is_type(o, json_type_string)) {
		return fail(l, path, "expected a string%s, found %s", null_ok ? " or null" : "", type_name(o));
	}
	*out = json_object_get_string(o);
	return 0;
}

static int reasons_from_json(struct loader *l, struct json_object *o, const char *path, uint32_t *out)
{
	char p[PATH_SIZE];
	size_t n;

	*out = 0;
	if (!o || !json_object_is_type(o, json_type_array)) {
		return fail(l, path, "expected an array of reason names, found %s", type_name(o));
	}
	n = json_object_array_length(o);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(o, i);
		const char *name;
		uint32_t bit = 0;

		snprintf(p, sizeof(p), "%.96s[%zu]", path, i);
		if (get_string(l, r, p, false, &name)) {
			return -EINVAL;
		}
		for (uint32_t b = 0; b < 32 && !bit; b++) {
			const char *known = plan_reason_name(1u << b);

			bit = known && strcmp(known, name) == 0 ? 1u << b : 0;
		}
		if (!bit) {
			return fail(l, p, "unknown reason \"%.48s\"", name);
		}
		*out |= bit;
	}
	return 0;
}

/* "composition": a HWC2_COMPOSITION_* name; absent or null: derived from the plane. */
static int composition_from_json(struct loader *l, struct json_object *o, const char *path,
	struct replay_expect_layer *layer)
{
	const char *s;

	if (get_string(l, o, path, true, &s)) {
		return -EINVAL;
	}
	if (!s) {
		layer->composition = layer->plane ? HWC2_COMPOSITION_DEVICE : HWC2_COMPOSITION_CLIENT;
		return 0;
	}
	layer->composition = hwct_hwc2_composition_from_name(s);
	if (layer->composition < 0) {
		return fail(l, path, "\"%.32s\" is not a composition type (CLIENT, DEVICE, ...)", s);
	}
	return 0;
}

static int plan_from_json(struct loader *l, struct json_object *o, const char *path,
	struct replay_expect_frame *f)
{
	char p[PATH_SIZE], q[PATH_SIZE + 16];
	struct replay_expect *e = l->e;
	size_t n, base;

	if (!json_object_is_type(o, json_type_array)) {
		return fail(l, path, "expected an array or null, found %s", type_name(o));
	}
	n = json_object_array_length(o);
	if (n > MAX_LAYERS) {
		return fail(l, path, "%zu layers, at most %d", n, MAX_LAYERS);
	}
	base = l->layer_used;
	if (base + n > l->layer_cap) {
		size_t cap = l->layer_cap ? l->layer_cap : 64;
		struct replay_expect_layer *layers;

		while (cap < base + n) {
			cap *= 2;
		}
		layers = realloc(e->layers, cap * sizeof(*layers));
		if (!layers) {
			return hwct_error_set(l->err, -ENOMEM, l->name, UINT64_MAX, "out of memory");
		}
		e->layers = layers;
		l->layer_cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *entry = json_object_array_get_idx(o, i);
		struct replay_expect_layer *layer = &e->layers[base + i];
		uint64_t v;

		snprintf(p, sizeof(p), "%.96s[%zu]", path, i);
		if (!entry || !json_object_is_type(entry, json_type_object)) {
			return fail(l, p, "expected an object, found %s", type_name(entry));
		}
		snprintf(q, sizeof(q), "%.96s.layer", p);
		if (get_uint(l, member(entry, "layer"), q, UINT64_MAX, false, &layer->id, NULL)) {
			return -EINVAL;
		}
		snprintf(q, sizeof(q), "%.96s.plane", p);
		if (get_uint(l, member(entry, "plane"), q, UINT32_MAX, true, &v, NULL)) {
			return -EINVAL;
		}
		layer->plane = (uint32_t)v;
		snprintf(q, sizeof(q), "%.96s.reasons", p);
		if (reasons_from_json(l, member(entry, "reasons"), q, &layer->reasons)) {
			return -EINVAL;
		}
		snprintf(q, sizeof(q), "%.96s.composition", p);
		if (composition_from_json(l, member(entry, "composition"), q, layer)) {
			return -EINVAL;
		}
	}
	l->first_layer[f - e->frames] = base;
	l->layer_used = base + n;
	f->layer_count = n;
	f->has_plan = true;
	return 0;
}

static int frame_from_json(struct loader *l, struct json_object *o, const char *path,
	struct replay_expect_frame *f)
{
	char p[PATH_SIZE + 32];
	struct json_object *plan;
	const char *s;
	uint64_t v;

	*f = (struct replay_expect_frame){ 0 };
	if (!o || !json_object_is_type(o, json_type_object)) {
		return fail(l, path, "expected an object, found %s", type_name(o));
	}
	snprintf(p, sizeof(p), "%.96s.frame", path);
	if (get_uint(l, member(o, "frame"), p, UINT64_MAX, false, &f->frame, NULL)) {
		return -EINVAL;
	}
	snprintf(p, sizeof(p), "%.96s.checksum", path);
	if (get_string(l, member(o, "checksum"), p, true, &s)) {
		return -EINVAL;
	}
	if (s && !hwct_hash_from_hex(&f->checksum, s)) {
		return fail(l, p, "not 32 hex digits");
	}
	f->has_checksum = s != NULL;
	snprintf(p, sizeof(p), "%.96s.client_target_plane", path);
	if (get_uint(l, member(o, "client_target_plane"), p, UINT32_MAX, true, &v, NULL)) {
		return -EINVAL;
	}
	f->client_target_plane = (uint32_t)v;
	snprintf(p, sizeof(p), "%.96s.image", path);
	if (get_string(l, member(o, "image"), p, true, &s)) {
		return -EINVAL;
	}
	if (s && !replay_dir_valid_name(s)) {
		return fail(l, p, "\"%.48s\" is not an image name of hwc-replay (frame-N.png)", s);
	}
	snprintf(f->image, sizeof(f->image), "%s", s ? s : "");
	plan = member(o, "plan");
	snprintf(p, sizeof(p), "%.96s.plan", path);
	return plan ? plan_from_json(l, plan, p, f) : 0;
}

static int compare_frames(const void *a, const void *b)
{
	const struct replay_expect_frame *x = a, *y = b;

	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* images_dir, relative ones resolved against the results file's directory. */
static int set_images_dir(struct loader *l, const char *dir)
{
	const char *slash = strrchr(l->name, '/');
	size_t base = dir[0] != '/' && slash ? (size_t)(slash - l->name) + 1 : 0;
	size_t len = base + strlen(dir) + 1;

	l->e->images_dir = malloc(len);
	if (!l->e->images_dir) {
		return hwct_error_set(l->err, -ENOMEM, l->name, UINT64_MAX, "out of memory");
	}
	snprintf(l->e->images_dir, len, "%.*s%s", (int)base, l->name, dir);
	return 0;
}

static int root_from_json(struct loader *l, struct json_object *root)
{
	struct replay_expect *e = l->e;
	struct json_object *frames;
	const char *dir;
	uint64_t version;
	size_t n, kept = 0;

	if (!json_object_is_type(root, json_type_object)) {
		return fail(l, "(top level)", "expected an object, found %s", type_name(root));
	}
	if (get_uint(l, member(root, "results_version"), "results_version", UINT32_MAX, false, &version, NULL)) {
		return -EINVAL;
	}
	if (version != REPLAY_RESULTS_VERSION) {
		return fail(l, "results_version", "version %" PRIu64 " is not %d, the one this hwc-replay reads",
			version, REPLAY_RESULTS_VERSION);
	}
	if (get_string(l, member(root, "images_dir"), "images_dir", true, &dir) || (dir && set_images_dir(l, dir))) {
		return -EINVAL;
	}
	frames = member(root, "frames");
	if (!frames || !json_object_is_type(frames, json_type_array)) {
		return fail(l, "frames", "expected an array, found %s", type_name(frames));
	}
	n = json_object_array_length(frames);
	e->frames = calloc(n ? n : 1, sizeof(*e->frames));
	l->first_layer = calloc(n ? n : 1, sizeof(*l->first_layer));
	if (!e->frames || !l->first_layer) {
		return hwct_error_set(l->err, -ENOMEM, l->name, UINT64_MAX, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		char p[PATH_SIZE];

		snprintf(p, sizeof(p), "frames[%zu]", i);
		if (frame_from_json(l, json_object_array_get_idx(frames, i), p, &e->frames[i])) {
			return -EINVAL;
		}
	}
	e->frame_count = n;
	for (size_t i = 0; i < n; i++) {
		e->frames[i].layers = e->frames[i].layer_count ? &e->layers[l->first_layer[i]] : NULL;
	}
	/* sorted by frame, then one entry per frame (later loops repeat it) */
	for (size_t i = 1; i < n; i++) {
		if (e->frames[i].frame < e->frames[i - 1].frame) {
			qsort(e->frames, n, sizeof(*e->frames), compare_frames);
			break;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (kept == 0 || e->frames[kept - 1].frame != e->frames[i].frame) {
			e->frames[kept++] = e->frames[i];
		}
	}
	e->frame_count = kept;
	return 0;
}

struct replay_expect *replay_expect_load_buffer(const char *data, size_t size, const char *name,
	struct hwct_error *err)
{
	struct loader l = { .name = name ? name : "results", .err = err };
	struct json_tokener *tok;
	struct json_object *root;
	size_t end;
	int ret;

	hwct_error_clear(err);
	if (size > REPLAY_EXPECT_MAX_BYTES) {
		hwct_error_set(err, -EFBIG, l.name, UINT64_MAX, "%zu bytes, at most %u", size, REPLAY_EXPECT_MAX_BYTES);
		return NULL;
	}
	tok = json_tokener_new_ex(MAX_DEPTH);
	if (!tok) {
		hwct_error_set(err, -ENOMEM, l.name, UINT64_MAX, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, data, (int)size);
	end = json_tokener_get_parse_end(tok);
	if (!root) {
		enum json_tokener_error jerr = json_tokener_get_error(tok);

		if (jerr == json_tokener_continue || jerr == json_tokener_success) {
			hwct_error_set(err, -EINVAL, l.name, size, "JSON: truncated");
		} else {
			hwct_error_set(err, -EINVAL, l.name, end, "JSON: %s", json_tokener_error_desc(jerr));
		}
		json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	for (; end < size; end++) {
		if (!strchr(" \t\r\n", data[end]) || data[end] == '\0') {
			hwct_error_set(err, -EINVAL, l.name, end, "JSON: trailing data");
			json_object_put(root);
			return NULL;
		}
	}
	l.e = calloc(1, sizeof(*l.e));
	if (l.e) {
		l.e->name = strdup(l.name);
	}
	if (!l.e || !l.e->name) {
		hwct_error_set(err, -ENOMEM, l.name, UINT64_MAX, "out of memory");
		json_object_put(root);
		replay_expect_destroy(l.e);
		return NULL;
	}
	ret = root_from_json(&l, root);
	json_object_put(root);
	free(l.first_layer);
	if (ret) {
		replay_expect_destroy(l.e);
		return NULL;
	}
	return l.e;
}

struct replay_expect *replay_expect_load(const char *path, struct hwct_error *err)
{
	struct replay_expect *e;
	struct stat st;
	char *data;
	size_t got;
	FILE *f;

	hwct_error_clear(err);
	f = fopen(path, "rb");
	if (!f) {
		int code = -errno;

		hwct_error_set(err, code, path, UINT64_MAX, "%s", strerror(-code));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
		(uint64_t)st.st_size > REPLAY_EXPECT_MAX_BYTES) {
		hwct_error_set(err, -EFBIG, path, UINT64_MAX, "not a regular file of at most %u bytes",
			REPLAY_EXPECT_MAX_BYTES);
		fclose(f);
		return NULL;
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data) {
		hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
		fclose(f);
		return NULL;
	}
	got = fread(data, 1, (size_t)st.st_size, f);
	fclose(f);
	if (got != (size_t)st.st_size) {
		hwct_error_set(err, -EIO, path, UINT64_MAX, "short read");
		free(data);
		return NULL;
	}
	e = replay_expect_load_buffer(data, got, path, err);
	free(data);
	return e;
}

void replay_expect_destroy(struct replay_expect *e)
{
	if (!e) {
		return;
	}
	free(e->name);
	free(e->images_dir);
	free(e->frames);
	free(e->layers);
	free(e);
}

const struct replay_expect_frame *replay_expect_find(const struct replay_expect *e, uint64_t frame)
{
	size_t lo = 0, hi = e->frame_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->frames[mid].frame < frame) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo < e->frame_count && e->frames[lo].frame == frame ? &e->frames[lo] : NULL;
}
