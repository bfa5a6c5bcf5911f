/*
 * hwc-trace stats on the standard trace: every number against what gen2.c
 * wrote (gen2.h explains the layers, fences and capture statuses).
 */
#include <math.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/reader.h>

#include "tests.h"
#include "testjson.h"

/* What the standard trace holds, computed from the rules it was written by. */
struct expect {
	uint64_t composition[8];
	uint64_t device, client, client_frames;
	double layer_pixels, client_pixels;
	uint64_t stored_bytes;
};

static double clipped(int32_t l, int32_t t, int32_t r, int32_t b)
{
	l = l < 0 ? 0 : l;
	t = t < 0 ? 0 : t;
	r = r > GEN_STACK_W ? GEN_STACK_W : r;
	b = b > GEN_STACK_H ? GEN_STACK_H : b;
	return r > l && b > t ? (double)(r - l) * (b - t) : 0.0;
}

static void expect_std(const char *path, struct expect *e)
{
	/* display frames of layers 1..7 (gen2.h) */
	static const int32_t frames[GEN_STACK_LAYERS][4] = { { 0, 0, 64, 48 }, { 0, 0, 16, 8 }, { 16, 0, 32, 8 },
		{ 32, 0, 48, 8 }, { 48, 0, 64, 8 }, { 0, 40, 64, 48 }, { 56, 40, 72, 56 } };
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);

	*e = (struct expect){ 0 };
	CHECK_MSG(r, "%s", err.message);
	e->stored_bytes = hwct_reader_info(r)->stored_bytes;
	hwct_reader_destroy(r);
	for (unsigned k = 0; k < STD_FRAMES; k++) {
		bool client = false;

		for (unsigned l = 1; l <= GEN_STACK_LAYERS; l++) {
			int32_t final = gen_stack_final(l, k, false);
			double area = clipped(frames[l - 1][0], frames[l - 1][1], frames[l - 1][2], frames[l - 1][3]);

			e->composition[final]++;
			e->layer_pixels += area;
			if (final == HWC2_COMPOSITION_CLIENT) {
				e->client++;
				e->client_pixels += area;
				client = true;
			} else {
				e->device++;
			}
		}
		e->client_frames += client;
	}
}

int test_stats_json(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *trace = std_trace("trace.zst", false, &info);
	struct test_run run;
	struct expect e;
	struct json_object *o, *d;

	expect_std(trace, &e);
	fixture_run(fx, &run, (const char *const[]){ "stats", trace, "--json", NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	o = tj_parse(run.out, "stats --json");
	CHECK_EQ_U64(tj_i64(o, "frames"), STD_FRAMES);
	CHECK_EQ_U64(tj_i64(o, "bytes.stored"), e.stored_bytes);
	CHECK(fabs(tj_double(o, "bytes.per_frame") - (double)e.stored_bytes / STD_FRAMES) < 1e-6);
	CHECK_EQ_U64(tj_i64(o, "capture.capture_stats_records"), 2);
	CHECK_EQ_U64(tj_i64(o, "capture.blobs_dropped"), GEN_STACK_BLOBS_DROPPED);
	CHECK_EQ_U64(tj_i64(o, "capture.bytes_dropped"), GEN_STACK_BYTES_DROPPED);
	CHECK_EQ_U64(tj_i64(o, "capture.frames_capture_late"), 1);
	CHECK_EQ_U64(tj_i64(o, "capture.frames_flagged_capture_late"), 1);
	CHECK(json_object_array_length(tj_get(o, "displays")) == 1);
	d = json_object_array_get_idx(tj_get(o, "displays"), 0);
	CHECK_EQ_U64(tj_i64(d, "id"), 0);
	CHECK(strcmp(json_object_get_string(tj_get(d, "name")), "Built-in") == 0);
	CHECK_EQ_U64(tj_i64(d, "width"), GEN_STACK_W);
	CHECK_EQ_U64(tj_i64(d, "frames"), STD_FRAMES);
	CHECK(fabs(tj_double(d, "frame_rate") - 1e9 / GEN_STACK_FRAME_NS) < 1e-3);
	CHECK_EQ_U64(tj_i64(d, "layers_per_frame.min"), GEN_STACK_LAYERS);
	CHECK_EQ_U64(tj_i64(d, "layers_per_frame.max"), GEN_STACK_LAYERS);
	CHECK(fabs(tj_double(d, "layers_per_frame.mean") - GEN_STACK_LAYERS) < 1e-9);
	CHECK_EQ_U64(tj_i64(d, "composition.CLIENT"), e.composition[HWC2_COMPOSITION_CLIENT]);
	CHECK_EQ_U64(tj_i64(d, "composition.DEVICE"), e.composition[HWC2_COMPOSITION_DEVICE]);
	CHECK_EQ_U64(tj_i64(d, "composition.SOLID_COLOR"), e.composition[HWC2_COMPOSITION_SOLID_COLOR]);
	CHECK_EQ_U64(tj_i64(d, "device_layers"), e.device);
	CHECK_EQ_U64(tj_i64(d, "client_layers"), e.client);
	CHECK(fabs(tj_double(d, "offload_ratio") - (double)e.device / (double)(e.device + e.client)) < 1e-9);
	CHECK(fabs(tj_double(d, "layer_pixels") - e.layer_pixels) < 1e-6);
	CHECK(fabs(tj_double(d, "efficiency") - (1.0 - e.client_pixels / e.layer_pixels)) < 1e-9);
	CHECK_EQ_U64(tj_i64(d, "client_frames"), e.client_frames);
	CHECK_EQ_U64(tj_i64(d, "validated_frames"), STD_FRAMES);
	/* acquire waits (k + 1) * 100 us, k = 0..9: nearest ranks 5, 9, 10 */
	CHECK_EQ_U64(tj_i64(d, "fences.acquire_wait.count"), STD_FRAMES);
	CHECK_EQ_U64(tj_i64(d, "fences.acquire_wait.p50_ns"), 500000);
	CHECK_EQ_U64(tj_i64(d, "fences.acquire_wait.p90_ns"), 900000);
	CHECK_EQ_U64(tj_i64(d, "fences.acquire_wait.p99_ns"), 1000000);
	CHECK_EQ_U64(tj_i64(d, "fences.acquire_wait.max_ns"), 1000000);
	/* present: (k % 3 + 1) ms: 1 1 1 1 2 2 2 3 3 3 */
	CHECK_EQ_U64(tj_i64(d, "fences.present.count"), STD_FRAMES);
	CHECK_EQ_U64(tj_i64(d, "fences.present.p50_ns"), 2000000);
	CHECK_EQ_U64(tj_i64(d, "fences.present.p90_ns"), 3000000);
	CHECK_EQ_U64(tj_i64(d, "fences.present.max_ns"), 3000000);
	/* release: 7 ms, the last frame's never signals */
	CHECK_EQ_U64(tj_i64(d, "fences.release.count"), STD_FRAMES - 1);
	CHECK_EQ_U64(tj_i64(d, "fences.release.p50_ns"), GEN_STACK_RELEASE_NS);
	CHECK_EQ_U64(tj_i64(d, "fences.release.max_ns"), GEN_STACK_RELEASE_NS);
	CHECK_EQ_U64(tj_i64(d, "fences.release.unsignalled"), 1);
	CHECK_EQ_U64(tj_i64(d, "buffers"), 7);
	CHECK_EQ_U64(tj_i64(d, "capture_status.OK"), info.layer_buffer_ok);
	CHECK_EQ_U64(tj_i64(d, "capture_status.OFF"), info.layer_buffer_off);
	CHECK(json_object_get_boolean(tj_get(o, "complete")));
	json_object_put(o);
	test_run_finish(&run);
	return 0;
}

int test_stats_text(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *trace = std_trace("trace.zst", false, &info);
	struct test_run run;
	char line[256];

	fixture_run(fx, &run, (const char *const[]){ "stats", trace, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	CHECK(test_contains(run.out, "display 0 \"Built-in\" 64x48"));
	CHECK(test_contains(run.out, "10, 60.00 per second"));
	CHECK(test_contains(run.out, "min 7, mean 7.00, max 7"));
	CHECK(test_contains(run.out, "CLIENT 5 (7.1%), DEVICE 55 (78.6%), SOLID_COLOR 10 (14.3%)"));
	CHECK(test_contains(run.out, "92.9% (65 of 70 layers on the device)"));
	CHECK(test_contains(run.out, "0.985 (640 of 41600 layer pixels composited by the client)"));
	CHECK(test_contains(run.out, "n 10  p50 0.500 ms  p90 0.900 ms  p99 1.000 ms  max 1.000 ms"));
	CHECK(test_contains(run.out, "n 9  p50 7.000 ms  p90 7.000 ms  p99 7.000 ms  max 7.000 ms  (1 never signalled)"));
	snprintf(line, sizeof(line), "OK %llu, OFF %llu (setLayerBuffer calls)", (unsigned long long)info.layer_buffer_ok,
		(unsigned long long)info.layer_buffer_off);
	CHECK_MSG(test_contains(run.out, line), "no '%s' in:\n%s", line, run.out);
	CHECK(test_contains(run.out, "3 blobs (4096 bytes), 0 records, 1 frames late (last of 2 CaptureStats)"));
	test_run_finish(&run);

	/* a file that is not a trace: the reader's error names it and the offset */
	fixture_run(fx, &run, (const char *const[]){ "stats", "/nonexistent/trace.zst", NULL });
	CHECK(run.status == 1 && test_contains(run.err, "/nonexistent/trace.zst"));
	test_run_finish(&run);
	return 0;
}
