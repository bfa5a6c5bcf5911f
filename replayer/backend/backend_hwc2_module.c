/*
 * Loading an HWC2 module for the hwc2 backend as libhardware and the HIDL
 * passthrough composer do: dlopen, the HMI symbol with its tag and id,
 * methods->open("composer"), a version 2 device, every function resolved
 * once through getFunction, the callbacks registered (the primary display
 * is expected to hotplug during or soon after registerCallback), then the
 * active config's attributes.
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <hardware/hardware.h>
#include <hwct/hwc2_names.h>

#include "backend_hwc2_private.h"

#define HOTPLUG_WAIT_MS 2000
#define LATER_HOTPLUG_WAIT_MS 1000	/* for a display after the first, once per display of the trace */

static void on_hotplug(hwc2_callback_data_t data, hwc2_display_t display, int32_t connection)
{
	struct hwc2_module *m = data;

	size_t i;

	pthread_mutex_lock(&m->lock);
	m->hotplugs++;
	if (connection == HWC2_CONNECTION_CONNECTED && !m->has_display) {
		m->has_display = true;
		m->display = display;
		pthread_cond_broadcast(&m->hotplugged);
	}
	for (i = 0; i < m->display_count && m->displays[i] != display; i++) {
	}
	if (connection == HWC2_CONNECTION_CONNECTED && i == m->display_count && i < HWC2_MAX_DISPLAYS) {
		m->displays[m->display_count++] = display;
		pthread_cond_broadcast(&m->hotplugged);
	}
	pthread_mutex_unlock(&m->lock);
}

static void on_refresh(hwc2_callback_data_t data, hwc2_display_t display)
{
	struct hwc2_module *m = data;

	(void)display;
	pthread_mutex_lock(&m->lock);
	m->refreshes++;
	pthread_mutex_unlock(&m->lock);
}

static void on_vsync(hwc2_callback_data_t data, hwc2_display_t display, int64_t timestamp)
{
	struct hwc2_module *m = data;

	(void)display;
	(void)timestamp;
	pthread_mutex_lock(&m->lock);
	m->vsyncs++;
	pthread_mutex_unlock(&m->lock);
}

/* Loads and opens the module (hwc2_load.h) and resolves the replayer's functions. */
static int load(struct hwc2_module *m, const char *path, struct hwct_error *err)
{
	char msg[HWCT_ERROR_MESSAGE_MAX];
	struct stat st;
	hw_module_t *hmi;
	int32_t missing;
	void *sym;
	int ret;

	if (stat(path, &st) != 0) {
		return hwct_error_set(err, -errno, path, UINT64_MAX, "cannot load the HWC2 module: %s",
			strerror(errno));
	}
	if ((ret = hwct_hwc2_module_load(path, NULL, &m->dl, &hmi, msg, sizeof(msg))) < 0) {
		return hwct_error_set(err, ret, path, UINT64_MAX, "%s", msg);
	}
	sym = dlsym(m->dl, HWC2_KMS_LAST_FRAME_SYMBOL);
	memcpy(&m->last_frame, &sym, sizeof(sym));	/* POSIX: dlsym's result may be a function */
	backend_watch_enter("open");
	if ((ret = hwct_hwc2_device_open(hmi, &m->dev, msg, sizeof(msg))) < 0) {
		return hwct_error_set(err, ret, path, UINT64_MAX, "%s", msg);
	}
	hwct_hwc2_fns_resolve(m->dev, HWCT_HWC2_FN_OPTIONAL, backend_watch_enter, &m->fn);
	if (hwct_hwc2_fns_missing(&m->fn, HWCT_HWC2_FN_REQUIRED, &missing, 1) > 0) {
		return hwct_error_set(err, -ENOEXEC, path, UINT64_MAX,
			"the module has no %s (getFunction returned NULL)", hwct_hwc2_function_name(missing));
	}
	return 0;
}

/* Waits for the first connected display. Returns true when one came. */
static bool wait_display(struct hwc2_module *m)
{
	struct timespec until;
	bool ok;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += HOTPLUG_WAIT_MS / 1000;
	pthread_mutex_lock(&m->lock);
	while (!m->has_display && pthread_cond_timedwait(&m->hotplugged, &m->lock, &until) == 0) {
	}
	ok = m->has_display;
	pthread_mutex_unlock(&m->lock);
	return ok;
}

static int32_t attribute(struct hwc2_module *m, hwc2_config_t config, int32_t which, int32_t *out)
{
	*out = -1;
	return HWC2_FN(m, get_display_attribute)(m->dev, m->display, config, which, out);
}

/* The display queries SurfaceFlinger makes at boot, ending with the active config's mode. */
static int read_display(struct hwc2_module *m, const char *path, struct hwct_error *err)
{
	int32_t type = 0, w, h, period;
	hwc2_config_t config = 0;
	uint32_t count = 0;
	char name[64];

	if (m->fn.get_display_type) {
		HWC2_FN(m, get_display_type)(m->dev, m->display, &type);
	}
	if (m->fn.get_display_name) {
		count = sizeof(name);
		HWC2_FN(m, get_display_name)(m->dev, m->display, &count, name);
	}
	if (m->fn.get_display_configs) {
		count = 0;
		HWC2_FN(m, get_display_configs)(m->dev, m->display, &count, NULL);
	}
	if (HWC2_FN(m, get_active_config)(m->dev, m->display, &config) != HWC2_ERROR_NONE ||
		attribute(m, config, HWC2_ATTRIBUTE_WIDTH, &w) != HWC2_ERROR_NONE ||
		attribute(m, config, HWC2_ATTRIBUTE_HEIGHT, &h) != HWC2_ERROR_NONE || w <= 0 || h <= 0) {
		return hwct_error_set(err, -ENODEV, path, UINT64_MAX,
			"display %" PRIu64 ": no active config with a width and height", (uint64_t)m->display);
	}
	m->width = (uint32_t)w;
	m->height = (uint32_t)h;
	if (attribute(m, config, HWC2_ATTRIBUTE_VSYNC_PERIOD, &period) == HWC2_ERROR_NONE && period > 0) {
		m->vsync_period_ns = period;
	}
	if (m->fn.get_color_modes) {
		count = 0;
		HWC2_FN(m, get_color_modes)(m->dev, m->display, &count, NULL);
	}
	return 0;
}

int hwc2_module_open(struct hwc2_module *m, const char *path, struct hwct_error *err)
{
	int ret;

	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->hotplugged, NULL);
	ret = load(m, path, err);
	if (ret < 0) {
		return ret;
	}
	if (HWC2_FN(m, register_callback)(m->dev, HWC2_CALLBACK_HOTPLUG, m, (hwc2_function_pointer_t)on_hotplug) !=
		HWC2_ERROR_NONE) {
		return hwct_error_set(err, -ENODEV, path, UINT64_MAX, "registerCallback(HOTPLUG) failed");
	}
	HWC2_FN(m, register_callback)(m->dev, HWC2_CALLBACK_REFRESH, m, (hwc2_function_pointer_t)on_refresh);
	HWC2_FN(m, register_callback)(m->dev, HWC2_CALLBACK_VSYNC, m, (hwc2_function_pointer_t)on_vsync);
	if (!wait_display(m)) {
		return hwct_error_set(err, -ENODEV, path, UINT64_MAX, "no display was hotplugged in %d ms",
			HOTPLUG_WAIT_MS);
	}
	ret = read_display(m, path, err);
	backend_watch_leave();
	m->ready = ret == 0;
	return ret;
}

int hwc2_module_open_display(struct hwc2_module *m, struct hwc2_module *owner, size_t index, const char *path,
	struct hwct_error *err)
{
	hwc2_display_t displays[HWC2_MAX_DISPLAYS];
	char ids[HWC2_MAX_DISPLAYS * 21 + 1] = "";
	struct timespec until;
	size_t count;
	int ret;

	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->hotplugged, NULL);
	/* a module may hotplug its other displays from a thread of its own, a little later */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += LATER_HOTPLUG_WAIT_MS * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&owner->lock);
	while (owner->display_count <= index && !owner->callbacks_off &&
		pthread_cond_timedwait(&owner->hotplugged, &owner->lock, &until) == 0) {
	}
	count = owner->display_count;
	memcpy(displays, owner->displays, sizeof(displays));
	pthread_mutex_unlock(&owner->lock);
	if (index >= count) {
		for (size_t i = 0; i < count; i++) {
			size_t used = strlen(ids);

			snprintf(ids + used, sizeof(ids) - used, "%s%" PRIu64, i ? ", " : "", (uint64_t)displays[i]);
		}
		return hwct_error_set(err, -ENODEV, path, UINT64_MAX, "no display left for it: the module hotplugged "
			"%zu (%s), which show the trace's earlier displays", count, ids);
	}
	m->owner = owner;
	m->dev = owner->dev;
	m->fn = owner->fn;
	m->has_display = true;
	m->display = displays[index];
	ret = read_display(m, path, err);
	backend_watch_leave();
	m->ready = ret == 0;
	return ret;
}

void hwc2_module_power_on(struct hwc2_module *m)
{
	HWC2_FN(m, set_power_mode)(m->dev, m->display, HWC2_POWER_MODE_ON);
	if (m->fn.set_vsync_enabled) {
		HWC2_FN(m, set_vsync_enabled)(m->dev, m->display, HWC2_VSYNC_ENABLE);
	}
	backend_watch_leave();
}

void hwc2_module_close(struct hwc2_module *m)
{
	if (m->dev) {
		if (m->fn.set_vsync_enabled) {
			HWC2_FN(m, set_vsync_enabled)(m->dev, m->display, HWC2_VSYNC_DISABLE);
		}
		backend_watch_leave();
	}
	if (m->dev && !m->owner) {
		backend_watch_enter("close");
		m->dev->common.close(&m->dev->common);
		backend_watch_leave();
	}
	if (m->dl) {
		dlclose(m->dl);
	}
	pthread_cond_destroy(&m->hotplugged);
	pthread_mutex_destroy(&m->lock);
	memset(m, 0, sizeof(*m));
}
