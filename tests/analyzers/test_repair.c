/*
 * hwc-trace repair and hwct_trace_repair(): traces cut at every frame
 * boundary and inside every frame come back as valid traces holding the
 * records of their complete data frames; the report says what was kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <hwct/format.h>
#include <hwct/reader.h>
#include <hwct/repair.h>

#include "tests.h"

/* What a repair of a file with those complete frames must keep. */
struct expect {
	uint64_t frames, record_frames, blob_frames, records, display_frames, bytes;
	bool has_last;
	uint64_t last_frame;
	uint64_t dropped_offset, bytes_dropped;		/* UINT64_MAX, 0 when nothing is lost */
};

static void expect_from(const struct model *cut, uint64_t size, struct expect *e)
{
	*e = (struct expect){ .dropped_offset = UINT64_MAX };
	for (size_t i = 0; i < cut->count; i++) {
		const struct model_frame *f = &cut->frames[i];

		if (f->skippable) {
			continue;
		}
		e->frames++;
		e->bytes += f->size;
		e->records += f->record_count;
		e->display_frames += f->frame_ends;
		if (f->record_count && f->records[0].rec->kind_case == HWCT__RECORD__KIND_BLOB) {
			e->blob_frames++;
		} else {
			e->record_frames++;
		}
		for (size_t j = 0; j < f->record_count; j++) {
			if (f->records[j].rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
				e->has_last = true;
				e->last_frame = f->records[j].rec->frame_end->frame;
			}
		}
	}
	if (cut->complete_end < size) {
		e->dropped_offset = cut->complete_end;
		e->bytes_dropped = size - cut->complete_end;
	}
}

static void check_report(const struct hwct_repair_report *rep, const struct expect *e, bool had_seek_table)
{
	CHECK(rep->had_seek_table == had_seek_table);
	CHECK_EQ_U64(rep->frames_kept, e->frames);
	CHECK_EQ_U64(rep->record_frames_kept, e->record_frames);
	CHECK_EQ_U64(rep->blob_frames_kept, e->blob_frames);
	CHECK_EQ_U64(rep->records_kept, e->records);
	CHECK_EQ_U64(rep->display_frames_kept, e->display_frames);
	CHECK(rep->has_last_frame == e->has_last);
	if (e->has_last) {
		CHECK_EQ_U64(rep->last_frame, e->last_frame);
	}
	CHECK_EQ_U64(rep->bytes_kept, e->bytes);
	CHECK_EQ_U64(rep->dropped_offset, e->dropped_offset);
	CHECK_EQ_U64(rep->bytes_dropped, e->bytes_dropped);
	CHECK(rep->dropped_offset == UINT64_MAX ? rep->reason[0] == 0 : rep->reason[0] != 0);
}

/* The data-frame records of `in` (a model), in order, equal what the library reader gives for path. */
static void check_reader(const char *path, const struct model *in, size_t frames)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	size_t seen = 0;
	uint8_t *buf;

	CHECK_MSG(r, "%s", err.message);
	CHECK(hwct_reader_info(r)->has_seek_table && !hwct_reader_info(r)->truncated);
	for (size_t i = 0, data = 0; i < in->count && data < frames; i++) {
		const struct model_frame *f = &in->frames[i];

		if (f->skippable) {
			continue;
		}
		data++;
		for (size_t j = 0; j < f->record_count; j++, seen++) {
			size_t size;

			CHECK_MSG(hwct_reader_next(r, &rec) == 1, "record %zu: %s", seen,
				hwct_reader_error(r) ? hwct_reader_error(r)->message : "end");
			size = hwct__record__get_packed_size(rec);
			buf = malloc(size ? size : 1);
			CHECK(buf);
			hwct__record__pack(rec, buf);
			CHECK_MSG(size == f->records[j].size && memcmp(buf, f->records[j].bytes, size) == 0,
				"record %zu differs", seen);
			free(buf);
		}
	}
	CHECK(hwct_reader_next(r, &rec) == 0);
	hwct_reader_destroy(r);
}

/* OUT is IN's header, then IN's complete data frames byte for byte, an index and a seek table. */
static void check_out(const struct fixture *fx, const char *out_path, const struct model *cut, const struct expect *e)
{
	struct model out;
	size_t k = 1;

	model_load(&out, out_path);
	CHECK_MSG(out.has_seek_table, "%s has no valid seek table", out_path);
	CHECK_EQ_U64(out.count, e->frames + 3);
	CHECK(out.frames[0].size == cut->frames[0].size &&
		memcmp(out.data, cut->data, (size_t)cut->frames[0].size) == 0);
	for (size_t i = 0; i < cut->count; i++) {
		const struct model_frame *f = &cut->frames[i], *g = &out.frames[k];

		if (f->skippable) {
			continue;
		}
		CHECK(!g->skippable && g->size == f->size);
		CHECK(memcmp(out.data + g->offset, cut->data + f->offset, (size_t)f->size) == 0);
		k++;
	}
	CHECK(out.frames[k].skippable && out.frames[k].magic == HWCT_MAGIC_INDEX);
	check_reader(out_path, cut, (size_t)e->frames);
	if (fx->zstd) {
		const char *argv[] = { fx->zstd, "-t", "-q", out_path, NULL };
		struct test_run run;

		test_run(&run, argv);
		CHECK_MSG(run.status == 0, "zstd -t %s: %s", out_path, run.err);
		test_run_finish(&run);
	}
	model_finish(&out);
}

static uint64_t file_size(const char *path)
{
	size_t size;

	free(test_read_file(path, &size));
	return size;
}

/* Repairs the first `size` bytes of the trace, through the CLI and the library. */
static void repair_at(struct fixture *fx, uint64_t size)
{
	const char *in = test_path("in.zst"), *out = test_path("out.zst"), *out2 = test_path("out2.zst");
	const char *args[] = { "repair", in, out, NULL };
	struct hwct_repair_report rep;
	struct hwct_error err;
	struct test_run run;
	struct model cut;
	struct expect e;

	test_write_file(in, fx->model.data, (size_t)size);
	model_load_bytes(&cut, fx->model.data, (size_t)size);
	expect_from(&cut, size, &e);
	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "cut at %" PRIu64 ": status %d: %s", size, run.status, run.err);
	CHECK(run.err[0] == 0 && run.out[0] != 0);
	test_run_finish(&run);
	check_out(fx, out, &cut, &e);
	CHECK_MSG(hwct_trace_repair(in, out2, &rep, &err) == 0, "%s", err.message);
	check_report(&rep, &e, size == fx->model.size);
	CHECK_EQ_U64(rep.in_size, size);
	CHECK_EQ_U64(rep.out_size, file_size(out2));
	model_finish(&cut);
}

int test_repair_truncated(struct fixture *fx)
{
	size_t cuts = 0;

	fixture_trace(fx, FIXTURE_FRAMES);
	for (size_t i = 1; i < fx->model.count; i++) {
		const struct model_frame *f = &fx->model.frames[i];

		repair_at(fx, f->offset);		/* at a frame boundary */
		repair_at(fx, f->offset + f->size / 2);	/* inside a frame */
		repair_at(fx, f->offset + 5);		/* inside its header */
		cuts += 3;
	}
	repair_at(fx, fx->model.size - 1);
	CHECK(cuts >= 3 * 6);
	return 0;
}

int test_repair_intact(struct fixture *fx)
{
	const char *out = test_path("out.zst");
	const char *args[] = { "repair", NULL, out, NULL };
	struct hwct_repair_report rep;
	struct hwct_error err;
	struct test_run run;
	struct expect e;
	uint8_t *data;
	size_t size;

	fixture_trace(fx, FIXTURE_FRAMES);
	args[1] = fx->trace;
	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	expect_from(&fx->model, fx->model.size, &e);
	check_out(fx, out, &fx->model, &e);
	/* nothing to repair: the same file again */
	data = test_read_file(out, &size);
	CHECK(size == fx->model.size && memcmp(data, fx->model.data, size) == 0);
	free(data);
	CHECK_MSG(hwct_trace_repair(fx->trace, out, &rep, &err) == 0, "%s", err.message);
	check_report(&rep, &e, true);
	CHECK_EQ_U64(rep.skippable_dropped, 0);
	return 0;
}

int test_repair_damaged_frame(struct fixture *fx)
{
	const char *in = test_path("damaged.zst"), *out = test_path("out.zst");
	const char *args[] = { "repair", in, out, NULL };
	const struct model_frame **data;
	struct hwct_repair_report rep;
	struct hwct_error err;
	struct test_run run;
	struct model kept;
	struct expect e;
	uint8_t *bytes;
	size_t n;

	fixture_trace(fx, FIXTURE_FRAMES);
	bytes = malloc(fx->model.size);
	n = model_data_frames(&fx->model, &data);
	CHECK(bytes && n >= 4);
	memcpy(bytes, fx->model.data, fx->model.size);
	bytes[data[2]->offset + data[2]->size / 2] ^= 0x5a;
	test_write_file(in, bytes, fx->model.size);
	/* what must be kept: the file up to the damaged frame */
	model_load_bytes(&kept, fx->model.data, (size_t)data[2]->offset);
	expect_from(&kept, data[2]->offset, &e);
	e.dropped_offset = data[2]->offset;
	e.bytes_dropped = fx->model.size - data[2]->offset;
	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	check_out(fx, out, &kept, &e);
	CHECK(hwct_trace_repair(in, out, &rep, &err) == 0);
	check_report(&rep, &e, true);
	CHECK_EQ_U64(rep.frames_dropped, n - 2);
	model_finish(&kept);
	free(data);
	free(bytes);
	return 0;
}

int test_repair_bad_header(struct fixture *fx)
{
	static const struct {
		const char *name;
		size_t offset;		/* byte to damage, SIZE_MAX: cut the file to 10 bytes */
	} cases[] = {
		{ "magic", 0 },
		{ "signature", 8 },
		{ "major", 16 },
		{ "short", SIZE_MAX },
	};
	const char *in = test_path("bad.zst"), *out = test_path("out.zst");

	fixture_trace(fx, FIXTURE_FRAMES);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *const commands[][5] = {
			{ "repair", in, out, NULL },
			{ "info", in, NULL },
			{ "dump", in, NULL },
		};
		uint8_t *bytes = malloc(fx->model.size);
		struct hwct_error err;

		CHECK(bytes);
		memcpy(bytes, fx->model.data, fx->model.size);
		if (cases[c].offset != SIZE_MAX) {
			bytes[cases[c].offset] ^= 0xff;
		}
		test_write_file(in, bytes, cases[c].offset == SIZE_MAX ? 10 : fx->model.size);
		free(bytes);
		for (size_t k = 0; k < 3; k++) {
			struct test_run run;

			fixture_run(fx, &run, commands[k]);
			CHECK_MSG(run.status == 1, "%s %s: status %d", cases[c].name, commands[k][0], run.status);
			CHECK_MSG(test_contains(run.err, "header"), "%s %s: %s", cases[c].name, commands[k][0], run.err);
			CHECK(!test_file_exists(out));
			test_run_finish(&run);
		}
		CHECK(hwct_trace_repair(in, out, NULL, &err) < 0 && err.code < 0);
		CHECK(test_contains(err.message, "header") && !test_file_exists(out));
	}
	return 0;
}

int test_repair_same_path(struct fixture *fx)
{
	char other_spelling[700];
	struct hwct_error err;
	struct test_run run;
	uint8_t *data;
	size_t size;

	fixture_trace(fx, FIXTURE_FRAMES);
	snprintf(other_spelling, sizeof(other_spelling), "%s/./trace.zst", test_dir());
	for (int k = 0; k < 2; k++) {
		const char *args[] = { "repair", fx->trace, k ? other_spelling : fx->trace, NULL };

		fixture_run(fx, &run, args);
		CHECK_EQ_U64(run.status, 2);
		CHECK(test_contains(run.err, "repair"));
		test_run_finish(&run);
	}
	CHECK(hwct_trace_repair(fx->trace, other_spelling, NULL, &err) == -EEXIST);
	data = test_read_file(fx->trace, &size);
	CHECK(size == fx->model.size && memcmp(data, fx->model.data, size) == 0);
	free(data);
	return 0;
}
