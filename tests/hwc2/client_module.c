/*
 * Loading an HWC2 module as libhardware and the HIDL passthrough do
 * (§1.1): dlopen, dlsym("HMI"), tag and id checks, methods->open with
 * "composer", every function resolved once by getFunction, then the
 * callbacks registered (HOTPLUG is expected back at once).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwc2_client.h"

struct check_tally check_tally;

bool hc_module_load(struct hc_module *m, const char *path)
{
	void *sym;

	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	m->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!CHECK(m->dl != NULL, "dlopen %s: %s", path, dlerror())) {
		return false;
	}
	m->hmi = dlsym(m->dl, HAL_MODULE_INFO_SYM_AS_STR);
	sym = dlsym(m->dl, HWC2_KMS_LAST_FRAME_SYMBOL);
	memcpy(&m->last_frame, &sym, sizeof(sym));	/* POSIX: dlsym's result is a function */
	return CHECK(m->hmi != NULL, "%s has no %s", path, HAL_MODULE_INFO_SYM_AS_STR) &&
		CHECK(m->hmi->tag == HARDWARE_MODULE_TAG, "HMI tag 0x%x", m->hmi->tag) &&
		CHECK(m->hmi->id && strcmp(m->hmi->id, HWC_HARDWARE_MODULE_ID) == 0,
			"HMI id \"%s\"", m->hmi->id ? m->hmi->id : "(null)") &&
		CHECK(m->hmi->methods && m->hmi->methods->open, "HMI has no open");
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

#define GET(field, desc, type) \
	(ok = CHECK((m->fn.field = (type)m->dev->getFunction(m->dev, desc)) != NULL, \
		"getFunction(" #desc ") is NULL") && ok)

static bool resolve(struct hc_module *m)
{
	bool ok = true;

	GET(accept_display_changes, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, HWC2_PFN_ACCEPT_DISPLAY_CHANGES);
	GET(create_layer, HWC2_FUNCTION_CREATE_LAYER, HWC2_PFN_CREATE_LAYER);
	GET(destroy_layer, HWC2_FUNCTION_DESTROY_LAYER, HWC2_PFN_DESTROY_LAYER);
	GET(dump, HWC2_FUNCTION_DUMP, HWC2_PFN_DUMP);
	GET(get_active_config, HWC2_FUNCTION_GET_ACTIVE_CONFIG, HWC2_PFN_GET_ACTIVE_CONFIG);
	GET(get_changed_composition_types, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES,
		HWC2_PFN_GET_CHANGED_COMPOSITION_TYPES);
	GET(get_client_target_support, HWC2_FUNCTION_GET_CLIENT_TARGET_SUPPORT,
		HWC2_PFN_GET_CLIENT_TARGET_SUPPORT);
	GET(get_color_modes, HWC2_FUNCTION_GET_COLOR_MODES, HWC2_PFN_GET_COLOR_MODES);
	GET(get_display_attribute, HWC2_FUNCTION_GET_DISPLAY_ATTRIBUTE, HWC2_PFN_GET_DISPLAY_ATTRIBUTE);
	GET(get_display_configs, HWC2_FUNCTION_GET_DISPLAY_CONFIGS, HWC2_PFN_GET_DISPLAY_CONFIGS);
	GET(get_display_name, HWC2_FUNCTION_GET_DISPLAY_NAME, HWC2_PFN_GET_DISPLAY_NAME);
	GET(get_display_requests, HWC2_FUNCTION_GET_DISPLAY_REQUESTS, HWC2_PFN_GET_DISPLAY_REQUESTS);
	GET(get_display_type, HWC2_FUNCTION_GET_DISPLAY_TYPE, HWC2_PFN_GET_DISPLAY_TYPE);
	GET(get_doze_support, HWC2_FUNCTION_GET_DOZE_SUPPORT, HWC2_PFN_GET_DOZE_SUPPORT);
	GET(get_hdr_capabilities, HWC2_FUNCTION_GET_HDR_CAPABILITIES, HWC2_PFN_GET_HDR_CAPABILITIES);
	GET(get_max_virtual_display_count, HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT,
		HWC2_PFN_GET_MAX_VIRTUAL_DISPLAY_COUNT);
	GET(get_release_fences, HWC2_FUNCTION_GET_RELEASE_FENCES, HWC2_PFN_GET_RELEASE_FENCES);
	GET(present_display, HWC2_FUNCTION_PRESENT_DISPLAY, HWC2_PFN_PRESENT_DISPLAY);
	GET(register_callback, HWC2_FUNCTION_REGISTER_CALLBACK, HWC2_PFN_REGISTER_CALLBACK);
	GET(set_active_config, HWC2_FUNCTION_SET_ACTIVE_CONFIG, HWC2_PFN_SET_ACTIVE_CONFIG);
	GET(set_client_target, HWC2_FUNCTION_SET_CLIENT_TARGET, HWC2_PFN_SET_CLIENT_TARGET);
	GET(set_color_mode, HWC2_FUNCTION_SET_COLOR_MODE, HWC2_PFN_SET_COLOR_MODE);
	GET(set_color_transform, HWC2_FUNCTION_SET_COLOR_TRANSFORM, HWC2_PFN_SET_COLOR_TRANSFORM);
	GET(set_cursor_position, HWC2_FUNCTION_SET_CURSOR_POSITION, HWC2_PFN_SET_CURSOR_POSITION);
	GET(set_layer_blend_mode, HWC2_FUNCTION_SET_LAYER_BLEND_MODE, HWC2_PFN_SET_LAYER_BLEND_MODE);
	GET(set_layer_buffer, HWC2_FUNCTION_SET_LAYER_BUFFER, HWC2_PFN_SET_LAYER_BUFFER);
	GET(set_layer_color, HWC2_FUNCTION_SET_LAYER_COLOR, HWC2_PFN_SET_LAYER_COLOR);
	GET(set_layer_composition_type, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE,
		HWC2_PFN_SET_LAYER_COMPOSITION_TYPE);
	GET(set_layer_dataspace, HWC2_FUNCTION_SET_LAYER_DATASPACE, HWC2_PFN_SET_LAYER_DATASPACE);
	GET(set_layer_display_frame, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME,
		HWC2_PFN_SET_LAYER_DISPLAY_FRAME);
	GET(set_layer_plane_alpha, HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA, HWC2_PFN_SET_LAYER_PLANE_ALPHA);
	GET(set_layer_sideband_stream, HWC2_FUNCTION_SET_LAYER_SIDEBAND_STREAM,
		HWC2_PFN_SET_LAYER_SIDEBAND_STREAM);
	GET(set_layer_source_crop, HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, HWC2_PFN_SET_LAYER_SOURCE_CROP);
	GET(set_layer_surface_damage, HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE,
		HWC2_PFN_SET_LAYER_SURFACE_DAMAGE);
	GET(set_layer_transform, HWC2_FUNCTION_SET_LAYER_TRANSFORM, HWC2_PFN_SET_LAYER_TRANSFORM);
	GET(set_layer_visible_region, HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION,
		HWC2_PFN_SET_LAYER_VISIBLE_REGION);
	GET(set_layer_z_order, HWC2_FUNCTION_SET_LAYER_Z_ORDER, HWC2_PFN_SET_LAYER_Z_ORDER);
	GET(set_power_mode, HWC2_FUNCTION_SET_POWER_MODE, HWC2_PFN_SET_POWER_MODE);
	GET(set_vsync_enabled, HWC2_FUNCTION_SET_VSYNC_ENABLED, HWC2_PFN_SET_VSYNC_ENABLED);
	GET(validate_display, HWC2_FUNCTION_VALIDATE_DISPLAY, HWC2_PFN_VALIDATE_DISPLAY);
	return ok;
}

bool hc_module_open(struct hc_module *m)
{
	uint32_t caps = 0;
	int ret;
	bool ok;

	m->dev = NULL;
	ret = m->hmi->methods->open(m->hmi, HWC_HARDWARE_COMPOSER, (struct hw_device_t **)&m->dev);
	if (!CHECK(ret == 0 && m->dev, "open(\"composer\"): %d", ret)) {
		m->dev = NULL;
		return false;
	}
	ok = CHECK(m->dev->common.tag == HARDWARE_DEVICE_TAG, "device tag 0x%x", m->dev->common.tag) &&
		CHECK(((m->dev->common.version >> 24) & 0xf) == 2, "device version 0x%x",
			m->dev->common.version) &&
		CHECK(m->dev->getFunction && m->dev->getCapabilities && m->dev->common.close,
			"device functions missing");
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
