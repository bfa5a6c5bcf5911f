/*
 * Exercises the HWC2_PFN_* prototypes the way an interposer uses them: a fake
 * device hands out functions through getFunction(), the test casts them back
 * to the descriptor's PFN type and calls them, and each fake checks that the
 * by-value structs, floats, bools and 64-bit ids arrived intact. Every fake
 * is also checked at compile time to have exactly its PFN type (SHAPE), so a
 * prototype change in hwcomposer2.h breaks the build here.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#define CHECK_NONFATAL	/* a failed check is counted and the test goes on */
#include "check.h"

#define SHAPE(fn, pfn) \
	_Static_assert(_Generic(&(fn), pfn: 1, default: 0), #fn " is not a " #pfn)

#define DISPLAY ((hwc2_display_t)0x1122334455667788u)
#define LAYER ((hwc2_layer_t)0x99aabbccddeeff01u)

struct check_tally check_tally;

static const hwc_rect_t rects[2] = { { 1, 2, 3, 4 }, { -5, -6, 70000, 80000 } };

static bool ids_ok(hwc2_display_t display, hwc2_layer_t layer)
{
	return display == DISPLAY && layer == LAYER;
}

static int32_t set_layer_source_crop(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_frect_t crop)
{
	CHECK(device != NULL && ids_ok(display, layer));
	CHECK(crop.left == 0.5f && crop.top == 1.25f && crop.right == 1919.75f &&
		crop.bottom == 1080.0f);
	return HWC2_ERROR_NONE;
}
SHAPE(set_layer_source_crop, HWC2_PFN_SET_LAYER_SOURCE_CROP);

static int32_t set_layer_display_frame(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_rect_t frame)
{
	CHECK(ids_ok(display, layer));
	CHECK(frame.left == -10 && frame.top == 20 && frame.right == 1930 && frame.bottom == 1100);
	return HWC2_ERROR_NONE;
}
SHAPE(set_layer_display_frame, HWC2_PFN_SET_LAYER_DISPLAY_FRAME);

static int32_t set_layer_surface_damage(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_region_t damage)
{
	CHECK(ids_ok(display, layer));
	CHECK(damage.numRects == 2 && damage.rects == rects);
	return HWC2_ERROR_NONE;
}
SHAPE(set_layer_surface_damage, HWC2_PFN_SET_LAYER_SURFACE_DAMAGE);
SHAPE(set_layer_surface_damage, HWC2_PFN_SET_LAYER_VISIBLE_REGION);

static int32_t set_client_target(hwc2_device_t *device, hwc2_display_t display,
	buffer_handle_t target, int32_t acquire_fence, int32_t dataspace, hwc_region_t damage)
{
	CHECK(display == DISPLAY && target != NULL && target->version == 12);
	CHECK(acquire_fence == -1 && dataspace == HAL_DATASPACE_V0_SRGB);
	CHECK(damage.numRects == 1 && damage.rects == &rects[1]);
	return HWC2_ERROR_NONE;
}
SHAPE(set_client_target, HWC2_PFN_SET_CLIENT_TARGET);

static int32_t set_layer_color(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_color_t color)
{
	CHECK(ids_ok(display, layer));
	CHECK(color.r == 1 && color.g == 2 && color.b == 3 && color.a == 255);
	return HWC2_ERROR_NONE;
}
SHAPE(set_layer_color, HWC2_PFN_SET_LAYER_COLOR);

static int32_t set_layer_float_color(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_float_color_t color)
{
	CHECK(ids_ok(display, layer));
	CHECK(color.r == 0.25f && color.g == 0.5f && color.b == 0.75f && color.a == 1.0f);
	return HWC2_ERROR_NONE;
}
SHAPE(set_layer_float_color, HWC2_PFN_SET_LAYER_FLOAT_COLOR);

static int32_t set_layer_plane_alpha(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, float alpha)
{
	CHECK(ids_ok(display, layer) && alpha == 0.375f);
	return HWC2_ERROR_NONE;
}
SHAPE(set_layer_plane_alpha, HWC2_PFN_SET_LAYER_PLANE_ALPHA);

static int32_t set_layer_generic_metadata(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, uint32_t key_length, const char *key, bool mandatory,
	uint32_t value_length, const uint8_t *value)
{
	CHECK(ids_ok(display, layer));
	CHECK(key_length == 3 && memcmp(key, "k.x", 3) == 0 && mandatory);
	CHECK(value_length == 2 && value[0] == 0xab && value[1] == 0xcd);
	return HWC2_ERROR_NONE;
}
SHAPE(set_layer_generic_metadata, HWC2_PFN_SET_LAYER_GENERIC_METADATA);

static void get_layer_generic_metadata_key(hwc2_device_t *device, uint32_t key_index,
	uint32_t *out_key_length, char *out_key, bool *out_mandatory)
{
	CHECK(key_index == 0);
	*out_key_length = 3;
	if (out_key != NULL) {
		memcpy(out_key, "k.x", 3);
		*out_mandatory = true;
	}
}
SHAPE(get_layer_generic_metadata_key, HWC2_PFN_GET_LAYER_GENERIC_METADATA_KEY);

static int32_t set_displayed_content_sampling_enabled(hwc2_device_t *device,
	hwc2_display_t display, int32_t enabled, uint8_t component_mask, uint64_t max_frames)
{
	CHECK(display == DISPLAY && enabled == HWC2_DISPLAYED_CONTENT_SAMPLING_ENABLE);
	CHECK(component_mask == 0x0f && max_frames == UINT64_C(0x100000001));
	return HWC2_ERROR_NONE;
}
SHAPE(set_displayed_content_sampling_enabled, HWC2_PFN_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED);

static int32_t set_active_config_with_constraints(hwc2_device_t *device,
	hwc2_display_t display, hwc2_config_t config,
	hwc_vsync_period_change_constraints_t *constraints,
	hwc_vsync_period_change_timeline_t *out_timeline)
{
	CHECK(display == DISPLAY && config == 7);
	CHECK(constraints->desiredTimeNanos == INT64_C(123456789012) &&
		constraints->seamlessRequired == 1);
	out_timeline->newVsyncAppliedTimeNanos = INT64_C(5000000000);
	out_timeline->refreshRequired = 0;
	out_timeline->refreshTimeNanos = INT64_C(-1);
	return HWC2_ERROR_NONE;
}
SHAPE(set_active_config_with_constraints, HWC2_PFN_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS);

static uint32_t get_max_virtual_display_count(hwc2_device_t *device)
{
	return 3;
}
SHAPE(get_max_virtual_display_count, HWC2_PFN_GET_MAX_VIRTUAL_DISPLAY_COUNT);

static HWC2_PFN_VSYNC_2_4 vsync_callback;
static hwc2_callback_data_t vsync_data;

static int32_t register_callback(hwc2_device_t *device, int32_t descriptor,
	hwc2_callback_data_t callback_data, hwc2_function_pointer_t pointer)
{
	if (descriptor != HWC2_CALLBACK_VSYNC_2_4) {
		return HWC2_ERROR_UNSUPPORTED;
	}
	vsync_callback = (HWC2_PFN_VSYNC_2_4)pointer;
	vsync_data = callback_data;
	return HWC2_ERROR_NONE;
}
SHAPE(register_callback, HWC2_PFN_REGISTER_CALLBACK);

static int vsyncs;

static void on_vsync_2_4(hwc2_callback_data_t data, hwc2_display_t display, int64_t timestamp,
	hwc2_vsync_period_t vsync_period)
{
	CHECK(data == &vsyncs && display == DISPLAY);
	CHECK(timestamp == INT64_C(0x7000000012345678) && vsync_period == 16666666);
	vsyncs++;
}
SHAPE(on_vsync_2_4, HWC2_PFN_VSYNC_2_4);

/* -------------------------------------------------- the fake device */

static hwc2_function_pointer_t get_function(hwc2_device_t *device, int32_t descriptor)
{
	switch (descriptor) {
	case HWC2_FUNCTION_SET_LAYER_SOURCE_CROP:
		return (hwc2_function_pointer_t)set_layer_source_crop;
	case HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME:
		return (hwc2_function_pointer_t)set_layer_display_frame;
	case HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE:
	case HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION:
		return (hwc2_function_pointer_t)set_layer_surface_damage;
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		return (hwc2_function_pointer_t)set_client_target;
	case HWC2_FUNCTION_SET_LAYER_COLOR:
		return (hwc2_function_pointer_t)set_layer_color;
	case HWC2_FUNCTION_SET_LAYER_FLOAT_COLOR:
		return (hwc2_function_pointer_t)set_layer_float_color;
	case HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA:
		return (hwc2_function_pointer_t)set_layer_plane_alpha;
	case HWC2_FUNCTION_SET_LAYER_GENERIC_METADATA:
		return (hwc2_function_pointer_t)set_layer_generic_metadata;
	case HWC2_FUNCTION_GET_LAYER_GENERIC_METADATA_KEY:
		return (hwc2_function_pointer_t)get_layer_generic_metadata_key;
	case HWC2_FUNCTION_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED:
		return (hwc2_function_pointer_t)set_displayed_content_sampling_enabled;
	case HWC2_FUNCTION_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS:
		return (hwc2_function_pointer_t)set_active_config_with_constraints;
	case HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT:
		return (hwc2_function_pointer_t)get_max_virtual_display_count;
	case HWC2_FUNCTION_REGISTER_CALLBACK:
		return (hwc2_function_pointer_t)register_callback;
	default:
		return NULL;
	}
}

static void get_capabilities(hwc2_device_t *device, uint32_t *out_count, int32_t *out_caps)
{
	if (out_caps != NULL && *out_count >= 1) {
		out_caps[0] = HWC2_CAPABILITY_SKIP_VALIDATE;
	}
	*out_count = 1;
}

static int closed;

static int device_close(struct hw_device_t *device)
{
	closed++;
	return 0;
}

static hwc2_device_t fake_device;

static int module_open(const struct hw_module_t *module, const char *id,
	struct hw_device_t **device)
{
	if (strcmp(id, HWC_HARDWARE_COMPOSER) != 0) {
		return -22;
	}
	fake_device.common.tag = HARDWARE_DEVICE_TAG;
	fake_device.common.version = HWC_DEVICE_API_VERSION_2_0;
	fake_device.common.module = (struct hw_module_t *)module;
	fake_device.common.close = device_close;
	fake_device.getCapabilities = get_capabilities;
	fake_device.getFunction = get_function;
	*device = &fake_device.common;
	return 0;
}

static struct hw_module_methods_t fake_methods = { .open = module_open };

static struct hw_module_t fake_module = {
	.tag = HARDWARE_MODULE_TAG,
	.module_api_version = HARDWARE_MODULE_API_VERSION(2, 0),
	.hal_api_version = HARDWARE_HAL_API_VERSION,
	.id = HWC_HARDWARE_MODULE_ID,
	.name = "hwctrace fake composer",
	.author = "hwctrace tests",
	.methods = &fake_methods,
};

/* Looks a function up like an interposer does; NULL when the device lacks it. */
#define LOOKUP(device, pfn, descriptor) ((pfn)(device)->getFunction((device), (descriptor)))

int main(void)
{
	hwc2_device_t *dev = NULL;
	uint32_t count = 0;
	int32_t caps[4] = { 0 };
	int32_t err;

	CHECK(hwc2_open(&fake_module, &dev) == 0 && dev == &fake_device);
	if (dev == NULL) {
		return 1;
	}
	CHECK((dev->common.version >> 24 & 0xf) == 2);
	dev->getCapabilities(dev, &count, NULL);
	CHECK(count == 1);
	dev->getCapabilities(dev, &count, caps);
	CHECK(caps[0] == HWC2_CAPABILITY_SKIP_VALIDATE);
	CHECK(dev->getFunction(dev, HWC2_FUNCTION_VALIDATE_DISPLAY) == NULL);

	err = LOOKUP(dev, HWC2_PFN_SET_LAYER_SOURCE_CROP, HWC2_FUNCTION_SET_LAYER_SOURCE_CROP)(
		dev, DISPLAY, LAYER, (hwc_frect_t){ 0.5f, 1.25f, 1919.75f, 1080.0f });
	CHECK(err == HWC2_ERROR_NONE);
	err = LOOKUP(dev, HWC2_PFN_SET_LAYER_DISPLAY_FRAME, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME)(
		dev, DISPLAY, LAYER, (hwc_rect_t){ -10, 20, 1930, 1100 });
	CHECK(err == HWC2_ERROR_NONE);
	err = LOOKUP(dev, HWC2_PFN_SET_LAYER_SURFACE_DAMAGE, HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE)(
		dev, DISPLAY, LAYER, (hwc_region_t){ 2, rects });
	CHECK(err == HWC2_ERROR_NONE);
	err = LOOKUP(dev, HWC2_PFN_SET_LAYER_VISIBLE_REGION, HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION)(
		dev, DISPLAY, LAYER, (hwc_region_t){ 2, rects });
	CHECK(err == HWC2_ERROR_NONE);

	{
		native_handle_t handle = { .version = (int)sizeof(native_handle_t) };

		err = LOOKUP(dev, HWC2_PFN_SET_CLIENT_TARGET, HWC2_FUNCTION_SET_CLIENT_TARGET)(
			dev, DISPLAY, &handle, -1, HAL_DATASPACE_V0_SRGB,
			(hwc_region_t){ 1, &rects[1] });
		CHECK(err == HWC2_ERROR_NONE);
	}

	err = LOOKUP(dev, HWC2_PFN_SET_LAYER_COLOR, HWC2_FUNCTION_SET_LAYER_COLOR)(
		dev, DISPLAY, LAYER, (hwc_color_t){ 1, 2, 3, 255 });
	CHECK(err == HWC2_ERROR_NONE);
	err = LOOKUP(dev, HWC2_PFN_SET_LAYER_FLOAT_COLOR, HWC2_FUNCTION_SET_LAYER_FLOAT_COLOR)(
		dev, DISPLAY, LAYER, (hwc_float_color_t){ 0.25f, 0.5f, 0.75f, 1.0f });
	CHECK(err == HWC2_ERROR_NONE);
	err = LOOKUP(dev, HWC2_PFN_SET_LAYER_PLANE_ALPHA, HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA)(
		dev, DISPLAY, LAYER, 0.375f);
	CHECK(err == HWC2_ERROR_NONE);

	{
		static const uint8_t value[2] = { 0xab, 0xcd };
		uint32_t key_length = 0;
		char key[8] = { 0 };
		bool mandatory = false;

		err = LOOKUP(dev, HWC2_PFN_SET_LAYER_GENERIC_METADATA,
			HWC2_FUNCTION_SET_LAYER_GENERIC_METADATA)(dev, DISPLAY, LAYER, 3, "k.x", true,
			2, value);
		CHECK(err == HWC2_ERROR_NONE);
		LOOKUP(dev, HWC2_PFN_GET_LAYER_GENERIC_METADATA_KEY,
			HWC2_FUNCTION_GET_LAYER_GENERIC_METADATA_KEY)(dev, 0, &key_length, NULL, NULL);
		CHECK(key_length == 3);
		LOOKUP(dev, HWC2_PFN_GET_LAYER_GENERIC_METADATA_KEY,
			HWC2_FUNCTION_GET_LAYER_GENERIC_METADATA_KEY)(dev, 0, &key_length, key, &mandatory);
		CHECK(memcmp(key, "k.x", 3) == 0 && mandatory);
	}

	err = LOOKUP(dev, HWC2_PFN_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED,
		HWC2_FUNCTION_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED)(dev, DISPLAY,
		HWC2_DISPLAYED_CONTENT_SAMPLING_ENABLE, 0x0f, UINT64_C(0x100000001));
	CHECK(err == HWC2_ERROR_NONE);

	{
		hwc_vsync_period_change_constraints_t constraints = {
			.desiredTimeNanos = INT64_C(123456789012),
			.seamlessRequired = 1,
		};
		hwc_vsync_period_change_timeline_t timeline = { 0 };

		err = LOOKUP(dev, HWC2_PFN_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS,
			HWC2_FUNCTION_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS)(dev, DISPLAY, 7, &constraints,
			&timeline);
		CHECK(err == HWC2_ERROR_NONE);
		CHECK(timeline.newVsyncAppliedTimeNanos == INT64_C(5000000000) &&
			timeline.refreshTimeNanos == -1);
	}

	CHECK(LOOKUP(dev, HWC2_PFN_GET_MAX_VIRTUAL_DISPLAY_COUNT,
		HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT)(dev) == 3);

	err = LOOKUP(dev, HWC2_PFN_REGISTER_CALLBACK, HWC2_FUNCTION_REGISTER_CALLBACK)(dev,
		HWC2_CALLBACK_VSYNC_2_4, &vsyncs, (hwc2_function_pointer_t)on_vsync_2_4);
	CHECK(err == HWC2_ERROR_NONE && vsync_callback != NULL);
	if (vsync_callback != NULL) {
		vsync_callback(vsync_data, DISPLAY, INT64_C(0x7000000012345678), 16666666);
	}
	CHECK(vsyncs == 1);

	CHECK(hwc2_close(dev) == 0 && closed == 1);

	if (check_status() != 0) {
		return 1;
	}
	printf("%d checks passed\n", check_tally.run);
	return 0;
}
