/*
 * Traces of format 1.2 whose buffers had padded rows (gen.h, old_pad: made
 * here, at test time) against the same pictures written as 1.3: 1.2 hashed
 * the padding, so their stored content hashes differ, yet `hwc-trace diff`
 * finds no pixel difference (it compares pictures, docs/format.md section
 * 3.3) and `hwc-trace extract` writes the same PNG files.
 */
#include <stdlib.h>
#include <string.h>

#include <hwct/frame.h>
#include <hwct/reader.h>

#include "tests.h"
#include "testjson.h"

static const char *old_trace(const char *name, uint32_t pad, bool variant)
{
	struct gen_stack_options o = { .frames = STD_FRAMES, .displays = 1, .keyframe_interval = 4,
		.variant = variant, .old_pad = pad };
	struct gen_stack_info info;
	const char *path = test_path(name);

	gen_stack_write(path, &o, &info);
	return path;
}

/* Layer 1's content in frame 0 of the trace at path: the stored hash and the picture's. */
static void layer1_content(const char *path, uint16_t *minor, struct hwct_hash *stored, struct hwct_hash *picture)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	struct hwct_frame_iter *it = r ? hwct_frame_iter_create(r) : NULL;
	const struct hwct_frame *f = NULL;

	CHECK_MSG(it && hwct_frame_iter_next(it, &f) == 1 && f->layer_count > 0 && f->layers[0].buffer.has_content,
		"%s: no frame 0 with layer 1's content", path);
	*minor = hwct_reader_info(r)->minor;
	*stored = f->layers[0].buffer.content;
	CHECK(hwct_reader_picture_hash(r, f->layers[0].buffer.info, stored, picture) == 0);
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
}

static void expect_equal(const struct fixture *fx, const char *a, const char *b)
{
	struct test_run run;
	struct json_object *o;

	fixture_run(fx, &run, (const char *const[]){ "diff", a, b, "--json", NULL });
	CHECK_MSG(run.status == 0, "diff %s %s: status %d: %s%s", a, b, run.status, run.out, run.err);
	o = tj_parse(run.out, "diff --json");
	CHECK_EQ_U64(tj_i64(o, "summary.compared"), STD_FRAMES);
	CHECK_EQ_U64(tj_i64(o, "summary.categories.pixels"), 0);
	CHECK_EQ_U64(tj_i64(o, "summary.differing"), 0);
	json_object_put(o);
	test_run_finish(&run);
}

int test_diff_old_padded(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *now = std_trace("now.zst", false, &info), *variant = std_trace("variant.zst", true, &info);
	const char *old24 = old_trace("old24.zst", 24, false), *old96 = old_trace("old96.zst", 96, false);
	const char *old_variant = old_trace("old-variant.zst", 24, true);
	struct hwct_hash s_now, p_now, s_old, p_old;
	uint16_t minor_now, minor_old;
	struct test_run run;
	struct json_object *o;

	/* the fixture is what it says: 1.2, padded content hashed with its padding */
	layer1_content(now, &minor_now, &s_now, &p_now);
	layer1_content(old24, &minor_old, &s_old, &p_old);
	CHECK(minor_now >= 3 && minor_old == 2);
	CHECK_MSG(!hwct_hash_equal(&s_now, &s_old), "the 1.2 trace's stored content hash is the packed picture's");
	CHECK(hwct_hash_equal(&s_now, &p_now));
	CHECK_MSG(hwct_hash_equal(&p_old, &s_now), "the picture of the 1.2 content is not the 1.3 content");

	/* the same pictures: no difference, either way round, and between two old layouts */
	expect_equal(fx, now, old24);
	expect_equal(fx, old96, now);
	expect_equal(fx, old24, old96);

	/* a picture that does differ still does (frame 3's layer 1), old against new and old against old */
	fixture_run(fx, &run, (const char *const[]){ "diff", old_variant, now, "--json", NULL });
	CHECK_MSG(run.status == 1, "status %d: %s%s", run.status, run.out, run.err);
	o = tj_parse(run.out, "diff --json");
	CHECK_EQ_U64(tj_i64(o, "summary.categories.pixels"), 1);
	CHECK_EQ_U64(tj_i64(json_object_array_get_idx(tj_get(o, "differences"), 0), "frame"), 3);
	json_object_put(o);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "diff", variant, old96, NULL });
	CHECK_MSG(run.status == 1 && test_contains(run.out, "frame 3 (display 0): pixels: layer 1 content "),
		"status %d: %s%s", run.status, run.out, run.err);
	test_run_finish(&run);
	return 0;
}

/* The files of frame 3 (odd: a client target too; every format of the stack) of both traces are equal. */
int test_extract_old_padded(struct fixture *fx)
{
	static const char *const files[] = { "layer-0-1.png", "layer-1-2.png", "layer-2-3.png", "layer-3-4.png",
		"layer-4-5.png", "client-target.png", "preview.png" };
	struct gen_stack_info info;
	const char *now = std_trace("now.zst", false, &info), *old = old_trace("old.zst", 96, false);
	char dir_now[512], dir_old[512];
	struct test_run run;

	snprintf(dir_now, sizeof(dir_now), "%s", test_path("out-now"));
	snprintf(dir_old, sizeof(dir_old), "%s", test_path("out-old"));
	fixture_run(fx, &run, (const char *const[]){ "extract", now, "--frame", "3", dir_now, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "extract", old, "--frame", "3", dir_old, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char a[600], b[600];
		size_t na = 0, nb = 0;
		uint8_t *da, *db;

		snprintf(a, sizeof(a), "%s/%s", dir_now, files[i]);
		snprintf(b, sizeof(b), "%s/%s", dir_old, files[i]);
		da = test_read_file(a, &na);
		db = test_read_file(b, &nb);
		CHECK_MSG(da && db && na == nb && memcmp(da, db, na) == 0, "%s differs between 1.3 and padded 1.2",
			files[i]);
		free(da);
		free(db);
	}
	return 0;
}

/*
 * trim writes the current format: a 1.2 trace of padded buffers is refused
 * (its content holds the padding, which 1.3 content cannot), nothing
 * written; one whose buffers were packed (its content is the picture) is
 * trimmed.
 */
int test_trim_old_padded(struct fixture *fx)
{
	const char *old = old_trace("old.zst", 24, false), *out = test_path("out.zst");
	struct gen_stack_info info;
	const char *now = std_trace("now.zst", false, &info), *packed_old = test_path("packed-old.zst");
	uint8_t *bytes;
	size_t size = 0;
	struct test_run run;

	fixture_run(fx, &run, (const char *const[]){ "trim", old, "--frames", "2-5", out, NULL });
	CHECK_MSG(run.status == 1 && test_contains(run.err, "padded buffer rows"), "status %d: %s", run.status,
		run.err);
	test_run_finish(&run);
	CHECK(!test_file_exists(out));
	/* the packed trace as 1.2 wrote it: the same bytes, the header saying 1.2 */
	bytes = test_read_file(now, &size);
	CHECK(bytes && size > 20);
	bytes[18] = 2;
	bytes[19] = 0;
	test_write_file(packed_old, bytes, size);
	free(bytes);
	fixture_run(fx, &run, (const char *const[]){ "trim", packed_old, "--frames", "2-5", out, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	CHECK(test_file_exists(out));
	return 0;
}
