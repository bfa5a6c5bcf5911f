/*
 * `hwc-trace report`: one self-contained HTML page showing a trace and its
 * replays. report_trace.c collects the trace through the frame model,
 * report_results.c reads hwc-replay results files and compares them (the
 * diff code of diff.h), report_page.c writes the page: the embedded script
 * and style (report/report.js, report/report.css, turned into C strings at
 * build time by report/embed.py) and the data as one JSON document.
 *
 * The data is written as JSON text with report_json_string(), which escapes
 * '<', '>' and '&' as \u003c etc.: it sits in a <script> element, and no
 * string of a trace or results file can end that element.
 */
#ifndef HWCT_ANALYZERS_REPORT_H
#define HWCT_ANALYZERS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>
#include <hwct/reader.h>

/* Strings kept once each (layer descriptions, stacks, plans as JSON text). */
struct report_intern {
	char **strings;			/* owned, in insertion order */
	size_t count, cap;
	size_t *slots;			/* owned hash table: index + 1, 0 empty */
	size_t slot_count;		/* a power of two */
};

/*
 * Returns the index of s (copied on first sight) or -ENOMEM. Indices count
 * from 0 in insertion order.
 */
long report_intern_add(struct report_intern *in, const char *s);

void report_intern_finish(struct report_intern *in);

/* One presented frame of the trace. Latencies in ns, -1 unknown or no fence. */
struct report_frame {
	uint64_t frame, display, display_frame;
	uint64_t t_ns;
	uint32_t flags;			/* HWCT_FRAME_* */
	uint32_t layers, client_layers;
	int32_t efficiency;		/* per mille, -1 without layer area */
	int64_t acquire_ns;		/* slowest acquire fence first seen in this frame */
	int64_t present_ns;		/* present fence signal - presentDisplay return */
	int64_t release_ns;		/* slowest release fence of this frame's layers */
	size_t stack;			/* index into report_trace.stacks */
};

struct report_display {
	uint64_t id;
	char *name;			/* owned, NULL unknown */
	int32_t width, height;		/* mode of the last frame, 0 unknown */
	int32_t vsync_period_ns;	/* 0 unknown */
	uint64_t frames;
};

struct report_trace {
	const char *path;		/* as given */
	const struct hwct_trace_info *info;	/* borrowed from the reader */
	char *environment_json;		/* owned: the first Environment as a JSON object, NULL none */
	struct report_display *displays;	/* owned, by first appearance */
	size_t display_count;
	struct report_frame *frames;	/* owned, in trace order */
	size_t frame_count, frame_cap;
	struct report_intern layers;	/* one JSON object per distinct layer state */
	struct report_intern stacks;	/* JSON arrays of layer indices */
	uint64_t blobs_dropped, bytes_dropped, records_dropped, frames_capture_late;	/* last CaptureStats */
	uint64_t capture_late_frames;	/* FrameEnds flagged CAPTURE_LATE */
	bool complete;
	struct hwct_error error;	/* when !complete */
};

/*
 * Reads r whole into t (zeroed on entry, path set by the caller). On a read
 * error t holds the frames before it, complete is false and error says
 * what. Returns 0, the read error's -errno, or -ENOMEM.
 */
int report_collect_trace(struct hwct_reader *r, struct report_trace *t);

void report_trace_finish(struct report_trace *t);

/* Writes the trace part of the data: members "trace" ... "stacks" (no braces). Returns 0 or -errno. */
int report_write_trace(FILE *f, const struct report_trace *t);

/* Options of the page. */
struct report_options {
	const char *output;		/* OUT.html */
	char *const *results;		/* results files, may be none */
	size_t result_count;
	size_t max_messages;		/* difference lines kept per comparison */
	uint64_t max_image_bytes;	/* budget of embedded pictures (base64 bytes), 0 none */
};

/*
 * Writes the members "results", "comparisons" and "images" of the data for
 * the results files opts->results: each file's header, totals and per
 * frame plan, checksum and efficiency; the comparison of the first with
 * each other as `hwc-trace diff` makes it (at most max_messages difference
 * lines each); the --dump-images pictures of differing and sampled frames
 * within max_image_bytes. Returns 0, or -errno with msg naming the file
 * and where.
 */
int report_write_results(FILE *f, const struct report_options *opts, char *msg, size_t size);

#define REPORT_MAX_RESULTS 16		/* results files of one report */

/* The --dump-images pictures of one results file. */
struct report_image {
	uint64_t frame;
	char name[32];			/* "frame-000123.png" */
};

struct report_images {
	char *dir;			/* owned, NULL when the run dumped none */
	struct report_image *items;	/* owned, by frame (first play only) */
	size_t count, cap;
};

struct json_object;

/* Keeps frame's image name (a results frame, borrowed), if it has one of hwc-replay's. Returns 0 or -ENOMEM. */
int report_images_add(struct report_images *im, struct json_object *frame);

/*
 * After the last frame: images_dir of the results' top-level members root
 * (borrowed), relative to results_path; without one, no picture is kept.
 * Returns 0 or -ENOMEM.
 */
int report_images_end(struct report_images *im, const char *results_path, struct json_object *root);

void report_images_finish(struct report_images *im);

/*
 * Writes the member "images": [results index, frame, data URL] for the
 * frames in differing (sorted) first, then sampled frames, each frame with
 * the pictures of every results file that has one, while they fit in
 * budget bytes.
 */
void report_write_images(FILE *f, const struct report_images *ims, size_t count, const uint64_t *differing,
	size_t differing_count, uint64_t budget);

/* Writes s (len bytes; invalid UTF-8 becomes U+FFFD) as a JSON string safe inside <script>. */
void report_json_string(FILE *f, const char *s, size_t len);

/* The same for a NUL-terminated string; null for NULL. */
void report_json_cstr(FILE *f, const char *s);

/*
 * Collects the trace and writes the page to opts->output. Returns an enum
 * cli_exit after saying on stderr what failed.
 */
int report_write_page(const char *trace_path, const struct report_options *opts);

/* The page's script and style (report_assets.c, generated by report/embed.py). */
extern const char report_asset_js[];
extern const char report_asset_css[];

#endif
