/*
 * Instantiates the LTTng-UST provider hwc2 (hwc2_tp.h) and fires its
 * events for the rest of the recorder (tp.h). Built only with LTTng.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE

#include "hot.h"
#include "tp.h"

#include "hwc2_tp.h"

REC_HOT bool rec_tp_call_enabled(void)
{
	return lttng_ust_tracepoint_enabled(hwc2, call_entry) ||
		lttng_ust_tracepoint_enabled(hwc2, call_exit);
}

REC_HOT bool rec_tp_present_enabled(void)
{
	return lttng_ust_tracepoint_enabled(hwc2, present);
}

REC_HOT bool rec_tp_validate_enabled(void)
{
	return lttng_ust_tracepoint_enabled(hwc2, validate);
}

void rec_tp_call_entry(int32_t function, const char *name, uint64_t display, uint64_t layer)
{
	lttng_ust_tracepoint(hwc2, call_entry, function, name ? name : "?", display, layer);
}

void rec_tp_call_exit(int32_t function, const char *name, uint64_t display, uint64_t layer,
	int32_t error, uint64_t duration_ns)
{
	lttng_ust_tracepoint(hwc2, call_exit, function, name ? name : "?", display, layer, error,
		duration_ns);
}

void rec_tp_validate(const struct rec_tp_validate *v)
{
	lttng_ust_tracepoint(hwc2, validate, v);
}

void rec_tp_present(uint64_t display, uint64_t fence_id, int32_t error)
{
	lttng_ust_tracepoint(hwc2, present, display, fence_id, error);
}

void rec_tp_fence_signal(uint64_t fence_id, int32_t kind, uint64_t signal_ns, int32_t status)
{
	lttng_ust_tracepoint(hwc2, fence_signal, fence_id, kind, signal_ns, status);
}
