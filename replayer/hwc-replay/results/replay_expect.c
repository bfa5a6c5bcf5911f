/* Reading known-good results with json-c, one frame at a time (replay_expect.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <json-c/json.h>

#include <hwct/hwc2_names.h>

#include "board.h"
#include "results_load.h"
#include "replay.h"
#include "replay_dir.h"
#include "replay_expect.h"
#include "scene.h"

#define PATH_SIZE 128
#define MAX_LAYERS 4096		/* per frame: PLANNER_MAX_LAYERS */

struct loader {
	struct results_file rf;
	const char *name;
	struct hwct_error *err;
	struct replay_expect *e;
	size_t layer_cap, layer_used;
	size_t frame_cap;		/* frames e->frames and first_layer have room for */
	size_t *first_layer;		/* per frame, index into e->layers until fixed up */
};

static int reasons_from_json(struct loader *l, struct json_object *o, const char *path, uint32_t *out)
{
	char p[PATH_SIZE];
	size_t n;

	*out = 0;
	if (!o || !json_object_is_type(o, json_type_array)) {
		return results_fail(&l->rf, path, "expected an array of reason names, found %s", results_type_name(o));
	}
	n = json_object_array_length(o);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(o, i);
		const char *name;
		uint32_t bit = 0;

		snprintf(p, sizeof(p), "%.96s[%zu]", path, i);
		if (results_get_string(&l->rf, r, p, false, &name)) {
			return -EINVAL;
		}
		for (uint32_t b = 0; b < 32 && !bit; b++) {
			const char *known = plan_reason_name(1u << b);

			bit = known && strcmp(known, name) == 0 ? 1u << b : 0;
		}
		if (!bit) {
			return results_fail(&l->rf, p, "unknown reason \"%.48s\"", name);
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

	if (results_get_string(&l->rf, o, path, true, &s)) {
		return -EINVAL;
	}
	if (!s) {
		layer->composition = layer->plane ? HWC2_COMPOSITION_DEVICE : HWC2_COMPOSITION_CLIENT;
		return 0;
	}
	layer->composition = hwct_hwc2_composition_from_name(s);
	if (layer->composition < 0) {
		return results_fail(&l->rf, path, "\"%.32s\" is not a composition type (CLIENT, DEVICE, ...)", s);
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
		return results_fail(&l->rf, path, "expected an array or null, found %s", results_type_name(o));
	}
	n = json_object_array_length(o);
	if (n > MAX_LAYERS) {
		return results_fail(&l->rf, path, "%zu layers, at most %d", n, MAX_LAYERS);
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
			return results_fail(&l->rf, p, "expected an object, found %s", results_type_name(entry));
		}
		snprintf(q, sizeof(q), "%.96s.layer", p);
		if (results_get_u64(&l->rf, results_member(entry, "layer"), q, UINT64_MAX, false, &layer->id, NULL)) {
			return -EINVAL;
		}
		snprintf(q, sizeof(q), "%.96s.plane", p);
		if (results_get_u64(&l->rf, results_member(entry, "plane"), q, UINT32_MAX, true, &v, NULL)) {
			return -EINVAL;
		}
		layer->plane = (uint32_t)v;
		snprintf(q, sizeof(q), "%.96s.reasons", p);
		if (reasons_from_json(l, results_member(entry, "reasons"), q, &layer->reasons)) {
			return -EINVAL;
		}
		snprintf(q, sizeof(q), "%.96s.composition", p);
		if (composition_from_json(l, results_member(entry, "composition"), q, layer)) {
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
		return results_fail(&l->rf, path, "expected an object, found %s", results_type_name(o));
	}
	snprintf(p, sizeof(p), "%.96s.frame", path);
	if (results_get_u64(&l->rf, results_member(o, "frame"), p, UINT64_MAX, false, &f->frame, NULL)) {
		return -EINVAL;
	}
	snprintf(p, sizeof(p), "%.96s.checksum", path);
	if (results_get_string(&l->rf, results_member(o, "checksum"), p, true, &s)) {
		return -EINVAL;
	}
	if (s && !hwct_hash_from_hex(&f->checksum, s)) {
		return results_fail(&l->rf, p, "not 32 hex digits");
	}
	f->has_checksum = s != NULL;
	snprintf(p, sizeof(p), "%.96s.client_target_plane", path);
	if (results_get_u64(&l->rf, results_member(o, "client_target_plane"), p, UINT32_MAX, true, &v, NULL)) {
		return -EINVAL;
	}
	f->client_target_plane = (uint32_t)v;
	snprintf(p, sizeof(p), "%.96s.image", path);
	if (results_get_string(&l->rf, results_member(o, "image"), p, true, &s)) {
		return -EINVAL;
	}
	if (s && !replay_dir_valid_name(s)) {
		return results_fail(&l->rf, p, "\"%.48s\" is not an image name of hwc-replay (frame-N.png)", s);
	}
	snprintf(f->image, sizeof(f->image), "%s", s ? s : "");
	plan = results_member(o, "plan");
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

/* board.plane_ids, when there: the expected run's device planes in object-id order. */
static int plane_ids_from_json(struct loader *l, struct json_object *root)
{
	struct json_object *ids = results_member(results_member(root, "board"), "plane_ids");
	size_t n;

	if (!ids || !json_object_is_type(ids, json_type_array)) {
		return 0;
	}
	n = json_object_array_length(ids);
	if (n > BOARD_MAX_PLANES) {
		return hwct_error_set(l->err, -EINVAL, l->name, UINT64_MAX, "board.plane_ids: %zu planes, at most %d",
			n, BOARD_MAX_PLANES);
	}
	l->e->plane_ids = calloc(n ? n : 1, sizeof(*l->e->plane_ids));
	if (!l->e->plane_ids) {
		return hwct_error_set(l->err, -ENOMEM, l->name, UINT64_MAX, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		char p[PATH_SIZE];
		uint64_t v;

		snprintf(p, sizeof(p), "board.plane_ids[%zu]", i);
		if (results_get_u64(&l->rf, json_object_array_get_idx(ids, i), p, UINT32_MAX, false, &v, NULL)) {
			return -EINVAL;
		}
		l->e->plane_ids[i] = (uint32_t)v;
	}
	l->e->plane_id_count = n;
	return 0;
}

/* Room for frame number n (and its first_layer). */
static int grow_frames(struct loader *l, size_t n)
{
	struct replay_expect *e = l->e;
	size_t cap = l->frame_cap ? l->frame_cap * 2 : 64;
	struct replay_expect_frame *frames;
	size_t *first;

	if (n < l->frame_cap) {
		return 0;
	}
	frames = realloc(e->frames, cap * sizeof(*frames));
	if (frames) {
		e->frames = frames;
	}
	first = frames ? realloc(l->first_layer, cap * sizeof(*first)) : NULL;
	if (!first) {
		return hwct_error_set(l->err, -ENOMEM, l->name, UINT64_MAX, "out of memory");
	}
	l->first_layer = first;
	l->frame_cap = cap;
	return 0;
}

/* The frames, one at a time from the reader, then the members after them. */
static int root_from_json(struct loader *l)
{
	struct replay_expect *e = l->e;
	struct json_object *frame;
	const char *dir;
	size_t n = 0, kept = 0;
	int got;

	while ((got = results_file_next(&l->rf, &frame)) > 0) {
		char p[PATH_SIZE];
		int ret;

		snprintf(p, sizeof(p), "frames[%zu]", n);
		ret = grow_frames(l, n);
		ret = ret ? ret : frame_from_json(l, frame, p, &e->frames[n]);
		json_object_put(frame);
		if (ret) {
			return -EINVAL;
		}
		n++;
	}
	if (got < 0) {
		return -EINVAL;
	}
	if (results_get_string(&l->rf, results_member(l->rf.root, "images_dir"), "images_dir", true, &dir) ||
		(dir && set_images_dir(l, dir)) || plane_ids_from_json(l, l->rf.root)) {
		return -EINVAL;
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

/* The expectations of the parsed l->rf. Returns them, or NULL with l->err set. */
static struct replay_expect *from_results(struct loader *l)
{
	int ret;

	l->name = l->rf.name;
	l->e = calloc(1, sizeof(*l->e));
	if (l->e) {
		l->e->name = strdup(l->name);
	}
	if (!l->e || !l->e->name) {
		hwct_error_set(l->err, -ENOMEM, l->name, UINT64_MAX, "out of memory");
		replay_expect_destroy(l->e);
		return NULL;
	}
	ret = root_from_json(l);
	free(l->first_layer);
	if (ret) {
		replay_expect_destroy(l->e);
		return NULL;
	}
	return l->e;
}

struct replay_expect *replay_expect_load_buffer(const char *data, size_t size, const char *name,
	struct hwct_error *err)
{
	struct loader l = { .err = err };
	struct replay_expect *e;

	if (results_file_open_buffer(&l.rf, data, size, name ? name : "results", err) < 0) {
		results_file_finish(&l.rf);
		return NULL;
	}
	e = from_results(&l);
	results_file_finish(&l.rf);
	return e;
}

struct replay_expect *replay_expect_load(const char *path, struct hwct_error *err)
{
	struct loader l = { .err = err };
	struct replay_expect *e;

	if (results_file_open(&l.rf, path, err) < 0) {
		results_file_finish(&l.rf);
		return NULL;
	}
	e = from_results(&l);
	results_file_finish(&l.rf);
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
	free(e->plane_ids);
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
