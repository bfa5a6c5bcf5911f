/*
 * Enum names of schema fields (names.h): the HWC2/HAL tables generated into
 * <hwct/hwc2_names.h>, and the format's own enums generated from the schema
 * into <hwct/format_enums.h>.
 */
#include <stdio.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/hwc2_names.h>
#include <hwct/hwctrace.pb-c.h>

#include "names.h"

struct field_namer {
	const ProtobufCMessageDescriptor *msg;	/* NULL: any message */
	const char *field;
	names_fn name;
};

/* Specific messages first: the first match wins. */
static const struct field_namer field_namers[] = {
	{ &hwct__call__descriptor, "function", hwct_hwc2_function_name },
	{ &hwct__opaque_args__descriptor, "descriptor", hwct_hwc2_function_name },
	{ &hwct__callback__descriptor, "descriptor", hwct_hwc2_callback_descriptor_name },
	{ &hwct__callback_args__descriptor, "descriptor", hwct_hwc2_callback_descriptor_name },
	{ &hwct__callback__descriptor, "connection", hwct_hwc2_connection_name },
	{ &hwct__display__descriptor, "type", hwct_hwc2_display_type_name },
	{ &hwct__display__descriptor, "connection_type", hwct_hwc2_display_connection_type_name },
	{ &hwct__display__descriptor, "capabilities", hwct_hwc2_display_capability_name },
	{ &hwct__display__descriptor, "color_modes", hwct_hwc2_color_mode_name },
	{ &hwct__display__descriptor, "render_intents", hwct_hwc2_render_intent_name },
	{ &hwct__environment__descriptor, "hwc2_capabilities", hwct_hwc2_capability_name },
	{ &hwct__display_state__descriptor, "vsync_enabled", hwct_hwc2_vsync_name },
	{ &hwct__color_mode_args__descriptor, "mode", hwct_hwc2_color_mode_name },
	{ &hwct__color_mode_args__descriptor, "intent", hwct_hwc2_render_intent_name },
	{ &hwct__attribute_args__descriptor, "attribute", hwct_hwc2_attribute_name },
	{ &hwct__matrix_args__descriptor, "hint", hwct_hwc2_color_transform_name },
	{ &hwct__hdr_capabilities__descriptor, "types", hwct_hwc2_hdr_name },
	{ &hwct__changed_types_args__descriptor, "types", hwct_hwc2_composition_name },
	{ &hwct__requests_args__descriptor, "display_requests", hwct_hwc2_display_request_name },
	{ &hwct__requests_args__descriptor, "layer_requests", hwct_hwc2_layer_request_name },
	{ &hwct__metadata_args__descriptor, "keys", hwct_hwc2_per_frame_metadata_key_name },
	{ &hwct__client_target_args__descriptor, "format", hwct_hwc2_pixel_format_name },
	{ &hwct__virtual_display_args__descriptor, "format", hwct_hwc2_pixel_format_name },
	{ &hwct__readback_args__descriptor, "format", hwct_hwc2_pixel_format_name },
	{ &hwct__sampling_args__descriptor, "format", hwct_hwc2_pixel_format_name },
	{ &hwct__fence__descriptor, "kind", hwct_fence_kind_name },
	{ &hwct__fence__descriptor, "status", hwct_fence_status_name },
	{ &hwct__layer_buffer_args__descriptor, "capture", hwct_capture_status_name },
	{ &hwct__blob__descriptor, "kind", hwct_blob_kind_name },
	{ &hwct__blob__descriptor, "encoding", hwct_blob_encoding_name },
	{ &hwct__blob__descriptor, "predictor", hwct_blob_predictor_name },
	{ &hwct__index_frame__descriptor, "kind", hwct_frame_kind_name },
	{ NULL, "error", hwct_hwc2_error_name },
	{ NULL, "composition", hwct_hwc2_composition_name },
	{ NULL, "blend", hwct_hwc2_blend_mode_name },
	{ NULL, "transform", hwct_hwc2_transform_name },
	{ NULL, "dataspace", hwct_hwc2_dataspace_name },
	{ NULL, "hal_format", hwct_hwc2_pixel_format_name },
	{ NULL, "power_mode", hwct_hwc2_power_mode_name },
	{ NULL, "color_mode", hwct_hwc2_color_mode_name },
	{ NULL, "render_intent", hwct_hwc2_render_intent_name },
	{ NULL, "color_transform_hint", hwct_hwc2_color_transform_name },
	{ NULL, "content_type", hwct_hwc2_content_type_name },
};

struct value_namer {
	int32_t function;		/* HWC2_FUNCTION_* */
	names_fn name;
};

/* ValueArgs.value and ListArgs.values by the function of their Call. */
static const struct value_namer value_namers[] = {
	{ HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, hwct_hwc2_composition_name },
	{ HWC2_FUNCTION_SET_LAYER_BLEND_MODE, hwct_hwc2_blend_mode_name },
	{ HWC2_FUNCTION_SET_LAYER_TRANSFORM, hwct_hwc2_transform_name },
	{ HWC2_FUNCTION_SET_LAYER_DATASPACE, hwct_hwc2_dataspace_name },
	{ HWC2_FUNCTION_SET_POWER_MODE, hwct_hwc2_power_mode_name },
	{ HWC2_FUNCTION_SET_VSYNC_ENABLED, hwct_hwc2_vsync_name },
	{ HWC2_FUNCTION_SET_CONTENT_TYPE, hwct_hwc2_content_type_name },
	{ HWC2_FUNCTION_GET_DISPLAY_TYPE, hwct_hwc2_display_type_name },
	{ HWC2_FUNCTION_GET_DISPLAY_CONNECTION_TYPE, hwct_hwc2_display_connection_type_name },
	{ HWC2_FUNCTION_GET_COLOR_MODES, hwct_hwc2_color_mode_name },
	{ HWC2_FUNCTION_GET_RENDER_INTENTS, hwct_hwc2_render_intent_name },
	{ HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES, hwct_hwc2_display_capability_name },
	{ HWC2_FUNCTION_GET_SUPPORTED_CONTENT_TYPES, hwct_hwc2_content_type_name },
	{ HWC2_FUNCTION_GET_PER_FRAME_METADATA_KEYS, hwct_hwc2_per_frame_metadata_key_name },
};

static names_fn value_namer(int32_t function)
{
	for (size_t i = 0; i < sizeof(value_namers) / sizeof(value_namers[0]); i++) {
		if (value_namers[i].function == function) {
			return value_namers[i].name;
		}
	}
	return NULL;
}

names_fn names_for_field(const ProtobufCMessageDescriptor *msg, const char *field, int32_t function)
{
	if ((msg == &hwct__value_args__descriptor && strcmp(field, "value") == 0) ||
		(msg == &hwct__list_args__descriptor && strcmp(field, "values") == 0)) {
		return value_namer(function);
	}
	for (size_t i = 0; i < sizeof(field_namers) / sizeof(field_namers[0]); i++) {
		const struct field_namer *n = &field_namers[i];

		if ((!n->msg || n->msg == msg) && strcmp(n->field, field) == 0) {
			return n->name;
		}
	}
	return NULL;
}

const char *names_frame_flags(char *buf, size_t size, uint32_t flags)
{
	static const char *const names[] = { "CAPTURE_LATE", "SKIPPED_VALIDATE", "PRESENT_ERROR" };
	size_t len = 0;

	buf[0] = 0;
	for (unsigned bit = 0; bit < 32 && len < size; bit++) {
		if (!(flags & (1u << bit))) {
			continue;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "|" : "",
			bit < 3 ? names[bit] : "");
		if (bit >= 3 && len < size) {
			len += (size_t)snprintf(buf + len, size - len, "0x%x", 1u << bit);
		}
	}
	return buf;
}
