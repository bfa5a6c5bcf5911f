/*
 * Presents that wake no one (recorder/README.md): while frames come, the
 * recorder's worker wakes on its own every ARM_SLEEP_NS (2 ms), and a present
 * whose captures it must arm leaves them to that wake-up when it is due
 * within REC_WAKE_SLACK_NS, instead of a futex wake on the composer's
 * thread. CaptureStats counts the calls that did wake it (worker_wakes).
 *
 * present-wakes: 60 frames at about 60 Hz, a new buffer every frame (so
 * every present has captures to arm): at most a quarter of the presents may
 * wake the worker (every one did before; the first frames, before the
 * worker has seen a present, may), and every capture is still in time (none
 * late, none dropped).
 * present-wakes-sparse: frames 150 ms apart, past the 100 ms after which
 * the worker goes back to sleeping 10 ms at a time: a present then finds it
 * due later than the slack unless it happens to fall in the slack's 2.5 ms
 * before the wake-up (about one in four), so of 8 presents at least one
 * wakes it (all 8 in the slack: about 1 in 65 000), and the captures are in
 * time there too.
 */
#include <stdio.h>

#include "robust.h"
#include "testlib.h"

/* Runs the client for frames frames, sleep_us apart, through the recorder; fills t. */
static bool run(const char *frames, const char *sleep_us, struct test_trace *t)
{
	char out[700], trace[600];
	const char *env[] = { out, NULL };
	const char *args[] = { "--small", "--frames", frames, "--frame-sleep-us", sleep_us, NULL };
	struct test_client c;
	bool ok;

	snprintf(trace, sizeof(trace), "%s", test_path("trace.zst"));
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", trace);
	test_client_run(&c, TEST_HAL, test_path("log"), env, args);
	ok = test_client_ok(&c, false) && test_trace_scan(trace, t, NULL, NULL);
	test_client_finish(&c);
	if (ok) {
		printf("%llu frames, %llu captures (%llu late, %llu dropped); the worker woken by %llu calls\n",
			(unsigned long long)t->frame_ends, (unsigned long long)t->captures_ok,
			(unsigned long long)t->captures_late, (unsigned long long)t->captures_dropped,
			(unsigned long long)t->worker_wakes);
	}
	CHECK(ok, "the client through the recorder failed, or its trace did not read");
	return ok;
}

/* What both cases check besides the count. */
static void check_trace(const struct test_trace *t, unsigned frames)
{
	CHECK(t->frame_ends == frames, "%llu FrameEnds, %u frames", (unsigned long long)t->frame_ends, frames);
	CHECK(t->stats && t->has_wakes, "no CaptureStats with worker_wakes");
	CHECK(t->captures_ok > 0 && t->captures_late == 0 && t->captures_dropped == 0,
		"captures: %llu ok, %llu late, %llu dropped", (unsigned long long)t->captures_ok,
		(unsigned long long)t->captures_late, (unsigned long long)t->captures_dropped);
}

int case_present_wakes(void)
{
	struct test_trace t = { 0 };

	/* the client's own frame takes about 1 ms: 15 ms asleep makes about 60 Hz */
	if (run("60", "15000", &t)) {
		check_trace(&t, 60);
		CHECK(t.worker_wakes <= 15, "%llu calls woke the worker in 60 frames at 60 Hz (at most 15)",
			(unsigned long long)t.worker_wakes);
	}
	return 0;
}

int case_present_wakes_sparse(void)
{
	struct test_trace t = { 0 };

	if (run("8", "150000", &t)) {
		check_trace(&t, 8);
		CHECK(t.worker_wakes >= 1, "no call woke the worker in 8 frames 150 ms apart");
	}
	return 0;
}
