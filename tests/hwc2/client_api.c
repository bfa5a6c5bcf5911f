/*
 * hwc2_client api: the entry points around the frame cycle, as
 * SurfaceFlinger calls them at start-up and on state changes, plus what a
 * careless caller may do (unknown descriptors, bad handles and layers,
 * presenting without validating). Checks hold for any HWC2 module unless
 * marked as hwcomposer.kms's choices (one config, no HDR, no doze, ...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwc2_client.h"

#define DISPLAY 0
#define E(ret, want, ...) CHECK((ret) == (want), __VA_ARGS__)

static bool queries(struct hc_module *m)
{
	hwc2_device_t *d = m->dev;
	uint32_t n = 0, size = 0;
	hwc2_config_t cfg = 0, configs[4];
	int32_t v = 0, type = 0, modes[4];
	char name[256];
	bool ok = true;

	ok = E(d->getFunction(d, HWC2_FUNCTION_INVALID), NULL, "getFunction(INVALID) is not NULL") && ok;
	ok = E(d->getFunction(d, 9999), NULL, "getFunction(9999) is not NULL") && ok;
	ok = E(d->getFunction(d, HWC2_FUNCTION_SET_LAYER_GENERIC_METADATA), NULL,
		"getFunction(SET_LAYER_GENERIC_METADATA) is not NULL (unsupported)") && ok;
	ok = E(m->fn.get_display_type(d, 1, &type), HWC2_ERROR_BAD_DISPLAY, "display 1 exists") && ok;
	ok = E(m->fn.get_display_type(d, DISPLAY, &type), HWC2_ERROR_NONE, "getDisplayType") &&
		E(type, HWC2_DISPLAY_TYPE_PHYSICAL, "display type %d", type) && ok;
	ok = E(m->fn.get_display_configs(d, DISPLAY, &n, NULL), HWC2_ERROR_NONE, "getDisplayConfigs") &&
		CHECK(n >= 1 && n <= 4, "%u configs", n) && ok;
	ok = E(m->fn.get_display_configs(d, DISPLAY, &n, configs), HWC2_ERROR_NONE, "getDisplayConfigs") && ok;
	ok = E(m->fn.get_active_config(d, DISPLAY, &cfg), HWC2_ERROR_NONE, "getActiveConfig") &&
		E(cfg, configs[0], "active config %u", cfg) && ok;
	ok = E(m->fn.set_active_config(d, DISPLAY, cfg), HWC2_ERROR_NONE, "setActiveConfig") && ok;
	ok = E(m->fn.set_active_config(d, DISPLAY, cfg + 100), HWC2_ERROR_BAD_CONFIG,
		"setActiveConfig(bad)") && ok;
	ok = E(m->fn.get_display_attribute(d, DISPLAY, cfg, HWC2_ATTRIBUTE_WIDTH, &v), HWC2_ERROR_NONE,
		"WIDTH") && E(v, VS_WIDTH, "width %d (HWCT_KMS_MODE)", v) && ok;
	ok = E(m->fn.get_display_attribute(d, DISPLAY, cfg, HWC2_ATTRIBUTE_VSYNC_PERIOD, &v),
		HWC2_ERROR_NONE, "VSYNC_PERIOD") && CHECK(v > 16000000 && v < 17000000,
		"vsync period %d ns at 60 Hz", v) && ok;
	ok = E(m->fn.get_display_attribute(d, DISPLAY, cfg, HWC2_ATTRIBUTE_DPI_X, &v), HWC2_ERROR_NONE,
		"DPI_X") && ok;
	ok = E(m->fn.get_display_attribute(d, DISPLAY, cfg + 100, HWC2_ATTRIBUTE_WIDTH, &v),
		HWC2_ERROR_BAD_CONFIG, "attribute of a bad config") && ok;
	ok = E(m->fn.get_display_name(d, DISPLAY, &size, NULL), HWC2_ERROR_NONE, "getDisplayName") &&
		CHECK(size > 0 && size < sizeof(name), "name size %u", size) && ok;
	if (size > 0 && size < sizeof(name)) {
		m->fn.get_display_name(d, DISPLAY, &size, name);
		name[size] = '\0';
		printf("api: display \"%s\", %dx%d\n", name, VS_WIDTH, VS_HEIGHT);
	}
	ok = E(m->fn.get_doze_support(d, DISPLAY, &v), HWC2_ERROR_NONE, "getDozeSupport") &&
		E(v, 0, "doze %d", v) && ok;
	ok = E(m->fn.get_hdr_capabilities(d, DISPLAY, &n, NULL, NULL, NULL, NULL), HWC2_ERROR_NONE,
		"getHdrCapabilities") && E(n, 0, "%u HDR types", n) && ok;
	ok = E(m->fn.get_color_modes(d, DISPLAY, &n, NULL), HWC2_ERROR_NONE, "getColorModes") &&
		E(n, 1, "%u color modes", n) && ok;
	ok = E(m->fn.get_color_modes(d, DISPLAY, &n, modes), HWC2_ERROR_NONE, "getColorModes") &&
		E(modes[0], HAL_COLOR_MODE_NATIVE, "color mode %d", modes[0]) && ok;
	ok = E(m->fn.set_color_mode(d, DISPLAY, HAL_COLOR_MODE_NATIVE), HWC2_ERROR_NONE, "NATIVE") && ok;
	ok = E(m->fn.set_color_mode(d, DISPLAY, -5), HWC2_ERROR_BAD_PARAMETER, "color mode -5") && ok;
	ok = E(m->fn.get_max_virtual_display_count(d), 0, "virtual displays") && ok;
	ok = E(m->fn.get_client_target_support(d, DISPLAY, VS_WIDTH, VS_HEIGHT, HAL_PIXEL_FORMAT_RGBA_8888,
		HAL_DATASPACE_UNKNOWN), HWC2_ERROR_NONE, "client target RGBA_8888") && ok;
	ok = E(m->fn.get_client_target_support(d, DISPLAY, VS_WIDTH + 1, VS_HEIGHT,
		HAL_PIXEL_FORMAT_RGBA_8888, HAL_DATASPACE_UNKNOWN), HWC2_ERROR_UNSUPPORTED,
		"client target of another size") && ok;
	return ok;
}

static bool bad_calls(struct hc_module *m)
{
	hwc2_device_t *d = m->dev;
	native_handle_t bogus = { .version = sizeof(native_handle_t), .numFds = 0, .numInts = 0 };
	uint32_t types = 0, requests = 0, n = 0;
	hwc2_layer_t layer = 0;
	int32_t fence = -1;
	bool ok = E(m->fn.create_layer(d, DISPLAY, &layer), HWC2_ERROR_NONE, "createLayer");

	ok = E(m->fn.set_layer_buffer(d, DISPLAY, layer, &bogus, -1), HWC2_ERROR_BAD_PARAMETER,
		"setLayerBuffer(a handle that is no buffer)") && ok;
	ok = E(m->fn.set_layer_buffer(d, DISPLAY, layer + 1000, NULL, -1), HWC2_ERROR_BAD_LAYER,
		"setLayerBuffer(unknown layer)") && ok;
	ok = E(m->fn.set_layer_sideband_stream(d, DISPLAY, layer, &bogus), HWC2_ERROR_UNSUPPORTED,
		"setLayerSidebandStream") && ok;
	ok = E(m->fn.set_layer_composition_type(d, DISPLAY, layer, 99), HWC2_ERROR_BAD_PARAMETER,
		"composition type 99") && ok;
	ok = E(m->fn.set_layer_blend_mode(d, DISPLAY, layer, 42), HWC2_ERROR_BAD_PARAMETER,
		"blend mode 42") && ok;
	ok = E(m->fn.present_display(d, DISPLAY, &fence), HWC2_ERROR_NOT_VALIDATED,
		"presentDisplay before validateDisplay") && ok;
	ok = E(m->fn.get_changed_composition_types(d, DISPLAY, &n, NULL, NULL), HWC2_ERROR_NOT_VALIDATED,
		"getChangedCompositionTypes before validateDisplay") && ok;
	ok = E(m->fn.destroy_layer(d, DISPLAY, layer + 1000), HWC2_ERROR_BAD_LAYER,
		"destroyLayer(unknown layer)") && ok;
	/* a layer with no buffer is the client's to compose */
	m->fn.set_layer_composition_type(d, DISPLAY, layer, HWC2_COMPOSITION_DEVICE);
	ok = E(m->fn.validate_display(d, DISPLAY, &types, &requests), HWC2_ERROR_HAS_CHANGES,
		"validate with a bufferless DEVICE layer") && E(types, 1, "%u changed types", types) && ok;
	ok = E(m->fn.destroy_layer(d, DISPLAY, layer), HWC2_ERROR_NONE, "destroyLayer") && ok;
	return ok;
}

/*
 * Power OFF then ON: a REFRESH follows; vsync callbacks come while enabled
 * (polled for, up to VSYNC_WAIT_MS: a loaded VM delivers them late, not
 * never). After setVsyncEnabled(DISABLE) returns, at most the one callback
 * already under way (past its check of the flag, calling out unlocked) may
 * still land; a device that kept them coming would deliver about 18 in the
 * 300 ms watched at 60 Hz.
 */
#define VSYNCS_WANTED 5u
#define VSYNC_WAIT_MS 10000u

static unsigned vsync_count(struct hc_module *m)
{
	unsigned n;

	pthread_mutex_lock(&m->lock);
	n = m->vsyncs;
	pthread_mutex_unlock(&m->lock);
	return n;
}

static bool power_and_vsync(struct hc_module *m)
{
	hwc2_device_t *d = m->dev;
	unsigned enabled, before, after, refreshes, waited;
	bool ok = E(m->fn.set_power_mode(d, DISPLAY, HWC2_POWER_MODE_DOZE), HWC2_ERROR_UNSUPPORTED,
		"DOZE without doze support");

	ok = E(m->fn.set_power_mode(d, DISPLAY, HWC2_POWER_MODE_OFF), HWC2_ERROR_NONE, "power OFF") && ok;
	ok = E(m->fn.set_power_mode(d, DISPLAY, HWC2_POWER_MODE_ON), HWC2_ERROR_NONE, "power ON") && ok;
	ok = E(m->fn.set_vsync_enabled(d, DISPLAY, HWC2_VSYNC_ENABLE), HWC2_ERROR_NONE, "vsync on") && ok;
	for (waited = 0; vsync_count(m) < VSYNCS_WANTED && waited < VSYNC_WAIT_MS; waited += 10) {
		hc_sleep_ms(10);
	}
	enabled = vsync_count(m);
	pthread_mutex_lock(&m->lock);
	refreshes = m->refreshes;
	pthread_mutex_unlock(&m->lock);
	ok = E(m->fn.set_vsync_enabled(d, DISPLAY, HWC2_VSYNC_DISABLE), HWC2_ERROR_NONE, "vsync off") && ok;
	before = vsync_count(m);
	hc_sleep_ms(300);
	after = vsync_count(m);
	printf("api: %u vsync callbacks in %u ms, %u after disabling, %u refresh after power on\n",
		enabled, waited, after - before, refreshes);
	ok = CHECK(enabled >= VSYNCS_WANTED, "%u vsync callbacks in %u ms", enabled, VSYNC_WAIT_MS) && ok;
	ok = CHECK(after - before <= 1, "%u vsync callbacks after setVsyncEnabled(DISABLE)", after - before) && ok;
	return CHECK(refreshes >= 1, "no REFRESH after power ON") && ok;
}

/* A non-identity color transform sends every layer to the client. */
static bool color_transform(struct hc_module *m, struct hc_alloc *a)
{
	static const float gray[16] = { 0.3f, 0.3f, 0.3f, 0, 0.59f, 0.59f, 0.59f, 0, 0.11f, 0.11f, 0.11f, 0,
		0, 0, 0, 1 };
	struct hc_session s = { 0 };
	struct hc_frame f;
	bool ok = hc_session_start(&s, m, a, vs_stack_find("rgba5"));

	ok = ok && E(m->fn.set_color_transform(m->dev, DISPLAY, gray, 1), HWC2_ERROR_NONE,
		"setColorTransform(matrix)") && hc_session_frame(&s, NULL, &f);
	if (ok) {
		ok = CHECK(f.client == s.count, "color transform: %u of %zu layers CLIENT", f.client, s.count);
		hc_frame_finish(&f);
	}
	ok = ok && E(m->fn.set_color_transform(m->dev, DISPLAY, NULL, HAL_COLOR_TRANSFORM_IDENTITY),
		HWC2_ERROR_NONE, "setColorTransform(identity)") && hc_session_frame(&s, NULL, &f);
	if (ok) {
		printf("api: color transform: all CLIENT; identity again: %u CLIENT\n", f.client);
		hc_frame_finish(&f);
	}
	hc_session_finish(&s);
	return ok;
}

/*
 * drm_hwcomposer's mapping: a CURSOR layer a plane shows becomes DEVICE;
 * setCursorPosition moves it from the next validated frame on.
 */
static bool cursor(struct hc_module *m, struct hc_alloc *a)
{
	struct vs_stack stack = *vs_stack_find("rgba5");
	struct hc_session s = { 0 };
	struct hc_frame f;
	bool ok;

	stack.name = "rgba5-cursor";
	stack.layers[4].composition = HWC2_COMPOSITION_CURSOR;
	ok = hc_session_start(&s, m, a, &stack) && hc_session_frame(&s, NULL, &f);
	if (ok) {
		ok = CHECK(s.layers[4].validated == HWC2_COMPOSITION_DEVICE,
			"a CURSOR layer on a plane validated as %d, not DEVICE", s.layers[4].validated);
		hc_frame_finish(&f);
	}
	ok = ok && E(m->fn.set_cursor_position(m->dev, DISPLAY, s.layers[4].id, 100, 90), HWC2_ERROR_NONE,
		"setCursorPosition") && E(m->fn.set_cursor_position(m->dev, DISPLAY, s.layers[4].id + 1000,
		0, 0), HWC2_ERROR_BAD_LAYER, "setCursorPosition(unknown layer)");
	if (ok && hc_session_frame(&s, NULL, &f)) {
		printf("api: cursor layer: DEVICE, moved; next frame %u changes\n", f.changed);
		hc_frame_finish(&f);
	} else {
		ok = false;
	}
	hc_session_finish(&s);
	return ok;
}

bool hc_case_api(struct hc_module *m, const struct hc_options *o)
{
	struct hc_alloc a;
	char *dump;
	bool ok;

	setenv("HWCT_KMS_MODE", "256x192@60", 1);
	setenv("HWCT_KMS_READBACK", "0", 1);
	setenv("HWCT_KMS_PLANNER", "drmhwc", 1);
	hc_alloc_open(&a, o->device);
	ok = hc_module_open(m);
	if (ok) {
		pthread_mutex_lock(&m->lock);
		ok = CHECK(m->hotplugs == 1 && m->hotplug_in_register,
			"HOTPLUG: %u callbacks, %s registerCallback", m->hotplugs,
			m->hotplug_in_register ? "inside" : "not inside");
		pthread_mutex_unlock(&m->lock);
		ok = queries(m) && ok;
		ok = bad_calls(m) && ok;
		ok = power_and_vsync(m) && ok;
		ok = color_transform(m, &a) && ok;
		ok = cursor(m, &a) && ok;
		dump = hc_module_dump(m);
		ok = CHECK(dump && strlen(dump) > 0, "empty dump") && ok;
		if (m->last_frame) {
			ok = CHECK(dump && strstr(dump, "plan: "), "no plan in the dump") && ok;
		}
		free(dump);
	}
	hc_module_close(m);
	hc_alloc_close(&a);
	return ok;
}
