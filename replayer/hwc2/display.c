/*
 * Display queries and settings of hwcomposer.kms.so: one physical display
 * with one config (the connector's mode, or HWCT_KMS_MODE), NATIVE colour
 * only, no HDR, no doze, power ON/OFF (OFF turns the CRTC off), identity
 * color transforms only (another one sends every layer to the client), and
 * no virtual displays (the composer 2.1 entry points the HIDL passthrough
 * requires exist and say so).
 */
#include <string.h>

#include <hwct/log.h>

#include "hwc2_private.h"

/*
 * The getters of a constant: the display's errors, then BAD_PARAMETER when
 * out is NULL, else *out = value. out points to a uint32_t or to an int32_t
 * (which may be accessed as its unsigned type: the values here are small).
 */
static int32_t get_constant(hwc2_device_t *device, hwc2_display_t display, uint32_t *out,
	uint32_t value)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	*out = value;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_display_attribute(hwc2_device_t *device, hwc2_display_t display,
	hwc2_config_t config, int32_t attribute, int32_t *out_value)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_value) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (config != HWC2_KMS_CONFIG) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_CONFIG);
	}
	switch (attribute) {
	case HWC2_ATTRIBUTE_WIDTH:
		*out_value = (int32_t)d->width;
		break;
	case HWC2_ATTRIBUTE_HEIGHT:
		*out_value = (int32_t)d->height;
		break;
	case HWC2_ATTRIBUTE_VSYNC_PERIOD:
		*out_value = (int32_t)(1000000000000ull / d->refresh_mhz);
		break;
	case HWC2_ATTRIBUTE_CONFIG_GROUP:
		*out_value = 0;
		break;
	default:
		*out_value = -1;	/* DPI (vkms has no physical size) and unknown attributes */
		break;
	}
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_display_configs(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_count, hwc2_config_t *out_configs)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_count) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (out_configs && *out_count >= 1) {
		out_configs[0] = HWC2_KMS_CONFIG;
	} else if (out_configs) {
		return hwc2_kms_leave(d, HWC2_ERROR_NONE);
	}
	*out_count = 1;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_active_config(hwc2_device_t *device, hwc2_display_t display,
	hwc2_config_t *out_config)
{
	return get_constant(device, display, out_config, HWC2_KMS_CONFIG);
}

static int32_t set_active_config(hwc2_device_t *device, hwc2_display_t display, hwc2_config_t config)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	return hwc2_kms_leave(d, config == HWC2_KMS_CONFIG ? HWC2_ERROR_NONE : HWC2_ERROR_BAD_CONFIG);
}

static int32_t get_display_name(hwc2_device_t *device, hwc2_display_t display, uint32_t *out_size,
	char *out_name)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);
	uint32_t len;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_size) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	len = (uint32_t)strlen(d->name);
	if (out_name) {
		len = len < *out_size ? len : *out_size;
		memcpy(out_name, d->name, len);	/* not NUL-terminated */
	}
	*out_size = len;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_display_type(hwc2_device_t *device, hwc2_display_t display, int32_t *out_type)
{
	return get_constant(device, display, (uint32_t *)out_type, HWC2_DISPLAY_TYPE_PHYSICAL);
}

static int32_t get_doze_support(hwc2_device_t *device, hwc2_display_t display, int32_t *out_support)
{
	return get_constant(device, display, (uint32_t *)out_support, 0);
}

static int32_t get_hdr_capabilities(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_count, int32_t *out_types, float *out_max_luminance,
	float *out_max_average_luminance, float *out_min_luminance)
{
	return get_constant(device, display, out_count, 0);	/* no HDR type */
}

/* One value through the count-then-fill pattern. */
static int32_t one_value(uint32_t *out_count, int32_t *out, int32_t value)
{
	if (!out_count) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	if (out && *out_count >= 1) {
		out[0] = value;
	} else if (out) {
		return HWC2_ERROR_NONE;
	}
	*out_count = 1;
	return HWC2_ERROR_NONE;
}

static int32_t get_color_modes(hwc2_device_t *device, hwc2_display_t display, uint32_t *out_count,
	int32_t *out_modes)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	return hwc2_kms_leave(d, one_value(out_count, out_modes, HAL_COLOR_MODE_NATIVE));
}

/* NATIVE only; other known modes are unsupported, the rest are bad parameters. */
static int32_t check_color_mode(int32_t mode)
{
	if (mode == HAL_COLOR_MODE_NATIVE) {
		return HWC2_ERROR_NONE;
	}
	return mode > 0 && mode <= HAL_COLOR_MODE_DISPLAY_BT2020 ? HWC2_ERROR_UNSUPPORTED :
		HWC2_ERROR_BAD_PARAMETER;
}

static int32_t set_color_mode(hwc2_device_t *device, hwc2_display_t display, int32_t mode)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	ret = check_color_mode(mode);
	if (ret == HWC2_ERROR_NONE) {
		d->color_mode = mode;
	}
	return hwc2_kms_leave(d, ret);
}

static int32_t get_render_intents(hwc2_device_t *device, hwc2_display_t display, int32_t mode,
	uint32_t *out_count, int32_t *out_intents)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	ret = check_color_mode(mode);
	if (ret != HWC2_ERROR_NONE) {
		return hwc2_kms_leave(d, ret == HWC2_ERROR_UNSUPPORTED ? HWC2_ERROR_BAD_PARAMETER : ret);
	}
	return hwc2_kms_leave(d, one_value(out_count, out_intents, HAL_RENDER_INTENT_COLORIMETRIC));
}

static int32_t set_color_mode_with_render_intent(hwc2_device_t *device, hwc2_display_t display,
	int32_t mode, int32_t intent)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	ret = check_color_mode(mode);
	if (ret == HWC2_ERROR_NONE && intent != HAL_RENDER_INTENT_COLORIMETRIC) {
		ret = intent < 0 ? HWC2_ERROR_BAD_PARAMETER : HWC2_ERROR_UNSUPPORTED;
	}
	return hwc2_kms_leave(d, ret);
}

static int32_t set_color_transform(hwc2_device_t *device, hwc2_display_t display,
	const float *matrix, int32_t hint)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);
	bool identity = hint == HAL_COLOR_TRANSFORM_IDENTITY;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!identity && !matrix) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (!identity) {
		identity = true;
		for (int i = 0; i < 16; i++) {
			identity = identity && matrix[i] == (i % 5 == 0 ? 1.0f : 0.0f);
		}
	}
	if (identity != d->ctm_identity) {
		d->ctm_identity = identity;
		hwc2_kms_invalidate(d);
	}
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_client_target_support(hwc2_device_t *device, hwc2_display_t display,
	uint32_t width, uint32_t height, int32_t format, int32_t dataspace)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);
	bool format_ok = format == HAL_PIXEL_FORMAT_RGBA_8888 || format == HAL_PIXEL_FORMAT_RGBX_8888 ||
		format == HAL_PIXEL_FORMAT_BGRA_8888;
	bool dataspace_ok = dataspace == HAL_DATASPACE_UNKNOWN || dataspace == HAL_DATASPACE_SRGB ||
		dataspace == HAL_DATASPACE_V0_SRGB;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	return hwc2_kms_leave(d, width == d->width && height == d->height && format_ok && dataspace_ok ?
		HWC2_ERROR_NONE : HWC2_ERROR_UNSUPPORTED);
}

static int32_t set_power_mode(hwc2_device_t *device, hwc2_display_t display, int32_t mode)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);
	int err;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (mode == HWC2_POWER_MODE_DOZE || mode == HWC2_POWER_MODE_DOZE_SUSPEND) {
		return hwc2_kms_leave(d, HWC2_ERROR_UNSUPPORTED);
	}
	if (mode != HWC2_POWER_MODE_ON && mode != HWC2_POWER_MODE_OFF) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (mode == HWC2_POWER_MODE_OFF && d->power_on) {
		d->crtc_on = false;
		err = backend_kms_disable(d->backend);
		if (err < 0) {
			hwct_log(HWCT_LOG_WARNING, "hwcomposer.kms: power off: %s", strerror(-err));
		}
		hwc2_kms_fence_close(&d->present_fence);
		d->shown_count = 0;
		d->release_count = 0;
	} else if (mode == HWC2_POWER_MODE_ON && !d->power_on) {
		hwc2_kms_request_refresh(d);	/* nothing on screen: ask for a frame */
	}
	d->power_on = mode == HWC2_POWER_MODE_ON;
	hwc2_kms_invalidate(d);
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_display_capabilities(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_count, uint32_t *out_capabilities)
{
	return get_constant(device, display, out_count, 0);	/* no capability */
}

static uint32_t get_max_virtual_display_count(hwc2_device_t *device)
{
	return 0;
}

static int32_t create_virtual_display(hwc2_device_t *device, uint32_t width, uint32_t height,
	int32_t *format, hwc2_display_t *out_display)
{
	return HWC2_ERROR_NO_RESOURCES;
}

static int32_t destroy_virtual_display(hwc2_device_t *device, hwc2_display_t display)
{
	return HWC2_ERROR_BAD_DISPLAY;
}

static int32_t set_output_buffer(hwc2_device_t *device, hwc2_display_t display,
	buffer_handle_t buffer, int32_t release_fence)
{
	return display == HWC2_KMS_DISPLAY ? HWC2_ERROR_UNSUPPORTED : HWC2_ERROR_BAD_DISPLAY;
}

const struct hwc2_kms_fn hwc2_kms_display_fns[] = {
	HWC2_KMS_FN(HWC2_FUNCTION_GET_DISPLAY_ATTRIBUTE, HWC2_PFN_GET_DISPLAY_ATTRIBUTE,
		get_display_attribute),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_DISPLAY_CONFIGS, HWC2_PFN_GET_DISPLAY_CONFIGS, get_display_configs),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_ACTIVE_CONFIG, HWC2_PFN_GET_ACTIVE_CONFIG, get_active_config),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_ACTIVE_CONFIG, HWC2_PFN_SET_ACTIVE_CONFIG, set_active_config),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_DISPLAY_NAME, HWC2_PFN_GET_DISPLAY_NAME, get_display_name),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_DISPLAY_TYPE, HWC2_PFN_GET_DISPLAY_TYPE, get_display_type),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_DOZE_SUPPORT, HWC2_PFN_GET_DOZE_SUPPORT, get_doze_support),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_HDR_CAPABILITIES, HWC2_PFN_GET_HDR_CAPABILITIES,
		get_hdr_capabilities),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_COLOR_MODES, HWC2_PFN_GET_COLOR_MODES, get_color_modes),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_COLOR_MODE, HWC2_PFN_SET_COLOR_MODE, set_color_mode),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_RENDER_INTENTS, HWC2_PFN_GET_RENDER_INTENTS, get_render_intents),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_COLOR_MODE_WITH_RENDER_INTENT,
		HWC2_PFN_SET_COLOR_MODE_WITH_RENDER_INTENT, set_color_mode_with_render_intent),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_COLOR_TRANSFORM, HWC2_PFN_SET_COLOR_TRANSFORM, set_color_transform),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_CLIENT_TARGET_SUPPORT, HWC2_PFN_GET_CLIENT_TARGET_SUPPORT,
		get_client_target_support),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_POWER_MODE, HWC2_PFN_SET_POWER_MODE, set_power_mode),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES, HWC2_PFN_GET_DISPLAY_CAPABILITIES,
		get_display_capabilities),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT, HWC2_PFN_GET_MAX_VIRTUAL_DISPLAY_COUNT,
		get_max_virtual_display_count),
	HWC2_KMS_FN(HWC2_FUNCTION_CREATE_VIRTUAL_DISPLAY, HWC2_PFN_CREATE_VIRTUAL_DISPLAY,
		create_virtual_display),
	HWC2_KMS_FN(HWC2_FUNCTION_DESTROY_VIRTUAL_DISPLAY, HWC2_PFN_DESTROY_VIRTUAL_DISPLAY,
		destroy_virtual_display),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_OUTPUT_BUFFER, HWC2_PFN_SET_OUTPUT_BUFFER, set_output_buffer),
	{ 0, NULL },
};
