/*
 * The results part of the page's data (report.h): each hwc-replay results
 * file (docs/results.md) as the page shows it, and the comparison of the
 * first file with each other one. Files are checked and compared by the
 * diff code (diff_results_load, diff_results_compare), so the page marks
 * exactly what `hwc-trace diff A B` reports; the page's own reading below
 * takes what the frame view shows (compositions, assumptions, format
 * substitutions), which diff does not need.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "diff.h"
#include "report.h"
#include "results_load.h"

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* Any JSON value, its strings escaped for the page. */
static void emit(FILE *f, struct json_object *v)
{
	size_t n, i = 0;

	switch (json_object_get_type(v)) {
	case json_type_null:
		fputs("null", f);
		break;
	case json_type_string:
		report_json_string(f, json_object_get_string(v), (size_t)json_object_get_string_len(v));
		break;
	case json_type_array:
		n = json_object_array_length(v);
		fputc('[', f);
		for (i = 0; i < n; i++) {
			fputs(i ? "," : "", f);
			emit(f, json_object_array_get_idx(v, i));
		}
		fputc(']', f);
		break;
	case json_type_object: {
		fputc('{', f);
		json_object_object_foreach(v, key, val) {
			fputs(i++ ? "," : "", f);
			report_json_cstr(f, key);
			fputc(':', f);
			emit(f, val);
		}
		fputc('}', f);
		break;
	}
	default:	/* numbers and booleans: json-c's text is plain JSON */
		fputs(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), f);
		break;
	}
}

static void emit_member(FILE *f, struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key);

	fputs(",", f);
	report_json_cstr(f, key);
	fputc(':', f);
	emit(f, v);
}

/* The substitution of layer id in a frame's format_substitutions, or NULL. */
static struct json_object *substitution(struct json_object *subs, int64_t layer)
{
	size_t n = json_object_is_type(subs, json_type_array) ? json_object_array_length(subs) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(subs, i);

		if (json_object_get_int64(member(s, "layer")) == layer) {
			return s;
		}
	}
	return NULL;
}

/* A frame's plan as JSON text for the page, interned. Returns the index, -1 without a plan, -ENOMEM. */
static long plan_index(struct report_intern *plans, struct json_object *frame)
{
	struct json_object *plan = member(frame, "plan"), *assumed = member(frame, "assumed");
	struct json_object *subs = member(frame, "format_substitutions");
	size_t n, size = 0;
	char *buf = NULL;
	FILE *f;
	long index;

	if (!json_object_is_type(plan, json_type_array)) {
		return -1;
	}
	f = open_memstream(&buf, &size);
	if (!f) {
		return -ENOMEM;
	}
	n = json_object_array_length(plan);
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(plan, i), *s;
		struct json_object *as = member(p, "assumed");

		if (!as && json_object_is_type(assumed, json_type_array)) {
			as = json_object_array_get_idx(assumed, i);	/* per frame, by plan position */
		}
		fputs(i ? ",{\"l\":" : "{\"l\":", f);
		emit(f, member(p, "layer"));
		fputs(",\"pl\":", f);
		emit(f, member(p, "plane"));
		fputs(",\"c\":", f);
		emit(f, member(p, "composition"));
		fputs(",\"r\":", f);
		emit(f, member(p, "reasons"));
		fputs(",\"as\":", f);
		emit(f, as);
		s = substitution(subs, json_object_get_int64(member(p, "layer")));
		if (s) {
			fputs(",\"fs\":[", f);
			emit(f, member(s, "from"));
			fputc(',', f);
			emit(f, member(s, "to"));
			fputc(']', f);
		}
		fputc('}', f);
	}
	fputc(']', f);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	index = report_intern_add(plans, buf);
	free(buf);
	return index;
}

static int64_t int_or(struct json_object *v, int64_t fallback)
{
	return json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : fallback;
}

#define COLUMNS 8

/* Frame i's cell of each column (f, loop, p, k, e, ct, mc, img) into cols. */
static void write_cells(FILE **cols, size_t i, struct json_object *fr, long plan)
{
	struct json_object *v;
	double e;

	for (size_t c = 0; c < COLUMNS; c++) {
		fputs(i ? "," : "", cols[c]);
	}
	fprintf(cols[0], "%" PRId64, int_or(member(fr, "frame"), -1));
	fprintf(cols[1], "%" PRId64, int_or(member(fr, "loop"), 0));
	fprintf(cols[2], "%ld", plan);
	v = member(fr, "checksum");
	emit(cols[3], json_object_is_type(v, json_type_string) ? v : NULL);
	v = member(fr, "efficiency");
	e = json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ?
		json_object_get_double(v) : -1.0;
	fprintf(cols[4], "%d", e < 0.0 ? -1 : (int)(e * 1000.0 + 0.5));
	fprintf(cols[5], "%" PRId64, int_or(member(fr, "client_target_plane"), -1));
	v = member(fr, "missing_content");
	fprintf(cols[6], "%zu", json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0);
	v = member(fr, "image");
	emit(cols[7], json_object_is_type(v, json_type_string) ? v : NULL);
}

/*
 * One results file for the page, read one frame at a time: each frame's
 * cells go into the column texts (the page's output), its picture name into
 * im. Returns 0, -ENOMEM, or -EINVAL with msg.
 */
static int write_one(FILE *f, const char *path, struct report_images *im, char *msg, size_t size)
{
	static const char *const header[] = { "tool", "recording", "replay_environment", "target", "board", "planner",
		"compositor", "yuv_model", "pixels", "timing", "format_fallback", "range", "mode_map", "images_dir", "totals",
		"complete", "error", "comparison" };
	static const char *const columns[COLUMNS] = { "f", "loop", "p", "k", "e", "ct", "mc", "img" };
	struct report_intern plans = { 0 };
	char *text[COLUMNS] = { 0 };
	size_t len[COLUMNS] = { 0 };
	FILE *cols[COLUMNS] = { 0 };
	struct results_file rf = { 0 };
	struct hwct_error err = { 0 };
	struct json_object *fr;
	int ret = 0, got = 0;

	*im = (struct report_images){ 0 };
	for (size_t c = 0; c < COLUMNS && ret == 0; c++) {
		cols[c] = open_memstream(&text[c], &len[c]);
		ret = cols[c] ? 0 : -ENOMEM;
	}
	if (ret == 0 && results_file_open(&rf, path, &err) < 0) {
		ret = -EINVAL;
	}
	while (ret == 0 && (got = results_file_next(&rf, &fr)) > 0) {
		long index = plan_index(&plans, fr);

		ret = index == -ENOMEM || report_images_add(im, fr) < 0 ? -ENOMEM : 0;
		if (ret == 0) {
			write_cells(cols, rf.frame_index - 1, fr, index);
		}
		json_object_put(fr);
	}
	if (ret == 0 && got < 0) {
		ret = -EINVAL;
	}
	if (ret == 0 && report_images_end(im, path, rf.root) < 0) {
		ret = -ENOMEM;
	}
	for (size_t c = 0; c < COLUMNS; c++) {
		if (cols[c] && fclose(cols[c]) != 0 && ret == 0) {
			ret = -ENOMEM;
		}
	}
	if (ret == 0) {
		fputs("{\"path\":", f);
		report_json_cstr(f, path);
		for (size_t k = 0; k < sizeof(header) / sizeof(header[0]); k++) {
			emit_member(f, rf.root, header[k]);
		}
		fputs(",\"frames\":{", f);
		for (size_t c = 0; c < COLUMNS; c++) {
			fprintf(f, "%s\"%s\":[", c ? ",\n" : "\n", columns[c]);
			fwrite(text[c], 1, len[c], f);
			fputc(']', f);
		}
		fputs("},\n\"plans\":[", f);
		for (size_t i = 0; i < plans.count; i++) {
			fputs(i ? ",\n" : "\n", f);
			fputs(plans.strings[i], f);
		}
		fputs("]}", f);
	} else if (ret == -EINVAL) {
		snprintf(msg, size, "%s", err.message);
	} else {
		snprintf(msg, size, "%s: out of memory", path);
	}
	for (size_t c = 0; c < COLUMNS; c++) {
		free(text[c]);
	}
	report_intern_finish(&plans);
	results_file_finish(&rf);
	return ret;
}

static int by_frame(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Frames collected over the comparisons (for the pictures). */
struct frame_list {
	uint64_t *frames;		/* owned */
	size_t count;
};

/* The comparison of a with b as `hwc-trace diff` makes it; its differing frames added to all. */
static int write_comparison(FILE *f, size_t bi, const struct diff_results *a, const struct diff_results *b,
	const char *pa, const char *pb, size_t max_messages, struct frame_list *all)
{
	struct diff_report r = { .a = pa, .b = pb };
	uint64_t *frames;
	size_t n = 0;

	if (diff_results_compare(a, b, -1.0, &r) < 0 || r.out_of_memory) {
		diff_report_finish(&r);
		return -ENOMEM;
	}
	frames = malloc((r.count ? r.count : 1) * sizeof(*frames));
	if (!frames) {
		diff_report_finish(&r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r.count; i++) {
		frames[n++] = r.entries[i].frame;
	}
	if (n) {
		uint64_t *p = realloc(all->frames, (all->count + n) * sizeof(*p));

		if (!p) {
			free(frames);
			diff_report_finish(&r);
			return -ENOMEM;
		}
		all->frames = p;
		for (size_t i = 0; i < n; i++) {
			p[all->count++] = frames[i];
		}
		qsort(frames, n, sizeof(*frames), by_frame);
	}
	fprintf(f, "{\"a\":0,\"b\":%zu,\"compared\":%" PRIu64 ",\"only_a\":%" PRIu64 ",\"only_b\":%" PRIu64
		",\"categories\":{", bi, r.compared, r.only_a, r.only_b);
	for (size_t c = 0; c < r.category_count; c++) {
		fprintf(f, "%s\"%s\":%" PRIu64, c ? "," : "", r.categories[c], r.frames_with[c]);
	}
	fputs("},\"ranges\":[", f);
	/* differing frames as [first, last] runs */
	for (size_t i = 0, runs = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && (frames[j + 1] == frames[j] || frames[j + 1] == frames[j] + 1)) {
			j++;
		}
		fprintf(f, "%s[%" PRIu64 ",%" PRIu64 "]", runs++ ? "," : "", frames[i], frames[j]);
		i = j + 1;
	}
	fputs("],\"messages\":[", f);
	for (size_t i = 0; i < r.count && i < max_messages; i++) {
		fprintf(f, "%s[%" PRIu64 ",%" PRIu32 ",\"%s\",", i ? ",\n" : "\n", r.entries[i].frame, r.entries[i].loop,
			r.categories[r.entries[i].category]);
		report_json_cstr(f, r.entries[i].message);
		fputc(']', f);
	}
	fprintf(f, "],\"messages_total\":%zu}", r.count);
	free(frames);
	diff_report_finish(&r);
	return 0;
}

int report_write_results(FILE *f, const struct report_options *opts, char *msg, size_t size)
{
	char *const *paths = opts->results;
	size_t count = opts->result_count;
	struct diff_results **res = calloc(count ? count : 1, sizeof(*res));
	struct report_images *ims = calloc(count ? count : 1, sizeof(*ims));
	struct frame_list differing = { 0 };
	int ret = res && ims ? 0 : -ENOMEM;

	if (count > REPORT_MAX_RESULTS) {
		snprintf(msg, size, "%zu results files: at most %d in one report", count, REPORT_MAX_RESULTS);
		free(res);
		free(ims);
		return -E2BIG;
	}

	for (size_t i = 0; i < count && ret == 0; i++) {
		res[i] = diff_results_load(paths[i], msg, size);
		ret = res[i] ? 0 : -EINVAL;
	}
	if (ret == 0) {
		fputs(",\n\"results\":[", f);
	}
	for (size_t i = 0; i < count && ret == 0; i++) {
		fputs(i ? ",\n" : "\n", f);
		ret = write_one(f, paths[i], &ims[i], msg, size);
	}
	if (ret == 0) {
		fputs("],\n\"comparisons\":[", f);
	}
	for (size_t i = 1; i < count && ret == 0; i++) {
		fputs(i > 1 ? ",\n" : "\n", f);
		ret = write_comparison(f, i, res[0], res[i], paths[0], paths[i], opts->max_messages, &differing);
	}
	if (ret == 0) {
		fputs("]", f);
		if (differing.count) {
			qsort(differing.frames, differing.count, sizeof(*differing.frames), by_frame);
		}
		report_write_images(f, ims, count, differing.frames, differing.count, opts->max_image_bytes);
	} else if (ret == -ENOMEM) {
		snprintf(msg, size, "out of memory");
	}
	for (size_t i = 0; res && ims && i < count; i++) {
		diff_results_destroy(res[i]);
		report_images_finish(&ims[i]);
	}
	free(res);
	free(ims);
	free(differing.frames);
	return ret;
}
