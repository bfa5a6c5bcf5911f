/*
 * LTTng-UST tracepoint provider "hwc2" (the one provider header; tp.c is
 * its only includer and instantiates the probes). Enable with
 * `lttng enable-event -u 'hwc2:*'`; usable without the file trace
 * (HWCT_OUTPUT=none). Events:
 *   call_entry   function id + name, display, layer
 *   call_exit    ... plus error and duration_ns
 *   validate     display, error, num_types, num_requests and layer counts per
 *                composition type once the device's decision is known
 *   present      display, fence_id (0: none), error
 *   fence_signal fence_id, kind (HWCT_FENCE_*), signal_ns, status
 * Fence ids are the trace's Fence.id.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER hwc2

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./hwc2_tp.h"

#if !defined(REC_HWC2_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define REC_HWC2_TP_H

#include <stdint.h>

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(hwc2, call_entry,
	LTTNG_UST_TP_ARGS(int32_t, function, const char *, name, uint64_t, display, uint64_t, layer),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, function, function)
		lttng_ust_field_string(name, name)
		lttng_ust_field_integer(uint64_t, display, display)
		lttng_ust_field_integer(uint64_t, layer, layer)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hwc2, call_exit,
	LTTNG_UST_TP_ARGS(int32_t, function, const char *, name, uint64_t, display, uint64_t, layer,
		int32_t, error, uint64_t, duration_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, function, function)
		lttng_ust_field_string(name, name)
		lttng_ust_field_integer(uint64_t, display, display)
		lttng_ust_field_integer(uint64_t, layer, layer)
		lttng_ust_field_integer(int32_t, error, error)
		lttng_ust_field_integer(uint64_t, duration_ns, duration_ns)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hwc2, validate,
	LTTNG_UST_TP_ARGS(const struct rec_tp_validate *, v),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, display, v->display)
		lttng_ust_field_integer(int32_t, error, v->error)
		lttng_ust_field_integer(uint32_t, num_types, v->num_types)
		lttng_ust_field_integer(uint32_t, num_requests, v->num_requests)
		lttng_ust_field_integer(uint32_t, client, v->client)
		lttng_ust_field_integer(uint32_t, device, v->device)
		lttng_ust_field_integer(uint32_t, solid_color, v->solid_color)
		lttng_ust_field_integer(uint32_t, cursor, v->cursor)
		lttng_ust_field_integer(uint32_t, sideband, v->sideband)
		lttng_ust_field_integer(uint32_t, other, v->other)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hwc2, present,
	LTTNG_UST_TP_ARGS(uint64_t, display, uint64_t, fence_id, int32_t, error),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, display, display)
		lttng_ust_field_integer(uint64_t, fence_id, fence_id)
		lttng_ust_field_integer(int32_t, error, error)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hwc2, fence_signal,
	LTTNG_UST_TP_ARGS(uint64_t, fence_id, int32_t, kind, uint64_t, signal_ns, int32_t, status),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, fence_id, fence_id)
		lttng_ust_field_integer(int32_t, kind, kind)
		lttng_ust_field_integer(uint64_t, signal_ns, signal_ns)
		lttng_ust_field_integer(int32_t, status, status)
	)
)

#endif

#include <lttng/tracepoint-event.h>
