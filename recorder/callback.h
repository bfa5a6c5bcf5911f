/*
 * registerCallback wrapping: the module gets our trampoline (generated in
 * hwc2_wrappers.c) and, as callback data, a struct rec_callback naming the
 * client's function and data. A trampoline records the callback, then calls
 * the client's function with the client's data.
 */
#ifndef REC_CALLBACK_H
#define REC_CALLBACK_H

#include <hardware/hwcomposer2.h>

#include "call.h"

struct rec_device;

/* One registration; immutable once handed to the module, freed when the device closes. */
struct rec_callback {
	struct rec_callback *next;	/* the device's list */
	struct rec_device *dev;
	int32_t descriptor;		/* HWC2_CALLBACK_* */
	hwc2_callback_data_t data;	/* the client's */
	hwc2_function_pointer_t fn;	/* the client's, of the descriptor's HWC2_PFN_* type */
};

/*
 * Starts recording a callback delivered with `data` (our struct
 * rec_callback). Returns the client's function (never NULL for a
 * registration we made).
 */
hwc2_function_pointer_t rec_callback_begin(struct rec_call *c, hwc2_callback_data_t data,
	int32_t descriptor, unsigned nargs);
void rec_callback_end(struct rec_call *c);

/* The client's callback data behind our `data`. */
hwc2_callback_data_t rec_callback_data(hwc2_callback_data_t data);

/* Frees a device's registrations (after the module's device is closed). */
void rec_callback_free_all(struct rec_callback *list);

#endif
