/*
 * Call records of the queries and the composer 2.2-2.4 extras, by the family
 * table of docs/format.md section 3.1 (encode.h).
 */
#include <string.h>

#include "encode.h"
#include "hwc2_wrappers.h"

static void encode_list(Hwct__Call *call, struct enc_families *f, struct enc_scratch *s,
	const struct rec_event *ev, int values, bool sign, int key)
{
	size_t n;

	hwct__list_args__init(&f->list);
	f->list.values = enc_elems(s, ev, values, sign, &n);
	f->list.n_values = n;
	if (key >= 0) {
		f->list.has_key = true;
		f->list.key = (int32_t)enc_ival(ev, key);
	}
	call->args_case = HWCT__CALL__ARGS_LIST;
	call->list = &f->list;
}

static void encode_metadata_blobs(Hwct__Call *call, struct enc_families *f, struct enc_scratch *s,
	const struct rec_event *ev)
{
	size_t nkeys, nsizes;
	int64_t *sizes = enc_elems(s, ev, REC_ARG_SET_LAYER_PER_FRAME_METADATA_BLOBS_SIZES, false, &nsizes);
	ProtobufCBinaryData all = enc_array_bytes(ev, REC_ARG_SET_LAYER_PER_FRAME_METADATA_BLOBS_METADATA);
	size_t off = 0;

	f->metadata.keys = enc_elems_i32(s, ev, REC_ARG_SET_LAYER_PER_FRAME_METADATA_BLOBS_KEYS, &nkeys);
	f->metadata.n_keys = nkeys;
	f->metadata.blobs = nsizes ? enc_alloc(s, nsizes, sizeof(*f->metadata.blobs)) : NULL;
	for (size_t k = 0; f->metadata.blobs && k < nsizes; k++) {
		size_t len = (size_t)sizes[k];

		if (off + len > all.len) {
			break;
		}
		f->metadata.blobs[k] = (ProtobufCBinaryData){ len, all.data + off };
		off += len;
		f->metadata.n_blobs = k + 1;
	}
	call->args_case = HWCT__CALL__ARGS_METADATA;
	call->metadata = &f->metadata;
}

void enc_query_args(Hwct__Call *call, struct enc_families *f, struct enc_scratch *s,
	const struct rec_event *ev)
{
	size_t n;
	const void *p;

	switch (ev->function) {
	case HWC2_FUNCTION_GET_DISPLAY_ATTRIBUTE:
		hwct__attribute_args__init(&f->attribute);
		f->attribute.has_config = f->attribute.has_attribute = true;
		f->attribute.config = (uint32_t)enc_ival(ev, REC_ARG_GET_DISPLAY_ATTRIBUTE_CONFIG);
		f->attribute.attribute = (int32_t)enc_ival(ev, REC_ARG_GET_DISPLAY_ATTRIBUTE_ATTRIBUTE);
		f->attribute.has_value = enc_out_ok(ev, REC_ARG_GET_DISPLAY_ATTRIBUTE_OUT_VALUE);
		f->attribute.value = (int32_t)enc_ival(ev, REC_ARG_GET_DISPLAY_ATTRIBUTE_OUT_VALUE);
		call->args_case = HWCT__CALL__ARGS_ATTRIBUTE;
		call->attribute = &f->attribute;
		return;
	case HWC2_FUNCTION_GET_DISPLAY_CONFIGS:
		encode_list(call, f, s, ev, REC_ARG_GET_DISPLAY_CONFIGS_OUT_CONFIGS, false, -1);
		return;
	case HWC2_FUNCTION_GET_COLOR_MODES:
		encode_list(call, f, s, ev, REC_ARG_GET_COLOR_MODES_OUT_MODES, true, -1);
		return;
	case HWC2_FUNCTION_GET_RENDER_INTENTS:
		encode_list(call, f, s, ev, REC_ARG_GET_RENDER_INTENTS_OUT_INTENTS, true,
			REC_ARG_GET_RENDER_INTENTS_MODE);
		return;
	case HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES:
		encode_list(call, f, s, ev, REC_ARG_GET_DISPLAY_CAPABILITIES_OUT_CAPABILITIES, false, -1);
		return;
	case HWC2_FUNCTION_GET_SUPPORTED_CONTENT_TYPES:
		encode_list(call, f, s, ev, REC_ARG_GET_SUPPORTED_CONTENT_TYPES_OUT_TYPES, false, -1);
		return;
	case HWC2_FUNCTION_GET_PER_FRAME_METADATA_KEYS:
		encode_list(call, f, s, ev, REC_ARG_GET_PER_FRAME_METADATA_KEYS_OUT_KEYS, true, -1);
		return;
	case HWC2_FUNCTION_GET_DISPLAY_NAME:
	case HWC2_FUNCTION_DUMP:
		hwct__text_args__init(&f->text);
		f->text.text = enc_text(s, ev, ev->function == HWC2_FUNCTION_DUMP ? REC_ARG_DUMP_OUT_BUFFER :
			REC_ARG_GET_DISPLAY_NAME_OUT_NAME);
		call->args_case = HWCT__CALL__ARGS_TEXT;
		call->text = &f->text;
		return;
	case HWC2_FUNCTION_GET_CLIENT_TARGET_SUPPORT:
		hwct__client_target_args__init(&f->client_target);
		f->client_target.has_width = f->client_target.has_height = true;
		f->client_target.has_format = f->client_target.has_dataspace = true;
		f->client_target.width = (uint32_t)enc_ival(ev, REC_ARG_GET_CLIENT_TARGET_SUPPORT_WIDTH);
		f->client_target.height = (uint32_t)enc_ival(ev, REC_ARG_GET_CLIENT_TARGET_SUPPORT_HEIGHT);
		f->client_target.format = (int32_t)enc_ival(ev, REC_ARG_GET_CLIENT_TARGET_SUPPORT_FORMAT);
		f->client_target.dataspace = (int32_t)enc_ival(ev, REC_ARG_GET_CLIENT_TARGET_SUPPORT_DATASPACE);
		call->args_case = HWCT__CALL__ARGS_CLIENT_TARGET;
		call->client_target = &f->client_target;
		return;
	case HWC2_FUNCTION_GET_CLIENT_TARGET_PROPERTY:
		hwct__client_target_args__init(&f->client_target);
		if (ev->error == HWC2_ERROR_NONE && (p = enc_bytes(ev, REC_ARG_GET_CLIENT_TARGET_PROPERTY_OUT_PROPERTY,
				sizeof(hwc_client_target_property_t)))) {
			hwc_client_target_property_t prop;

			memcpy(&prop, p, sizeof(prop));
			f->client_target.has_format = f->client_target.has_dataspace = true;
			f->client_target.format = prop.pixelFormat;
			f->client_target.dataspace = prop.dataspace;
		}
		call->args_case = HWCT__CALL__ARGS_CLIENT_TARGET;
		call->client_target = &f->client_target;
		return;
	case HWC2_FUNCTION_SET_LAYER_PER_FRAME_METADATA: {
		const struct rec_arg *a = enc_arg(ev, REC_ARG_SET_LAYER_PER_FRAME_METADATA_METADATA);

		hwct__metadata_args__init(&f->metadata);
		f->metadata.keys = enc_elems_i32(s, ev, REC_ARG_SET_LAYER_PER_FRAME_METADATA_KEYS, &n);
		f->metadata.n_keys = n;
		if (a->kind == REC_ARG_ARRAY && a->elem_size == sizeof(float)) {
			f->metadata.values = (float *)rec_arg_data(ev, a);
			f->metadata.n_values = a->count;
		}
		call->args_case = HWCT__CALL__ARGS_METADATA;
		call->metadata = &f->metadata;
		return;
	}
	case HWC2_FUNCTION_SET_LAYER_PER_FRAME_METADATA_BLOBS:
		hwct__metadata_args__init(&f->metadata);
		encode_metadata_blobs(call, f, s, ev);
		return;
	case HWC2_FUNCTION_SET_LAYER_GENERIC_METADATA:
		hwct__generic_metadata_args__init(&f->generic);
		f->generic.key = enc_text(s, ev, REC_ARG_SET_LAYER_GENERIC_METADATA_KEY);
		f->generic.has_mandatory = true;
		f->generic.mandatory = enc_ival(ev, REC_ARG_SET_LAYER_GENERIC_METADATA_MANDATORY) != 0;
		f->generic.value = enc_array_bytes(ev, REC_ARG_SET_LAYER_GENERIC_METADATA_VALUE);
		f->generic.has_value = f->generic.value.data != NULL;
		call->args_case = HWCT__CALL__ARGS_GENERIC_METADATA;
		call->generic_metadata = &f->generic;
		return;
	case HWC2_FUNCTION_GET_LAYER_GENERIC_METADATA_KEY:
		hwct__generic_metadata_args__init(&f->generic);
		f->generic.has_key_index = true;
		f->generic.key_index = (uint32_t)enc_ival(ev, REC_ARG_GET_LAYER_GENERIC_METADATA_KEY_KEY_INDEX);
		f->generic.key = enc_text(s, ev, REC_ARG_GET_LAYER_GENERIC_METADATA_KEY_OUT_KEY);
		f->generic.has_mandatory = enc_has(ev, REC_ARG_GET_LAYER_GENERIC_METADATA_KEY_OUT_KEY) &&
			enc_has(ev, REC_ARG_GET_LAYER_GENERIC_METADATA_KEY_OUT_MANDATORY);
		f->generic.mandatory = enc_ival(ev, REC_ARG_GET_LAYER_GENERIC_METADATA_KEY_OUT_MANDATORY) != 0;
		call->args_case = HWCT__CALL__ARGS_GENERIC_METADATA;
		call->generic_metadata = &f->generic;
		return;
	case HWC2_FUNCTION_GET_HDR_CAPABILITIES:
		hwct__hdr_args__init(&f->hdr);
		hwct__hdr_capabilities__init(&f->hdr_caps);
		f->hdr_caps.types = enc_elems_i32(s, ev, REC_ARG_GET_HDR_CAPABILITIES_OUT_TYPES, &n);
		f->hdr_caps.n_types = n;
		f->hdr_caps.has_max_luminance = enc_out_ok(ev, REC_ARG_GET_HDR_CAPABILITIES_OUT_MAX_LUMINANCE);
		f->hdr_caps.max_luminance = enc_fval(ev, REC_ARG_GET_HDR_CAPABILITIES_OUT_MAX_LUMINANCE);
		f->hdr_caps.has_max_average_luminance =
			enc_out_ok(ev, REC_ARG_GET_HDR_CAPABILITIES_OUT_MAX_AVERAGE_LUMINANCE);
		f->hdr_caps.max_average_luminance =
			enc_fval(ev, REC_ARG_GET_HDR_CAPABILITIES_OUT_MAX_AVERAGE_LUMINANCE);
		f->hdr_caps.has_min_luminance = enc_out_ok(ev, REC_ARG_GET_HDR_CAPABILITIES_OUT_MIN_LUMINANCE);
		f->hdr_caps.min_luminance = enc_fval(ev, REC_ARG_GET_HDR_CAPABILITIES_OUT_MIN_LUMINANCE);
		f->hdr.hdr = &f->hdr_caps;
		call->args_case = HWCT__CALL__ARGS_HDR;
		call->hdr = &f->hdr;
		return;
	case HWC2_FUNCTION_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS:
		hwct__active_config_args__init(&f->active);
		f->active.has_config = true;
		f->active.config = (uint32_t)enc_ival(ev, REC_ARG_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS_CONFIG);
		if ((p = enc_bytes(ev, REC_ARG_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS_CONSTRAINTS,
				sizeof(hwc_vsync_period_change_constraints_t)))) {
			hwc_vsync_period_change_constraints_t c;

			memcpy(&c, p, sizeof(c));
			f->active.has_desired_time_ns = f->active.has_seamless_required = true;
			f->active.desired_time_ns = c.desiredTimeNanos;
			f->active.seamless_required = c.seamlessRequired != 0;
		}
		if (ev->error == HWC2_ERROR_NONE && (p = enc_bytes(ev,
				REC_ARG_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS_OUT_TIMELINE,
				sizeof(hwc_vsync_period_change_timeline_t)))) {
			hwc_vsync_period_change_timeline_t t;

			memcpy(&t, p, sizeof(t));
			f->active.has_new_vsync_applied_time_ns = f->active.has_refresh_required = true;
			f->active.has_refresh_time_ns = true;
			f->active.new_vsync_applied_time_ns = t.newVsyncAppliedTimeNanos;
			f->active.refresh_required = t.refreshRequired != 0;
			f->active.refresh_time_ns = t.refreshTimeNanos;
		}
		call->args_case = HWCT__CALL__ARGS_ACTIVE_CONFIG;
		call->active_config = &f->active;
		return;
	case HWC2_FUNCTION_CREATE_VIRTUAL_DISPLAY:
		hwct__virtual_display_args__init(&f->virtual_display);
		f->virtual_display.has_width = f->virtual_display.has_height = true;
		f->virtual_display.width = (uint32_t)enc_ival(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_WIDTH);
		f->virtual_display.height = (uint32_t)enc_ival(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_HEIGHT);
		f->virtual_display.has_format = enc_has(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_FORMAT);
		f->virtual_display.format = (int32_t)enc_ival(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_FORMAT);
		f->virtual_display.has_display = enc_out_ok(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_OUT_DISPLAY);
		f->virtual_display.display = (uint64_t)enc_ival(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_OUT_DISPLAY);
		call->args_case = HWCT__CALL__ARGS_VIRTUAL_DISPLAY;
		call->virtual_display = &f->virtual_display;
		return;
	case HWC2_FUNCTION_GET_DISPLAY_IDENTIFICATION_DATA:
		hwct__identification_args__init(&f->identification);
		f->identification.has_port = enc_out_ok(ev, REC_ARG_GET_DISPLAY_IDENTIFICATION_DATA_OUT_PORT);
		f->identification.port = (uint32_t)enc_ival(ev, REC_ARG_GET_DISPLAY_IDENTIFICATION_DATA_OUT_PORT);
		f->identification.data = enc_array_bytes(ev, REC_ARG_GET_DISPLAY_IDENTIFICATION_DATA_OUT_DATA);
		f->identification.has_data = f->identification.data.data != NULL;
		call->args_case = HWCT__CALL__ARGS_IDENTIFICATION;
		call->identification = &f->identification;
		return;
	case HWC2_FUNCTION_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES:
		hwct__sampling_args__init(&f->sampling);
		f->sampling.has_format = enc_out_ok(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES_OUT_FORMAT);
		f->sampling.format = (int32_t)enc_ival(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES_OUT_FORMAT);
		f->sampling.has_dataspace =
			enc_out_ok(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES_OUT_DATASPACE);
		f->sampling.dataspace =
			(int32_t)enc_ival(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES_OUT_DATASPACE);
		f->sampling.has_component_mask =
			enc_out_ok(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES_OUT_COMPONENT_MASK);
		f->sampling.component_mask =
			(uint32_t)enc_ival(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES_OUT_COMPONENT_MASK);
		call->args_case = HWCT__CALL__ARGS_SAMPLING;
		call->sampling = &f->sampling;
		return;
	case HWC2_FUNCTION_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED:
		/* listed under both value and sampling in the table: sampling keeps all three inputs */
		hwct__sampling_args__init(&f->sampling);
		f->sampling.has_enabled = f->sampling.has_component_mask = f->sampling.has_max_frames = true;
		f->sampling.enabled = enc_ival(ev, REC_ARG_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED_ENABLED) ==
			HWC2_DISPLAYED_CONTENT_SAMPLING_ENABLE;
		f->sampling.component_mask =
			(uint32_t)enc_ival(ev, REC_ARG_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED_COMPONENT_MASK);
		f->sampling.max_frames = (uint64_t)enc_ival(ev, REC_ARG_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED_MAX_FRAMES);
		call->args_case = HWCT__CALL__ARGS_SAMPLING;
		call->sampling = &f->sampling;
		return;
	case HWC2_FUNCTION_GET_DISPLAYED_CONTENT_SAMPLE:
		hwct__sampling_args__init(&f->sampling);
		f->sampling.has_max_frames = f->sampling.has_timestamp = true;
		f->sampling.max_frames = (uint64_t)enc_ival(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLE_MAX_FRAMES);
		f->sampling.timestamp = (uint64_t)enc_ival(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLE_TIMESTAMP);
		f->sampling.has_frame_count = enc_out_ok(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLE_OUT_FRAME_COUNT);
		f->sampling.frame_count = (uint64_t)enc_ival(ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLE_OUT_FRAME_COUNT);
		f->sampling.samples = enc_elems_u64(s, ev, REC_ARG_GET_DISPLAYED_CONTENT_SAMPLE_OUT_SAMPLES, &n);
		f->sampling.n_samples = f->sampling.samples ? n : 0;
		call->args_case = HWCT__CALL__ARGS_SAMPLING;
		call->sampling = &f->sampling;
		return;
	case HWC2_FUNCTION_GET_READBACK_BUFFER_ATTRIBUTES:
		hwct__readback_args__init(&f->readback);
		f->readback.has_format = enc_out_ok(ev, REC_ARG_GET_READBACK_BUFFER_ATTRIBUTES_OUT_FORMAT);
		f->readback.format = (int32_t)enc_ival(ev, REC_ARG_GET_READBACK_BUFFER_ATTRIBUTES_OUT_FORMAT);
		f->readback.has_dataspace = enc_out_ok(ev, REC_ARG_GET_READBACK_BUFFER_ATTRIBUTES_OUT_DATASPACE);
		f->readback.dataspace = (int32_t)enc_ival(ev, REC_ARG_GET_READBACK_BUFFER_ATTRIBUTES_OUT_DATASPACE);
		call->args_case = HWCT__CALL__ARGS_READBACK;
		call->readback = &f->readback;
		return;
	case HWC2_FUNCTION_GET_READBACK_BUFFER_FENCE:
		hwct__readback_args__init(&f->readback);
		f->readback.has_fence = true;
		f->readback.fence = enc_fence_id(ev, REC_ARG_GET_READBACK_BUFFER_FENCE_OUT_FENCE);
		call->args_case = HWCT__CALL__ARGS_READBACK;
		call->readback = &f->readback;
		return;
	default:
		return;
	}
}
