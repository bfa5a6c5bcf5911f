/*
 * LTTng-UST provider "hwct_bench" of the recorder benchmark: one event with
 * no payload, the baseline the recorder's per-call cost is held against.
 * bench_recorder_tp.c is its only includer and instantiates the probe.
 * Enable with `lttng enable-event -u 'hwct_bench:*'`.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER hwct_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./bench_recorder_tp_provider.h"

#if !defined(HWCT_BENCH_RECORDER_TP_PROVIDER_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define HWCT_BENCH_RECORDER_TP_PROVIDER_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(hwct_bench, empty,
	LTTNG_UST_TP_ARGS(),
	LTTNG_UST_TP_FIELDS()
)

#endif

#include <lttng/tracepoint-event.h>
