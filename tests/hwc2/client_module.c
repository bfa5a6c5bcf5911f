/*
 * Loading an HWC2 module as libhardware and the HIDL passthrough do
 * (common/hwc2_load.h: dlopen, HMI, open "composer", every function
 * resolved once by getFunction), then the callbacks registered (HOTPLUG
 * is expected back at once).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hwct/hwc2_names.h>

#include "hwc2_client.h"

struct check_tally check_tally;

bool hc_module_load(struct hc_module *m, const char *path)
{
	char msg[256];
	void *sym;

	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	if (!CHECK(hwct_hwc2_module_load(path, NULL, &m->dl, &m->hmi, msg, sizeof(msg)) == 0,
		"%s: %s", path, msg)) {
		return false;
	}
	sym = dlsym(m->dl, HWC2_KMS_LAST_FRAME_SYMBOL);
	memcpy(&m->last_frame, &sym, sizeof(sym));	/* POSIX: dlsym's result is a function */
	return true;
}

static void on_hotplug(hwc2_callback_data_t data, hwc2_display_t display, int32_t connection)
{
	struct hc_module *m = data;

	pthread_mutex_lock(&m->lock);
	if (display == 0 && connection == HWC2_CONNECTION_CONNECTED) {
		m->hotplugs++;
		m->hotplug_in_register = m->hotplug_in_register || m->in_register;
	}
	pthread_mutex_unlock(&m->lock);
}

static void on_refresh(hwc2_callback_data_t data, hwc2_display_t display)
{
	struct hc_module *m = data;

	pthread_mutex_lock(&m->lock);
	m->refreshes++;
	pthread_mutex_unlock(&m->lock);
}

static void on_vsync(hwc2_callback_data_t data, hwc2_display_t display, int64_t timestamp)
{
	struct hc_module *m = data;

	pthread_mutex_lock(&m->lock);
	m->vsyncs++;
	m->vsync_backwards = m->vsync_backwards || timestamp < m->last_vsync_ns;
	m->last_vsync_ns = timestamp;
	pthread_mutex_unlock(&m->lock);
}

/* Resolves every function of the table; each one missing is a failed check. */
static bool resolve(struct hc_module *m)
{
	int32_t missing[HWCT_HWC2_FUNCTION_COUNT];
	size_t n;

	hwct_hwc2_fns_resolve(m->dev, HWCT_HWC2_FN_EXTRA, NULL, &m->fn);
	n = hwct_hwc2_fns_missing(&m->fn, HWCT_HWC2_FN_EXTRA, missing, HWCT_HWC2_FUNCTION_COUNT);
	for (size_t i = 0; i < n && i < HWCT_HWC2_FUNCTION_COUNT; i++) {
		FAIL("getFunction(HWC2_FUNCTION_%s) is NULL", hwct_hwc2_function_name(missing[i]));
	}
	return n == 0;
}

bool hc_module_open(struct hc_module *m)
{
	uint32_t caps = 0;
	char msg[256];
	int ret;
	bool ok;

	ret = hwct_hwc2_device_open(m->hmi, &m->dev, msg, sizeof(msg));
	if (!CHECK(ret == 0, "%s", msg)) {
		return false;
	}
	ok = CHECK(m->dev->getCapabilities && m->dev->common.close, "device functions missing");
	if (!ok) {
		return false;
	}
	m->dev->getCapabilities(m->dev, &caps, NULL);
	ok = resolve(m);
	if (!ok) {
		return false;
	}
	m->hotplugs = m->vsyncs = m->refreshes = 0;
	m->hotplug_in_register = m->vsync_backwards = false;
	m->last_vsync_ns = 0;
	m->in_register = true;
	ret = m->fn.register_callback(m->dev, HWC2_CALLBACK_HOTPLUG, m,
		(hwc2_function_pointer_t)on_hotplug);
	m->in_register = false;
	ok = CHECK(ret == HWC2_ERROR_NONE, "registerCallback(HOTPLUG): %d", ret);
	ret = m->fn.register_callback(m->dev, HWC2_CALLBACK_REFRESH, m,
		(hwc2_function_pointer_t)on_refresh);
	ok = CHECK(ret == HWC2_ERROR_NONE, "registerCallback(REFRESH): %d", ret) && ok;
	ret = m->fn.register_callback(m->dev, HWC2_CALLBACK_VSYNC, m, (hwc2_function_pointer_t)on_vsync);
	ok = CHECK(ret == HWC2_ERROR_NONE, "registerCallback(VSYNC): %d", ret) && ok;
	return ok;
}

void hc_module_close(struct hc_module *m)
{
	if (m->dev) {
		m->dev->common.close(&m->dev->common);
		m->dev = NULL;
	}
}

void hc_module_unload(struct hc_module *m)
{
	hc_module_close(m);
	if (m->dl) {
		dlclose(m->dl);
		m->dl = NULL;
	}
	pthread_mutex_destroy(&m->lock);
}

char *hc_module_dump(struct hc_module *m)
{
	uint32_t size = 0;
	char *text;

	m->fn.dump(m->dev, &size, NULL);
	text = malloc((size_t)size + 1);
	if (!text) {
		return NULL;
	}
	m->fn.dump(m->dev, &size, text);
	text[size] = '\0';
	return text;
}

void hc_sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0) {
	}
}

double hc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
