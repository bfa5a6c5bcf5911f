/*
 * The empty-tracepoint baseline of the recorder benchmark (bench_recorder.h):
 * hwct_bench:empty timed call by call with the client's clock
 * (bench_call_ns() before and after), and the same clock pair around nothing
 * (the timing floor). The tracepoint sits inline between the clock reads,
 * as an instrumented call site would have it. Built in GNU C (the LTTng
 * headers need it). Without LTTng-UST there is no tracepoint to time:
 * bench_tp_built() says so and bench_tp_run() returns -ENOTSUP.
 */
#include "bench_recorder_config.h"

#if BENCH_RECORDER_HAVE_LTTNG
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#endif

#include <errno.h>

#include "bench_recorder.h"

#if BENCH_RECORDER_HAVE_LTTNG
#include "bench_recorder_tp_provider.h"

bool bench_tp_built(void)
{
	return true;
}

bool bench_tp_enabled(void)
{
	return lttng_ust_tracepoint_enabled(hwct_bench, empty);
}

void bench_tp_fire(int32_t function)
{
	(void)function;
	lttng_ust_tracepoint(hwct_bench, empty);
}

int bench_tp_run(unsigned warmup, unsigned frames, unsigned per_frame, bool paced,
	struct bench_samples *out)
{
	uint64_t next = 0;
	int ret = 0;

	for (unsigned f = 0; ret == 0 && f < warmup + frames; f++) {
		bool keep = f >= warmup;

		if (paced) {
			bench_pace(&next);
		}
		for (unsigned i = 0; ret == 0 && i < per_frame; i++) {
			uint64_t t0 = bench_call_ns();

			lttng_ust_tracepoint(hwct_bench, empty);
			ret = keep ? bench_samples_add(out, BENCH_FN_TRACEPOINT, bench_call_ns() - t0) : 0;
		}
		for (unsigned i = 0; ret == 0 && i < per_frame; i++) {
			uint64_t t0 = bench_call_ns();

			ret = keep ? bench_samples_add(out, BENCH_FN_FLOOR, bench_call_ns() - t0) : 0;
		}
	}
	return ret;
}
#else
bool bench_tp_built(void)
{
	return false;
}

bool bench_tp_enabled(void)
{
	return false;
}

void bench_tp_fire(int32_t function)
{
	(void)function;
}

int bench_tp_run(unsigned warmup, unsigned frames, unsigned per_frame, bool paced,
	struct bench_samples *out)
{
	(void)warmup, (void)frames, (void)per_frame, (void)paced, (void)out;
	return -ENOTSUP;
}
#endif
