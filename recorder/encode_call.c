/*
 * Call records: the typed arguments and outputs of each HWC2 function, by the
 * family table of docs/format.md section 3.1 (one `args` message per
 * family); this file has the frame path, encode_query.c the rest.
 * Count-then-fill functions: the counting call (NULL arrays) is recorded too,
 * with the family message and no list entries.
 */
#include <stdlib.h>
#include <string.h>

#include <hwct/format.h>
#include <hwct/hwc2_names.h>

#include "capture.h"
#include "encode.h"
#include "hwc2_wrappers.h"
#include "worker.h"

static void set_value(Hwct__Call *call, struct enc_families *f, int64_t v)
{
	hwct__value_args__init(&f->value);
	f->value.has_value = true;
	f->value.value = v;
	call->args_case = HWCT__CALL__ARGS_VALUE;
	call->value = &f->value;
}

/* Value family: the argument holding the one integer, -1 when not in the family. */
static int value_arg(int32_t function)
{
	switch (function) {
	case HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE:
		return REC_ARG_SET_LAYER_COMPOSITION_TYPE_TYPE;
	case HWC2_FUNCTION_SET_LAYER_BLEND_MODE:
		return REC_ARG_SET_LAYER_BLEND_MODE_MODE;
	case HWC2_FUNCTION_SET_LAYER_TRANSFORM:
		return REC_ARG_SET_LAYER_TRANSFORM_TRANSFORM;
	case HWC2_FUNCTION_SET_LAYER_DATASPACE:
		return REC_ARG_SET_LAYER_DATASPACE_DATASPACE;
	case HWC2_FUNCTION_SET_LAYER_Z_ORDER:
		return REC_ARG_SET_LAYER_Z_ORDER_Z;
	case HWC2_FUNCTION_SET_POWER_MODE:
		return REC_ARG_SET_POWER_MODE_MODE;
	case HWC2_FUNCTION_SET_VSYNC_ENABLED:
		return REC_ARG_SET_VSYNC_ENABLED_ENABLED;
	case HWC2_FUNCTION_SET_ACTIVE_CONFIG:
		return REC_ARG_SET_ACTIVE_CONFIG_CONFIG;
	case HWC2_FUNCTION_SET_CONTENT_TYPE:
		return REC_ARG_SET_CONTENT_TYPE_CONTENT_TYPE;
	case HWC2_FUNCTION_SET_AUTO_LOW_LATENCY_MODE:
		return REC_ARG_SET_AUTO_LOW_LATENCY_MODE_ON;
	case HWC2_FUNCTION_CREATE_LAYER:
		return REC_ARG_CREATE_LAYER_OUT_LAYER;
	case HWC2_FUNCTION_GET_ACTIVE_CONFIG:
		return REC_ARG_GET_ACTIVE_CONFIG_OUT_CONFIG;
	case HWC2_FUNCTION_GET_DISPLAY_TYPE:
		return REC_ARG_GET_DISPLAY_TYPE_OUT_TYPE;
	case HWC2_FUNCTION_GET_DOZE_SUPPORT:
		return REC_ARG_GET_DOZE_SUPPORT_OUT_SUPPORT;
	case HWC2_FUNCTION_GET_DISPLAY_CONNECTION_TYPE:
		return REC_ARG_GET_DISPLAY_CONNECTION_TYPE_OUT_TYPE;
	case HWC2_FUNCTION_GET_DISPLAY_VSYNC_PERIOD:
		return REC_ARG_GET_DISPLAY_VSYNC_PERIOD_OUT_VSYNC_PERIOD;
	case HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT:
		return REC_ARG_GET_MAX_VIRTUAL_DISPLAY_COUNT_RETURN;
	case HWC2_FUNCTION_GET_DISPLAY_BRIGHTNESS_SUPPORT:
		return REC_ARG_GET_DISPLAY_BRIGHTNESS_SUPPORT_OUT_SUPPORT;
	case HWC2_FUNCTION_SET_LAYER_SIDEBAND_STREAM:
		/* not in the family table; the value is the stream's inode (0 unknown) */
		return REC_ARG_SET_LAYER_SIDEBAND_STREAM_STREAM;
	default:
		return -1;
	}
}


static void encode_buffer(Hwct__Call *call, struct enc_families *f, struct enc_scratch *s,
	const struct rec_event *ev, int fence_arg)
{
	const struct rec_capture *cap = ev->capture;

	hwct__layer_buffer_args__init(&f->buffer);
	f->buffer.has_buffer = true;
	f->buffer.buffer = cap && cap->has_buffer ? cap->buffer_id : 0;
	f->buffer.has_fence = true;
	f->buffer.fence = enc_fence_id(ev, fence_arg);
	if (cap && cap->has_buffer) {
		f->buffer.has_capture = true;
		f->buffer.capture = cap->status;
		if (cap->has_hash) {
			hwct_hash_to_bytes(&cap->hash, f->hash);
			f->buffer.has_content = true;
			f->buffer.content = (ProtobufCBinaryData){ HWCT_HASH_BYTES, f->hash };
		}
	}
	if (ev->function == HWC2_FUNCTION_SET_CLIENT_TARGET) {
		f->buffer.has_dataspace = true;
		f->buffer.dataspace = (int32_t)enc_ival(ev, REC_ARG_SET_CLIENT_TARGET_DATASPACE);
		f->buffer.damage = enc_region(s, ev, REC_ARG_SET_CLIENT_TARGET_DAMAGE);
	}
	call->args_case = HWCT__CALL__ARGS_BUFFER;
	call->buffer = &f->buffer;
}


static void encode_matrix(Hwct__Call *call, struct enc_families *f, const struct rec_event *ev, int m,
	int hint, int dataspace)
{
	const struct rec_arg *a = enc_arg(ev, m);

	hwct__matrix_args__init(&f->matrix);
	if (a->kind == REC_ARG_ARRAY && a->elem_size == sizeof(float) && a->count == 16) {
		f->matrix.n_matrix = 16;
		f->matrix.matrix = (float *)rec_arg_data(ev, a);
	}
	if (hint >= 0) {
		f->matrix.has_hint = true;
		f->matrix.hint = (int32_t)enc_ival(ev, hint);
	}
	if (dataspace >= 0) {
		f->matrix.has_dataspace = true;
		f->matrix.dataspace = (int32_t)enc_ival(ev, dataspace);
	}
	call->args_case = HWCT__CALL__ARGS_MATRIX;
	call->matrix = &f->matrix;
}


/* Fills call->args for ev (left unset for functions without an args message). */

static void encode_args(Hwct__Call *call, struct enc_families *f, struct enc_scratch *s,
	const struct rec_event *ev)
{
	int v = value_arg(ev->function);
	size_t n, m;
	const void *p;

	if (v >= 0) {
		const char *name = hwct_hwc2_function_name(ev->function);
		bool output = ev->function == HWC2_FUNCTION_CREATE_LAYER ||
			(name && strncmp(name, "GET_", 4) == 0);

		/* an output the call did not write is left out: its args stay unset */
		if (enc_arg(ev, v)->kind == REC_ARG_INT && enc_arg(ev, v)->present &&
				(!output || ev->error == HWC2_ERROR_NONE ||
				ev->function == HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT)) {
			set_value(call, f, enc_ival(ev, v));
		}
		return;
	}
	switch (ev->function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
		encode_buffer(call, f, s, ev, REC_ARG_SET_LAYER_BUFFER_ACQUIRE_FENCE);
		return;
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		encode_buffer(call, f, s, ev, REC_ARG_SET_CLIENT_TARGET_ACQUIRE_FENCE);
		return;
	case HWC2_FUNCTION_SET_OUTPUT_BUFFER:
		encode_buffer(call, f, s, ev, REC_ARG_SET_OUTPUT_BUFFER_RELEASE_FENCE);
		return;
	case HWC2_FUNCTION_SET_READBACK_BUFFER:
		encode_buffer(call, f, s, ev, REC_ARG_SET_READBACK_BUFFER_RELEASE_FENCE);
		return;
	case HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME:
		if ((p = enc_bytes(ev, REC_ARG_SET_LAYER_DISPLAY_FRAME_FRAME, sizeof(hwc_rect_t)))) {
			hwc_rect_t r;

			memcpy(&r, p, sizeof(r));
			hwct__rect_args__init(&f->rect);
			hwct__rect__init(&f->r);
			f->r.has_left = f->r.has_top = f->r.has_right = f->r.has_bottom = true;
			f->r.left = r.left;
			f->r.top = r.top;
			f->r.right = r.right;
			f->r.bottom = r.bottom;
			f->rect.rect = &f->r;
			call->args_case = HWCT__CALL__ARGS_RECT;
			call->rect = &f->rect;
		}
		return;
	case HWC2_FUNCTION_SET_LAYER_SOURCE_CROP:
		if ((p = enc_bytes(ev, REC_ARG_SET_LAYER_SOURCE_CROP_CROP, sizeof(hwc_frect_t)))) {
			hwc_frect_t r;

			memcpy(&r, p, sizeof(r));
			hwct__frect_args__init(&f->frect);
			hwct__frect__init(&f->fr);
			f->fr.has_left = f->fr.has_top = f->fr.has_right = f->fr.has_bottom = true;
			f->fr.left = r.left;
			f->fr.top = r.top;
			f->fr.right = r.right;
			f->fr.bottom = r.bottom;
			f->frect.rect = &f->fr;
			call->args_case = HWCT__CALL__ARGS_FRECT;
			call->frect = &f->frect;
		}
		return;
	case HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE:
	case HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION:
		hwct__region_args__init(&f->region);
		f->region.region = enc_region(s, ev, ev->function == HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE ?
			REC_ARG_SET_LAYER_SURFACE_DAMAGE_DAMAGE : REC_ARG_SET_LAYER_VISIBLE_REGION_VISIBLE);
		call->args_case = HWCT__CALL__ARGS_REGION;
		call->region = &f->region;
		return;
	case HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA:
	case HWC2_FUNCTION_SET_DISPLAY_BRIGHTNESS:
		hwct__float_args__init(&f->float_value);
		f->float_value.has_value = true;
		f->float_value.value = enc_fval(ev, ev->function == HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA ?
			REC_ARG_SET_LAYER_PLANE_ALPHA_ALPHA : REC_ARG_SET_DISPLAY_BRIGHTNESS_BRIGHTNESS);
		call->args_case = HWCT__CALL__ARGS_FLOAT_VALUE;
		call->float_value = &f->float_value;
		return;
	case HWC2_FUNCTION_SET_LAYER_COLOR:
		if ((p = enc_bytes(ev, REC_ARG_SET_LAYER_COLOR_COLOR, sizeof(hwc_color_t)))) {
			hwc_color_t c;

			memcpy(&c, p, sizeof(c));
			hwct__color_args__init(&f->color);
			hwct__color__init(&f->c8);
			f->c8.has_rgba = true;
			f->c8.rgba = (uint32_t)c.r | (uint32_t)c.g << 8 | (uint32_t)c.b << 16 | (uint32_t)c.a << 24;
			f->color.color = &f->c8;
			call->args_case = HWCT__CALL__ARGS_COLOR;
			call->color = &f->color;
		}
		return;
	case HWC2_FUNCTION_SET_LAYER_FLOAT_COLOR:
		if ((p = enc_bytes(ev, REC_ARG_SET_LAYER_FLOAT_COLOR_COLOR, sizeof(hwc_float_color_t)))) {
			hwc_float_color_t c;

			memcpy(&c, p, sizeof(c));
			hwct__color_args__init(&f->color);
			hwct__float_color__init(&f->cf);
			f->cf.has_r = f->cf.has_g = f->cf.has_b = f->cf.has_a = true;
			f->cf.r = c.r;
			f->cf.g = c.g;
			f->cf.b = c.b;
			f->cf.a = c.a;
			f->color.float_color = &f->cf;
			call->args_case = HWCT__CALL__ARGS_COLOR;
			call->color = &f->color;
		}
		return;
	case HWC2_FUNCTION_SET_COLOR_TRANSFORM:
		encode_matrix(call, f, ev, REC_ARG_SET_COLOR_TRANSFORM_MATRIX, REC_ARG_SET_COLOR_TRANSFORM_HINT, -1);
		return;
	case HWC2_FUNCTION_SET_LAYER_COLOR_TRANSFORM:
		encode_matrix(call, f, ev, REC_ARG_SET_LAYER_COLOR_TRANSFORM_MATRIX, -1, -1);
		return;
	case HWC2_FUNCTION_GET_DATASPACE_SATURATION_MATRIX:
		encode_matrix(call, f, ev, REC_ARG_GET_DATASPACE_SATURATION_MATRIX_OUT_MATRIX, -1,
			REC_ARG_GET_DATASPACE_SATURATION_MATRIX_DATASPACE);
		return;
	case HWC2_FUNCTION_VALIDATE_DISPLAY:
		hwct__validate_args__init(&f->validate);
		f->validate.has_num_types = enc_has(ev, REC_ARG_VALIDATE_DISPLAY_OUT_NUM_TYPES);
		f->validate.num_types = (uint32_t)enc_ival(ev, REC_ARG_VALIDATE_DISPLAY_OUT_NUM_TYPES);
		f->validate.has_num_requests = enc_has(ev, REC_ARG_VALIDATE_DISPLAY_OUT_NUM_REQUESTS);
		f->validate.num_requests = (uint32_t)enc_ival(ev, REC_ARG_VALIDATE_DISPLAY_OUT_NUM_REQUESTS);
		call->args_case = HWCT__CALL__ARGS_VALIDATE;
		call->validate = &f->validate;
		return;
	case HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES:
		hwct__changed_types_args__init(&f->changed);
		f->changed.layers = enc_elems_u64(s, ev, REC_ARG_GET_CHANGED_COMPOSITION_TYPES_OUT_LAYERS, &n);
		f->changed.types = enc_elems_i32(s, ev, REC_ARG_GET_CHANGED_COMPOSITION_TYPES_OUT_TYPES, &m);
		f->changed.n_layers = f->changed.layers ? n : 0;
		f->changed.n_types = m;
		call->args_case = HWCT__CALL__ARGS_CHANGED_TYPES;
		call->changed_types = &f->changed;
		return;
	case HWC2_FUNCTION_GET_DISPLAY_REQUESTS:
		hwct__requests_args__init(&f->requests);
		f->requests.has_display_requests = enc_out_ok(ev, REC_ARG_GET_DISPLAY_REQUESTS_OUT_DISPLAY_REQUESTS);
		f->requests.display_requests = (int32_t)enc_ival(ev, REC_ARG_GET_DISPLAY_REQUESTS_OUT_DISPLAY_REQUESTS);
		f->requests.layers = enc_elems_u64(s, ev, REC_ARG_GET_DISPLAY_REQUESTS_OUT_LAYERS, &n);
		f->requests.n_layers = f->requests.layers ? n : 0;
		f->requests.layer_requests = enc_elems_i32(s, ev, REC_ARG_GET_DISPLAY_REQUESTS_OUT_LAYER_REQUESTS, &m);
		f->requests.n_layer_requests = m;
		call->args_case = HWCT__CALL__ARGS_REQUESTS;
		call->requests = &f->requests;
		return;
	case HWC2_FUNCTION_PRESENT_DISPLAY:
		hwct__present_args__init(&f->present);
		f->present.has_present_fence = true;
		f->present.present_fence = enc_fence_id(ev, REC_ARG_PRESENT_DISPLAY_OUT_PRESENT_FENCE);
		call->args_case = HWCT__CALL__ARGS_PRESENT;
		call->present = &f->present;
		return;
	case HWC2_FUNCTION_GET_RELEASE_FENCES: {
		const struct rec_arg *a = enc_arg(ev, REC_ARG_GET_RELEASE_FENCES_OUT_FENCES);
		const struct rec_fence *fences = a->kind == REC_ARG_FENCES ? rec_arg_data(ev, a) : NULL;

		hwct__release_fences_args__init(&f->release);
		f->release.layers = enc_elems_u64(s, ev, REC_ARG_GET_RELEASE_FENCES_OUT_LAYERS, &n);
		f->release.n_layers = f->release.layers ? n : 0;
		if (fences && a->count && (f->release.fences = enc_alloc(s, a->count, sizeof(uint64_t)))) {
			for (uint32_t k = 0; k < a->count; k++) {
				f->release.fences[k] = fences[k].id;
			}
			f->release.n_fences = a->count;
		}
		call->args_case = HWCT__CALL__ARGS_RELEASE_FENCES;
		call->release_fences = &f->release;
		return;
	}
	case HWC2_FUNCTION_SET_CURSOR_POSITION:
		hwct__cursor_args__init(&f->cursor);
		f->cursor.has_x = f->cursor.has_y = true;
		f->cursor.x = (int32_t)enc_ival(ev, REC_ARG_SET_CURSOR_POSITION_X);
		f->cursor.y = (int32_t)enc_ival(ev, REC_ARG_SET_CURSOR_POSITION_Y);
		call->args_case = HWCT__CALL__ARGS_CURSOR;
		call->cursor = &f->cursor;
		return;
	case HWC2_FUNCTION_SET_COLOR_MODE:
	case HWC2_FUNCTION_SET_COLOR_MODE_WITH_RENDER_INTENT:
		hwct__color_mode_args__init(&f->color_mode);
		f->color_mode.has_mode = true;
		f->color_mode.mode = (int32_t)enc_ival(ev, ev->function == HWC2_FUNCTION_SET_COLOR_MODE ?
			REC_ARG_SET_COLOR_MODE_MODE : REC_ARG_SET_COLOR_MODE_WITH_RENDER_INTENT_MODE);
		if (ev->function == HWC2_FUNCTION_SET_COLOR_MODE_WITH_RENDER_INTENT) {
			f->color_mode.has_intent = true;
			f->color_mode.intent = (int32_t)enc_ival(ev, REC_ARG_SET_COLOR_MODE_WITH_RENDER_INTENT_INTENT);
		}
		call->args_case = HWCT__CALL__ARGS_COLOR_MODE;
		call->color_mode = &f->color_mode;
		return;
	case HWC2_FUNCTION_REGISTER_CALLBACK:
		hwct__callback_args__init(&f->callback);
		f->callback.has_descriptor = f->callback.has_null_pointer = true;
		f->callback.descriptor = (int32_t)enc_ival(ev, REC_ARG_REGISTER_CALLBACK_DESCRIPTOR);
		f->callback.null_pointer = !enc_has(ev, REC_ARG_REGISTER_CALLBACK_POINTER);
		call->args_case = HWCT__CALL__ARGS_REGISTER_CALLBACK;
		call->register_callback = &f->callback;
		return;
	default:
		/* queries; ACCEPT_DISPLAY_CHANGES, DESTROY_LAYER, DESTROY_VIRTUAL_DISPLAY: no args */
		enc_query_args(call, f, s, ev);
		return;
	}
}

void rec_write_call(struct rec_worker *w, const struct rec_event *ev, uint64_t seq)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Call call = HWCT__CALL__INIT;
	struct enc_families *f = calloc(1, sizeof(*f));
	struct enc_scratch s = { .n = 0 };

	if (!f) {
		w->write_errors++;
		return;
	}
	call.has_seq = call.has_thread = call.has_t_enter_ns = call.has_t_exit_ns = true;
	call.has_function = call.has_error = true;
	call.seq = seq;
	call.thread = ev->tid;
	call.t_enter_ns = ev->t_enter;
	call.t_exit_ns = ev->t_exit;
	call.function = ev->function;
	call.error = ev->error;
	call.has_display = ev->has_display;
	call.display = ev->display;
	call.has_layer = ev->has_layer;
	call.layer = ev->layer;
	if (ev->type == REC_EV_OPAQUE) {
		hwct__opaque_args__init(&f->opaque);
		f->opaque.has_descriptor = true;
		f->opaque.descriptor = ev->function;
		f->opaque.note = "getFunction: unknown descriptor, its real function was handed out "
			"unwrapped; its calls are not recorded";
		call.args_case = HWCT__CALL__ARGS_OPAQUE;
		call.opaque = &f->opaque;
	} else {
		encode_args(&call, f, &s, ev);
	}
	rec.kind_case = HWCT__RECORD__KIND_CALL;
	rec.call = &call;
	rec_session_write(w, &rec);
	enc_scratch_free(&s);
	free(f);
}
