/*
 * The recorder's side of the LTTng-UST provider `hwc2` (hwc2_tp.h). These
 * are plain functions so that only tp.c includes the LTTng headers; without
 * LTTng (meson option lttng) they compile to nothing.
 */
#ifndef REC_TP_H
#define REC_TP_H

#include <stdbool.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>

#include "recorder_config.h"

/* Composition-type counts of a validated display (validate event). */
struct rec_tp_validate {
	uint64_t display;
	int32_t error;
	uint32_t num_types, num_requests;
	uint32_t client, device, solid_color, cursor, sideband, other;
};

#if REC_HAVE_LTTNG
/* Whether hwc2:call_entry or hwc2:call_exit is enabled in some session. */
bool rec_tp_call_enabled(void);
/* Whether hwc2:present is enabled in some session. */
bool rec_tp_present_enabled(void);
/* Whether hwc2:validate is enabled in some session. */
bool rec_tp_validate_enabled(void);
void rec_tp_call_entry(int32_t function, const char *name, uint64_t display, uint64_t layer);
void rec_tp_call_exit(int32_t function, const char *name, uint64_t display, uint64_t layer,
	int32_t error, uint64_t duration_ns);
void rec_tp_validate(const struct rec_tp_validate *v);
void rec_tp_present(uint64_t display, uint64_t fence_id, int32_t error);
void rec_tp_fence_signal(uint64_t fence_id, int32_t kind, uint64_t signal_ns, int32_t status);

/*
 * Composition-type bookkeeping for the validate event (track.c). The
 * generated wrappers of these six functions call them after the real call,
 * with its arguments and its return value (error); pointers may be NULL.
 * getChangedCompositionTypes passes the array capacity *out_count
 * had before the call. The validate event fires from rec_track_validate or,
 * when the display has changes, from the getChangedCompositionTypes that
 * fills the arrays.
 */
void rec_track_create_layer(uint64_t display, int32_t error, const hwc2_layer_t *out_layer);
void rec_track_destroy_layer(uint64_t display, uint64_t layer);
void rec_track_composition_type(uint64_t display, uint64_t layer, int32_t type, int32_t error);
void rec_track_validate(uint64_t display, int32_t error, const uint32_t *out_num_types,
	const uint32_t *out_num_requests);
void rec_track_changed_types(uint64_t display, int32_t error, uint32_t capacity,
	const uint32_t *out_count, const hwc2_layer_t *out_layers, const int32_t *out_types);
void rec_track_accept(uint64_t display);
#else
static inline bool rec_tp_call_enabled(void)
{
	return false;
}
static inline bool rec_tp_present_enabled(void)
{
	return false;
}
static inline void rec_tp_call_entry(int32_t function, const char *name, uint64_t display,
	uint64_t layer)
{
	(void)function, (void)name, (void)display, (void)layer;
}
static inline void rec_tp_call_exit(int32_t function, const char *name, uint64_t display,
	uint64_t layer, int32_t error, uint64_t duration_ns)
{
	(void)function, (void)name, (void)display, (void)layer, (void)error, (void)duration_ns;
}
static inline void rec_tp_present(uint64_t display, uint64_t fence_id, int32_t error)
{
	(void)display, (void)fence_id, (void)error;
}
static inline void rec_tp_fence_signal(uint64_t fence_id, int32_t kind, uint64_t signal_ns,
	int32_t status)
{
	(void)fence_id, (void)kind, (void)signal_ns, (void)status;
}
static inline void rec_track_create_layer(uint64_t display, int32_t error, const hwc2_layer_t *out_layer)
{
	(void)display, (void)error, (void)out_layer;
}
static inline void rec_track_destroy_layer(uint64_t display, uint64_t layer)
{
	(void)display, (void)layer;
}
static inline void rec_track_composition_type(uint64_t display, uint64_t layer, int32_t type,
	int32_t error)
{
	(void)display, (void)layer, (void)type, (void)error;
}
static inline void rec_track_validate(uint64_t display, int32_t error, const uint32_t *out_num_types,
	const uint32_t *out_num_requests)
{
	(void)display, (void)error, (void)out_num_types, (void)out_num_requests;
}
static inline void rec_track_changed_types(uint64_t display, int32_t error, uint32_t capacity,
	const uint32_t *out_count, const hwc2_layer_t *out_layers, const int32_t *out_types)
{
	(void)display, (void)error, (void)capacity, (void)out_count, (void)out_layers,
		(void)out_types;
}
static inline void rec_track_accept(uint64_t display)
{
	(void)display;
}
#endif

#endif
