/*
 * rec_vm_check --way NAME --module PATH TRACE LOG
 *
 * Checks TRACE, recorded by libhwc-record.so from `hwc2_client record` on
 * the real module PATH, against the client's LOG (rec_vm_check.h). Prints
 * a line per failed check (check.h) and one summary paragraph; exits 0 when
 * every check passed, 1 otherwise, 2 on bad usage.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/format.h>

#include "rec_vm_check.h"

struct check_tally check_tally;

static const char *way = "?";

/* What the trace holds besides its frames: where it came from, the recorder's losses, the fences. */
static void check_trace(const struct hwct_trace_info *info, const struct rvc_trace *t,
	const struct rvc_log *log, const char *module)
{
	uint64_t kinds[HWCT_FENCE_READBACK + 1] = { 0 }, unsignalled = 0;
	uint64_t acquires = 0, releases = 0;

	CHECK(info->has_seek_table && !info->truncated, "the trace was not closed (seek table %d, "
		"truncated %d)", info->has_seek_table, info->truncated);
	CHECK(strcmp(t->source, "recorder") == 0 && strcmp(t->module, module) == 0,
		"Environment: source \"%s\", module \"%s\"; expected the recorder on %s", t->source,
		t->module, module);
	CHECK(log->frames > 0 && t->frame_ends == log->frames && info->frame_count == log->frames,
		"%llu FrameEnd records (index: %llu), the client presented %u frames",
		(unsigned long long)t->frame_ends, (unsigned long long)info->frame_count, log->frames);
	CHECK(t->blobs_dropped == 0 && t->records_dropped == 0 && t->frames_late == 0,
		"the recorder lost %llu blobs, %llu records, %llu late frames",
		(unsigned long long)t->blobs_dropped, (unsigned long long)t->records_dropped,
		(unsigned long long)t->frames_late);
	for (uint64_t id = 1; id < t->fence_ids; id++) {
		const struct rvc_fence *x = rvc_trace_fence(t, id);

		if (x) {
			kinds[x->kind >= 0 && x->kind <= HWCT_FENCE_READBACK ? x->kind : 0]++;
			unsignalled += x->status != HWCT_FENCE_SIGNALLED || !x->has_signal;
		}
	}
	for (uint32_t n = 0; n < log->frames; n++) {
		for (size_t z = 0; z < RVC_MAX_LAYERS; z++) {
			acquires += log->frame[n].layers[z].has_acquire;
			releases += log->frame[n].layers[z].has_release;
		}
	}
	CHECK(unsignalled == 0, "%llu fences without a signal time", (unsigned long long)unsignalled);
	CHECK(kinds[HWCT_FENCE_ACQUIRE] == acquires && kinds[HWCT_FENCE_PRESENT] == log->frames &&
		kinds[HWCT_FENCE_RELEASE] == releases && kinds[HWCT_FENCE_CLIENT_TARGET] == 0 &&
		kinds[0] == 0 && t->fence_records == kinds[HWCT_FENCE_ACQUIRE] + kinds[HWCT_FENCE_PRESENT] +
		kinds[HWCT_FENCE_RELEASE], "Fence records: %llu acquire, %llu present, %llu release, "
		"%llu other; the client passed %llu acquire fences, got %u present and %llu release fences",
		(unsigned long long)kinds[HWCT_FENCE_ACQUIRE], (unsigned long long)kinds[HWCT_FENCE_PRESENT],
		(unsigned long long)kinds[HWCT_FENCE_RELEASE],
		(unsigned long long)(t->fence_records - kinds[HWCT_FENCE_ACQUIRE] -
			kinds[HWCT_FENCE_PRESENT] - kinds[HWCT_FENCE_RELEASE]),
		(unsigned long long)acquires, log->frames, (unsigned long long)releases);
}

static void print_summary(const struct rvc_summary *s, const struct rvc_trace *t,
	const struct rvc_log *log, size_t buffers_seen)
{
	uint64_t gaps = s->present_gaps;

	printf("%s: %llu frames (client: %u), %llu layers, %zu of %zu dma-bufs seen (hwct-test layouts), "
		"%llu captures OK, %llu blobs decoded (%.1f MB) = the client's pixels\n", way,
		(unsigned long long)s->frames, log->frames, (unsigned long long)s->layers, buffers_seen,
		log->buffer_count, (unsigned long long)s->captures_ok, (unsigned long long)s->blobs_checked,
		(double)s->pixel_bytes / 1e6);
	printf("%s: %llu changed composition types = what the client got; fences: %llu acquire (vgem), "
		"%llu present, %llu release (vkms), all signalled, times = the client's SYNC_IOC_FILE_INFO\n",
		way, (unsigned long long)s->changed, (unsigned long long)s->acquires,
		(unsigned long long)s->presents, (unsigned long long)s->releases);
	printf("%s: present fences strictly increasing, every %.1f..%.1f ms (mean %.1f) from frame 1; "
		"frame 0's (the commit that lights the CRTC) dated %+.1f ms from its presentDisplay call; "
		"later ones dated before presentDisplay returned: %llu, acquire fences after their frame's "
		"present fence: %llu (both within a vsync period); last DEVICE acquire to flip <= %.1f ms; "
		"%llu records, %llu calls, %llu blobs\n", way,
		gaps ? (double)s->present_gap_min_ns / 1e6 : 0.0,
		gaps ? (double)s->present_gap_max_ns / 1e6 : 0.0,
		gaps ? (double)s->present_gap_sum_ns / 1e6 / (double)gaps : 0.0,
		-(double)s->first_present_lead_ns / 1e6, (unsigned long long)s->present_before_return,
		(unsigned long long)s->acquire_after_present, (double)s->acquire_to_flip_max_ns / 1e6,
		(unsigned long long)t->records, (unsigned long long)t->calls, (unsigned long long)t->blobs);
	/* the recorder arms captures at validate; an acquire fence later than 2 s and the wait is late */
	printf("%s: acquire fences signalled at most %.1f ms after validateDisplay returned (frame %llu; "
		"the recorder waits 2 s or HWCT_CAPTURE_WAIT_MS, the longer)\n", way,
		(double)s->armed_to_acquire_max_ns / 1e6, (unsigned long long)s->armed_to_acquire_frame);
}

static int usage(void)
{
	fprintf(stderr, "usage: rec_vm_check --way NAME --module PATH TRACE LOG\n");
	return 2;
}

int main(int argc, char *argv[])
{
	const char *module = NULL, *files[2] = { NULL, NULL };
	struct hwct_error err = { 0 };
	struct hwct_reader *r;
	struct rvc_trace t = { 0 };
	struct rvc_log log;
	struct rvc_summary sum;
	size_t nfiles = 0, seen = 0;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--way") == 0 && i + 1 < argc) {
			way = argv[++i];
		} else if (strcmp(argv[i], "--module") == 0 && i + 1 < argc) {
			module = argv[++i];
		} else if (argv[i][0] != '-' && nfiles < 2) {
			files[nfiles++] = argv[i];
		} else {
			return usage();
		}
	}
	if (!module || nfiles != 2) {
		return usage();
	}
	if (rvc_log_read(&log, files[1]) < 0) {
		rvc_log_finish(&log);
		return 1;
	}
	r = hwct_reader_open(files[0], &err);
	if (!r) {
		fprintf(stderr, "FAIL: %s: %s\n", way, err.message);
		rvc_log_finish(&log);
		return 1;
	}
	ret = rvc_trace_scan(r, &t);
	if (ret == 0) {
		check_trace(hwct_reader_info(r), &t, &log, module);
		ret = rvc_check_frames(r, &t, &log, &sum);
	}
	for (size_t i = 0; ret == 0 && i < log.buffer_count; i++) {
		seen += log.buffers[i].seen;
		CHECK(log.buffers[i].seen, "dma-buf inode %llu of the client's is in no frame",
			(unsigned long long)log.buffers[i].inode);
	}
	if (ret == 0 && sum.frames > 0) {
		print_summary(&sum, &t, &log, seen);
	}
	rvc_trace_finish(&t);
	hwct_reader_destroy(r);
	rvc_log_finish(&log);
	if (ret < 0 || check_tally.failed) {
		fprintf(stderr, "%s: FAILED (%d failed checks%s)\n", way, check_tally.failed,
			ret < 0 ? ", the trace could not be read" : "");
		return 1;
	}
	return 0;
}
