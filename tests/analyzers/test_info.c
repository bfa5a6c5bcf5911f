/* hwc-trace info: its facts against what the test wrote and the file itself. */
#include <inttypes.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>

#include "tests.h"

#include "testjson.h"

/* Sizes and counts of the file as the tests read it. */
struct file_facts {
	uint64_t data_frames, record_frames, blob_frames, skippable;
	uint64_t stored, raw, record_stored, record_raw, blob_stored, blob_raw;
	uint64_t records, keyframes, frame_ends;
};

static void file_facts(const struct model *m, size_t data_limit, struct file_facts *ff)
{
	size_t data = 0;

	*ff = (struct file_facts){ 0 };
	for (size_t i = 0; i < m->count; i++) {
		const struct model_frame *f = &m->frames[i];
		bool blob;

		if (f->skippable) {
			ff->skippable++;
			continue;
		}
		if (data++ >= data_limit) {
			continue;
		}
		blob = f->record_count && f->records[0].rec->kind_case == HWCT__RECORD__KIND_BLOB;
		ff->data_frames++;
		ff->stored += f->size;
		ff->raw += f->content_size;
		*(blob ? &ff->blob_frames : &ff->record_frames) += 1;
		*(blob ? &ff->blob_stored : &ff->record_stored) += f->size;
		*(blob ? &ff->blob_raw : &ff->record_raw) += f->content_size;
		ff->records += f->record_count;
		ff->frame_ends += f->frame_ends;
		for (size_t j = 0; j < f->record_count; j++) {
			ff->keyframes += f->records[j].rec->kind_case == HWCT__RECORD__KIND_KEYFRAME;
		}
	}
}

/* The number after `label` at the start of a line of text, or UINT64_MAX. */
static uint64_t number_after(const char *text, const char *label)
{
	for (const char *p = strstr(text, label); p; p = strstr(p + 1, label)) {
		if (p == text || p[-1] == '\n') {
			return strtoull(p + strlen(label), NULL, 10);
		}
	}
	return UINT64_MAX;
}

int test_info_text(struct fixture *fx)
{
	const char *args[] = { "info", NULL, NULL };
	struct file_facts ff;
	struct test_run run;

	fixture_trace(fx, FIXTURE_FRAMES);
	file_facts(&fx->model, SIZE_MAX, &ff);
	args[1] = fx->trace;
	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	CHECK(run.err[0] == 0);
	CHECK_EQ_U64(number_after(run.out, "  display frames"), fx->gen.frames);
	CHECK_EQ_U64(number_after(run.out, "  records"), ff.records);
	CHECK_EQ_U64(number_after(run.out, "  calls"), fx->gen.by_kind[HWCT__RECORD__KIND_CALL]);
	CHECK_EQ_U64(number_after(run.out, "    SET_LAYER_BUFFER"), gen_calls(&fx->gen, HWC2_FUNCTION_SET_LAYER_BUFFER));
	CHECK_EQ_U64(number_after(run.out, "    PRESENT_DISPLAY"), gen_calls(&fx->gen, HWC2_FUNCTION_PRESENT_DISPLAY));
	CHECK_EQ_U64(number_after(run.out, "  buffers"), fx->gen.distinct_buffers);
	CHECK_EQ_U64(number_after(run.out, "  blobs"), fx->gen.blob_count);
	CHECK_EQ_U64(number_after(run.out, "  fences"), fx->gen.distinct_fences);
	CHECK_EQ_U64(number_after(run.out, "  keyframes"), ff.keyframes);
	CHECK_EQ_U64(number_after(run.out, "  file"), fx->model.size);
	CHECK_EQ_U64(number_after(run.out, "  data frames"), ff.stored);
	CHECK(test_contains(run.out, GEN_HOST));
	CHECK(test_contains(run.out, GEN_FINGERPRINT));
	CHECK(test_contains(run.out, GEN_MESA));
	CHECK(test_contains(run.out, GEN_LIBDRM));
	CHECK(test_contains(run.out, GEN_SOURCE));
	CHECK(test_contains(run.out, GEN_WRITER));
	CHECK(test_contains(run.out, "SIDEBAND_STREAM, SKIP_CLIENT_COLOR_TRANSFORM"));
	CHECK(test_contains(run.out, "\"Built-in\""));
	CHECK(test_contains(run.out, "\"External\""));
	CHECK(test_contains(run.out, "64x48@60.00Hz"));
	test_run_finish(&run);
	return 0;
}

/* A copy of the trace cut in the middle of its third data frame; *cut_at = that frame's offset. */
static const char *truncated_copy(struct fixture *fx, uint64_t *cut_at)
{
	const struct model_frame **data;
	const char *path = test_path("truncated.zst");
	size_t n = model_data_frames(&fx->model, &data);

	CHECK(n >= 4);
	*cut_at = data[2]->offset;
	test_write_file(path, fx->model.data, (size_t)(data[2]->offset + data[2]->size / 2));
	free(data);
	return path;
}

static void check_environment(struct json_object *info, const struct gen_trace *gen)
{
	struct json_object *caps = tj_get(info, "environment.hwc2_capability_names");
	char big[32];

	CHECK(strcmp(tj_str(info, "environment.host"), GEN_HOST) == 0);
	CHECK(strcmp(tj_str(info, "environment.process"), GEN_PROCESS) == 0);
	CHECK_EQ_U64(tj_u64(info, "environment.pid"), GEN_PID);
	CHECK(strcmp(tj_str(info, "environment.kernel"), GEN_KERNEL) == 0);
	CHECK(strcmp(tj_str(info, "environment.android_fingerprint"), GEN_FINGERPRINT) == 0);
	CHECK(strcmp(tj_str(info, "environment.mesa_version"), GEN_MESA) == 0);
	CHECK(strcmp(tj_str(info, "environment.libdrm_version"), GEN_LIBDRM) == 0);
	CHECK(strcmp(tj_str(info, "environment.source"), GEN_SOURCE) == 0);
	snprintf(big, sizeof(big), "%llu", (unsigned long long)GEN_BIG_U64);
	CHECK(strcmp(tj_str(info, "environment.clock_monotonic_ns"), big) == 0);
	CHECK(caps && json_object_array_length(caps) == 2);
	CHECK(strcmp(tj_str(caps, "0"), "SIDEBAND_STREAM") == 0);
	CHECK(strcmp(tj_str(caps, "1"), "SKIP_CLIENT_COLOR_TRANSFORM") == 0);
	CHECK_EQ_U64(tj_u64(info, "environment.hwc2_capabilities.0"), gen->capabilities[0]);
}

static void check_header(struct json_object *info)
{
	CHECK_EQ_U64(tj_u64(info, "format.major"), HWCT_FORMAT_MAJOR);
	CHECK_EQ_U64(tj_u64(info, "format.minor"), HWCT_FORMAT_MINOR);
	CHECK(strcmp(tj_str(info, "header.writer"), GEN_WRITER) == 0);
	CHECK_EQ_U64(tj_u64(info, "header.keyframe_interval"), GEN_KEYFRAME_INTERVAL);
	CHECK(json_object_get_boolean(tj_get(info, "header.pixels")));
	CHECK(strcmp(tj_str(info, "header.options.0.key"), "mode") == 0);
	CHECK(strcmp(tj_str(info, "header.options.1.value"), "1M") == 0);
	CHECK(tj_u64(info, "header.created_unix_ns") > 0);
}

static void check_displays(struct json_object *info, const struct gen_trace *gen)
{
	CHECK(json_object_array_length(tj_get(info, "displays")) == GEN_DISPLAYS);
	CHECK_EQ_U64(tj_u64(info, "displays.0.id"), 0);
	CHECK(strcmp(tj_str(info, "displays.0.name"), "Built-in") == 0);
	CHECK(strcmp(tj_str(info, "displays.1.name"), "External") == 0);
	CHECK_EQ_U64(tj_u64(info, "displays.0.frames"), gen->frames_by_display[0]);
	CHECK_EQ_U64(tj_u64(info, "displays.1.frames"), gen->frames_by_display[1]);
	CHECK_EQ_U64(json_object_array_length(tj_get(info, "displays.0.configs")), 2);
	CHECK_EQ_U64(tj_u64(info, "displays.0.configs.1.width"), 32);
	CHECK_EQ_U64(tj_u64(info, "displays.1.active_config"), 1);
}

static void check_counts(struct json_object *info, const struct gen_trace *gen, const struct file_facts *ff)
{
	struct json_object *functions = tj_get(info, "counts.calls_by_function");
	uint64_t previous = UINT64_MAX;

	CHECK_EQ_U64(tj_u64(info, "counts.display_frames"), gen->frames);
	CHECK_EQ_U64(tj_u64(info, "counts.records"), ff->records);
	for (int kind = 1; kind <= HWCT__RECORD__KIND_NOTE; kind++) {
		char path[64];
		uint64_t expect = gen->by_kind[kind];

		if (kind == HWCT__RECORD__KIND_BLOB) {
			expect = gen->blob_count;
		} else if (kind == HWCT__RECORD__KIND_KEYFRAME) {
			expect = ff->keyframes;
		}
		snprintf(path, sizeof(path), "counts.records_by_kind.%s", kind_name((Hwct__Record__KindCase)kind));
		CHECK_EQ_U64(tj_u64(info, path), expect);
	}
	CHECK_EQ_U64(tj_u64(info, "counts.calls"), gen->by_kind[HWCT__RECORD__KIND_CALL]);
	CHECK_EQ_U64(json_object_array_length(functions), gen->function_count);
	for (size_t i = 0; i < json_object_array_length(functions); i++) {
		struct json_object *f = json_object_array_get_idx(functions, i);
		int32_t function = (int32_t)json_object_get_int(tj_get(f, "function"));
		const char *name = gen_function_name(function);

		CHECK_EQ_U64(tj_u64(f, "calls"), gen_calls(gen, function));
		CHECK(tj_u64(f, "calls") <= previous);
		previous = tj_u64(f, "calls");
		CHECK_MSG(name ? tj_str(f, "name") && strcmp(tj_str(f, "name"), name) == 0 :
			tj_has(f, "name") && !tj_get(f, "name"), "function %d", function);
	}
	CHECK_EQ_U64(tj_u64(info, "counts.buffers"), gen->distinct_buffers);
	CHECK_EQ_U64(tj_u64(info, "counts.blobs"), gen->blob_count);
	CHECK_EQ_U64(tj_u64(info, "counts.fences"), gen->distinct_fences);
	CHECK_EQ_U64(tj_u64(info, "counts.keyframes"), ff->keyframes);
}

static void check_bytes(struct json_object *info, const struct fixture *fx, const struct file_facts *ff)
{
	CHECK_EQ_U64(tj_u64(info, "bytes.file"), fx->model.size);
	CHECK_EQ_U64(tj_u64(info, "bytes.stored"), ff->stored);
	CHECK_EQ_U64(tj_u64(info, "bytes.raw"), ff->raw);
	CHECK_EQ_U64(tj_u64(info, "bytes.record_frames.stored"), ff->record_stored);
	CHECK_EQ_U64(tj_u64(info, "bytes.record_frames.raw"), ff->record_raw);
	CHECK_EQ_U64(tj_u64(info, "bytes.blob_frames.stored"), ff->blob_stored);
	CHECK_EQ_U64(tj_u64(info, "bytes.blob_frames.raw"), ff->blob_raw);
	CHECK_EQ_U64(tj_u64(info, "bytes.blob_payload"), fx->gen.blob_payload);
	CHECK_EQ_U64(tj_u64(info, "zstd_frames.total"), fx->model.count);
	CHECK_EQ_U64(tj_u64(info, "zstd_frames.data"), ff->data_frames);
	CHECK_EQ_U64(tj_u64(info, "zstd_frames.record"), ff->record_frames);
	CHECK_EQ_U64(tj_u64(info, "zstd_frames.blob"), ff->blob_frames);
	CHECK_EQ_U64(tj_u64(info, "zstd_frames.skippable"), ff->skippable);
	CHECK(ff->blob_frames > 0 && ff->record_frames > 1);
}

int test_info_json(struct fixture *fx)
{
	const char *args[] = { "info", "--json", NULL, NULL };
	struct json_object *info;
	struct file_facts ff;
	struct test_run run;

	fixture_trace(fx, FIXTURE_FRAMES);
	file_facts(&fx->model, SIZE_MAX, &ff);
	args[2] = fx->trace;
	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	CHECK(run.err[0] == 0);
	info = tj_parse_object(run.out);
	check_header(info);
	check_environment(info, &fx->gen);
	check_displays(info, &fx->gen);
	check_counts(info, &fx->gen, &ff);
	check_bytes(info, fx, &ff);
	CHECK(json_object_get_boolean(tj_get(info, "container.seek_table")));
	CHECK(!json_object_get_boolean(tj_get(info, "container.truncated")));
	CHECK_EQ_U64(tj_u64(info, "t_first_ns"), fx->gen.t_first);
	CHECK_EQ_U64(tj_u64(info, "t_last_ns"), fx->gen.t_last);
	CHECK_EQ_U64(tj_u64(info, "duration_ns"), fx->gen.t_last - fx->gen.t_first);
	CHECK(json_object_get_boolean(tj_get(info, "complete")));
	CHECK(tj_has(info, "error") && !tj_get(info, "error"));
	json_object_put(info);
	test_run_finish(&run);
	return 0;
}

/* What was read before the cut, and the error after it. */
static void info_truncated_json(struct fixture *fx, const char *path, uint64_t cut_at)
{
	const char *args[] = { "info", "--json", path, NULL };
	struct json_object *info;
	struct file_facts ff;
	struct test_run run;

	file_facts(&fx->model, 2, &ff);
	fixture_run(fx, &run, args);
	CHECK_EQ_U64(run.status, 0);
	CHECK(test_contains(run.err, "warning"));
	info = tj_parse_object(run.out);
	CHECK(!json_object_get_boolean(tj_get(info, "complete")));
	CHECK(tj_str(info, "error") && test_contains(run.err, tj_str(info, "error")));
	CHECK(!json_object_get_boolean(tj_get(info, "container.seek_table")));
	CHECK(json_object_get_boolean(tj_get(info, "container.truncated")));
	CHECK_EQ_U64(tj_u64(info, "container.truncated_offset"), cut_at);
	CHECK_EQ_U64(tj_u64(info, "counts.records"), ff.records);
	CHECK_EQ_U64(tj_u64(info, "counts.display_frames"), ff.frame_ends);
	CHECK_EQ_U64(tj_u64(info, "zstd_frames.data"), 2);
	CHECK_EQ_U64(tj_u64(info, "bytes.stored"), ff.stored);
	json_object_put(info);
	test_run_finish(&run);
}

int test_info_truncated(struct fixture *fx)
{
	const char *args[] = { "info", NULL, NULL };
	struct test_run run;
	uint64_t cut_at;
	char expect[96];

	fixture_trace(fx, FIXTURE_FRAMES);
	args[1] = truncated_copy(fx, &cut_at);
	fixture_run(fx, &run, args);
	/* an unfinished trace (its writer died): every complete frame read, a warning, exit 0 */
	CHECK_EQ_U64(run.status, 0);
	snprintf(expect, sizeof(expect), "truncated at offset %" PRIu64, cut_at);
	CHECK_MSG(test_contains(run.out, expect), "no '%s' in:\n%s", expect, run.out);
	CHECK(test_contains(run.out, GEN_HOST));
	CHECK(test_contains(run.out, "unfinished"));
	CHECK_MSG(test_contains(run.err, "warning") && test_contains(run.err, "did not finish") &&
		!test_contains(run.err, "error:"), "stderr: %s", run.err);
	test_run_finish(&run);
	info_truncated_json(fx, args[1], cut_at);
	return 0;
}
