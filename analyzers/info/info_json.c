/* `hwc-trace info --json` (info.h). Missing facts are null. */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include <hwct/hwc2_names.h>

#include "json_build.h"
#include "json_int.h"
#include "info.h"
#include "pb.h"

/* Builds objects; after the first failure every call is a no-op and ok is false. */
struct builder {
	bool ok;
	struct pbjson_options pb;
};

static void put_u64_or_null(struct builder *b, struct json_object *obj, const char *key, bool has, uint64_t v)
{
	if (has) {
		hwct_json_put(&b->ok, obj, key, hwct_json_u64(v));
	} else {
		hwct_json_put_null(&b->ok, obj, key);
	}
}

static void put_string_or_null(struct builder *b, struct json_object *obj, const char *key, const char *s)
{
	if (s) {
		hwct_json_put(&b->ok, obj, key, json_object_new_string(s));
	} else {
		hwct_json_put_null(&b->ok, obj, key);
	}
}

static void append(struct builder *b, struct json_object *array, struct json_object *value)
{
	if (!b->ok || !array || !value || json_object_array_add(array, value) < 0) {
		json_object_put(value);
		b->ok = false;
	}
}

static void append_string_or_null(struct builder *b, struct json_object *array, const char *s)
{
	if (!s) {
		if (!b->ok || !array || json_object_array_add(array, NULL) < 0) {
			b->ok = false;
		}
		return;
	}
	append(b, array, json_object_new_string(s));
}

static struct json_object *environment(struct builder *b, const Hwct__Environment *e)
{
	struct json_object *obj = pbjson_message(&e->base, &b->pb), *names = json_object_new_array();

	for (size_t i = 0; i < e->n_hwc2_capabilities; i++) {
		append_string_or_null(b, names, hwct_hwc2_capability_name(e->hwc2_capabilities[i]));
	}
	hwct_json_put(&b->ok, obj, "hwc2_capability_names", names);
	return obj;
}

static struct json_object *displays(struct builder *b, const struct info_facts *facts)
{
	struct json_object *array = json_object_new_array();

	for (size_t i = 0; i < facts->display_count; i++) {
		const struct info_display *d = &facts->displays[i];
		struct json_object *obj = d->display ? pbjson_message(&d->display->base, &b->pb) :
			json_object_new_object();

		hwct_json_put(&b->ok, obj, "id", hwct_json_u64(d->id));
		hwct_json_put(&b->ok, obj, "frames", hwct_json_u64(d->frames));
		append(b, array, obj);
	}
	return array;
}

static struct json_object *counts(struct builder *b, const struct info_facts *facts)
{
	struct json_object *obj = json_object_new_object(), *kinds = json_object_new_object();
	struct json_object *functions = json_object_new_array();

	hwct_json_put(&b->ok, obj, "display_frames", hwct_json_u64(facts->frame_ends));
	hwct_json_put(&b->ok, obj, "records", hwct_json_u64(facts->records));
	for (unsigned i = 0; i < hwct__record__descriptor.n_fields; i++) {
		hwct_json_put(&b->ok, kinds, hwct__record__descriptor.fields[i].name, hwct_json_u64(facts->records_by_kind[i]));
	}
	hwct_json_put(&b->ok, obj, "records_by_kind", kinds);
	hwct_json_put(&b->ok, obj, "calls", hwct_json_u64(facts->calls));
	for (size_t i = 0; i < facts->function_count; i++) {
		struct json_object *f = json_object_new_object();

		hwct_json_put(&b->ok, f, "function", json_object_new_int(facts->functions[i].function));
		put_string_or_null(b, f, "name", hwct_hwc2_function_name(facts->functions[i].function));
		hwct_json_put(&b->ok, f, "calls", hwct_json_u64(facts->functions[i].calls));
		append(b, functions, f);
	}
	hwct_json_put(&b->ok, obj, "calls_by_function", functions);
	hwct_json_put(&b->ok, obj, "buffers", hwct_json_u64(facts->buffers));
	hwct_json_put(&b->ok, obj, "blobs", hwct_json_u64(facts->blobs));
	hwct_json_put(&b->ok, obj, "fences", hwct_json_u64(facts->fences));
	hwct_json_put(&b->ok, obj, "keyframes", hwct_json_u64(facts->keyframes));
	hwct_json_put(&b->ok, obj, "seek_keyframes", hwct_json_u64(facts->seek_keyframes));
	return obj;
}

static struct json_object *sizes(struct builder *b, uint64_t stored, uint64_t raw)
{
	struct json_object *obj = json_object_new_object();

	hwct_json_put(&b->ok, obj, "stored", hwct_json_u64(stored));
	hwct_json_put(&b->ok, obj, "raw", hwct_json_u64(raw));
	if (stored) {
		hwct_json_put(&b->ok, obj, "ratio", json_object_new_double((double)raw / (double)stored));
	} else {
		hwct_json_put_null(&b->ok, obj, "ratio");
	}
	return obj;
}

static struct json_object *bytes(struct builder *b, const struct info_facts *facts)
{
	const struct hwct_frame_counts *fr = &facts->frames;
	struct json_object *obj = sizes(b, facts->trace->stored_bytes, facts->trace->raw_bytes);

	hwct_json_put(&b->ok, obj, "file", hwct_json_u64(facts->trace->file_size));
	hwct_json_put(&b->ok, obj, "record_frames", sizes(b, fr->record_stored, fr->record_raw));
	hwct_json_put(&b->ok, obj, "blob_frames", sizes(b, fr->blob_stored, fr->blob_raw));
	hwct_json_put(&b->ok, obj, "blob_payload", hwct_json_u64(facts->blob_payload));
	hwct_json_put(&b->ok, obj, "blob_data", hwct_json_u64(facts->blob_data));
	return obj;
}

static struct json_object *frames(struct builder *b, const struct info_facts *facts)
{
	const struct hwct_frame_counts *fr = &facts->frames;
	struct json_object *obj = json_object_new_object();

	hwct_json_put(&b->ok, obj, "total", hwct_json_u64(fr->record_frames + fr->blob_frames + fr->skippable_frames));
	hwct_json_put(&b->ok, obj, "data", hwct_json_u64(fr->record_frames + fr->blob_frames));
	hwct_json_put(&b->ok, obj, "record", hwct_json_u64(fr->record_frames));
	hwct_json_put(&b->ok, obj, "blob", hwct_json_u64(fr->blob_frames));
	hwct_json_put(&b->ok, obj, "skippable", hwct_json_u64(fr->skippable_frames));
	return obj;
}

static struct json_object *container(struct builder *b, const struct hwct_trace_info *t)
{
	struct json_object *obj = json_object_new_object();

	hwct_json_put(&b->ok, obj, "seek_table", json_object_new_boolean(t->has_seek_table));
	hwct_json_put(&b->ok, obj, "scanned", json_object_new_boolean(!t->has_seek_table));
	hwct_json_put(&b->ok, obj, "truncated", json_object_new_boolean(t->truncated));
	put_u64_or_null(b, obj, "truncated_offset", t->truncated, t->truncated_offset);
	hwct_json_put(&b->ok, obj, "ignored_bytes", hwct_json_u64(t->truncated ? t->file_size - t->truncated_offset : 0));
	return obj;
}

static struct json_object *format(struct builder *b, const struct hwct_trace_info *t)
{
	struct json_object *obj = json_object_new_object();

	hwct_json_put(&b->ok, obj, "major", json_object_new_int(t->major));
	hwct_json_put(&b->ok, obj, "minor", json_object_new_int(t->minor));
	return obj;
}

int info_print_json(FILE *f, const char *path, const struct info_facts *facts)
{
	struct builder b = { .ok = true };
	struct json_object *root = json_object_new_object(), *file = json_object_new_object();
	bool timed = facts->has_time;

	hwct_json_put(&b.ok, file, "path", json_object_new_string(path));
	hwct_json_put(&b.ok, file, "size", hwct_json_u64(facts->trace->file_size));
	hwct_json_put(&b.ok, root, "file", file);
	hwct_json_put(&b.ok, root, "format", format(&b, facts->trace));
	hwct_json_put(&b.ok, root, "container", container(&b, facts->trace));
	hwct_json_put(&b.ok, root, "header", pbjson_message(&facts->trace->header->base, &b.pb));
	if (facts->environment) {
		hwct_json_put(&b.ok, root, "environment", environment(&b, facts->environment));
	} else {
		hwct_json_put_null(&b.ok, root, "environment");
	}
	hwct_json_put(&b.ok, root, "displays", displays(&b, facts));
	hwct_json_put(&b.ok, root, "counts", counts(&b, facts));
	hwct_json_put(&b.ok, root, "bytes", bytes(&b, facts));
	hwct_json_put(&b.ok, root, "zstd_frames", frames(&b, facts));
	put_u64_or_null(&b, root, "t_first_ns", timed, facts->t_first);
	put_u64_or_null(&b, root, "t_last_ns", timed, facts->t_last);
	put_u64_or_null(&b, root, "duration_ns", timed, facts->t_last - facts->t_first);
	hwct_json_put(&b.ok, root, "complete", json_object_new_boolean(facts->complete));
	put_string_or_null(&b, root, "error", facts->complete ? NULL : facts->error.message);
	if (b.ok) {
		fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE), f);
		fputc('\n', f);
	}
	json_object_put(root);
	return b.ok ? 0 : -ENOMEM;
}
