/* The cases of analyzers-test, one meson test() each, and what they share. */
#ifndef HWCT_TESTS_ANALYZERS_TESTS_H
#define HWCT_TESTS_ANALYZERS_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwct_config.h"
#include "gen.h"
#include "testmodel.h"
#include "testutil.h"

#define FIXTURE_FRAMES 12	/* display frames of the standard "kinds" trace */
#define STD_FRAMES 10		/* display frames of the standard "stack" trace */

struct fixture {
	const char *tool;		/* the hwc-trace under test */
	const char *zstd;		/* the zstd program, NULL when not found */
	const char *replay;		/* hwc-replay, NULL when not built */
	const char *source_root;	/* for the board profiles */
	const char *trace;		/* the generated trace */
	struct gen_trace gen;		/* what was written into it */
	struct model model;		/* the file as the tests read it */
};

/* Writes a trace of `frames` display frames into fx (test_path("trace.zst")). */
void fixture_trace(struct fixture *fx, unsigned frames);

void fixture_finish(struct fixture *fx);

/* Runs hwc-trace with args (NULL-terminated). */
void fixture_run(const struct fixture *fx, struct test_run *run, const char *const *args);

/* The name of a Record kind as the tools spell it ("frame_end"), written out here. */
const char *kind_name(Hwct__Record__KindCase kind);

/* Identifying value of a record: Call.seq, FrameEnd.frame, Fence.id, Buffer.id, Display.id, Keyframe.frame. */
uint64_t record_key(const Hwct__Record *rec);

/*
 * The display frame of each of the n records (docs: records after FrameEnd
 * k-1 up to FrameEnd k belong to frame k), into frames[n].
 */
void record_frames(const struct model_record *const *records, size_t n, uint64_t *frames);

/* The stored (data) frames of a model. */
size_t model_data_frames(const struct model *m, const struct model_frame ***out);

/* Writes the standard "stack" trace (one display, STD_FRAMES frames) at test_path(name). */
const char *std_trace(const char *name, bool variant, struct gen_stack_info *info);

typedef int (*test_case_fn)(struct fixture *fx);

int test_info_json(struct fixture *fx);
int test_info_text(struct fixture *fx);
int test_info_truncated(struct fixture *fx);
int test_dump_json(struct fixture *fx);
int test_dump_json_no_blob_data(struct fixture *fx);
int test_dump_text(struct fixture *fx);
int test_dump_frames(struct fixture *fx, const char *range, uint64_t first, uint64_t last);
int test_dump_records(struct fixture *fx);
int test_dump_truncated(struct fixture *fx);
int test_dump_epipe(struct fixture *fx);
int test_dump_frames_past_end(struct fixture *fx);
int test_repair_truncated(struct fixture *fx);
int test_repair_intact(struct fixture *fx);
int test_repair_damaged_frame(struct fixture *fx);
int test_repair_bad_header(struct fixture *fx);
int test_repair_same_path(struct fixture *fx);
int test_cli_usage(struct fixture *fx);

/* The cases of stats, diff, export, extract, trim and --display: json-c and libpng builds (ANALYZERS_TEST_STACK). */
int test_stats_text(struct fixture *fx);
int test_stats_json(struct fixture *fx);
int test_diff_equal(struct fixture *fx);
int test_diff_traces(struct fixture *fx);
int test_diff_errors(struct fixture *fx);
int test_diff_results(struct fixture *fx);
int test_diff_agreement(struct fixture *fx);
int test_diff_old_padded(struct fixture *fx);
int test_extract_old_padded(struct fixture *fx);
int test_trim_old_padded(struct fixture *fx);
int test_export_chrome(struct fixture *fx);
int test_extract_files(struct fixture *fx);
int test_extract_symlinks(struct fixture *fx);
int test_extract_errors(struct fixture *fx);
int test_trim_middle(struct fixture *fx);
int test_trim_start(struct fixture *fx);
int test_trim_errors(struct fixture *fx);
int test_trim_replay(struct fixture *fx);
int test_stats_display(struct fixture *fx);
int test_export_display(struct fixture *fx);
int test_export_display_fences(struct fixture *fx);
int test_extract_display(struct fixture *fx);

#endif
