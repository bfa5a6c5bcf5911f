/*
 * The parts of a snapshot (snapshot.h) below the objects: properties with
 * their specs and decoded blobs, modes and framebuffers, in drm_info's
 * shape (drm_info 2.4.0 json.c: properties_info, mode_info, fb_info).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

static void put(struct json_object *obj, const char *key, struct json_object *value)
{
	json_object_object_add(obj, key, value);
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

struct json_object *kms_snapshot_mode(const drmModeModeInfo *mode)
{
	struct json_object *obj = json_object_new_object();

	put(obj, "clock", u64(mode->clock));
	put(obj, "hdisplay", u64(mode->hdisplay));
	put(obj, "hsync_start", u64(mode->hsync_start));
	put(obj, "hsync_end", u64(mode->hsync_end));
	put(obj, "htotal", u64(mode->htotal));
	put(obj, "hskew", u64(mode->hskew));
	put(obj, "vdisplay", u64(mode->vdisplay));
	put(obj, "vsync_start", u64(mode->vsync_start));
	put(obj, "vsync_end", u64(mode->vsync_end));
	put(obj, "vtotal", u64(mode->vtotal));
	put(obj, "vscan", u64(mode->vscan));
	put(obj, "vrefresh", u64(mode->vrefresh));
	put(obj, "flags", u64(mode->flags));
	put(obj, "type", u64(mode->type));
	put(obj, "name", json_object_new_string_len(mode->name,
		(int)strnlen(mode->name, sizeof(mode->name))));
	return obj;
}

struct json_object *kms_snapshot_fb(int fd, uint32_t fb_id)
{
	drmModeFB2 *fb = drmModeGetFB2(fd, fb_id);
	struct json_object *obj, *planes;

	if (!fb) {
		return NULL;
	}
	obj = json_object_new_object();
	put(obj, "id", u64(fb->fb_id));
	put(obj, "width", u64(fb->width));
	put(obj, "height", u64(fb->height));
	put(obj, "format", u64(fb->pixel_format));
	if (fb->flags & DRM_MODE_FB_MODIFIERS) {
		put(obj, "modifier", u64(fb->modifier));
	}
	planes = json_object_new_array();
	put(obj, "planes", planes);
	for (size_t i = 0; i < 4; i++) {
		struct json_object *plane;

		if (!fb->pitches[i]) {
			continue;
		}
		plane = json_object_new_object();
		put(plane, "offset", u64(fb->offsets[i]));
		put(plane, "pitch", u64(fb->pitches[i]));
		json_object_array_add(planes, plane);
	}
	drmModeFreeFB2(fb);
	return obj;
}

static struct json_object *in_formats(int fd, uint32_t blob_id)
{
	struct kms_in_format *mods;
	struct json_object *arr;
	size_t count;

	if (kms_in_formats_read(fd, blob_id, &mods, &count)) {
		return NULL;
	}
	arr = json_object_new_array();
	for (size_t i = 0; i < count; i++) {
		struct json_object *mod = json_object_new_object();
		struct json_object *formats = json_object_new_array();

		put(mod, "modifier", u64(mods[i].modifier));
		for (size_t j = 0; j < mods[i].format_count; j++) {
			json_object_array_add(formats, u64(mods[i].formats[j]));
		}
		put(mod, "formats", formats);
		json_object_array_add(arr, mod);
	}
	free(mods);
	return arr;
}

/* MODE_ID, WRITEBACK_PIXEL_FORMATS and PATH blobs. */
static struct json_object *blob_data(int fd, const char *name, uint32_t blob_id)
{
	drmModePropertyBlobRes *blob;
	struct json_object *data = NULL;

	if (strcmp(name, "IN_FORMATS") == 0) {
		return in_formats(fd, blob_id);
	}
	blob = drmModeGetPropertyBlob(fd, blob_id);
	if (!blob) {
		return NULL;
	}
	if (strcmp(name, "MODE_ID") == 0 && blob->length >= sizeof(drmModeModeInfo)) {
		drmModeModeInfo mode;

		memcpy(&mode, blob->data, sizeof(mode));
		data = kms_snapshot_mode(&mode);
	} else if (strcmp(name, "WRITEBACK_PIXEL_FORMATS") == 0) {
		data = json_object_new_array();
		for (uint32_t i = 0; i < blob->length / sizeof(uint32_t); i++) {
			uint32_t fourcc;

			memcpy(&fourcc, (const uint8_t *)blob->data + i * sizeof(fourcc), sizeof(fourcc));
			json_object_array_add(data, u64(fourcc));
		}
	} else if (strcmp(name, "PATH") == 0) {
		data = json_object_new_string_len(blob->data, (int)blob->length);
	}
	drmModeFreePropertyBlob(blob);
	return data;
}

static struct json_object *spec(const drmModePropertyRes *prop, uint32_t type)
{
	struct json_object *obj = NULL;

	switch (type) {
	case DRM_MODE_PROP_RANGE:
	case DRM_MODE_PROP_SIGNED_RANGE:
		if (prop->count_values < 2) {
			return NULL;
		}
		obj = json_object_new_object();
		if (type == DRM_MODE_PROP_RANGE) {
			put(obj, "min", u64(prop->values[0]));
			put(obj, "max", u64(prop->values[1]));
		} else {
			put(obj, "min", json_object_new_int64((int64_t)prop->values[0]));
			put(obj, "max", json_object_new_int64((int64_t)prop->values[1]));
		}
		return obj;
	case DRM_MODE_PROP_ENUM:
	case DRM_MODE_PROP_BITMASK:
		obj = json_object_new_array();
		for (int i = 0; i < prop->count_enums; i++) {
			struct json_object *item = json_object_new_object();

			put(item, "name", json_object_new_string(prop->enums[i].name));
			put(item, "value", u64(prop->enums[i].value));
			json_object_array_add(obj, item);
		}
		return obj;
	case DRM_MODE_PROP_OBJECT:
		return prop->count_values > 0 ? u64(prop->values[0]) : NULL;
	default:
		return NULL;
	}
}

static struct json_object *value(uint32_t type, uint64_t raw)
{
	switch (type) {
	case DRM_MODE_PROP_SIGNED_RANGE:
		return json_object_new_int64((int64_t)raw);
	case DRM_MODE_PROP_BLOB:
		return NULL;	/* drm_info leaves blob values out */
	default:
		return u64(raw);
	}
}

static struct json_object *data(int fd, const drmModePropertyRes *prop, uint32_t type, uint64_t raw)
{
	switch (type) {
	case DRM_MODE_PROP_BLOB:
		return raw ? blob_data(fd, prop->name, (uint32_t)raw) : NULL;
	case DRM_MODE_PROP_RANGE:
		/* SRC_* are 16.16 fixed point */
		return strncmp(prop->name, "SRC_", 4) == 0 ? u64(raw >> 16) : NULL;
	case DRM_MODE_PROP_OBJECT:
		return raw && strcmp(prop->name, "FB_ID") == 0 ? kms_snapshot_fb(fd, (uint32_t)raw) : NULL;
	default:
		return NULL;
	}
}

struct json_object *kms_snapshot_properties(int fd, uint32_t obj_id, uint32_t obj_type)
{
	struct kms_props props;
	struct json_object *obj;

	if (kms_props_load(fd, obj_id, obj_type, &props)) {
		return NULL;
	}
	obj = json_object_new_object();
	for (size_t i = 0; i < props.count; i++) {
		const drmModePropertyRes *prop = props.props[i];
		uint32_t type = prop->flags & (DRM_MODE_PROP_LEGACY_TYPE | DRM_MODE_PROP_EXTENDED_TYPE);
		uint64_t raw = props.values[i];
		struct json_object *p = json_object_new_object();

		put(p, "id", u64(prop->prop_id));
		put(p, "flags", u64(prop->flags));
		put(p, "type", u64(type));
		put(p, "atomic", json_object_new_boolean((prop->flags & DRM_MODE_PROP_ATOMIC) != 0));
		put(p, "immutable", json_object_new_boolean((prop->flags & DRM_MODE_PROP_IMMUTABLE) != 0));
		put(p, "raw_value", u64(raw));
		put(p, "spec", spec(prop, type));
		put(p, "value", value(type, raw));
		put(p, "data", data(fd, prop, type, raw));
		put(obj, prop->name, p);
	}
	kms_props_finish(&props);
	return obj;
}
