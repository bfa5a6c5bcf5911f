/* The differences of `hwc-trace diff`, collected and printed (diff.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#include <json-c/json.h>

static char *vformat(const char *fmt, va_list args) __attribute__((format(printf, 1, 0)));

static char *vformat(const char *fmt, va_list args)
{
	va_list copy;
	char *s;
	int n;

	va_copy(copy, args);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0 || !(s = malloc((size_t)n + 1))) {
		return NULL;
	}
	vsnprintf(s, (size_t)n + 1, fmt, args);
	return s;
}

static void close_frame(struct diff_report *r)
{
	if (r->frame_open) {
		r->differing += r->frame_differs;
		r->frame_open = false;
	}
}

void diff_report_frame(struct diff_report *r, uint64_t frame, uint64_t display, uint32_t loop)
{
	close_frame(r);
	r->frame_open = true;
	r->frame = frame;
	r->display = display;
	r->loop = loop;
	r->frame_differs = false;
	memset(r->category_seen, 0, sizeof(r->category_seen));
	r->compared++;
}

bool diff_report_add(struct diff_report *r, unsigned category, const char *fmt, ...)
{
	struct diff_entry *e;
	va_list args;

	if (!r->frame_open || category >= r->category_count || r->category_seen[category]) {
		return false;
	}
	r->category_seen[category] = true;
	r->frame_differs = true;
	r->frames_with[category]++;
	if (r->count == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;

		e = realloc(r->entries, cap * sizeof(*e));
		if (!e) {
			r->out_of_memory = true;
			return true;
		}
		r->entries = e;
		r->cap = cap;
	}
	e = &r->entries[r->count];
	*e = (struct diff_entry){ r->frame, r->display, r->loop, category, NULL };
	va_start(args, fmt);
	e->message = vformat(fmt, args);
	va_end(args);
	r->out_of_memory = r->out_of_memory || !e->message;
	r->count += e->message != NULL;
	return true;
}

void diff_report_note(struct diff_report *r, const char *fmt, ...)
{
	char **notes = realloc(r->notes, (r->note_count + 1) * sizeof(*notes));
	va_list args;

	if (!notes) {
		r->out_of_memory = true;
		return;
	}
	r->notes = notes;
	va_start(args, fmt);
	notes[r->note_count] = vformat(fmt, args);
	va_end(args);
	r->note_count += notes[r->note_count] != NULL;
}

bool diff_report_differs(const struct diff_report *r)
{
	return r->differing || (r->frame_open && r->frame_differs) || r->only_a || r->only_b;
}

static uint64_t differing(const struct diff_report *r)
{
	return r->differing + (r->frame_open && r->frame_differs);
}

void diff_report_print_text(FILE *f, const struct diff_report *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct diff_entry *e = &r->entries[i];

		fprintf(f, "frame %" PRIu64 " (display %" PRIu64, e->frame, e->display);
		if (e->loop) {
			fprintf(f, ", play %" PRIu32, e->loop + 1);
		}
		fprintf(f, "): %s: %s\n", r->categories[e->category], e->message);
	}
	if (r->count) {
		fputc('\n', f);
	}
	for (size_t i = 0; i < r->note_count; i++) {
		fprintf(f, "%s\n", r->notes[i]);
	}
	fprintf(f, "%s%-16s %s\n", r->note_count ? "\n" : "", "summary", "frames");
	fprintf(f, "  %-14s %" PRIu64 "\n", "compared", r->compared);
	for (size_t i = 0; i < r->category_count; i++) {
		fprintf(f, "  %-14s %" PRIu64 "\n", r->categories[i], r->frames_with[i]);
	}
	fprintf(f, "  %-14s %" PRIu64 "\n  %-14s %" PRIu64 "\n  %-14s %" PRIu64 "\n", "any", differing(r), "only in A",
		r->only_a, "only in B", r->only_b);
	if (diff_report_differs(r)) {
		fprintf(f, "%s and %s differ in %" PRIu64 " of %" PRIu64 " frames compared%s\n", r->a, r->b, differing(r),
			r->compared, r->only_a || r->only_b ? ", and in their frame counts" : "");
	} else {
		fprintf(f, "%s and %s are equal (%" PRIu64 " frames compared)\n", r->a, r->b, r->compared);
	}
}

int diff_report_print_json(FILE *f, const struct diff_report *r)
{
	struct json_object *root = json_object_new_object(), *entries = json_object_new_array();
	struct json_object *summary = json_object_new_object(), *cats = json_object_new_object();
	struct json_object *notes = json_object_new_array();

	if (!root || !entries || !summary || !cats || !notes) {
		json_object_put(root);
		json_object_put(entries);
		json_object_put(summary);
		json_object_put(cats);
		json_object_put(notes);
		return -ENOMEM;
	}
	json_object_object_add(root, "kind", json_object_new_string(r->kind));
	json_object_object_add(root, "a", json_object_new_string(r->a));
	json_object_object_add(root, "b", json_object_new_string(r->b));
	json_object_object_add(root, "equal", json_object_new_boolean(!diff_report_differs(r)));
	for (size_t i = 0; i < r->count; i++) {
		const struct diff_entry *e = &r->entries[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "frame", json_object_new_int64((int64_t)e->frame));
		json_object_object_add(o, "display", json_object_new_int64((int64_t)e->display));
		json_object_object_add(o, "loop", json_object_new_int64(e->loop));
		json_object_object_add(o, "category", json_object_new_string(r->categories[e->category]));
		json_object_object_add(o, "message", json_object_new_string(e->message));
		json_object_array_add(entries, o);
	}
	json_object_object_add(root, "differences", entries);
	for (size_t i = 0; i < r->note_count; i++) {
		json_object_array_add(notes, json_object_new_string(r->notes[i]));
	}
	json_object_object_add(root, "notes", notes);
	json_object_object_add(summary, "compared", json_object_new_int64((int64_t)r->compared));
	for (size_t i = 0; i < r->category_count; i++) {
		json_object_object_add(cats, r->categories[i], json_object_new_int64((int64_t)r->frames_with[i]));
	}
	json_object_object_add(summary, "categories", cats);
	json_object_object_add(summary, "differing", json_object_new_int64((int64_t)differing(r)));
	json_object_object_add(summary, "only_in_a", json_object_new_int64((int64_t)r->only_a));
	json_object_object_add(summary, "only_in_b", json_object_new_int64((int64_t)r->only_b));
	json_object_object_add(root, "summary", summary);
	fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return 0;
}

void diff_report_finish(struct diff_report *r)
{
	for (size_t i = 0; i < r->count; i++) {
		free(r->entries[i].message);
	}
	for (size_t i = 0; i < r->note_count; i++) {
		free(r->notes[i]);
	}
	free(r->entries);
	free(r->notes);
	r->entries = NULL;
	r->notes = NULL;
	r->count = r->cap = r->note_count = 0;
}
