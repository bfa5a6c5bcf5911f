/*
 * The recorder benchmark's UI session, the parent's side (bench_recorder.h):
 * runs the session's two children (on the fake directly, then through the
 * recorder with pixels on and HWCT_CAPTURE_WAIT_MS=0), and prints per layer
 * captured / late / dropped read back from the trace, the recorder's CPU
 * per second of session, and the goal of issue 16 goal 2.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_recorder.h"

/* ------------------------------------------------------------- report */

#define GOAL_CORES 1.0

void bench_ui_print(const struct bench_ui_result *direct, const struct bench_ui_result *rec, const char *out_dir)
{
	struct bench_trace_summary sum = { 0 };
	double secs = rec->session_ns / 1e9, dsecs = direct->session_ns / 1e9;
	double cores = secs > 0 ? rec->other_cpu_ns / 1e9 / secs : 0;
	double dcores = dsecs > 0 ? direct->other_cpu_ns / 1e9 / dsecs : 0;
	uint64_t late = 0, dropped = 0, captured = 0, buffers = 0;
	bool traced;

	printf("ui session (issue 16 goal 2): %u frames at 60 Hz after warm-up; ", rec->frames);
	bench_ui_describe(stdout);
	printf(", HWCT_CAPTURE_WAIT_MS=0\n");
	traced = bench_trace_summarize(out_dir, &sum) == 0;
	printf("ui session recorded (warm-up frames included):\n");
	if (traced) {
		bench_trace_print(stdout, &sum, bench_ui_layer_names);
		for (int i = 0; i < BENCH_TRACE_LAYERS && sum.layers[i].id; i++) {
			buffers += sum.layers[i].buffers;
			captured += sum.layers[i].status[0];
			dropped += sum.layers[i].status[2];
			late += sum.layers[i].status[3];
		}
	}
	printf("ui session per layer, captured / late / dropped:");
	for (int i = 0; traced && i < BENCH_TRACE_LAYERS && sum.layers[i].id; i++) {
		printf(" %s %llu / %llu / %llu%s", i < BENCH_UI_LAYERS ? bench_ui_layer_names[i] : "layer",
			(unsigned long long)sum.layers[i].status[0], (unsigned long long)sum.layers[i].status[3],
			(unsigned long long)sum.layers[i].status[2], i + 1 < BENCH_UI_LAYERS ? ";" : "");
	}
	printf("\n");
	printf("ui session recorder CPU: %.3f core (%.0f ms per s of session; process CPU minus the client "
		"thread's, %.1f s), baseline the same session on the fake directly %.3f core; client thread "
		"%.3f core with the recorder, %.3f direct; producer waited for a release fence %llu times\n",
		cores, cores * 1e3, secs, dcores, secs > 0 ? rec->client_cpu_ns / 1e9 / secs : 0,
		dsecs > 0 ? direct->client_cpu_ns / 1e9 / dsecs : 0, (unsigned long long)rec->release_waits);
	printf("ui session goal: %llu of %llu buffers captured, %llu late, %llu dropped (goal 0, 0), recorder "
		"CPU %.3f core (goal ≤ %.1f): %s\n", (unsigned long long)captured, (unsigned long long)buffers,
		(unsigned long long)late, (unsigned long long)dropped, cores, GOAL_CORES,
		traced && buffers && captured == buffers && late == 0 && dropped == 0 && cores <= GOAL_CORES ?
		"PASS" : "MISS");
}

/* ------------------------------------------------------------ processes */

static const char *const ui_child_names[2] = { "ui-direct", "ui" };

bool bench_ui_is_child(const char *name)
{
	return strcmp(name, ui_child_names[0]) == 0 || strcmp(name, ui_child_names[1]) == 0;
}

int bench_ui_child(const char *name, const struct bench_ui_options *o, const char *result_path)
{
	struct bench_ui_result res;
	FILE *f;
	int ret = bench_ui_run(o, &res);

	if (ret < 0) {
		fprintf(stderr, "bench-recorder: %s: %s\n", name, strerror(-ret));
		return 1;
	}
	f = fopen(result_path, "wb");
	if (!f || fwrite(&res, sizeof(res), 1, f) != 1 || fclose(f) != 0) {
		fprintf(stderr, "bench-recorder: %s: %s\n", result_path, strerror(errno));
		return 1;
	}
	return 0;
}

/* Runs one UI child (direct or through the recorder) and reads its result. */
static int ui_spawn(const struct bench_ui_parent *p, int which, const char *out_dir, struct bench_ui_result *res)
{
	char result[300], warmup[16], frames[16], none[300];
	char *argv[20];
	struct bench_env env[6];
	size_t n = 0, e = 0;
	FILE *f;
	int ret;

	snprintf(result, sizeof(result), "%s/%s.result", p->tmp, ui_child_names[which]);
	snprintf(none, sizeof(none), "%s/no-lttng", p->tmp);
	snprintf(warmup, sizeof(warmup), "%u", p->warmup);
	snprintf(frames, sizeof(frames), "%u", p->frames);
	argv[n++] = (char *)p->self;
	argv[n++] = "--child";
	argv[n++] = (char *)ui_child_names[which];
	argv[n++] = "--samples";
	argv[n++] = result;
	argv[n++] = "--warmup";
	argv[n++] = warmup;
	argv[n++] = "--frames";
	argv[n++] = frames;
	argv[n++] = "--fake";
	argv[n++] = (char *)p->fake;
	argv[n++] = "--recorder";
	argv[n++] = (char *)p->recorder;
	if (p->pixels) {
		argv[n++] = "--pixels";
		argv[n++] = (char *)p->pixels;
	}
	argv[n] = NULL;
	env[e++] = (struct bench_env){ "HWCT_REAL_MODULE", p->fake };
	env[e++] = (struct bench_env){ "HWCT_OUTPUT", out_dir };
	env[e++] = (struct bench_env){ "HWCT_PIXELS", "1" };
	env[e++] = (struct bench_env){ "HWCT_CAPTURE_WAIT_MS", "0" };	/* present never waits */
	env[e++] = (struct bench_env){ "LTTNG_HOME", none };
	env[e++] = (struct bench_env){ "LTTNG_UST_REGISTER_TIMEOUT", "0" };
	ret = bench_spawn(argv, env, e, false, NULL);
	if (ret != 0) {
		fprintf(stderr, "bench-recorder: the %s run failed (%d)\n", ui_child_names[which], ret);
		return -EIO;
	}
	f = fopen(result, "rb");
	ret = f && fread(res, sizeof(*res), 1, f) == 1 ? 0 : -EIO;
	if (f) {
		fclose(f);
	}
	unlink(result);
	return ret;
}

int bench_ui_session(const struct bench_ui_parent *p)
{
	struct bench_ui_result direct, rec;
	char out[300];

	snprintf(out, sizeof(out), "%s/out-ui", p->tmp);
	if (mkdir(out, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "bench-recorder: %s: %s\n", out, strerror(errno));
		return -errno;
	}
	if (ui_spawn(p, 0, out, &direct) < 0 || ui_spawn(p, 1, out, &rec) < 0) {
		return -EIO;
	}
	bench_ui_print(&direct, &rec, out);
	return 0;
}
