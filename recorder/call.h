/*
 * The hot path: what a generated wrapper (hwc2_wrappers.c) does around the
 * real call. No file I/O, no locks held across the real call, no waiting
 * (except, when HWCT_CAPTURE_WAIT_MS is set, the bounded capture wait of
 * presentDisplay/getReleaseFences), no dup past the fd budget (fds.h):
 *
 *	real = rec_call_begin(&c, device, FUNCTION, nargs);   finds the real function
 *	rec_arg_*(&c, i, ...);                                 inputs, copied by value
 *	rec_call_enter(&c);                                    t_enter (when recorded or traced)
 *	ret = real(...);
 *	rec_call_exit(&c, ret);                                t_exit, error
 *	rec_arg_*(&c, i, ...);                                 outputs
 *	rec_call_end(&c);                                      hand the event to the worker
 *
 * Argument index i is the parameter position after the device (the
 * REC_ARG_<FUNCTION>_<PARAM> constants of hwc2_wrappers.h). Every helper is
 * a no-op when the call is not recorded.
 */
#ifndef REC_CALL_H
#define REC_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>

#include "event.h"
#include "recorder.h"

struct rec_device;

struct rec_call {
	struct recorder *rec;
	struct rec_device *dev;
	struct rec_event *ev;		/* where arguments go; NULL: nothing is kept */
	struct rec_event_pool *pool;	/* the calling thread's, entered (keep), NULL: r->inflight counted */
	bool keep;			/* ev is from rec_event_new and goes to the worker */
	bool wake;			/* the worker is behind: wake it at the push */
	bool tracing;			/* LTTng call events (or, for a present, hwc2:present) are enabled */
	int32_t function;
	bool has_display, has_layer;
	uint64_t display, layer;
	uint64_t t_enter;
	struct rec_event local;		/* ev of a call only traced (no fds are duplicated) */
};

/*
 * Starts a call of `function` on device. Returns the real function, or NULL
 * when device is not a wrapped device (the wrapper then fails the call).
 */
hwc2_function_pointer_t rec_call_begin(struct rec_call *c, hwc2_device_t *device, int32_t function,
	unsigned nargs);
void rec_call_enter(struct rec_call *c);
void rec_call_exit(struct rec_call *c, int32_t error);
void rec_call_end(struct rec_call *c);

/*
 * Counts c as a call in flight (from before it reads `recording` to after its
 * push: rec_worker_finish_session waits for these), on its thread's pool
 * (c->pool) or, without one, in r->inflight; and the end of it.
 */
void rec_inflight_enter(struct recorder *r, struct rec_call *c);
/* The same with the calling thread's pool already at hand (NULL: none). */
void rec_inflight_enter_pool(struct recorder *r, struct rec_call *c, struct rec_event_pool *pool);
void rec_inflight_leave(struct recorder *r, struct rec_call *c);

/* ------------------------------------------------------------ inputs */
void rec_arg_display(struct rec_call *c, unsigned i, hwc2_display_t display);
void rec_arg_layer(struct rec_call *c, unsigned i, hwc2_layer_t layer);
void rec_arg_int(struct rec_call *c, unsigned i, int64_t v);
void rec_arg_float(struct rec_call *c, unsigned i, double v);
/* size bytes at p (a struct passed by value: &arg); p NULL records "absent" */
void rec_arg_bytes(struct rec_call *c, unsigned i, const void *p, size_t size);
void rec_arg_region(struct rec_call *c, unsigned i, hwc_region_t region);
void rec_arg_handle(struct rec_call *c, unsigned i, buffer_handle_t handle);
/* sideband stream: only its identity (inode of its first fd) is kept */
void rec_arg_handle_id(struct rec_call *c, unsigned i, const native_handle_t *handle);
/* fence passed in: dup'd (the caller keeps its fd) */
void rec_arg_fence_in(struct rec_call *c, unsigned i, int32_t fd);
/* n elements of elem_size at p (p NULL: absent) */
void rec_arg_in_array(struct rec_call *c, unsigned i, const void *p, size_t elem_size, uint64_t n);
/* only whether p was NULL */
void rec_arg_pointer(struct rec_call *c, unsigned i, bool present);

#define rec_arg_in(c, i, v) _Generic((v), \
	float: rec_arg_float, \
	double: rec_arg_float, \
	default: rec_arg_int)((c), (i), (v))

/* Sum of count uint32_t sizes (setLayerPerFrameMetadataBlobs), 0 when sizes is NULL. */
uint64_t rec_sum_u32(const uint32_t *sizes, uint32_t count);

/* ----------------------------------------------------- counts, in/out */
void rec_arg_count_in(struct rec_call *c, unsigned i, const void *p, size_t size);
void rec_arg_count_out(struct rec_call *c, unsigned i, const void *p, size_t size);
#define rec_arg_inout_in(c, i, p) rec_arg_count_in((c), (i), (p), sizeof(*(p)))
#define rec_arg_inout_out(c, i, p) rec_arg_count_out((c), (i), (p), sizeof(*(p)))

/* ----------------------------------------------------------- outputs */
void rec_arg_out_i64(struct rec_call *c, unsigned i, const void *p, int64_t v);
void rec_arg_out_float(struct rec_call *c, unsigned i, const float *p);
#define rec_arg_out(c, i, p) _Generic((p), \
	float *: rec_arg_out_float((c), (i), (const float *)(p)), \
	default: rec_arg_out_i64((c), (i), (p), (p) ? (int64_t)*(p) : 0))
/* count-then-fill array: min(in, out) of the count argument count_i */
void rec_arg_out_array(struct rec_call *c, unsigned i, const void *p, size_t elem_size, unsigned count_i);
void rec_arg_out_array_fixed(struct rec_call *c, unsigned i, const void *p, size_t elem_size, uint64_t n);
/* fence returned to the caller: dup'd before the caller gets it */
void rec_arg_fence_out(struct rec_call *c, unsigned i, const int32_t *fd);
void rec_arg_fences_out(struct rec_call *c, unsigned i, const int32_t *fds, unsigned count_i);
/* getDisplayedContentSample's four histograms */
void rec_arg_samples_in(struct rec_call *c, unsigned i, const int32_t sizes[4]);
void rec_arg_samples_out(struct rec_call *c, unsigned i, const int32_t sizes[4], uint64_t *const samples[4]);

/* ------------------------------------------------------ hand-written */
/* registerCallback: installs our trampoline in front of the client's callback (callback.c). */
int32_t rec_register_callback(struct rec_call *c, HWC2_PFN_REGISTER_CALLBACK real,
	hwc2_device_t *device, int32_t descriptor, hwc2_callback_data_t data,
	hwc2_function_pointer_t pointer);

#endif
