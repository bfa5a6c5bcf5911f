/* `hwc-trace stats --json` (stats.h). Unknown values are null. */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "json_build.h"
#include "json_int.h"
#include "stats.h"

/* Builds objects; after the first failure every call is a no-op and ok is false. */
struct builder {
	bool ok;
};

/* A ratio, or null when negative (not defined). */
static void put_ratio(struct builder *b, struct json_object *obj, const char *key, double v)
{
	if (v < 0.0) {
		hwct_json_put_null(&b->ok, obj, key);
	} else {
		hwct_json_put(&b->ok, obj, key, json_object_new_double(v));
	}
}

static struct json_object *latency(struct builder *b, const struct stats_latency *l)
{
	struct json_object *obj = json_object_new_object();
	struct stats_percentiles p = stats_latency_percentiles(l);
	const char *keys[] = { "p50_ns", "p90_ns", "p99_ns", "max_ns" };
	int64_t values[] = { p.p50, p.p90, p.p99, p.max };

	hwct_json_put(&b->ok, obj, "count", hwct_json_u64(l->count));
	for (size_t i = 0; i < 4; i++) {
		if (l->count) {
			hwct_json_put(&b->ok, obj, keys[i], json_object_new_int64(values[i]));
		} else {
			hwct_json_put_null(&b->ok, obj, keys[i]);
		}
	}
	hwct_json_put(&b->ok, obj, "unsignalled", hwct_json_u64(l->unsignalled));
	hwct_json_put(&b->ok, obj, "errors", hwct_json_u64(l->errors));
	return obj;
}

static struct json_object *display(struct builder *b, const struct stats_display *d)
{
	struct json_object *obj = json_object_new_object(), *layers = json_object_new_object();
	struct json_object *comp = json_object_new_object(), *capture = json_object_new_object();
	struct json_object *fences = json_object_new_object();
	double rate = stats_frame_rate(d);

	hwct_json_put(&b->ok, obj, "id", hwct_json_u64(d->id));
	if (d->name[0]) {
		hwct_json_put(&b->ok, obj, "name", json_object_new_string(d->name));
	} else {
		hwct_json_put_null(&b->ok, obj, "name");
	}
	if (d->width > 0) {
		hwct_json_put(&b->ok, obj, "width", json_object_new_int(d->width));
		hwct_json_put(&b->ok, obj, "height", json_object_new_int(d->height));
	} else {
		hwct_json_put_null(&b->ok, obj, "width");
		hwct_json_put_null(&b->ok, obj, "height");
	}
	hwct_json_put(&b->ok, obj, "frames", hwct_json_u64(d->frames));
	put_ratio(b, obj, "frame_rate", rate > 0.0 ? rate : -1.0);
	hwct_json_put(&b->ok, layers, "min", hwct_json_u64(d->layers_min));
	hwct_json_put(&b->ok, layers, "max", hwct_json_u64(d->layers_max));
	put_ratio(b, layers, "mean", d->frames ? (double)d->layers / (double)d->frames : -1.0);
	hwct_json_put(&b->ok, layers, "total", hwct_json_u64(d->layers));
	hwct_json_put(&b->ok, obj, "layers_per_frame", layers);
	for (size_t i = 0; i < STATS_COMPOSITIONS; i++) {
		hwct_json_put(&b->ok, comp, stats_composition_name(i), hwct_json_u64(d->composition[i]));
	}
	hwct_json_put(&b->ok, obj, "composition", comp);
	hwct_json_put(&b->ok, obj, "device_layers", hwct_json_u64(d->device_layers));
	hwct_json_put(&b->ok, obj, "client_layers", hwct_json_u64(d->client_layers));
	put_ratio(b, obj, "offload_ratio", stats_offload(d));
	hwct_json_put(&b->ok, obj, "layer_pixels", json_object_new_double(d->layer_pixels));
	hwct_json_put(&b->ok, obj, "client_pixels", json_object_new_double(d->client_pixels));
	put_ratio(b, obj, "efficiency", stats_efficiency(d));
	hwct_json_put(&b->ok, obj, "client_frames", hwct_json_u64(d->client_frames));
	hwct_json_put(&b->ok, obj, "validated_frames", hwct_json_u64(d->validated_frames));
	hwct_json_put(&b->ok, fences, "acquire_wait", latency(b, &d->acquire));
	hwct_json_put(&b->ok, fences, "present", latency(b, &d->present));
	hwct_json_put(&b->ok, fences, "release", latency(b, &d->release));
	hwct_json_put(&b->ok, obj, "fences", fences);
	hwct_json_put(&b->ok, obj, "buffers", hwct_json_u64(d->buffers));
	for (size_t i = 0; i < STATS_CAPTURES; i++) {
		hwct_json_put(&b->ok, capture, stats_capture_name(i), hwct_json_u64(d->capture[i]));
	}
	hwct_json_put(&b->ok, obj, "capture_status", capture);
	return obj;
}

int stats_print_json(FILE *f, const char *path, const struct stats_facts *facts)
{
	struct builder b = { .ok = true };
	struct json_object *root = json_object_new_object(), *displays = json_object_new_array();
	struct json_object *bytes = json_object_new_object(), *capture = json_object_new_object();

	hwct_json_put(&b.ok, root, "file", json_object_new_string(path));
	hwct_json_put(&b.ok, root, "frames", hwct_json_u64(facts->frames));
	hwct_json_put(&b.ok, bytes, "stored", hwct_json_u64(facts->trace->stored_bytes));
	hwct_json_put(&b.ok, bytes, "per_frame", json_object_new_double(stats_bytes_per_frame(facts)));
	hwct_json_put(&b.ok, root, "bytes", bytes);
	hwct_json_put(&b.ok, capture, "capture_stats_records", hwct_json_u64(facts->capture_stats));
	hwct_json_put(&b.ok, capture, "blobs_dropped", hwct_json_u64(facts->blobs_dropped));
	hwct_json_put(&b.ok, capture, "bytes_dropped", hwct_json_u64(facts->bytes_dropped));
	hwct_json_put(&b.ok, capture, "records_dropped", hwct_json_u64(facts->records_dropped));
	hwct_json_put(&b.ok, capture, "frames_capture_late", hwct_json_u64(facts->frames_capture_late));
	hwct_json_put(&b.ok, capture, "frames_flagged_capture_late", hwct_json_u64(facts->capture_late_frames));
	if (facts->capture_stats && facts->has_fd_budget) {
		hwct_json_put(&b.ok, capture, "fd_budget", hwct_json_u64(facts->fd_budget));
		hwct_json_put(&b.ok, capture, "fds_held_peak", hwct_json_u64(facts->fds_held_peak));
		hwct_json_put(&b.ok, capture, "captures_no_fd", hwct_json_u64(facts->captures_no_fd));
		hwct_json_put(&b.ok, capture, "fences_unwatched", hwct_json_u64(facts->fences_unwatched));
	}
	if (facts->capture_stats && facts->has_worker_wakes) {
		hwct_json_put(&b.ok, capture, "worker_wakes", hwct_json_u64(facts->worker_wakes));
	}
	hwct_json_put(&b.ok, root, "capture", capture);
	for (size_t i = 0; i < facts->display_count; i++) {
		struct json_object *d = display(&b, &facts->displays[i]);

		if (!b.ok || !d || json_object_array_add(displays, d) < 0) {
			json_object_put(d);
			b.ok = false;
		}
	}
	hwct_json_put(&b.ok, root, "displays", displays);
	hwct_json_put(&b.ok, root, "complete", json_object_new_boolean(facts->complete));
	if (facts->complete) {
		hwct_json_put_null(&b.ok, root, "error");
	} else {
		hwct_json_put(&b.ok, root, "error", json_object_new_string(facts->error.message));
	}
	if (b.ok) {
		fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE), f);
		fputc('\n', f);
	}
	json_object_put(root);
	return b.ok ? 0 : -ENOMEM;
}
