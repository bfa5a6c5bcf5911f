/*
 * `hwc-trace diff`: two traces frame by frame (diff_trace.c), two replay
 * results files (diff_results.c, read by diff_load.c), or a trace's
 * recorded decisions against the plans of its replay (diff_agree.c).
 * Differences are collected in a report (diff_report.c) printed as text
 * or JSON; cmd_diff.c tells the inputs apart by content.
 */
#ifndef HWCT_ANALYZERS_DIFF_H
#define HWCT_ANALYZERS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>

/* Exit statuses of diff (the convention of diff(1)). */
enum diff_exit {
	DIFF_EXIT_EQUAL = 0,
	DIFF_EXIT_DIFFERENT = 1,
	DIFF_EXIT_ERROR = 2,
};

#define DIFF_CATEGORIES_MAX 8

/* The first difference of one category in one frame. */
struct diff_entry {
	uint64_t frame;			/* FrameEnd.frame */
	uint64_t display;
	uint32_t loop;			/* results: the play, 0 for the first */
	unsigned category;		/* index into report->categories */
	char *message;			/* owned */
};

struct diff_report {
	const char *kind;		/* "traces", "results" */
	const char *a, *b;		/* the inputs as named on the command line */
	const char *const *categories;	/* names, category_count of them */
	size_t category_count;
	uint64_t frames_with[DIFF_CATEGORIES_MAX];	/* frames differing in each category */
	uint64_t compared;		/* frames present in both */
	uint64_t differing;		/* of those: frames with any difference */
	uint64_t only_a, only_b;	/* frames in one input only */
	struct diff_entry *entries;	/* owned, in frame order */
	size_t count, cap;
	char **notes;			/* owned: context lines (what was compared, timing), not differences */
	size_t note_count;
	bool out_of_memory;
	/* the frame being compared: a category counts once per frame */
	bool frame_open;
	uint64_t frame, display;
	uint32_t loop;
	bool frame_differs;
	bool category_seen[DIFF_CATEGORIES_MAX];
};

/* Starts comparing one frame present in both inputs. */
void diff_report_frame(struct diff_report *r, uint64_t frame, uint64_t display, uint32_t loop);

/*
 * Records a difference of the current frame in category (only the first
 * per frame and category is kept; false when this one was not).
 */
bool diff_report_add(struct diff_report *r, unsigned category, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Adds a context line. */
void diff_report_note(struct diff_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether anything differs (entries, or frames in one input only). */
bool diff_report_differs(const struct diff_report *r);

/* Prints the differences, then the summary table. */
void diff_report_print_text(FILE *f, const struct diff_report *r);

/* One JSON object. Returns 0 or -ENOMEM. */
int diff_report_print_json(FILE *f, const struct diff_report *r);

void diff_report_finish(struct diff_report *r);

#define DIFF_DISPLAYS_MAX 64	/* displays of two traces compared (more: not compared) */

/*
 * Compares the frame models of traces a and b in presentation order:
 * layers (set of ids), geometry, properties, decisions, pixels (content
 * hashes). In traces of several displays, frame k of A's i-th display is
 * compared with frame k of B's i-th (displays in order of their first
 * frame; the entries then sorted by A's frame). display: only that
 * display's frames in both (hwc2_display_t), UINT64_MAX all. Returns 0, or -errno with err naming file and offset.
 */
int diff_traces(const char *a, const char *b, uint64_t display, struct diff_report *r, struct hwct_error *err);

/* ------------------------------------------------------ results files */

struct diff_plan_layer {
	uint64_t layer;			/* hwc2_layer_t */
	bool on_plane;
	uint64_t plane;			/* KMS plane id when on_plane */
	const char *reasons;		/* names joined by ",", sorted; "" none; never NULL; borrowed
					 * from the diff_results' reasons table */
};

struct diff_recorded_layer {
	uint64_t layer;
	int32_t requested, composition;	/* HWC2_COMPOSITION_*, -1 unknown name */
};

struct diff_result_frame {
	uint64_t frame, display;
	uint32_t loop;
	bool has_plan;
	struct diff_plan_layer *plan;	/* owned */
	size_t plan_count;
	bool has_client_target_plane;
	uint64_t client_target_plane;
	char checksum[40];		/* "" null */
	int64_t timing[5];		/* wait, plan, compose, commit, present ns; -1 null */
	bool has_recorded, validated;
	struct diff_recorded_layer *recorded;	/* owned */
	size_t recorded_count;
};

struct diff_results {
	char planner[32], compositor[32], target[160];
	char yuv_model[32];		/* the compositor's YUV model; "" in results before it was written */
	struct diff_result_frame *frames;	/* owned, in file order */
	size_t count;
	bool complete;
	size_t plane_id_count;		/* board.plane_ids; 0 when absent */
	uint64_t *plane_ids;		/* owned: the device's planes in object-id order, by which plans
					 * of two kernels compare (the k-th plane of both is the same) */
	char **reasons;			/* owned: each distinct reasons string once (a hash table) */
	size_t reasons_size, reasons_used;
};

/*
 * Reads a results.json of hwc-replay (docs/results.md, results_version 1).
 * Returns the results, or NULL with msg naming the file and the offset
 * (syntax) or JSON path (schema) of the error.
 */
struct diff_results *diff_results_load(const char *path, char *msg, size_t size);

void diff_results_destroy(struct diff_results *res);

/* Leaves only the frames of display (hwc2_display_t) in res. */
void diff_results_keep_display(struct diff_results *res, uint64_t display);

/* The sum of the frame's plan, compose, commit and present times; -1 when none is known. */
int64_t diff_result_frame_work_ns(const struct diff_result_frame *f);

/*
 * Compares two results frame by frame (matched by frame and play): plan
 * (plane or client per layer, client target plane), reasons, checksum;
 * timing is a note unless timing_threshold (percent, < 0: none) is given,
 * then a frame whose work time changed by more is a difference.
 */
int diff_results_compare(const struct diff_results *a, const struct diff_results *b, double timing_threshold,
	struct diff_report *r);

/*
 * The agreement report: per layer, the recorded device's decision (from the
 * trace at trace_path, or the results' own "recorded" when trace_path is
 * NULL) against the replay board's plane or client composition, with the
 * board's reasons for disagreements. Prints text or JSON on f; verbose
 * lists every disagreement. Returns DIFF_EXIT_EQUAL when every counted
 * layer agrees, DIFF_EXIT_DIFFERENT when not, DIFF_EXIT_ERROR after an
 * error message on stderr.
 */
int diff_agreement(FILE *f, const char *trace_path, const char *results_path, const struct diff_results *res,
	bool json, bool verbose);

#endif
