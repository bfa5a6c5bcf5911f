/*
 * hwcomposer.kms.so's module descriptor (HMI) and device entry points:
 * open, close, getCapabilities, getFunction (docs/platform.md §1.1-1.3),
 * plus the locking and fence helpers every file uses.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwct/log.h>

#include "hwc2_private.h"

static const struct hwc2_kms_fn *const tables[] = {
	hwc2_kms_display_fns,
	hwc2_kms_callback_fns,
	hwc2_kms_layer_fns,
	hwc2_kms_validate_fns,
	hwc2_kms_present_fns,
	hwc2_kms_dump_fns,
};

static hwc2_function_pointer_t get_function(hwc2_device_t *device, int32_t descriptor)
{
	if (descriptor <= HWC2_FUNCTION_INVALID) {
		return NULL;
	}
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		for (const struct hwc2_kms_fn *f = tables[t]; f->fn; f++) {
			if (f->descriptor == descriptor) {
				return f->fn;
			}
		}
	}
	return NULL;
}

/* No capability: no SKIP_VALIDATE (every frame is validated), no sideband streams. */
static void get_capabilities(hwc2_device_t *device, uint32_t *out_count, int32_t *out_capabilities)
{
	if (out_count) {
		*out_count = 0;
	}
}

/*
 * The devices open now. A device is recognised by its address: interposers
 * that wrap a device in place (the recorder) replace its getFunction,
 * getCapabilities and close.
 */
#define MAX_DEVICES 8
static struct hwc2_kms_device *_Atomic open_devices[MAX_DEVICES];

static bool devices_add(struct hwc2_kms_device *d)
{
	for (size_t i = 0; i < MAX_DEVICES; i++) {
		struct hwc2_kms_device *none = NULL;

		if (atomic_compare_exchange_strong(&open_devices[i], &none, d)) {
			return true;
		}
	}
	return false;
}

static void devices_remove(struct hwc2_kms_device *d)
{
	for (size_t i = 0; i < MAX_DEVICES; i++) {
		struct hwc2_kms_device *same = d;

		atomic_compare_exchange_strong(&open_devices[i], &same, NULL);
	}
}

struct hwc2_kms_device *hwc2_kms_device_from(hwc2_device_t *device)
{
	for (size_t i = 0; device && i < MAX_DEVICES; i++) {
		if ((hwc2_device_t *)atomic_load(&open_devices[i]) == device) {
			return (struct hwc2_kms_device *)device;
		}
	}
	return NULL;
}

int32_t hwc2_kms_enter(hwc2_device_t *device, hwc2_display_t display, struct hwc2_kms_device **out)
{
	struct hwc2_kms_device *d = hwc2_kms_device_from(device);

	*out = NULL;
	if (!d) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	if (display != HWC2_KMS_DISPLAY) {
		return HWC2_ERROR_BAD_DISPLAY;
	}
	pthread_mutex_lock(&d->lock);
	*out = d;
	return HWC2_ERROR_NONE;
}

int32_t hwc2_kms_leave(struct hwc2_kms_device *d, int32_t ret)
{
	if (d) {
		pthread_mutex_unlock(&d->lock);
	}
	return ret;
}

void hwc2_kms_fence_close(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void device_free(struct hwc2_kms_device *d)
{
	hwc2_kms_worker_stop(d);
	hwc2_kms_invalidate(d);
	plan_destroy(d->plan);
	hwc2_kms_layers_destroy(d);
	hwc2_kms_buffer_put(d, d->target);
	hwc2_kms_fence_close(&d->target_fence);
	hwc2_kms_buffers_destroy(d);
	hwc2_kms_fence_close(&d->present_fence);
	backend_destroy(d->backend);
	compositor_destroy(d->compositor);
	free(d->scene_layers);
	free(d->scene_images);
	free(d->scene_src);
	free(d->shown);
	free(d->release);
	free(d->image.data);
	free(d->dump_text);
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

static int device_close(struct hw_device_t *device)
{
	struct hwc2_kms_device *d = hwc2_kms_device_from((hwc2_device_t *)device);

	if (!d) {
		return -EINVAL;
	}
	devices_remove(d);
	device_free(d);
	return 0;
}

static int module_open(const struct hw_module_t *module, const char *name, struct hw_device_t **device)
{
	struct hwc2_kms_device *d;

	if (!device) {
		return -EINVAL;
	}
	*device = NULL;
	if (!name || strcmp(name, HWC_HARDWARE_COMPOSER) != 0) {
		return -EINVAL;
	}
	d = hwc2_kms_device_create(module);
	if (!d) {
		return errno ? -errno : -ENODEV;
	}
	d->base.common.tag = HARDWARE_DEVICE_TAG;
	d->base.common.version = HWC_DEVICE_API_VERSION_2_0;
	d->base.common.module = (struct hw_module_t *)module;
	d->base.common.close = device_close;
	d->base.getCapabilities = get_capabilities;
	d->base.getFunction = get_function;
	if (!devices_add(d)) {
		hwct_log(HWCT_LOG_ERROR, "hwcomposer.kms: more than %d devices open", MAX_DEVICES);
		device_free(d);
		return -EMFILE;
	}
	if (hwc2_kms_worker_start(d) < 0) {
		devices_remove(d);
		hwct_log(HWCT_LOG_ERROR, "hwcomposer.kms: cannot start the vsync thread");
		device_free(d);
		return -EAGAIN;
	}
	*device = &d->base.common;
	return 0;
}

static struct hw_module_methods_t module_methods = {
	.open = module_open,
};

/* The descriptor libhardware's loader (hw_get_module) looks up with dlsym("HMI"). */
__attribute__((visibility("default")))
hw_module_t HAL_MODULE_INFO_SYM = {
	.tag = HARDWARE_MODULE_TAG,
	.module_api_version = HARDWARE_MODULE_API_VERSION(2, 0),
	.hal_api_version = HARDWARE_HAL_API_VERSION,
	.id = HWC_HARDWARE_MODULE_ID,
	.name = "hwctrace atomic-KMS composer",
	.author = "hwctrace",
	.methods = &module_methods,
};
