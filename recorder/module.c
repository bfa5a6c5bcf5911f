/* The HAL-wrapper module and in-place module patching (module.h). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/log.h>

#include "config.h"
#include "device.h"
#include "hwc2_load.h"
#include "module.h"

#define MAX_PATCHED 8

struct patched_module {
	struct hw_module_t *module;
	struct hw_module_methods_t *real_methods;	/* the module's own table */
	struct hw_module_methods_t methods;		/* ours, module->methods points here */
	char path[4096];
};

static struct patched_module patched[MAX_PATCHED];
static atomic_int patched_count;
static pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_composer(const char *id)
{
	return id && strcmp(id, HWC_HARDWARE_COMPOSER) == 0;
}

static int patched_open(const struct hw_module_t *module, const char *id,
	struct hw_device_t **device)
{
	int n = atomic_load(&patched_count);

	for (int i = 0; i < n; i++) {
		struct patched_module *p = &patched[i];
		int ret;

		if (p->module != module) {
			continue;
		}
		ret = p->real_methods->open(module, id, device);
		if (ret == 0 && is_composer(id) && device) {
			rec_device_wrap((hwc2_device_t *)*device, p->path);
		}
		return ret;
	}
	return -EINVAL;
}

void rec_module_patch(struct hw_module_t *module, const char *path)
{
	int n;

	if (module == &HAL_MODULE_INFO_SYM || !hwct_hwc2_hmi_valid(module)) {
		return;
	}
	pthread_mutex_lock(&patch_lock);
	n = atomic_load(&patched_count);
	if (module->methods->open != patched_open && n < MAX_PATCHED) {
		struct patched_module *p = &patched[n];

		p->module = module;
		p->real_methods = module->methods;
		p->methods.open = patched_open;
		snprintf(p->path, sizeof(p->path), "%s", path ? path : "");
		atomic_store(&patched_count, n + 1);
		module->methods = &p->methods;
	}
	pthread_mutex_unlock(&patch_lock);
}

/* Loads the real module of the HAL-wrapper path; NULL (logged) on failure. */
static struct hw_module_t *load_real(char *path, size_t size)
{
	static atomic_flag warned = ATOMIC_FLAG_INIT;
	struct hw_module_t *real;
	char why[256];
	void *handle;

	if (!rec_config_real_module(path, size)) {
		if (!atomic_flag_test_and_set(&warned)) {
			hwct_log(HWCT_LOG_ERROR, "recorder: no real HWC2 module: set HWCT_REAL_MODULE"
#ifdef __ANDROID__
				" or the property vendor.hwctrace.real_module"
#endif
				);
		}
		return NULL;
	}
	if (hwct_hwc2_module_load(path, rec_real_dlopen, &handle, &real, why, sizeof(why)) == 0) {
		if (real != &HAL_MODULE_INFO_SYM) {
			if (!real->dso) {
				real->dso = handle;
			}
			return real;
		}
		dlclose(handle);
		snprintf(why, sizeof(why), "that is the recorder itself");
	}
	if (!atomic_flag_test_and_set(&warned)) {
		hwct_log(HWCT_LOG_ERROR, "recorder: cannot use real HWC2 module %s: %s", path, why);
	}
	return NULL;
}

static int module_open(const struct hw_module_t *module, const char *id,
	struct hw_device_t **device)
{
	char path[4096];
	struct hw_module_t *real = load_real(path, sizeof(path));
	int ret;

	(void)module;
	if (!real) {
		return -ENOENT;
	}
	ret = real->methods->open(real, id, device);
	if (ret == 0 && is_composer(id) && device) {
		rec_device_wrap((hwc2_device_t *)*device, path);
	}
	return ret;
}

static struct hw_module_methods_t module_methods = {
	.open = module_open,
};

struct hw_module_t HAL_MODULE_INFO_SYM = {
	.tag = HARDWARE_MODULE_TAG,
	.module_api_version = HARDWARE_MODULE_API_VERSION(2, 0),
	.hal_api_version = HARDWARE_HAL_API_VERSION,
	.id = HWC_HARDWARE_MODULE_ID,
	.name = "hwctrace recorder (wraps HWCT_REAL_MODULE)",
	.author = "hwctrace",
	.methods = &module_methods,
};
