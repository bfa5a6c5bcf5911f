/*
 * analyzers-test HWC_TRACE CASE [zstd=PATH] [replay=PATH] [source=DIR]:
 * runs one named case against the built hwc-trace on traces the case
 * writes itself (gen.h). zstd checks repaired traces, replay replays a
 * trimmed one (skipped without), source is the source tree (board profiles).
 */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"

static const char *const kind_names[] = {
	[HWCT__RECORD__KIND_ENVIRONMENT] = "environment",
	[HWCT__RECORD__KIND_DISPLAY] = "display",
	[HWCT__RECORD__KIND_CALL] = "call",
	[HWCT__RECORD__KIND_BUFFER] = "buffer",
	[HWCT__RECORD__KIND_BLOB] = "blob",
	[HWCT__RECORD__KIND_FENCE] = "fence",
	[HWCT__RECORD__KIND_CALLBACK] = "callback",
	[HWCT__RECORD__KIND_KEYFRAME] = "keyframe",
	[HWCT__RECORD__KIND_FRAME_END] = "frame_end",
	[HWCT__RECORD__KIND_CAPTURE_STATS] = "capture_stats",
	[HWCT__RECORD__KIND_NOTE] = "note",
};

const char *kind_name(Hwct__Record__KindCase kind)
{
	CHECK((size_t)kind < sizeof(kind_names) / sizeof(kind_names[0]) && kind_names[kind]);
	return kind_names[kind];
}

uint64_t record_key(const Hwct__Record *rec)
{
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		return rec->call->seq;
	case HWCT__RECORD__KIND_FRAME_END:
		return rec->frame_end->frame;
	case HWCT__RECORD__KIND_FENCE:
		return rec->fence->id;
	case HWCT__RECORD__KIND_BUFFER:
		return rec->buffer->id;
	case HWCT__RECORD__KIND_DISPLAY:
		return rec->display->id;
	case HWCT__RECORD__KIND_KEYFRAME:
		return rec->keyframe->frame;
	default:
		return 0;
	}
}

void record_frames(const struct model_record *const *records, size_t n, uint64_t *frames)
{
	uint64_t frame = 0;

	for (size_t i = 0; i < n; i++) {
		const Hwct__Record *rec = records[i]->rec;

		frames[i] = frame;
		if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			frames[i] = rec->frame_end->frame;
			frame = rec->frame_end->frame + 1;
		}
	}
}

size_t model_data_frames(const struct model *m, const struct model_frame ***out)
{
	const struct model_frame **v = malloc((m->count ? m->count : 1) * sizeof(*v));
	size_t n = 0;

	CHECK(v);
	for (size_t i = 0; i < m->count; i++) {
		if (!m->frames[i].skippable) {
			v[n++] = &m->frames[i];
		}
	}
	*out = v;
	return n;
}

void fixture_trace(struct fixture *fx, unsigned frames)
{
	fx->trace = test_path("trace.zst");
	gen_write_trace(fx->trace, frames, &fx->gen);
	model_load(&fx->model, fx->trace);
	CHECK(fx->model.has_seek_table);
}

void fixture_finish(struct fixture *fx)
{
	gen_trace_finish(&fx->gen);
	model_finish(&fx->model);
}

void fixture_run(const struct fixture *fx, struct test_run *run, const char *const *args)
{
	const char *argv[32] = { fx->tool };
	size_t n = 1;

	for (; args[n - 1]; n++) {
		CHECK(n < sizeof(argv) / sizeof(argv[0]) - 1);
		argv[n] = args[n - 1];
	}
	argv[n] = NULL;
	test_run(run, argv);
}

const char *std_trace(const char *name, bool variant, struct gen_stack_info *info)
{
	struct gen_stack_options o = { .frames = STD_FRAMES, .displays = 1, .keyframe_interval = 4,
		.variant = variant };
	const char *path = test_path(name);

	gen_stack_write(path, &o, info);
	return path;
}

/* Removes what path holds, directories included, never following links; then path if a directory. */
static void remove_tree(const char *path)
{
	struct dirent *e;
	struct stat st;
	char child[1024];
	DIR *d;

	if (lstat(path, &st) != 0) {
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
			remove_tree(child);
		}
	}
	if (d) {
		closedir(d);
	}
	rmdir(path);
}

static int dump_frames_3_5(struct fixture *fx)
{
	return test_dump_frames(fx, "3-5", 3, 5);
}

static int dump_frames_single(struct fixture *fx)
{
	return test_dump_frames(fx, "4", 4, 4);
}

static int dump_frames_first(struct fixture *fx)
{
	return test_dump_frames(fx, "0", 0, 0);
}

static int dump_frames_to(struct fixture *fx)
{
	return test_dump_frames(fx, "-2", 0, 2);
}

static int dump_frames_from(struct fixture *fx)
{
	return test_dump_frames(fx, "9-", 9, UINT64_MAX);
}

static int dump_frames_keyframe(struct fixture *fx)
{
	/* starts exactly at a record frame's keyframe, after a blob frame */
	return test_dump_frames(fx, "4-4", 4, 4);
}

static int dump_frames_tail(struct fixture *fx)
{
	/* the records after the last FrameEnd */
	return test_dump_frames(fx, "12-", FIXTURE_FRAMES, UINT64_MAX);
}

static const struct {
	const char *name;
	test_case_fn run;
} cases[] = {
	{ "info-json", test_info_json },
	{ "info-text", test_info_text },
	{ "info-truncated", test_info_truncated },
	{ "dump-json", test_dump_json },
	{ "dump-json-no-blob-data", test_dump_json_no_blob_data },
	{ "dump-text", test_dump_text },
	{ "dump-frames-3-5", dump_frames_3_5 },
	{ "dump-frames-single", dump_frames_single },
	{ "dump-frames-first", dump_frames_first },
	{ "dump-frames-to", dump_frames_to },
	{ "dump-frames-from", dump_frames_from },
	{ "dump-frames-keyframe", dump_frames_keyframe },
	{ "dump-frames-tail", dump_frames_tail },
	{ "dump-frames-past-end", test_dump_frames_past_end },
	{ "dump-records", test_dump_records },
	{ "dump-truncated", test_dump_truncated },
	{ "dump-epipe", test_dump_epipe },
	{ "repair-truncated", test_repair_truncated },
	{ "repair-intact", test_repair_intact },
	{ "repair-damaged-frame", test_repair_damaged_frame },
	{ "repair-bad-header", test_repair_bad_header },
	{ "repair-same-path", test_repair_same_path },
	{ "cli-usage", test_cli_usage },
#if ANALYZERS_TEST_STACK
	{ "stats-text", test_stats_text },
	{ "stats-json", test_stats_json },
	{ "diff-equal", test_diff_equal },
	{ "diff-traces", test_diff_traces },
	{ "diff-errors", test_diff_errors },
	{ "diff-results", test_diff_results },
	{ "diff-agreement", test_diff_agreement },
	{ "diff-old-padded", test_diff_old_padded },
	{ "extract-old-padded", test_extract_old_padded },
	{ "trim-old-padded", test_trim_old_padded },
	{ "export-chrome", test_export_chrome },
	{ "extract-files", test_extract_files },
	{ "extract-symlinks", test_extract_symlinks },
	{ "extract-errors", test_extract_errors },
	{ "trim-middle", test_trim_middle },
	{ "trim-start", test_trim_start },
	{ "trim-errors", test_trim_errors },
	{ "trim-replay", test_trim_replay },
	{ "stats-display", test_stats_display },
	{ "export-display", test_export_display },
	{ "export-display-fences", test_export_display_fences },
	{ "extract-display", test_extract_display },
#endif
};

int main(int argc, char **argv)
{
	struct fixture fx = { 0 };
	int ret;

	if (argc < 3) {
		fprintf(stderr, "usage: %s HWC_TRACE CASE [zstd=PATH] [replay=PATH] [source=DIR]\ncases:", argv[0]);
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			fprintf(stderr, " %s", cases[i].name);
		}
		fputc('\n', stderr);
		return 2;
	}
	fx.tool = argv[1];
	for (int i = 3; i < argc; i++) {
		if (strncmp(argv[i], "zstd=", 5) == 0) {
			fx.zstd = argv[i] + 5;
		} else if (strncmp(argv[i], "replay=", 7) == 0) {
			fx.replay = argv[i] + 7;
		} else if (strncmp(argv[i], "source=", 7) == 0) {
			fx.source_root = argv[i] + 7;
		} else {
			fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
			return 2;
		}
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].name, argv[2]) == 0) {
			ret = cases[i].run(&fx);
			fixture_finish(&fx);
			remove_tree(test_dir());
			test_cleanup();
			return ret;
		}
	}
	fprintf(stderr, "%s: no case '%s'\n", argv[0], argv[2]);
	return 2;
}
