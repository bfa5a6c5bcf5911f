/*
 * Captures that never complete (acquire fences that never signal,
 * hwc2-client --acquire-unsignalled): presentDisplay waits for the previous
 * frames' captures at most HWCT_CAPTURE_WAIT_MS, then gives them up (they
 * are late). getReleaseFences of that frame waits for the same captures: it
 * must not wait a second time for what presentDisplay already gave up on.
 * (It used to, until the worker had marked them: up to the whole wait again
 * when the worker was busy copying another capture. This test cannot make
 * the worker busy; it checks the late path end to end and the bound.)
 * Checked in the trace (the wait comes after the real call returned, so it
 * is the gap from a call's t_exit to the client's next call): every
 * presentDisplay after the first waited at least half of WAIT_MS, no
 * getReleaseFences a quarter of it, and the captures are late.
 */
#include <stdio.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwctrace.pb-c.h>

#include "robust.h"
#include "testlib.h"

#define FRAMES 4
#define WAIT_MS 200

struct late_calls {
	int32_t prev_function;		/* of the call before, 0 none */
	uint64_t prev_exit_ns;
	unsigned presents, presents_waited, releases, releases_slow;
	uint64_t release_max_ns;	/* longest gap after a getReleaseFences */
};

static void on_call(const Hwct__Call *c, void *data)
{
	struct late_calls *lc = data;
	uint64_t gap = lc->prev_function && c->t_enter_ns > lc->prev_exit_ns ?
		c->t_enter_ns - lc->prev_exit_ns : 0;

	if (lc->prev_function == HWC2_FUNCTION_PRESENT_DISPLAY) {
		lc->presents++;
		lc->presents_waited += gap >= WAIT_MS * 1000000ull / 2;
	} else if (lc->prev_function == HWC2_FUNCTION_GET_RELEASE_FENCES) {
		lc->releases++;
		lc->releases_slow += gap > WAIT_MS * 1000000ull / 4;
		lc->release_max_ns = gap > lc->release_max_ns ? gap : lc->release_max_ns;
	}
	lc->prev_function = c->function;
	lc->prev_exit_ns = c->t_exit_ns;
}

int case_capture_late(void)
{
	char out[700], frames[16];
	const char *env[] = { out, "HWCT_CAPTURE_WAIT_MS=200", NULL };
	const char *args[] = { "--small", "--frames", frames, "--frame-sleep-us", "1000", "--acquire-unsignalled",
		NULL };
	struct late_calls lc = { 0 };
	struct test_client c;
	struct test_trace t;
	char trace[600];

	snprintf(trace, sizeof(trace), "%s", test_path("trace.zst"));
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", trace);
	snprintf(frames, sizeof(frames), "%d", FRAMES);
	test_client_run(&c, TEST_HAL, test_path("log"), env, args);
	CHECK(c.status == 0, "client exit %d: %s", c.status, c.err);
	CHECK(c.err[0] == '\0', "the client or the recorder printed: %s", c.err);
	if (c.status == 0 && test_trace_scan(trace, &t, on_call, &lc)) {
		fprintf(stderr, "%u presentDisplay (%u waited), %u getReleaseFences (%u slow, longest %.2f ms), "
			"captures %llu ok %llu late\n", lc.presents, lc.presents_waited, lc.releases,
			lc.releases_slow, lc.release_max_ns / 1e6, (unsigned long long)t.captures_ok,
			(unsigned long long)t.captures_late);
		CHECK(lc.presents == FRAMES, "%u presentDisplay calls, %d frames", lc.presents, FRAMES);
		CHECK(lc.presents_waited == FRAMES - 1, "%u of the %d presentDisplay after the first waited",
			lc.presents_waited, FRAMES - 1);
		CHECK(lc.releases >= FRAMES, "%u gaps after getReleaseFences", lc.releases);
		CHECK(lc.releases_slow == 0, "%u getReleaseFences waited again (longest %.1f ms)",
			lc.releases_slow, lc.release_max_ns / 1e6);
		CHECK(t.captures_late > 0, "no capture is late");
	}
	test_client_finish(&c);
	return 0;
}

/*
 * HWCT_CAPTURE_WAIT_MS=0: presentDisplay and getReleaseFences
 * never wait for captures. With acquire fences that never signal, no
 * capture can start before the fake hands the buffer back (its release
 * fence signals at the next present): each such capture is marked late in
 * its call and counted, none is stored, no call waited for one, and the
 * session ends (no deadlock).
 */
int case_capture_released(void)
{
	char out[700], frames[16];
	const char *env[] = { out, "HWCT_CAPTURE_WAIT_MS=0", NULL };
	const char *args[] = { "--small", "--frames", frames, "--frame-sleep-us", "1000", "--acquire-unsignalled",
		NULL };
	struct late_calls lc = { 0 };
	struct test_client c;
	struct test_trace t;
	char trace[600];

	snprintf(trace, sizeof(trace), "%s", test_path("trace.zst"));
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", trace);
	snprintf(frames, sizeof(frames), "%d", FRAMES * 2);
	test_client_run(&c, TEST_HAL, test_path("log"), env, args);
	CHECK(c.status == 0, "client exit %d: %s", c.status, c.err);
	CHECK(c.err[0] == '\0', "the client or the recorder printed: %s", c.err);
	if (c.status == 0 && test_trace_scan(trace, &t, on_call, &lc)) {
		fprintf(stderr, "%u presentDisplay (%u waited), %u getReleaseFences (%u slow), captures %llu ok %llu late\n",
			lc.presents, lc.presents_waited, lc.releases, lc.releases_slow,
			(unsigned long long)t.captures_ok, (unsigned long long)t.captures_late);
		CHECK(lc.presents == FRAMES * 2, "%u presentDisplay calls, %d frames", lc.presents, FRAMES * 2);
		CHECK(lc.presents_waited == 0, "%u presentDisplay waited", lc.presents_waited);
		CHECK(lc.releases_slow == 0, "%u getReleaseFences waited", lc.releases_slow);
		CHECK(t.captures_late > 0, "no capture is late");
		/* every frame's layer with an unsignalled fence is released, by the next present, before any read */
		CHECK(t.captures_late >= FRAMES * 2 - 1, "%llu captures late", (unsigned long long)t.captures_late);
		CHECK(t.stats && t.closed, "the trace has no CaptureStats or was not closed");
	}
	test_client_finish(&c);
	return 0;
}
