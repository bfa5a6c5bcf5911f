/*
 * Layers of hwcomposer.kms.so: createLayer, destroyLayer and every
 * setLayer* SurfaceFlinger sends (§1.7 step 1), plus setCursorPosition.
 * A change that alters what would be planned invalidates the last
 * validateDisplay (presentDisplay then says NOT_VALIDATED). Fences passed
 * in stay the caller's: what is kept is a dup (§1.6).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hwc2_private.h"

struct hwc2_kms_layer *hwc2_kms_layer_find(struct hwc2_kms_device *d, hwc2_layer_t id)
{
	for (size_t i = 0; i < d->layer_count; i++) {
		if (d->layers[i]->id == id) {
			return d->layers[i];
		}
	}
	return NULL;
}

static void layer_free(struct hwc2_kms_device *d, struct hwc2_kms_layer *l)
{
	hwc2_kms_buffer_put(d, l->buffer);
	hwc2_kms_fence_close(&l->acquire_fence);
	free(l);
}

void hwc2_kms_layers_destroy(struct hwc2_kms_device *d)
{
	for (size_t i = 0; i < d->layer_count; i++) {
		layer_free(d, d->layers[i]);
	}
	free(d->layers);
	d->layers = NULL;
	d->layer_count = d->layer_cap = 0;
}

static int32_t create_layer(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t *out_layer)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_layer *l;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_layer) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (d->layer_count == d->layer_cap) {
		size_t cap = d->layer_cap ? d->layer_cap * 2 : 16;
		struct hwc2_kms_layer **p = realloc(d->layers, cap * sizeof(*p));

		if (!p) {
			return hwc2_kms_leave(d, HWC2_ERROR_NO_RESOURCES);
		}
		d->layers = p;
		d->layer_cap = cap;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		return hwc2_kms_leave(d, HWC2_ERROR_NO_RESOURCES);
	}
	*l = (struct hwc2_kms_layer){ .id = d->next_id++, .requested = HWC2_COMPOSITION_INVALID,
		.validated = HWC2_COMPOSITION_INVALID, .acquire_fence = -1,
		.blend = HWC2_BLEND_MODE_NONE, .alpha = 1.0f };
	d->layers[d->layer_count++] = l;
	*out_layer = l->id;
	hwc2_kms_invalidate(d);
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t destroy_layer(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	for (size_t i = 0; i < d->layer_count; i++) {
		if (d->layers[i]->id == layer) {
			hwc2_kms_invalidate(d);
			layer_free(d, d->layers[i]);
			memmove(&d->layers[i], &d->layers[i + 1], (d->layer_count - i - 1) * sizeof(*d->layers));
			d->layer_count--;
			return hwc2_kms_leave(d, HWC2_ERROR_NONE);
		}
	}
	return hwc2_kms_leave(d, HWC2_ERROR_BAD_LAYER);
}

/* Locks, finds the layer; on success the caller must hwc2_kms_leave. */
static int32_t enter_layer(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	struct hwc2_kms_device **d, struct hwc2_kms_layer **l)
{
	int32_t ret = hwc2_kms_enter(device, display, d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	*l = hwc2_kms_layer_find(*d, layer);
	if (!*l) {
		hwc2_kms_leave(*d, 0);
		return HWC2_ERROR_BAD_LAYER;
	}
	return HWC2_ERROR_NONE;
}

/* Ends a setter: invalidates when the state changed. */
static int32_t changed(struct hwc2_kms_device *d, bool change, int32_t ret)
{
	if (change && ret == HWC2_ERROR_NONE) {
		hwc2_kms_invalidate(d);
	}
	return hwc2_kms_leave(d, ret);
}

/*
 * The setters of one member: after the display's and the layer's errors,
 * returns bad unless it is HWC2_ERROR_NONE (the argument is refused), else
 * copies size bytes of value over the layer's member at offset,
 * invalidating when they differ.
 */
static int32_t set_member(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	int32_t bad, size_t offset, const void *value, size_t size)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_layer *l;
	int32_t ret = enter_layer(device, display, layer, &d, &l);
	unsigned char *member;
	bool change;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (bad != HWC2_ERROR_NONE) {
		return hwc2_kms_leave(d, bad);
	}
	member = (unsigned char *)l + offset;
	change = memcmp(member, value, size) != 0;
	memcpy(member, value, size);
	return changed(d, change, HWC2_ERROR_NONE);
}

/* 0, failing to build unless a and b have the same size. */
#define SAME_SIZE(a, b) (0 * sizeof(struct { \
	_Static_assert(sizeof(a) == sizeof(b), #a " is not the size of " #b); char c; }))

/* set_member() of the layer's member m from variable v (of m's type), in a setter's body. */
#define SET_MEMBER(m, v, bad) set_member(device, display, layer, (bad), \
	offsetof(struct hwc2_kms_layer, m), &(v), \
	sizeof(v) + SAME_SIZE(v, ((struct hwc2_kms_layer *)NULL)->m))

/* The setters of what is not kept: the display's and the layer's errors, else result. */
static int32_t check_only(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	int32_t result)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_layer *l;
	int32_t ret = enter_layer(device, display, layer, &d, &l);

	return ret != HWC2_ERROR_NONE ? ret : hwc2_kms_leave(d, result);
}

static int32_t set_layer_buffer(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	buffer_handle_t buffer, int32_t acquire_fence)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_layer *l;
	struct hwc2_kms_buffer *b = NULL;
	int fence = -1;
	int32_t ret = enter_layer(device, display, layer, &d, &l);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (buffer && hwc2_kms_buffer_get(d, buffer, &b) < 0) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (acquire_fence >= 0 && (fence = fcntl(acquire_fence, F_DUPFD_CLOEXEC, 0)) < 0) {
		hwc2_kms_buffer_put(d, b);
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	hwc2_kms_buffer_put(d, l->buffer);
	l->buffer = b;
	hwc2_kms_fence_close(&l->acquire_fence);
	l->acquire_fence = fence;
	return changed(d, true, HWC2_ERROR_NONE);
}

static int32_t set_layer_surface_damage(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_region_t damage)
{
	/* damage is a hint: the whole buffer is shown (or copied) each frame */
	return check_only(device, display, layer, HWC2_ERROR_NONE);
}

static int32_t set_layer_blend_mode(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, int32_t mode)
{
	bool bad = mode < HWC2_BLEND_MODE_NONE || mode > HWC2_BLEND_MODE_COVERAGE;

	return SET_MEMBER(blend, mode, bad ? HWC2_ERROR_BAD_PARAMETER : HWC2_ERROR_NONE);
}

static uint32_t pack_color(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
	return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | (uint32_t)a << 24;
}

static int32_t set_color(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	uint32_t color)
{
	return SET_MEMBER(color, color, HWC2_ERROR_NONE);
}

static int32_t set_layer_color(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	hwc_color_t color)
{
	return set_color(device, display, layer, pack_color(color.r, color.g, color.b, color.a));
}

static uint8_t unit_to_byte(float v)
{
	if (!(v > 0.0f)) {
		return 0;
	}
	return v >= 1.0f ? 255 : (uint8_t)lrintf(v * 255.0f);
}

static int32_t set_layer_float_color(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_float_color_t color)
{
	return set_color(device, display, layer, pack_color(unit_to_byte(color.r),
		unit_to_byte(color.g), unit_to_byte(color.b), unit_to_byte(color.a)));
}

static int32_t set_layer_composition_type(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, int32_t type)
{
	int32_t bad = HWC2_ERROR_NONE;

	if (type < HWC2_COMPOSITION_CLIENT || type > HWC2_COMPOSITION_SIDEBAND) {
		bad = HWC2_ERROR_BAD_PARAMETER;
	} else if (type == HWC2_COMPOSITION_SIDEBAND) {
		bad = HWC2_ERROR_UNSUPPORTED;
	}
	return SET_MEMBER(requested, type, bad);
}

static int32_t set_layer_dataspace(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, int32_t dataspace)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_layer *l;
	int32_t ret = enter_layer(device, display, layer, &d, &l);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	l->dataspace = dataspace;	/* every layer is shown as is (sRGB) */
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t set_layer_display_frame(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_rect_t frame)
{
	struct hwct_rect r = { frame.left, frame.top, frame.right, frame.bottom };

	return SET_MEMBER(frame, r, HWC2_ERROR_NONE);
}

static int32_t set_layer_plane_alpha(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, float alpha)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_layer *l;
	int32_t ret = enter_layer(device, display, layer, &d, &l);
	bool change;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (isnan(alpha)) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	alpha = alpha < 0.0f ? 0.0f : alpha > 1.0f ? 1.0f : alpha;
	change = l->alpha != alpha;
	l->alpha = alpha;
	return changed(d, change, HWC2_ERROR_NONE);
}

static int32_t set_layer_sideband_stream(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, const native_handle_t *stream)
{
	return check_only(device, display, layer, HWC2_ERROR_UNSUPPORTED);
}

static int32_t set_layer_source_crop(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_frect_t crop)
{
	struct hwct_frect r = { crop.left, crop.top, crop.right, crop.bottom };

	return SET_MEMBER(crop, r, HWC2_ERROR_NONE);
}

static int32_t set_layer_transform(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, int32_t transform)
{
	bool bad = transform < 0 || transform > 7;

	return SET_MEMBER(transform, transform, bad ? HWC2_ERROR_BAD_PARAMETER : HWC2_ERROR_NONE);
}

static int32_t set_layer_visible_region(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_region_t visible)
{
	/* the whole display frame is shown: a visible region only saves work */
	return check_only(device, display, layer, HWC2_ERROR_NONE);
}

static int32_t set_layer_z_order(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, uint32_t z)
{
	return SET_MEMBER(z, z, HWC2_ERROR_NONE);
}

static int32_t set_cursor_position(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, int32_t x, int32_t y)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_layer *l;
	int32_t ret = enter_layer(device, display, layer, &d, &l);
	bool change;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	/* moves the display frame; shown from the next validated frame */
	change = l->frame.left != x || l->frame.top != y;
	l->frame.right += x - l->frame.left;
	l->frame.bottom += y - l->frame.top;
	l->frame.left = x;
	l->frame.top = y;
	return changed(d, change, HWC2_ERROR_NONE);
}

static int32_t set_layer_per_frame_metadata(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, uint32_t count, const int32_t *keys, const float *metadata)
{
	/* HDR metadata: no HDR output, nothing to do with it */
	return check_only(device, display, layer, HWC2_ERROR_NONE);
}

static int32_t set_layer_color_transform(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, const float *matrix)
{
	bool identity = true, other;

	for (int i = 0; matrix && i < 16; i++) {
		identity = identity && matrix[i] == (i % 5 == 0 ? 1.0f : 0.0f);
	}
	/* no plane applies a matrix: a non-identity one makes the layer CLIENT */
	other = !identity;
	return SET_MEMBER(color_transform, other, matrix ? HWC2_ERROR_NONE : HWC2_ERROR_BAD_PARAMETER);
}

const struct hwc2_kms_fn hwc2_kms_layer_fns[] = {
	HWC2_KMS_FN(HWC2_FUNCTION_CREATE_LAYER, HWC2_PFN_CREATE_LAYER, create_layer),
	HWC2_KMS_FN(HWC2_FUNCTION_DESTROY_LAYER, HWC2_PFN_DESTROY_LAYER, destroy_layer),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_CURSOR_POSITION, HWC2_PFN_SET_CURSOR_POSITION, set_cursor_position),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_BLEND_MODE, HWC2_PFN_SET_LAYER_BLEND_MODE, set_layer_blend_mode),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_BUFFER, HWC2_PFN_SET_LAYER_BUFFER, set_layer_buffer),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_COLOR, HWC2_PFN_SET_LAYER_COLOR, set_layer_color),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, HWC2_PFN_SET_LAYER_COMPOSITION_TYPE,
		set_layer_composition_type),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_DATASPACE, HWC2_PFN_SET_LAYER_DATASPACE, set_layer_dataspace),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, HWC2_PFN_SET_LAYER_DISPLAY_FRAME,
		set_layer_display_frame),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA, HWC2_PFN_SET_LAYER_PLANE_ALPHA,
		set_layer_plane_alpha),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_SIDEBAND_STREAM, HWC2_PFN_SET_LAYER_SIDEBAND_STREAM,
		set_layer_sideband_stream),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, HWC2_PFN_SET_LAYER_SOURCE_CROP,
		set_layer_source_crop),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE, HWC2_PFN_SET_LAYER_SURFACE_DAMAGE,
		set_layer_surface_damage),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_TRANSFORM, HWC2_PFN_SET_LAYER_TRANSFORM, set_layer_transform),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION, HWC2_PFN_SET_LAYER_VISIBLE_REGION,
		set_layer_visible_region),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_Z_ORDER, HWC2_PFN_SET_LAYER_Z_ORDER, set_layer_z_order),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_FLOAT_COLOR, HWC2_PFN_SET_LAYER_FLOAT_COLOR,
		set_layer_float_color),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_PER_FRAME_METADATA, HWC2_PFN_SET_LAYER_PER_FRAME_METADATA,
		set_layer_per_frame_metadata),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_LAYER_COLOR_TRANSFORM, HWC2_PFN_SET_LAYER_COLOR_TRANSFORM,
		set_layer_color_transform),
	{ 0, NULL },
};
