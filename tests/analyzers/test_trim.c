/*
 * hwc-trace trim: the trimmed trace opens (hwc-trace info), its frame model
 * equals the input's frames A..B (renumbered from 0), its blobs and fences
 * are there, and hwc-replay replays it when built.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/frame.h>
#include <hwct/reader.h>

#include "tests.h"
#include "testjson.h"

/* A copy of the parts of a frame that must survive trimming. */
struct frame_copy {
	uint64_t frame, display;
	bool validated;
	size_t layer_count;
	struct hwct_layer layers[GEN_STACK_LAYERS];
	bool has_client_target;
	struct hwct_buffer_ref client_target;
	uint64_t present_fence;
};

static size_t read_frames(const char *path, struct frame_copy *out, size_t max, uint64_t first, uint64_t last,
	char *source, size_t source_size)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	struct hwct_frame_iter *it;
	const struct hwct_frame *f;
	size_t n = 0;
	int ret;

	CHECK_MSG(r, "%s", err.message);
	it = hwct_frame_iter_create(r);
	CHECK(it);
	while ((ret = hwct_frame_iter_next(it, &f)) > 0) {
		struct frame_copy *c;

		if (f->frame < first || f->frame > last) {
			continue;
		}
		CHECK(n < max && f->layer_count <= GEN_STACK_LAYERS);
		c = &out[n++];
		*c = (struct frame_copy){ f->frame, f->display, f->validated, f->layer_count, { { 0 } },
			f->has_client_target, f->client_target, f->present.id };
		memcpy(c->layers, f->layers, f->layer_count * sizeof(*f->layers));
	}
	CHECK_MSG(ret == 0, "%s", hwct_reader_error(r)->message);
	if (source) {
		const Hwct__Environment *e = hwct_frame_iter_environment(it);

		snprintf(source, source_size, "%s", e && e->source ? e->source : "");
	}
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
	return n;
}

static bool same_content(const struct hwct_buffer_ref *a, const struct hwct_buffer_ref *b)
{
	return a->buffer == b->buffer && a->has_content == b->has_content &&
		(!a->has_content || hwct_hash_equal(&a->content, &b->content));
}

/* OUT's frames equal IN's frames first..last: layers, geometry, decisions, content. */
static void check_frames(const char *in, const char *out, uint64_t first, uint64_t last)
{
	static struct frame_copy a[64], b[64];
	char source[64];
	size_t na = read_frames(in, a, 64, first, last, NULL, 0);
	size_t nb = read_frames(out, b, 64, 0, UINT64_MAX, source, sizeof(source));

	CHECK_EQ_U64(na, last - first + 1);
	CHECK_EQ_U64(nb, na);
	CHECK(strcmp(source, "scenario:analyzers-stack") == 0);	/* the Environment came along */
	for (size_t i = 0; i < na; i++) {
		CHECK_EQ_U64(b[i].frame, a[i].frame - first);
		CHECK_EQ_U64(b[i].display, a[i].display);
		CHECK(b[i].validated == a[i].validated);
		CHECK_EQ_U64(b[i].layer_count, a[i].layer_count);
		CHECK(b[i].has_client_target == a[i].has_client_target);
		CHECK(!a[i].has_client_target || same_content(&a[i].client_target, &b[i].client_target));
		CHECK_EQ_U64(b[i].present_fence, a[i].present_fence);
		for (size_t l = 0; l < a[i].layer_count; l++) {
			const struct hwct_layer *x = &a[i].layers[l], *y = &b[i].layers[l];

			CHECK_MSG(x->id == y->id && x->z == y->z, "frame %zu layer %zu", i, l);
			CHECK(memcmp(&x->display_frame, &y->display_frame, sizeof(x->display_frame)) == 0);
			CHECK(memcmp(&x->source_crop, &y->source_crop, sizeof(x->source_crop)) == 0);
			CHECK(x->transform == y->transform && x->blend == y->blend && x->plane_alpha == y->plane_alpha);
			CHECK(x->color == y->color);
			CHECK_MSG(x->requested == y->requested && x->final == y->final, "frame %zu layer %llu: %d/%d vs %d/%d",
				i, (unsigned long long)x->id, x->requested, x->final, y->requested, y->final);
			CHECK_MSG(same_content(&x->buffer, &y->buffer), "frame %zu layer %llu content", i,
				(unsigned long long)x->id);
		}
	}
}

/* Every content OUT refers to decodes, and the present fences of its frames signalled as in IN. */
static void check_blobs_and_fences(const char *in, const char *out)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(out, &err), *ri = hwct_reader_open(in, &err);
	struct hwct_frame_iter *it, *iti;
	const struct hwct_frame *f;
	uint64_t present[64];
	size_t n = 0;
	int ret;

	CHECK(r && ri);
	it = hwct_frame_iter_create(r);
	iti = hwct_frame_iter_create(ri);
	CHECK(it && iti);
	while ((ret = hwct_frame_iter_next(it, &f)) > 0) {
		for (size_t l = 0; l < f->layer_count; l++) {
			struct hwct_blob_data blob;

			if (f->layers[l].buffer.has_content) {
				CHECK_MSG(hwct_reader_blob(r, &f->layers[l].buffer.content, &blob) == 0, "frame %llu layer %zu",
					(unsigned long long)f->frame, l);
				free(blob.data);
			}
		}
		CHECK(n < 64);
		present[n++] = f->present.id;
	}
	CHECK(ret == 0);
	while (hwct_frame_iter_next(iti, &f) > 0) {
	}
	for (size_t i = 0; i < n; i++) {
		struct hwct_fence_time x, y;

		CHECK(hwct_frame_iter_fence(iti, present[i], &x));
		CHECK_MSG(hwct_frame_iter_fence(it, present[i], &y), "fence %llu missing", (unsigned long long)present[i]);
		CHECK(x.signal_ns == y.signal_ns && x.signal_ns > 0);
	}
	hwct_frame_iter_destroy(it);
	hwct_frame_iter_destroy(iti);
	hwct_reader_destroy(r);
	hwct_reader_destroy(ri);
}

static void trim_ok(struct fixture *fx, const char *in, const char *range, const char *out)
{
	struct test_run run;

	fixture_run(fx, &run, (const char *const[]){ "trim", in, "--frames", range, out, NULL });
	CHECK_MSG(run.status == 0, "trim %s: status %d: %s", range, run.status, run.err);
	CHECK(test_contains(run.out, "renumbered from 0"));
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "info", out, NULL });
	CHECK_MSG(run.status == 0, "info: %s", run.err);
	test_run_finish(&run);
}

int test_trim_middle(struct fixture *fx)
{
	struct gen_stack_options o = { .frames = 12, .displays = 2, .keyframe_interval = 4 };
	struct gen_stack_info info;
	const char *in = test_path("in.zst"), *out = test_path("out.zst");
	struct test_run run;
	struct json_object *j;

	gen_stack_write(in, &o, &info);
	/* frames 9..17: from inside a record frame, starting with display 1 */
	trim_ok(fx, in, "9-17", out);
	check_frames(in, out, 9, 17);
	check_blobs_and_fences(in, out);
	fixture_run(fx, &run, (const char *const[]){ "info", out, "--json", NULL });
	j = tj_parse(run.out, "info --json");
	CHECK_EQ_U64(tj_i64(j, "counts.display_frames"), 9);
	json_object_put(j);
	test_run_finish(&run);
	/* to the end */
	trim_ok(fx, in, "20-", out);
	check_frames(in, out, 20, 23);
	check_blobs_and_fences(in, out);
	return 0;
}

int test_trim_start(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *in = std_trace("in.zst", false, &info), *a = test_path("a.zst"), *b = test_path("b.zst");
	const char *c = test_path("c.zst");
	struct test_run run;

	trim_ok(fx, in, "0-3", a);
	check_frames(in, a, 0, 3);
	/* trimming a trimmed trace: the same frames */
	trim_ok(fx, in, "0-5", b);
	trim_ok(fx, b, "0-3", c);
	fixture_run(fx, &run, (const char *const[]){ "diff", a, c, NULL });
	CHECK_MSG(run.status == 0, "%s", run.out);
	test_run_finish(&run);
	/* one frame, at a keyframe boundary (interval 4) */
	trim_ok(fx, in, "4", a);
	check_frames(in, a, 4, 4);
	check_blobs_and_fences(in, a);
	return 0;
}

int test_trim_errors(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *in = std_trace("in.zst", false, &info), *out = test_path("out.zst");
	const char *const ranges[] = { "5-2", "0-99", "x", "-", "3-4-5" };
	struct test_run run;

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		fixture_run(fx, &run, (const char *const[]){ "trim", in, "--frames", ranges[i], out, NULL });
		CHECK_MSG(run.status == 2, "%s: status %d", ranges[i], run.status);
		test_run_finish(&run);
		CHECK(!test_file_exists(out));
	}
	fixture_run(fx, &run, (const char *const[]){ "trim", in, in, NULL });
	CHECK(run.status == 2);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "trim", in, "--frames", "1-2", in, NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "input trace"), "%d %s", run.status, run.err);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "trim", "/nonexistent.zst", "--frames", "1-2", out, NULL });
	CHECK(run.status == 1 && test_contains(run.err, "/nonexistent.zst"));
	test_run_finish(&run);
	CHECK(!test_file_exists(out));
	return 0;
}

int test_trim_replay(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *in = std_trace("in.zst", false, &info), *out = test_path("out.zst");
	const char *results = test_path("results.json");
	char board[600];
	struct test_run run;
	struct json_object *o, *frames;
	uint8_t *text;
	size_t size;

	if (!fx->replay) {
		fprintf(stderr, "hwc-replay not built: skipped\n");
		return TEST_SKIP;
	}
	trim_ok(fx, in, "2-7", out);
	snprintf(board, sizeof(board), "%s/tests/data/boards/vkms-6.1-overlays.json", fx->source_root);
	test_run(&run, (const char *const[]){ fx->replay, out, "--profile", board, "--results", results, "-q", NULL });
	CHECK_MSG(run.status == 0, "hwc-replay: status %d: %s", run.status, run.err);
	test_run_finish(&run);
	text = test_read_file(results, &size);
	o = tj_parse((const char *)text, "results");
	frames = tj_get(o, "frames");
	CHECK(json_object_array_length(frames) == 6);
	for (size_t i = 0; i < 6; i++) {
		CHECK_EQ_U64(tj_i64(json_object_array_get_idx(frames, i), "frame"), i);
	}
	CHECK(json_object_get_boolean(tj_get(o, "complete")));
	json_object_put(o);
	free(text);
	/* the replay agrees with the decisions recorded in the trimmed trace as in the original's range */
	fixture_run(fx, &run, (const char *const[]){ "diff", out, results, NULL });
	CHECK_MSG(run.status == 0 || run.status == 1, "status %d: %s", run.status, run.err);
	CHECK(test_contains(run.out, "overall:"));
	test_run_finish(&run);
	return 0;
}
