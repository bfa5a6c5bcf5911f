/* `hwc-trace stats --json` (stats.h). Unknown values are null. */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "json_int.h"
#include "stats.h"

/* Builds objects; after the first failure every call is a no-op and ok is false. */
struct builder {
	bool ok;
};

/* Adds value (a new reference, NULL meaning out of memory) under key. */
static void put(struct builder *b, struct json_object *obj, const char *key, struct json_object *value)
{
	if (!b->ok || !obj || !value || json_object_object_add(obj, key, value) < 0) {
		json_object_put(value);
		b->ok = false;
	}
}

static void put_null(struct builder *b, struct json_object *obj, const char *key)
{
	if (!b->ok || !obj || json_object_object_add(obj, key, NULL) < 0) {
		b->ok = false;
	}
}

/* A ratio, or null when negative (not defined). */
static void put_ratio(struct builder *b, struct json_object *obj, const char *key, double v)
{
	if (v < 0.0) {
		put_null(b, obj, key);
	} else {
		put(b, obj, key, json_object_new_double(v));
	}
}

static struct json_object *latency(struct builder *b, const struct stats_latency *l)
{
	struct json_object *obj = json_object_new_object();
	struct stats_percentiles p = stats_latency_percentiles(l);
	const char *keys[] = { "p50_ns", "p90_ns", "p99_ns", "max_ns" };
	int64_t values[] = { p.p50, p.p90, p.p99, p.max };

	put(b, obj, "count", hwct_json_u64(l->count));
	for (size_t i = 0; i < 4; i++) {
		if (l->count) {
			put(b, obj, keys[i], json_object_new_int64(values[i]));
		} else {
			put_null(b, obj, keys[i]);
		}
	}
	put(b, obj, "unsignalled", hwct_json_u64(l->unsignalled));
	put(b, obj, "errors", hwct_json_u64(l->errors));
	return obj;
}

static struct json_object *display(struct builder *b, const struct stats_display *d)
{
	struct json_object *obj = json_object_new_object(), *layers = json_object_new_object();
	struct json_object *comp = json_object_new_object(), *capture = json_object_new_object();
	struct json_object *fences = json_object_new_object();
	double rate = stats_frame_rate(d);

	put(b, obj, "id", hwct_json_u64(d->id));
	if (d->name[0]) {
		put(b, obj, "name", json_object_new_string(d->name));
	} else {
		put_null(b, obj, "name");
	}
	if (d->width > 0) {
		put(b, obj, "width", json_object_new_int(d->width));
		put(b, obj, "height", json_object_new_int(d->height));
	} else {
		put_null(b, obj, "width");
		put_null(b, obj, "height");
	}
	put(b, obj, "frames", hwct_json_u64(d->frames));
	put_ratio(b, obj, "frame_rate", rate > 0.0 ? rate : -1.0);
	put(b, layers, "min", hwct_json_u64(d->layers_min));
	put(b, layers, "max", hwct_json_u64(d->layers_max));
	put_ratio(b, layers, "mean", d->frames ? (double)d->layers / (double)d->frames : -1.0);
	put(b, layers, "total", hwct_json_u64(d->layers));
	put(b, obj, "layers_per_frame", layers);
	for (size_t i = 0; i < STATS_COMPOSITIONS; i++) {
		put(b, comp, stats_composition_name(i), hwct_json_u64(d->composition[i]));
	}
	put(b, obj, "composition", comp);
	put(b, obj, "device_layers", hwct_json_u64(d->device_layers));
	put(b, obj, "client_layers", hwct_json_u64(d->client_layers));
	put_ratio(b, obj, "offload_ratio", stats_offload(d));
	put(b, obj, "layer_pixels", json_object_new_double(d->layer_pixels));
	put(b, obj, "client_pixels", json_object_new_double(d->client_pixels));
	put_ratio(b, obj, "efficiency", stats_efficiency(d));
	put(b, obj, "client_frames", hwct_json_u64(d->client_frames));
	put(b, obj, "validated_frames", hwct_json_u64(d->validated_frames));
	put(b, fences, "acquire_wait", latency(b, &d->acquire));
	put(b, fences, "present", latency(b, &d->present));
	put(b, fences, "release", latency(b, &d->release));
	put(b, obj, "fences", fences);
	put(b, obj, "buffers", hwct_json_u64(d->buffers));
	for (size_t i = 0; i < STATS_CAPTURES; i++) {
		put(b, capture, stats_capture_name(i), hwct_json_u64(d->capture[i]));
	}
	put(b, obj, "capture_status", capture);
	return obj;
}

int stats_print_json(FILE *f, const char *path, const struct stats_facts *facts)
{
	struct builder b = { .ok = true };
	struct json_object *root = json_object_new_object(), *displays = json_object_new_array();
	struct json_object *bytes = json_object_new_object(), *capture = json_object_new_object();

	put(&b, root, "file", json_object_new_string(path));
	put(&b, root, "frames", hwct_json_u64(facts->frames));
	put(&b, bytes, "stored", hwct_json_u64(facts->trace->stored_bytes));
	put(&b, bytes, "per_frame", json_object_new_double(stats_bytes_per_frame(facts)));
	put(&b, root, "bytes", bytes);
	put(&b, capture, "capture_stats_records", hwct_json_u64(facts->capture_stats));
	put(&b, capture, "blobs_dropped", hwct_json_u64(facts->blobs_dropped));
	put(&b, capture, "bytes_dropped", hwct_json_u64(facts->bytes_dropped));
	put(&b, capture, "records_dropped", hwct_json_u64(facts->records_dropped));
	put(&b, capture, "frames_capture_late", hwct_json_u64(facts->frames_capture_late));
	put(&b, capture, "frames_flagged_capture_late", hwct_json_u64(facts->capture_late_frames));
	if (facts->capture_stats && facts->has_fd_budget) {
		put(&b, capture, "fd_budget", hwct_json_u64(facts->fd_budget));
		put(&b, capture, "fds_held_peak", hwct_json_u64(facts->fds_held_peak));
		put(&b, capture, "captures_no_fd", hwct_json_u64(facts->captures_no_fd));
		put(&b, capture, "fences_unwatched", hwct_json_u64(facts->fences_unwatched));
	}
	put(&b, root, "capture", capture);
	for (size_t i = 0; i < facts->display_count; i++) {
		struct json_object *d = display(&b, &facts->displays[i]);

		if (!b.ok || !d || json_object_array_add(displays, d) < 0) {
			json_object_put(d);
			b.ok = false;
		}
	}
	put(&b, root, "displays", displays);
	put(&b, root, "complete", json_object_new_boolean(facts->complete));
	if (facts->complete) {
		put_null(&b, root, "error");
	} else {
		put(&b, root, "error", json_object_new_string(facts->error.message));
	}
	if (b.ok) {
		fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE), f);
		fputc('\n', f);
	}
	json_object_put(root);
	return b.ok ? 0 : -ENOMEM;
}
