/* Wrapping devices in place, and their getFunction/getCapabilities/close (device.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/log.h>

#include "callback.h"
#include "device.h"
#include "hot_arena.h"
#include "hotline.h"
#include "hwc2_wrappers.h"

/*
 * The registry is rec_hotline's (hotline.h): slot i is taken by a
 * compare-and-swap of devices[i], then keys[i] says which hwc2_device_t it
 * is; a lookup compares keys only, so it reads no device but the one found.
 */
REC_HOT struct rec_device *rec_device_lookup(const hwc2_device_t *device)
{
	for (int i = 0; i < REC_MAX_DEVICES; i++) {
		if (atomic_load_explicit(&rec_hotline.keys[i], memory_order_acquire) == (const void *)device) {
			return atomic_load_explicit(&rec_hotline.devices[i], memory_order_relaxed);
		}
	}
	return NULL;
}

REC_HOT hwc2_function_pointer_t rec_device_real(struct rec_device *d, int32_t descriptor)
{
	hwc2_function_pointer_t fn;

	if (descriptor <= 0 || descriptor > HWCT_HWC2_FUNCTION_MAX) {
		return NULL;
	}
	fn = atomic_load_explicit(&d->real[descriptor], memory_order_acquire);
	if (!fn) {
		fn = d->real_get_function(d->device, descriptor);
		atomic_store_explicit(&d->real[descriptor], fn, memory_order_release);
	}
	return fn;
}

/* A descriptor we cannot wrap: recorded as an opaque call at getFunction time. */
static void note_passthrough(struct rec_device *d, int32_t descriptor, uint64_t t_enter)
{
	struct recorder *r = rec_get();
	struct rec_event *ev;
	unsigned n;

	if (!r) {
		return;
	}
	n = atomic_load(&r->passthrough_count);
	for (unsigned i = 0; i < n && i < 16; i++) {
		if (r->passthrough[i] == (uint32_t)descriptor) {
			n = UINT32_MAX;
			break;
		}
	}
	if (n < 16) {
		r->passthrough[n] = (uint32_t)descriptor;
		atomic_store(&r->passthrough_count, n + 1);
	}
	if (!atomic_load(&r->recording)) {
		return;
	}
	atomic_fetch_add(&r->inflight, 1);
	ev = atomic_load(&r->recording) ? rec_event_new(REC_EV_OPAQUE, descriptor, 0) : NULL;
	if (ev) {
		ev->t_enter = t_enter;
		ev->t_exit = rec_now_ns();
		ev->tid = rec_tid();
		rec_queue_push(&r->queue, ev);
	}
	atomic_fetch_sub(&r->inflight, 1);
	(void)d;
}

static hwc2_function_pointer_t wrap_get_function(struct hwc2_device *device, int32_t descriptor)
{
	struct rec_device *d = rec_device_lookup(device);
	uint64_t t_enter = rec_now_ns();
	hwc2_function_pointer_t real;

	if (!d) {
		return NULL;
	}
	real = d->real_get_function(device, descriptor);
	if (!real) {
		return NULL;
	}
	if (descriptor > 0 && descriptor <= REC_FUNCTION_MAX && rec_functions[descriptor].wrapper) {
		atomic_store_explicit(&d->real[descriptor], real, memory_order_release);
		return rec_functions[descriptor].wrapper;
	}
	/* unknown prototype: it cannot be wrapped; the client calls the module directly */
	note_passthrough(d, descriptor, t_enter);
	return real;
}

static void wrap_get_capabilities(struct hwc2_device *device, uint32_t *out_count,
	int32_t *out_capabilities)
{
	struct rec_device *d = rec_device_lookup(device);

	if (d && d->real_get_capabilities) {
		d->real_get_capabilities(device, out_count, out_capabilities);
	} else if (out_count) {
		*out_count = 0;
	}
}

static int wrap_close(struct hw_device_t *hw)
{
	hwc2_device_t *device = (hwc2_device_t *)hw;
	struct rec_device *d = rec_device_lookup(device);
	int ret;

	if (!d) {
		return -EINVAL;
	}
	for (int i = 0; i < REC_MAX_DEVICES; i++) {
		if (atomic_load(&rec_hotline.devices[i]) == d) {
			atomic_store(&rec_hotline.keys[i], NULL);
			atomic_store(&rec_hotline.devices[i], NULL);
		}
	}
	device->getFunction = d->real_get_function;
	device->getCapabilities = d->real_get_capabilities;
	device->common.close = d->real_close;
	ret = d->real_close(hw);
	/*
	 * The session ends after the module's close, which may still signal
	 * fences of the last frame; the worker never touches the device.
	 */
	rec_detach();
	/* no callback can run once the module's device is closed */
	rec_callback_free_all(atomic_load(&d->callbacks));
	/* no sweep uses the cache after this; events still queued keep their own references */
	rec_handle_cache_unwatch(&d->handles);
	rec_handle_cache_flush(&d->handles);
	rec_hot_free(d, sizeof(*d));
	return ret;
}

static uint32_t read_capabilities(hwc2_device_t *device, int32_t *caps, uint32_t max)
{
	uint32_t n = 0;

	if (!device->getCapabilities) {
		return 0;
	}
	device->getCapabilities(device, &n, NULL);
	if (n > max) {
		n = max;
	}
	if (n) {
		device->getCapabilities(device, &n, caps);
	}
	return n < max ? n : max;
}

_Static_assert(_Alignof(struct rec_device) <= REC_LINE, "rec_hot_alloc aligns to a line");

void rec_device_wrap(hwc2_device_t *device, const char *module_path)
{
	static atomic_flag warned = ATOMIC_FLAG_INIT;
	int32_t caps[REC_MAX_CAPABILITIES];
	struct rec_device *d;
	uint32_t ncaps;
	int slot = -1;

	if (!device || rec_device_lookup(device)) {
		return;
	}
	if (device->common.tag != HARDWARE_DEVICE_TAG || ((device->common.version >> 24) & 0xf) != 2 ||
			!device->getFunction || !device->common.close) {
		if (!atomic_flag_test_and_set(&warned)) {
			hwct_log(HWCT_LOG_WARNING, "recorder: %s: not an HWC2 device (version 0x%x), not recording",
				module_path, device->common.version);
		}
		return;
	}
	ncaps = read_capabilities(device, caps, REC_MAX_CAPABILITIES);
	if (rec_attach(module_path, caps, ncaps) < 0) {
		return;
	}
	/* line-aligned, as the handle cache's parts need (handle_cache.h) */
	d = rec_hot_alloc(sizeof(*d));
	if (d) {
		memset(d, 0, sizeof(*d));
		d->device = device;
		d->real_close = device->common.close;
		d->real_get_capabilities = device->getCapabilities;
		d->real_get_function = device->getFunction;
		snprintf(d->module_path, sizeof(d->module_path), "%s", module_path);
		rec_handle_cache_init(&d->handles);
	}
	for (int i = 0; d && i < REC_MAX_DEVICES && slot < 0; i++) {
		struct rec_device *expected = NULL;

		if (atomic_compare_exchange_strong(&rec_hotline.devices[i], &expected, d)) {
			atomic_store_explicit(&rec_hotline.keys[i], (const void *)device, memory_order_release);
			slot = i;
		}
	}
	if (!d || slot < 0) {
		if (!atomic_flag_test_and_set(&warned)) {
			hwct_log(HWCT_LOG_WARNING, "recorder: cannot wrap %s: %s", module_path,
				d ? "too many devices" : "out of memory");
		}
		rec_hot_free(d, sizeof(*d));
		rec_detach();
		return;
	}
	/* the worker's sweep closes the dups of buffers the composer let go (handle_cache.h) */
	rec_handle_cache_watch(&d->handles);
	device->getCapabilities = wrap_get_capabilities;
	device->getFunction = wrap_get_function;
	device->common.close = wrap_close;
}
