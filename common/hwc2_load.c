/* One HWC2 module loader (hwc2_load.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hwc2_load.h"

static const struct {
	int32_t descriptor;
	size_t offset;
	enum hwct_hwc2_fn_need need;
} functions[] = {
#define HWCT_HWC2_FN_ROW(desc, field, need) \
	{ HWC2_FUNCTION_##desc, offsetof(struct hwct_hwc2_fns, field), need },
	HWCT_HWC2_FUNCTIONS(HWCT_HWC2_FN_ROW)
#undef HWCT_HWC2_FN_ROW
};

#define FUNCTION_COUNT (sizeof(functions) / sizeof(functions[0]))

bool hwct_hwc2_hmi_valid(const struct hw_module_t *hmi)
{
	return hmi && hmi->tag == HARDWARE_MODULE_TAG && hmi->id &&
		strcmp(hmi->id, HWC_HARDWARE_MODULE_ID) == 0 && hmi->methods && hmi->methods->open;
}

int hwct_hwc2_module_load(const char *path, hwct_dlopen_fn open_fn, void **dl,
	struct hw_module_t **hmi, char *msg, size_t size)
{
	void *handle;
	const char *why;

	*dl = NULL;
	*hmi = NULL;
	handle = (open_fn ? open_fn : dlopen)(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		why = dlerror();
		snprintf(msg, size, "cannot load the HWC2 module: %s", why ? why : "dlopen failed");
		return -ENOEXEC;
	}
	*hmi = dlsym(handle, HAL_MODULE_INFO_SYM_AS_STR);
	if (!hwct_hwc2_hmi_valid(*hmi)) {
		*hmi = NULL;
		dlclose(handle);
		snprintf(msg, size, "not an HWC2 module (no %s with tag HMI, id \"%s\" and an open method)",
			HAL_MODULE_INFO_SYM_AS_STR, HWC_HARDWARE_MODULE_ID);
		return -ENOEXEC;
	}
	*dl = handle;
	return 0;
}

int hwct_hwc2_device_open(struct hw_module_t *hmi, hwc2_device_t **dev, char *msg, size_t size)
{
	hwc2_device_t *d = NULL;

	*dev = NULL;
	if (hmi->methods->open(hmi, HWC_HARDWARE_COMPOSER, (struct hw_device_t **)&d) != 0 || !d) {
		snprintf(msg, size, "the module's open(\"%s\") failed (no device it can drive?)",
			HWC_HARDWARE_COMPOSER);
		return -ENODEV;
	}
	if (d->common.tag != HARDWARE_DEVICE_TAG || ((d->common.version >> 24) & 0xf) != 2 ||
		!d->getFunction) {
		snprintf(msg, size, "the module's device is not an HWC2 device (version 0x%x)",
			d->common.version);
		if (d->common.tag == HARDWARE_DEVICE_TAG && d->common.close) {
			d->common.close(&d->common);
		}
		return -ENOEXEC;
	}
	*dev = d;
	return 0;
}

void hwct_hwc2_fns_resolve(hwc2_device_t *dev, enum hwct_hwc2_fn_need upto,
	void (*before)(const char *call), struct hwct_hwc2_fns *fns)
{
	memset(fns, 0, sizeof(*fns));
	for (size_t i = 0; i < FUNCTION_COUNT; i++) {
		hwc2_function_pointer_t p;

		if (functions[i].need > upto) {
			continue;
		}
		if (before) {
			before("getFunction");
		}
		p = dev->getFunction(dev, functions[i].descriptor);
		memcpy((char *)fns + functions[i].offset, &p, sizeof(p));
	}
}

size_t hwct_hwc2_fns_missing(const struct hwct_hwc2_fns *fns, enum hwct_hwc2_fn_need upto,
	int32_t *missing, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < FUNCTION_COUNT; i++) {
		hwc2_function_pointer_t p;

		memcpy(&p, (const char *)fns + functions[i].offset, sizeof(p));
		if (functions[i].need > upto || p) {
			continue;
		}
		if (n < max) {
			missing[n] = functions[i].descriptor;
		}
		n++;
	}
	return n;
}
