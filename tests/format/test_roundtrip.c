/*
 * Writer -> reader round trips: every record kind, blobs and deltas, seeking,
 * concurrent writers, the memory budget, empty traces.
 * Usage: test-format-roundtrip CASE
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/frame.h>
#include <hwct/format.h>

#include "testlib.h"

static void case_record_kinds(void)
{
	struct test_trace_options o = { .frames = 40, .keyframe_interval = 6, .layers = 3, .width = 64,
		.height = 48, .pixels = true, .every_kind = true, .seed = 7 };
	struct test_capture cap = { 0 };
	char *path = test_tmp_path(".zst");
	bool seen[32] = { false };
	struct hwct_reader *r;
	const Hwct__Record *rec;
	struct hwct_error err;
	size_t i = 0, keyframes = 0;
	int ret;

	test_capture = &cap;
	test_write_trace(path, &o);
	test_capture = NULL;
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		size_t size = hwct__record__get_packed_size(rec);
		uint8_t *packed;

		seen[rec->kind_case] = true;
		if (rec->kind_case == HWCT__RECORD__KIND_KEYFRAME) {
			keyframes++;
			continue;
		}
		if (rec->kind_case == HWCT__RECORD__KIND_BLOB) {
			continue;
		}
		CHECK_MSG(i < cap.count, "more records read than written");
		packed = malloc(size + 1);
		hwct__record__pack(rec, packed);
		CHECK_MSG(size == cap.sizes[i] && memcmp(packed, cap.records[i], size) == 0,
			"record %zu differs (kind %d)", i, rec->kind_case);
		free(packed);
		i++;
	}
	CHECK_MSG(ret == 0, "%s", hwct_reader_error(r)->message);
	CHECK_MSG(i == cap.count, "read %zu of %zu records", i, cap.count);
	for (int k = HWCT__RECORD__KIND_ENVIRONMENT; k <= HWCT__RECORD__KIND_NOTE; k++) {
		CHECK_MSG(seen[k], "record kind %d never read back", k);
	}
	/* 40 frames at 6 per record frame: 7 record frames, each opened by a Keyframe */
	CHECK_MSG(keyframes == 7, "keyframes %zu", keyframes);
	CHECK(hwct_reader_info(r)->frame_count == 40);
	CHECK(hwct_reader_info(r)->has_seek_table);
	hwct_reader_destroy(r);
	test_capture_finish(&cap);
	unlink(path);
	free(path);
}

static void case_blobs(void)
{
	struct test_trace_options o = { .frames = 25, .keyframe_interval = 10, .layers = 2, .width = 97,
		.height = 61, .pixels = true, .seed = 11 };
	struct test_capture cap = { 0 };
	char *path = test_tmp_path(".zst");
	struct hwct_reader *r;
	struct hwct_error err;

	test_capture = &cap;
	test_write_trace(path, &o);
	test_capture = NULL;
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	CHECK(cap.blob_count == 50);
	for (size_t i = 0; i < cap.blob_count; i++) {
		struct hwct_blob_data d;
		int ret = hwct_reader_blob(r, &cap.blobs[i].hash, &d);

		CHECK_MSG(ret == 0, "blob %zu: %d %s", i, ret, hwct_reader_error(r) ? hwct_reader_error(r)->message : "");
		CHECK(d.size == cap.blobs[i].size);
		CHECK_MSG(memcmp(d.data, cap.blobs[i].data, d.size) == 0, "blob %zu content", i);
		CHECK(d.width == 97 && d.height == 61 && d.bpp == 4);
		free(d.data);
	}
	{
		struct hwct_hash missing = { 1, 2 };
		struct hwct_blob_data d;

		CHECK(hwct_reader_blob(r, &missing, &d) == -ENOENT);
	}
	hwct_reader_destroy(r);
	test_capture_finish(&cap);
	unlink(path);
	free(path);
}

/* Payloads of several shapes, each stored and read back byte for byte. */
static void case_predictors(void)
{
	char *path = test_tmp_path(".zst");
	enum { W = 133, H = 77, N = 5 };
	static uint8_t img[N][W * H * 4 + 3];
	struct hwct_hash hashes[N];
	struct hwct_writer *w = hwct_writer_create(path, NULL);
	struct hwct_reader *r;
	struct hwct_error err;

	CHECK(w);
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W * 4; x++) {
			size_t i = (size_t)y * W * 4 + (size_t)x;

			img[0][i] = (uint8_t)(x + y);			/* smooth: LEFT/UP win */
			img[1][i] = (uint8_t)((i * 2654435761u) >> 13);	/* noise */
			img[2][i] = (uint8_t)(y * 3);			/* rows: UP wins */
			img[3][i] = 0;					/* flat */
			img[4][i] = (uint8_t)(x % 4 == 3 ? 255 : x);	/* alpha channel */
		}
	}
	for (int n = 0; n < N; n++) {
		struct hwct_blob_desc d = { .data = img[n], .size = sizeof(img[n]) - (n == 4 ? 3 : 0),
			.width = W, .height = H, .stride = W * 4, .bpp = 4 };

		CHECK(hwct_writer_add_blob(w, &d, 0, &hashes[n]) == 0);
		CHECK(hwct_writer_add_blob(w, &d, 0, NULL) == 1);	/* stored once */
	}
	CHECK(hwct_writer_close(w) == 0);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	CHECK(hwct_reader_info(r)->blob_count == N);
	for (int n = 0; n < N; n++) {
		struct hwct_blob_data d;

		CHECK_MSG(hwct_reader_blob(r, &hashes[n], &d) == 0, "blob %d", n);
		CHECK(d.size == sizeof(img[n]) - (n == 4 ? 3 : 0));
		CHECK_MSG(memcmp(d.data, img[n], d.size) == 0, "blob %d content", n);
		free(d.data);
	}
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

static void compare_frames(const struct hwct_frame *a, const struct hwct_frame *b)
{
	CHECK(a->frame == b->frame && a->display == b->display && a->display_frame == b->display_frame);
	CHECK(a->t_ns == b->t_ns && a->validated == b->validated && a->layer_count == b->layer_count);
	CHECK(a->width == b->width && a->height == b->height);
	for (size_t i = 0; i < a->layer_count; i++) {
		const struct hwct_layer *x = &a->layers[i], *y = &b->layers[i];

		CHECK_MSG(x->id == y->id && x->z == y->z, "frame %llu layer %zu", (unsigned long long)a->frame, i);
		CHECK(x->requested == y->requested && x->final == y->final);
		CHECK(x->buffer.buffer == y->buffer.buffer && x->buffer.has_content == y->buffer.has_content);
		CHECK(hwct_hash_equal(&x->buffer.content, &y->buffer.content));
		CHECK(memcmp(&x->display_frame, &y->display_frame, sizeof(x->display_frame)) == 0);
		CHECK(x->plane_alpha == y->plane_alpha && x->transform == y->transform);
	}
}

struct frame_copy {
	struct hwct_frame frame;
	struct hwct_layer layers[16];
};

static void case_seek(void)
{
	struct test_trace_options o = { .frames = 200, .keyframe_interval = 7, .layers = 4, .seed = 3,
		.every_kind = true };
	char *path = test_tmp_path(".zst");
	struct frame_copy *all = calloc(o.frames, sizeof(*all));
	struct hwct_reader *r;
	struct hwct_frame_iter *it;
	const struct hwct_frame *f;
	struct hwct_error err;
	unsigned n = 0, rng = 12345;
	int ret;

	CHECK(all);
	test_write_trace(path, &o);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	it = hwct_frame_iter_create(r);
	CHECK(it);
	while ((ret = hwct_frame_iter_next(it, &f)) > 0) {
		CHECK(n == f->frame && f->layer_count <= 16);
		all[n].frame = *f;
		memcpy(all[n].layers, f->layers, f->layer_count * sizeof(*f->layers));
		all[n].frame.layers = all[n].layers;
		/* validate changed every other layer to CLIENT */
		CHECK(f->validated && f->layer_count == 4);
		n++;
	}
	CHECK(ret == 0 && n == o.frames);
	for (int k = 0; k < 40; k++) {
		unsigned target;

		rng = rng * 1103515245u + 12345u;
		target = k == 0 ? 0 : k == 1 ? o.frames - 1 : (rng >> 8) % o.frames;
		CHECK(hwct_frame_iter_seek(it, target) == 0);
		CHECK(hwct_frame_iter_next(it, &f) == 1);
		CHECK_MSG(f->frame == target, "seek %u gave %llu", target, (unsigned long long)f->frame);
		compare_frames(f, &all[target].frame);
	}
	CHECK(hwct_frame_iter_seek(it, o.frames) == -ERANGE);
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
	free(all);
}

struct thread_arg {
	struct hwct_writer *w;
	uint32_t tid;
};

enum { THREADS = 4, PER_THREAD = 3000 };

static void *writer_thread(void *data)
{
	struct thread_arg *a = data;

	for (uint64_t i = 0; i < PER_THREAD; i++) {
		Hwct__Record rec = HWCT__RECORD__INIT;
		Hwct__Call c = HWCT__CALL__INIT;

		c.has_thread = c.has_seq = c.has_function = true;
		c.thread = a->tid;
		c.seq = i;
		c.function = HWC2_FUNCTION_SET_CURSOR_POSITION;
		rec.kind_case = HWCT__RECORD__KIND_CALL;
		rec.call = &c;
		CHECK(hwct_writer_write(a->w, &rec) == 0);
	}
	return NULL;
}

static void case_threads(void)
{
	char *path = test_tmp_path(".zst");
	struct hwct_writer_options wo;
	struct thread_arg args[THREADS];
	pthread_t threads[THREADS];
	uint64_t next[THREADS] = { 0 };
	struct hwct_reader *r;
	const Hwct__Record *rec;
	struct hwct_error err;
	int ret;

	hwct_writer_options_init(&wo);
	wo.frame_target = 16 * 1024;	/* many frames */
	args[0].w = hwct_writer_create(path, &wo);
	CHECK(args[0].w);
	for (int i = 0; i < THREADS; i++) {
		args[i] = (struct thread_arg){ args[0].w, (uint32_t)i };
		CHECK(pthread_create(&threads[i], NULL, writer_thread, &args[i]) == 0);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(threads[i], NULL);
	}
	CHECK(hwct_writer_close(args[0].w) == 0);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		if (rec->kind_case != HWCT__RECORD__KIND_CALL) {
			continue;
		}
		CHECK(rec->call->thread < THREADS);
		CHECK_MSG(rec->call->seq == next[rec->call->thread], "thread %u order", rec->call->thread);
		next[rec->call->thread]++;
	}
	CHECK(ret == 0);
	for (int i = 0; i < THREADS; i++) {
		CHECK(next[i] == PER_THREAD);
	}
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

static void case_budget(void)
{
	char *path = test_tmp_path(".zst");
	struct hwct_writer_options wo;
	struct hwct_writer_stats st;
	struct hwct_writer *w;
	static uint8_t px[512 * 512 * 4];
	int dropped = 0, stored = 0;

	hwct_writer_options_init(&wo);
	wo.memory_budget = 3 * sizeof(px) / 2;	/* room for one payload at a time */
	wo.workers = 1;
	w = hwct_writer_create(path, &wo);
	CHECK(w);
	for (int i = 0; i < 40; i++) {
		struct hwct_blob_desc d = { .data = px, .size = sizeof(px), .width = 512, .height = 512,
			.stride = 2048, .bpp = 4 };
		int ret;

		memset(px, i, sizeof(px));
		ret = hwct_writer_add_blob(w, &d, 0, NULL);
		CHECK(ret == 0 || ret == -ENOBUFS);
		dropped += ret == -ENOBUFS;
		stored += ret == 0;
	}
	hwct_writer_get_stats(w, &st);
	CHECK(st.blobs_dropped == (uint64_t)dropped && st.blobs == (uint64_t)stored);
	CHECK(st.bytes_dropped == (uint64_t)dropped * sizeof(px));
	CHECK(st.bytes_queued_peak <= wo.memory_budget + sizeof(px));
	/* waiting instead of dropping stores everything */
	for (int i = 0; i < 10; i++) {
		struct hwct_blob_desc d = { .data = px, .size = sizeof(px) };

		memset(px, 100 + i, sizeof(px));
		CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, NULL) == 0);
	}
	hwct_writer_get_stats(w, &st);
	CHECK(st.blobs == (uint64_t)stored + 10);
	CHECK(hwct_writer_close(w) == 0);
	printf("budget: %d stored, %d dropped of 40\n", stored, dropped);
	unlink(path);
	free(path);
}

static void case_empty(void)
{
	char *path = test_tmp_path(".zst");
	struct hwct_reader *r;
	const Hwct__Record *rec;
	struct hwct_error err;

	CHECK(hwct_writer_close(hwct_writer_create(path, NULL)) == 0);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	CHECK(hwct_reader_next(r, &rec) == 0);
	CHECK(hwct_reader_info(r)->frame_count == 0 && hwct_reader_info(r)->has_seek_table);
	CHECK(hwct_reader_seek(r, 0) == -ERANGE);
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

/*
 * A blob of no bytes given with a NULL pointer (hwct_writer_add_blob allows
 * it), as plain data and as pixels (a predictor chosen): stored, then read
 * back as 0 bytes, decoded and from the reader's cache of decoded blobs (it
 * once copied 0 bytes from NULL when stored and when read: memcpy).
 */
static void case_empty_blob(void)
{
	const struct hwct_blob_desc descs[] = {
		{ .data = NULL, .size = 0, .kind = HWCT_BLOB_BYTES },
		{ .data = NULL, .size = 0, .kind = HWCT_BLOB_PIXELS, .width = 4, .height = 1, .stride = 16, .bpp = 4 },
	};

	for (size_t k = 0; k < sizeof(descs) / sizeof(descs[0]); k++) {
		char *path = test_tmp_path(".zst");
		struct hwct_writer *w = hwct_writer_create(path, NULL);
		struct hwct_reader *r;
		struct hwct_error err;
		struct hwct_hash hash;

		CHECK(w);
		CHECK_MSG(hwct_writer_add_blob(w, &descs[k], 0, &hash) == 0, "desc %zu", k);
		CHECK(hwct_writer_close(w) == 0);
		r = hwct_reader_open(path, &err);
		CHECK_MSG(r, "%s", err.message);
		CHECK(hwct_reader_info(r)->blob_count == 1);
		for (int pass = 0; pass < 2; pass++) {
			struct hwct_blob_data d;
			int ret = hwct_reader_blob(r, &hash, &d);

			CHECK_MSG(ret == 0, "desc %zu, pass %d: %d %s", k, pass, ret,
				hwct_reader_error(r) ? hwct_reader_error(r)->message : "");
			CHECK_MSG(d.size == 0, "desc %zu, pass %d: %zu bytes", k, pass, d.size);
			free(d.data);
		}
		hwct_reader_destroy(r);
		unlink(path);
		free(path);
	}
}

/*
 * Frames of a display with no layer: the frame model gives each with
 * layer_count 0 (it once sorted the zero layers of a NULL array: qsort,
 * format/state.c; hwc-trace stats of an imported Winscope dump with no layers).
 */
static void case_no_layers(void)
{
	struct test_trace_options o = { .frames = 3, .keyframe_interval = 2, .layers = 0, .seed = 5 };
	char *path = test_tmp_path(".zst");
	struct hwct_reader *r;
	struct hwct_frame_iter *it;
	const struct hwct_frame *f;
	struct hwct_error err;
	unsigned n = 0;
	int ret;

	test_write_trace(path, &o);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	it = hwct_frame_iter_create(r);
	CHECK(it);
	while ((ret = hwct_frame_iter_next(it, &f)) > 0) {
		CHECK_MSG(f->frame == n && f->layer_count == 0, "frame %llu: %zu layers", (unsigned long long)f->frame,
			f->layer_count);
		n++;
	}
	CHECK_MSG(ret == 0 && n == o.frames, "%u frames, then %d", n, ret);
	CHECK(hwct_frame_iter_seek(it, 1) == 0 && hwct_frame_iter_next(it, &f) == 1 && f->layer_count == 0);
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

static const struct test_case cases[] = {
	{ "record-kinds", case_record_kinds },
	{ "blobs", case_blobs },
	{ "predictors", case_predictors },
	{ "seek", case_seek },
	{ "threads", case_threads },
	{ "budget", case_budget },
	{ "empty", case_empty },
	{ "no-layers", case_no_layers },
	{ "empty-blob", case_empty_blob },
};

int main(int argc, char **argv)
{
	return test_run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
