/*
 * Captures that never complete (acquire fences that never signal,
 * hwc2-client --acquire-unsignalled). With HWCT_CAPTURE_WAIT_MS set,
 * presentDisplay waits for the previous
 * frames' captures at most that long, then gives them up (they
 * are late). getReleaseFences of that frame waits for the same captures: it
 * must not wait a second time for what presentDisplay already gave up on.
 * (It used to, until the worker had marked them: up to the whole wait again
 * when the worker was busy copying another capture. This test cannot make
 * the worker busy; it checks the late path end to end and the bound.)
 *
 * Checked in the trace (the wait comes after the real call returned, so it
 * is the gap from a call's t_exit to the client's next call). No check
 * depends on how loaded the machine is: the wait ends at a deadline taken
 * after t_exit, so a call that waited out WAIT_MS shows a gap of at least
 * WAIT_MS however slow the machine (load only makes gaps longer). So every
 * presentDisplay after the first must show such a gap, and no
 * getReleaseFences may (a second wait that runs out would); what load adds
 * to a gap that did not wait stays far below WAIT_MS. The frames are
 * flagged capture-late and the captures marked late.
 */
#include <stdio.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/hwctrace.pb-c.h>

#include "robust.h"
#include "testlib.h"

#define FRAMES 4
#define WAIT_MS 500
#define WAIT_NS (WAIT_MS * 1000000ull)

/*
 * With HWCT_CAPTURE_WAIT_MS=0 nothing may wait; a call that did would wait
 * for an acquire fence that never signals, which the worker gives up after
 * 2 s (capture.c, MAX_WAIT_NS): half of that is the bound, far above what
 * load adds to a gap.
 */
#define NO_WAIT_MAX_NS 1000000000ull

struct late_calls {
	int32_t prev_function;		/* of the call before, 0 none */
	uint64_t prev_exit_ns;
	unsigned presents, releases;
	unsigned presents_waited;	/* gap after it >= WAIT_NS */
	unsigned releases_waited;	/* gap after it >= WAIT_NS */
	uint64_t present_min_ns;	/* shortest gap after a presentDisplay but the first */
	uint64_t present_max_ns, release_max_ns;	/* longest gaps */
};

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void on_call(const Hwct__Call *c, void *data)
{
	struct late_calls *lc = data;
	uint64_t gap = lc->prev_function && c->t_enter_ns > lc->prev_exit_ns ?
		c->t_enter_ns - lc->prev_exit_ns : 0;

	if (lc->prev_function == HWC2_FUNCTION_PRESENT_DISPLAY) {
		/* the first present has no earlier frame to wait for */
		if (lc->presents++ > 0 && (lc->present_min_ns == 0 || gap < lc->present_min_ns)) {
			lc->present_min_ns = gap;
		}
		lc->presents_waited += gap >= WAIT_NS;
		lc->present_max_ns = max_u64(gap, lc->present_max_ns);
	} else if (lc->prev_function == HWC2_FUNCTION_GET_RELEASE_FENCES) {
		lc->releases++;
		lc->releases_waited += gap >= WAIT_NS;
		lc->release_max_ns = max_u64(gap, lc->release_max_ns);
	}
	lc->prev_function = c->function;
	lc->prev_exit_ns = c->t_exit_ns;
}

static void print_calls(const struct late_calls *lc, const struct test_trace *t)
{
	fprintf(stderr, "%u presentDisplay (%u waited, shortest gap after the first %.2f ms), "
		"%u getReleaseFences (%u waited, longest gap %.2f ms), captures %llu ok %llu late, "
		"%llu of %llu frames flagged late\n", lc->presents, lc->presents_waited, lc->present_min_ns / 1e6,
		lc->releases, lc->releases_waited, lc->release_max_ns / 1e6, (unsigned long long)t->captures_ok,
		(unsigned long long)t->captures_late, (unsigned long long)t->frame_ends_late,
		(unsigned long long)t->frame_ends);
}

int case_capture_late(void)
{
	char out[700], frames[16], wait[64];
	const char *env[] = { out, wait, NULL };
	const char *args[] = { "--small", "--frames", frames, "--frame-sleep-us", "1000", "--acquire-unsignalled",
		NULL };
	struct late_calls lc = { 0 };
	struct test_client c;
	struct test_trace t;
	char trace[600];

	snprintf(trace, sizeof(trace), "%s", test_path("trace.zst"));
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", trace);
	snprintf(wait, sizeof(wait), "HWCT_CAPTURE_WAIT_MS=%d", WAIT_MS);
	snprintf(frames, sizeof(frames), "%d", FRAMES);
	test_client_run(&c, TEST_HAL, test_path("log"), env, args);
	if (test_client_ok(&c, true) && test_trace_scan(trace, &t, on_call, &lc)) {
		print_calls(&lc, &t);
		CHECK(lc.presents == FRAMES, "%u presentDisplay calls, %d frames", lc.presents, FRAMES);
		/* the first present may find nothing to wait for; every later one waited out its deadline */
		CHECK(lc.presents_waited >= FRAMES - 1, "%u of the %d presentDisplay after the first waited %d ms "
			"(shortest gap %.2f ms)", lc.presents_waited, FRAMES - 1, WAIT_MS, lc.present_min_ns / 1e6);
		CHECK(lc.releases >= FRAMES, "%u gaps after getReleaseFences", lc.releases);
		CHECK(lc.releases_waited == 0, "%u getReleaseFences waited out a second %d ms wait (longest gap %.1f ms)",
			lc.releases_waited, WAIT_MS, lc.release_max_ns / 1e6);
		CHECK(t.captures_late > 0, "no capture is late");
		CHECK(t.frame_ends_late > 0, "no FrameEnd is flagged capture-late");
	}
	test_client_finish(&c);
	return 0;
}

/*
 * The default (HWCT_CAPTURE_WAIT_MS unset, 0): presentDisplay and
 * getReleaseFences never wait for captures. With acquire fences that never signal, no
 * capture can start before the fake hands the buffer back (its release
 * fence signals at the next present): each such capture is marked late in
 * its call and counted, none is stored, no call waited for one (no gap
 * reaches NO_WAIT_MAX_NS), and the session ends (no deadlock).
 */
int case_capture_released(void)
{
	char out[700], frames[16];
	const char *env[] = { out, NULL };
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
	if (test_client_ok(&c, true) && test_trace_scan(trace, &t, on_call, &lc)) {
		print_calls(&lc, &t);
		CHECK(lc.presents == FRAMES * 2, "%u presentDisplay calls, %d frames", lc.presents, FRAMES * 2);
		CHECK(lc.present_max_ns < NO_WAIT_MAX_NS, "a presentDisplay waited (gap %.1f ms)",
			lc.present_max_ns / 1e6);
		CHECK(lc.release_max_ns < NO_WAIT_MAX_NS, "a getReleaseFences waited (gap %.1f ms)",
			lc.release_max_ns / 1e6);
		CHECK(t.captures_late > 0, "no capture is late");
		/* every frame's layer with an unsignalled fence is released, by the next present, before any read */
		CHECK(t.captures_late >= FRAMES * 2 - 1, "%llu captures late", (unsigned long long)t.captures_late);
		CHECK(t.frame_ends_late > 0, "no FrameEnd is flagged capture-late");
		CHECK(t.stats && t.closed, "the trace has no CaptureStats or was not closed");
	}
	test_client_finish(&c);
	return 0;
}

/*
 * A producer that takes longer than 2 s (the worker's own limit for an
 * acquire fence) with HWCT_CAPTURE_WAIT_MS longer than that: each frame's
 * acquire fences signal ACQUIRE_LATE_MS after its presentDisplay (as under
 * an emulator, where a session's first present can take seconds). The
 * recorder was told to wait, so no capture may be given up before the wait
 * would be: every capture is stored, none late, no frame flagged. (It failed
 * while the worker gave an acquire fence 2 s whatever the wait: vm-recorder's
 * frame 0 under TCG.)
 */
#define ACQUIRE_LATE_MS 2300
#define ACQUIRE_WAIT_MS 8000

int case_capture_acquire_late(void)
{
	char out[700], wait[64], late[16];
	const char *env[] = { out, wait, NULL };
	const char *args[] = { "--small", "--frames", "2", "--acquire-late-ms", late, NULL };
	struct late_calls lc = { 0 };
	struct test_client c;
	struct test_trace t;
	char trace[600];

	snprintf(trace, sizeof(trace), "%s", test_path("trace.zst"));
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", trace);
	snprintf(wait, sizeof(wait), "HWCT_CAPTURE_WAIT_MS=%d", ACQUIRE_WAIT_MS);
	snprintf(late, sizeof(late), "%d", ACQUIRE_LATE_MS);
	test_client_run(&c, TEST_HAL, test_path("log"), env, args);
	if (test_client_ok(&c, true) && test_trace_scan(trace, &t, on_call, &lc)) {
		print_calls(&lc, &t);
		CHECK(lc.presents == 2, "%u presentDisplay calls, 2 frames", lc.presents);
		CHECK(t.captures_ok > 0 && t.captures_late == 0 && t.captures_dropped == 0,
			"captures: %llu ok, %llu late, %llu dropped; acquire fences %d ms after the present, "
			"HWCT_CAPTURE_WAIT_MS=%d", (unsigned long long)t.captures_ok,
			(unsigned long long)t.captures_late, (unsigned long long)t.captures_dropped,
			ACQUIRE_LATE_MS, ACQUIRE_WAIT_MS);
		CHECK(t.frame_ends_late == 0, "%llu FrameEnds flagged capture-late",
			(unsigned long long)t.frame_ends_late);
	}
	test_client_finish(&c);
	return 0;
}
