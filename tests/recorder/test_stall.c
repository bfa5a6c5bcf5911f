/*
 * A stalled trace reader: HWCT_OUTPUT is a FIFO that nobody reads until the
 * client has run all its frames. "no-reader": nobody has it open either
 * while the device opens (open() for writing would wait for a reader; the
 * recorder must not); "unread": the test holds the read end but does not
 * read. While stalled, the client's calls do not wait for the writer: a
 * call that waited for the FIFO would wait until the drain, so the client
 * must run every frame before anyone reads; and setLayerBuffer and
 * presentDisplay (which never wait for captures by default) stay under
 * CLIENT_SLOW_NS (50 ms), a bound only a call waiting on I/O crosses,
 * except for at most MAX_SLOW_SHARE of them, and none reaches
 * MAX_CALL_NS. The share is set by the failure, not by the machine: a hot
 * path that waits for the writer does it on every frame once stalled, and
 * the stall starts within the first third of the frames (the trace is
 * larger than the FIFO, and most captures are dropped), so such a recorder
 * makes well over half the calls slow; a loaded machine deschedules the
 * client for 50 ms now and then, nowhere near a quarter of its calls.
 * Pixels past the memory budget are dropped and counted. Once the test
 * drains the FIFO, the trace holds every call and frame and says how many
 * captures it dropped.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "client_probe.h"
#include "robust.h"
#include "testlib.h"

#define FRAMES 200
#define MAX_SLOW_SHARE 0.25		/* of the calls may take CLIENT_SLOW_NS or more */
#define MAX_CALL_NS 2000000000ull	/* 2 s: no call waits that long, however loaded */
#define MAX_OPEN_NS 2000000000ull	/* the device open starts threads */
#define RUN_TIMEOUT_MS 60000
#define DRAIN_TIMEOUT_MS 60000

/* Waits until the client wrote its log's last facts (all frames done) or ended. */
static bool wait_frames_done(struct test_client *c)
{
	struct timespec step = { 0, 20000000 };

	for (int waited = 0; waited < RUN_TIMEOUT_MS; waited += 20) {
		char *text = test_read_file(test_path("log"), NULL);
		bool done = text && strstr(text, "\n# latency ");

		free(text);
		if (done) {
			return true;
		}
		if (test_client_done(c)) {
			return false;
		}
		nanosleep(&step, NULL);
	}
	return false;
}

static void check_latency(const struct test_log *log)
{
	const char *fact = test_log_fact(log, "latency");
	unsigned long long open_ns, buffer_ns, present_ns, buffer_slow, buffers, present_slow, presents;
	int buffer_frame, present_frame;

	if (!fact || sscanf(fact, "open %llu set_layer_buffer %llu %d present %llu %d slow %llu %llu %llu %llu",
			&open_ns, &buffer_ns, &buffer_frame, &present_ns, &present_frame, &buffer_slow, &buffers,
			&present_slow, &presents) != 9) {
		CHECK(0, "no latency line in the client's log");
		return;
	}
	fprintf(stderr, "longest calls while stalled: open %.2f ms, setLayerBuffer %.2f ms (frame %d), "
		"presentDisplay %.2f ms (frame %d); %llu of %llu setLayerBuffer and %llu of %llu "
		"presentDisplay took %llu ms or more\n", open_ns / 1e6, buffer_ns / 1e6, buffer_frame,
		present_ns / 1e6, present_frame, buffer_slow, buffers, present_slow, presents,
		CLIENT_SLOW_NS / 1000000);
	CHECK(buffers >= FRAMES && presents >= FRAMES, "%llu setLayerBuffer, %llu presentDisplay for %d frames",
		buffers, presents, FRAMES);
	CHECK(open_ns < MAX_OPEN_NS, "the device open took %.1f ms", open_ns / 1e6);
	CHECK(buffer_ns < MAX_CALL_NS, "a setLayerBuffer took %.1f ms", buffer_ns / 1e6);
	CHECK(present_ns < MAX_CALL_NS, "a presentDisplay took %.1f ms", present_ns / 1e6);
	CHECK(buffer_slow <= buffers * MAX_SLOW_SHARE, "%llu of %llu setLayerBuffer calls were slow",
		buffer_slow, buffers);
	CHECK(present_slow <= presents * MAX_SLOW_SHARE, "%llu of %llu presentDisplay calls were slow",
		present_slow, presents);
}

static int run_stalled(bool reader_open)
{
	char out[600], frames[16];
	const char *env[] = { out, "HWCT_BUDGET_MB=1", NULL };
	const char *args[] = { "--small", "--frames", frames, "--frame-sleep-us", "1000", NULL };
	char fifo[512];
	struct test_client c;
	struct test_log log;
	struct test_trace t;
	bool ran;
	long got;
	int fd = -1;

	snprintf(fifo, sizeof(fifo), "%s", test_path("trace.fifo"));
	if (mkfifo(fifo, 0600) < 0) {
		perror("mkfifo");
		return 2;
	}
	if (reader_open) {
		fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			perror("open fifo");
			return 2;
		}
	}
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", fifo);
	snprintf(frames, sizeof(frames), "%d", FRAMES);
	test_client_start(&c, TEST_HAL, test_path("log"), env, args);

	/* nobody reads until every frame ran */
	ran = wait_frames_done(&c);
	CHECK(ran, "the client did not run its frames while the FIFO was not read (status %d)", c.status);
	if (fd < 0) {
		fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	got = fd < 0 ? -1 : test_fifo_drain(fd, test_path("trace.zst"), &c, DRAIN_TIMEOUT_MS);
	CHECK(got > 0, "draining the FIFO failed (%ld)", got);
	if (fd >= 0) {
		close(fd);
	}
	if (got < 0 && !test_client_done(&c)) {
		kill(c.pid, SIGKILL);
	}
	test_client_wait(&c);
	test_client_ok(&c, true);
	if (got <= 0) {
		test_client_finish(&c);
		return 0;
	}
	if (!test_client_log(&c, &log)) {
		return 0;
	}

	check_latency(&log);
	test_check_calls(test_path("trace.zst"), &log, &t);
	fprintf(stderr, "trace: %ld bytes, %llu calls, %llu frames, captures %llu ok %llu dropped "
		"(CaptureStats %llu) %llu late\n", got, (unsigned long long)t.calls,
		(unsigned long long)t.frame_ends, (unsigned long long)t.captures_ok,
		(unsigned long long)t.captures_dropped, (unsigned long long)t.blobs_dropped,
		(unsigned long long)t.captures_late);
	CHECK(t.closed, "the trace was not finished (no seek table)");
	CHECK(t.frame_ends == FRAMES, "%llu FrameEnds, %d frames", (unsigned long long)t.frame_ends,
		FRAMES);
	CHECK(t.stats && t.records_dropped == 0, "%llu calls dropped",
		(unsigned long long)t.records_dropped);
	CHECK(t.captures_dropped > 0, "no capture was dropped: the writer did not stall");
	CHECK(t.blobs_dropped == t.captures_dropped, "CaptureStats says %llu dropped, %llu calls say so",
		(unsigned long long)t.blobs_dropped, (unsigned long long)t.captures_dropped);
	CHECK(t.captures_ok > 0, "no capture was kept");
	test_log_finish(&log);
	test_client_finish(&c);
	return 0;
}

int case_stall_no_reader(void)
{
	return run_stalled(false);
}

int case_stall_unread(void)
{
	return run_stalled(true);
}
