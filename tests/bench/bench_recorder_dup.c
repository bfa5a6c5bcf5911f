/*
 * The dup baseline of the recorder benchmark (bench_recorder.h): what the
 * recorder pays, at least, for each fence fd a call carries: one
 * fcntl(F_DUPFD_CLOEXEC, 3) of an eventfd (as rec_dup_fd does) and the
 * close of the dup, timed with the client's clock, per_frame times a frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "bench_recorder.h"

int bench_dup_run(unsigned warmup, unsigned frames, unsigned per_frame, bool paced, struct bench_samples *out)
{
	int fd = eventfd(0, EFD_CLOEXEC);
	uint64_t next = 0;
	int ret = 0;

	if (fd < 0) {
		return -errno;
	}
	for (unsigned f = 0; ret == 0 && f < warmup + frames; f++) {
		if (paced) {
			bench_pace(&next);
		}
		for (unsigned i = 0; ret == 0 && i < per_frame; i++) {
			uint64_t t0 = bench_call_ns();
			int dup = fcntl(fd, F_DUPFD_CLOEXEC, 3);

			if (dup < 0) {
				ret = -errno;
				break;
			}
			close(dup);
			ret = f >= warmup ? bench_samples_add(out, BENCH_FN_DUP, bench_call_ns() - t0) : 0;
		}
	}
	close(fd);
	return ret;
}

void bench_dup_probe(int32_t function)
{
	static int fd = -1;
	int dup;

	if (!bench_function_has_fence(function)) {
		return;
	}
	if (fd < 0) {
		fd = eventfd(0, EFD_CLOEXEC);
	}
	dup = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup >= 0) {
		close(dup);
	}
}

void bench_ref_probe(int32_t function)
{
	bench_tp_fire(function);
	bench_dup_probe(function);
}
