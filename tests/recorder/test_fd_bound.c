/*
 * The recorder's fd budget (recorder/fds.h): a client with a low
 * RLIMIT_NOFILE (hwc2-client --nofile, set before the module is loaded)
 * runs unpaced with acquire fences that never signal, so the fence watcher
 * keeps every acquire fence it watches and the budget is spent within a few
 * frames, whatever the machine's speed. From then on the recorder must make
 * no more dups: the client's own open()/dup() (one of each per frame) and
 * its pipes and memfds never fail with EMFILE, every call is still in the
 * trace, the captures that got no fd are dropped and counted
 * (CaptureStats.captures_no_fd, part of blobs_dropped), the fences that got
 * none are written as FENCE_UNWATCHED and counted (fences_unwatched), the
 * budget is a quarter of the limit and never exceeded (fds_held_peak), and
 * the process's fds grow by no more than the budget after the warm-up (no
 * leak).
 */
#include <stdlib.h>

#include "robust.h"
#include "testlib.h"

/*
 * Low, but with room for what is not the recorder's: the client's own ~20
 * fds and the fake module's fences in flight (its signal thread holds each
 * frame's for 1 ms, and at most FAKE_SIGNAL_MAX, 64, however far an unpaced
 * client on a loaded host runs ahead of it: 256 let them take the client's
 * room).
 */
#define NOFILE 256
#define BUDGET (NOFILE / 4)	/* recorder/README.md, "Capture before release" */
#define FRAMES 300
#define WARMUP 50

int case_fd_bound(void)
{
	char out[600], frames[16], nofile[16], warm[16];
	const char *env[] = { out, NULL };
	const char *args[] = { "--small", "--frames", frames, "--frame-sleep-us", "0", "--acquire-unsignalled",
		"--nofile", nofile, "--fd-check", warm, NULL };
	struct test_client c;
	struct test_log log;
	struct test_trace t;
	int fds_warm = -1, fds_end = -1;
	const char *fact;

	snprintf(frames, sizeof(frames), "%d", FRAMES);
	snprintf(nofile, sizeof(nofile), "%d", NOFILE);
	snprintf(warm, sizeof(warm), "%d", WARMUP);
	test_output_env(out, sizeof(out));
	if (!test_client_run_log(&c, &log, env, args, true)) {
		return 0;
	}

	fact = test_log_fact(&log, "emfile");
	CHECK(fact && strtoul(fact, NULL, 10) == 0, "the client's own open()/dup() failed: %s",
		fact ? fact : "no emfile line");
	fact = test_log_fact(&log, "fds");
	CHECK(fact && sscanf(fact, "%d %d", &fds_warm, &fds_end) == 2, "no fd counts in the log");
	fprintf(stderr, "open fds: %d after %d frames, %d after %d\n", fds_warm, WARMUP, fds_end, FRAMES);
	/*
	 * What the recorder holds at a given moment varies within its budget
	 * (captures waiting for a fence that never signals keep their buffer's
	 * fd until they give up): a leak is growth past it.
	 */
	CHECK(fds_warm > 0 && fds_end <= fds_warm + BUDGET, "%d fds open after %d frames, %d after %d",
		fds_warm, WARMUP, fds_end, FRAMES);

	test_check_calls(test_trace_path(&c, 0, test_path("out")), &log, &t);
	fprintf(stderr, "trace: %llu calls, %llu frames, captures %llu ok %llu dropped (%llu for want of an fd) "
		"%llu late; fd budget %llu, peak %llu; %llu of %llu fences unwatched (CaptureStats %llu)\n",
		(unsigned long long)t.calls, (unsigned long long)t.frame_ends,
		(unsigned long long)t.captures_ok, (unsigned long long)t.captures_dropped,
		(unsigned long long)t.captures_no_fd, (unsigned long long)t.captures_late,
		(unsigned long long)t.fd_budget, (unsigned long long)t.fds_held_peak,
		(unsigned long long)t.fences_unwatched_seen, (unsigned long long)t.fences,
		(unsigned long long)t.fences_unwatched);
	CHECK(t.closed, "the trace was not finished (no seek table)");
	CHECK(t.frame_ends == FRAMES, "%llu FrameEnds, %d frames", (unsigned long long)t.frame_ends, FRAMES);
	CHECK(t.stats && t.records_dropped == 0, "%llu calls dropped", (unsigned long long)t.records_dropped);
	CHECK(t.has_fds, "the last CaptureStats has no fd-budget fields");
	CHECK(t.fd_budget == BUDGET, "fd budget %llu with RLIMIT_NOFILE %d", (unsigned long long)t.fd_budget,
		NOFILE);
	CHECK(t.fds_held_peak > 0 && t.fds_held_peak <= t.fd_budget, "peak %llu fds held, budget %llu",
		(unsigned long long)t.fds_held_peak, (unsigned long long)t.fd_budget);
	CHECK(t.captures_no_fd > 0, "no capture was dropped for want of an fd: the budget was never spent");
	CHECK(t.captures_no_fd <= t.blobs_dropped, "%llu captures without an fd, %llu dropped in all",
		(unsigned long long)t.captures_no_fd, (unsigned long long)t.blobs_dropped);
	CHECK(t.blobs_dropped == t.captures_dropped, "CaptureStats says %llu dropped, %llu calls say so",
		(unsigned long long)t.blobs_dropped, (unsigned long long)t.captures_dropped);
	CHECK(t.fences_unwatched > 0, "no fence was left unwatched");
	CHECK(t.fences_unwatched == t.fences_unwatched_seen, "CaptureStats says %llu fences unwatched, "
		"%llu Fence records say so", (unsigned long long)t.fences_unwatched,
		(unsigned long long)t.fences_unwatched_seen);
	test_log_finish(&log);
	test_client_finish(&c);
	return 0;
}
