/*
 * Wrapping an opened hwc2_device_t.
 *
 * The device is wrapped IN PLACE: its common.close, getCapabilities and
 * getFunction members are replaced by ours, the originals kept here. Every
 * function pointer the client obtains therefore still receives the module's
 * own device pointer, which matters for descriptors we cannot wrap (their
 * prototype is unknown, so their real pointer is handed out unchanged and
 * must be called with the real device; recorder/README.md). Our wrappers
 * find this struct from the device pointer through a small registry.
 */
#ifndef REC_DEVICE_H
#define REC_DEVICE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwc2_names.h>

#include "handle_cache.h"
#include "recorder.h"

/* Registered callbacks kept per device (callback.c). */
struct rec_callback;

struct rec_device {
	hwc2_device_t *device;		/* the module's device, patched in place */
	int (*real_close)(struct hw_device_t *device);
	void (*real_get_capabilities)(struct hwc2_device *device, uint32_t *out_count,
		int32_t *out_capabilities);
	hwc2_function_pointer_t (*real_get_function)(struct hwc2_device *device, int32_t descriptor);
	/* real functions by descriptor, filled by getFunction (or on first use) */
	_Atomic(hwc2_function_pointer_t) real[HWCT_HWC2_FUNCTION_MAX + 1];
	_Atomic(struct rec_callback *) callbacks;	/* every registration, freed at close */
	struct rec_handle_cache handles;	/* buffer fds its calls have seen, flushed at close */
	char module_path[4096];
};

/*
 * Wraps device (opened from the module at module_path) unless it is wrapped
 * already, is not an HWC2 device, or the recorder is disabled (the reason is
 * logged once). Never fails the open: on any problem the device stays as it
 * was.
 */
void rec_device_wrap(hwc2_device_t *device, const char *module_path);

/* The wrapper state of device, NULL when it is not (or no longer) wrapped. */
struct rec_device *rec_device_lookup(const hwc2_device_t *device);

/* Real function of descriptor (1 .. HWCT_HWC2_FUNCTION_MAX), resolved on first use. */
hwc2_function_pointer_t rec_device_real(struct rec_device *d, int32_t descriptor);

#endif
