/* Property caches of KMS objects, looked up by name (kms_private.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

int kms_props_load(int fd, uint32_t obj_id, uint32_t obj_type, struct kms_props *out)
{
	drmModeObjectProperties *list;
	int ret = 0;

	*out = (struct kms_props){ 0 };
	list = drmModeObjectGetProperties(fd, obj_id, obj_type);
	if (!list) {
		return errno ? -errno : -EIO;
	}
	if (list->count_props == 0) {
		drmModeFreeObjectProperties(list);
		return 0;
	}
	out->props = calloc(list->count_props, sizeof(*out->props));
	out->values = calloc(list->count_props, sizeof(*out->values));
	if (!out->props || !out->values) {
		ret = -ENOMEM;
		goto error_list;
	}
	for (uint32_t i = 0; i < list->count_props; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(fd, list->props[i]);

		if (!prop) {
			ret = errno ? -errno : -EIO;
			goto error_list;
		}
		out->props[out->count] = prop;
		out->values[out->count] = list->prop_values[i];
		out->count++;
	}
	drmModeFreeObjectProperties(list);
	return 0;

error_list:
	drmModeFreeObjectProperties(list);
	kms_props_finish(out);
	return ret;
}

void kms_props_finish(struct kms_props *props)
{
	for (size_t i = 0; i < props->count; i++) {
		drmModeFreeProperty(props->props[i]);
	}
	free(props->props);
	free(props->values);
	*props = (struct kms_props){ 0 };
}

static ptrdiff_t find_index(const struct kms_props *props, const char *name)
{
	for (size_t i = 0; i < props->count; i++) {
		if (strcmp(props->props[i]->name, name) == 0) {
			return (ptrdiff_t)i;
		}
	}
	return -1;
}

const drmModePropertyRes *kms_props_find(const struct kms_props *props, const char *name)
{
	ptrdiff_t i = find_index(props, name);

	return i < 0 ? NULL : props->props[i];
}

uint32_t kms_props_id(const struct kms_props *props, const char *name)
{
	const drmModePropertyRes *prop = kms_props_find(props, name);

	return prop ? prop->prop_id : 0;
}

bool kms_props_value(const struct kms_props *props, const char *name, uint64_t *value)
{
	ptrdiff_t i = find_index(props, name);

	if (i < 0) {
		return false;
	}
	*value = props->values[i];
	return true;
}

bool kms_prop_enum_value(const drmModePropertyRes *prop, const char *name, uint64_t *value)
{
	for (int i = 0; prop && i < prop->count_enums; i++) {
		if (strcmp(prop->enums[i].name, name) == 0) {
			*value = prop->enums[i].value;
			return true;
		}
	}
	return false;
}

/* The plane properties a commit writes, by their uapi names. */
static const struct {
	const char *name;
	size_t offset;
} plane_prop_names[] = {
	{ "FB_ID", offsetof(struct kms_plane_props, fb_id) },
	{ "CRTC_ID", offsetof(struct kms_plane_props, crtc_id) },
	{ "SRC_X", offsetof(struct kms_plane_props, src_x) },
	{ "SRC_Y", offsetof(struct kms_plane_props, src_y) },
	{ "SRC_W", offsetof(struct kms_plane_props, src_w) },
	{ "SRC_H", offsetof(struct kms_plane_props, src_h) },
	{ "CRTC_X", offsetof(struct kms_plane_props, crtc_x) },
	{ "CRTC_Y", offsetof(struct kms_plane_props, crtc_y) },
	{ "CRTC_W", offsetof(struct kms_plane_props, crtc_w) },
	{ "CRTC_H", offsetof(struct kms_plane_props, crtc_h) },
	{ "IN_FENCE_FD", offsetof(struct kms_plane_props, in_fence_fd) },
	{ "rotation", offsetof(struct kms_plane_props, rotation) },
	{ "alpha", offsetof(struct kms_plane_props, alpha) },
	{ "pixel blend mode", offsetof(struct kms_plane_props, blend) },
	{ "zpos", offsetof(struct kms_plane_props, zpos) },
	{ "COLOR_ENCODING", offsetof(struct kms_plane_props, color_encoding) },
	{ "COLOR_RANGE", offsetof(struct kms_plane_props, color_range) },
};

/* "pixel blend mode" entry names (drm_blend.c), in BOARD_BLEND_* bit order. */
static const char *const blend_names[] = { "None", "Pre-multiplied", "Coverage" };

void kms_plane_props_resolve(struct kms_plane *plane)
{
	const drmModePropertyRes *blend;

	for (size_t i = 0; i < sizeof(plane_prop_names) / sizeof(plane_prop_names[0]); i++) {
		uint32_t *slot = (uint32_t *)(void *)((char *)&plane->prop + plane_prop_names[i].offset);

		*slot = kms_props_id(&plane->props, plane_prop_names[i].name);
	}
	plane->blend_mask = 0;
	blend = kms_props_find(&plane->props, "pixel blend mode");
	for (size_t i = 0; blend && i < 3; i++) {
		if (kms_prop_enum_value(blend, blend_names[i], &plane->blend_values[i])) {
			plane->blend_mask |= 1u << i;
		}
	}
	/* the enum entry names of drm_color_mgmt.c */
	plane->yuv_601_limited =
		kms_prop_enum_value(kms_props_find(&plane->props, "COLOR_ENCODING"), "ITU-R BT.601 YCbCr",
			&plane->encoding_bt601) &&
		kms_prop_enum_value(kms_props_find(&plane->props, "COLOR_RANGE"), "YCbCr limited range",
			&plane->range_limited);
}

int kms_in_formats_decode(const void *data, size_t size, struct kms_in_format **out,
	size_t *count)
{
	const struct drm_format_modifier_blob *head = data;
	const uint8_t *bytes = data;
	struct kms_in_format *list;

	*out = NULL;
	*count = 0;
	if (size < sizeof(*head) || head->version != FORMAT_BLOB_CURRENT ||
		head->formats_offset > size ||
		(size - head->formats_offset) / sizeof(uint32_t) < head->count_formats ||
		head->modifiers_offset > size ||
		(size - head->modifiers_offset) / sizeof(struct drm_format_modifier) <
			head->count_modifiers) {
		return -EINVAL;
	}
	if (head->count_modifiers == 0) {
		return 0;
	}
	list = calloc(head->count_modifiers, sizeof(*list));
	if (!list) {
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < head->count_modifiers; i++) {
		struct drm_format_modifier mod;

		memcpy(&mod, bytes + head->modifiers_offset + i * sizeof(mod), sizeof(mod));
		list[i].modifier = mod.modifier;
		for (uint32_t j = 0; j < 64; j++) {
			uint32_t fourcc;

			if (!(mod.formats & (1ull << j))) {
				continue;
			}
			if ((uint64_t)mod.offset + j >= head->count_formats) {
				free(list);
				return -EINVAL;
			}
			memcpy(&fourcc, bytes + head->formats_offset +
				((size_t)mod.offset + j) * sizeof(fourcc), sizeof(fourcc));
			list[i].formats[list[i].format_count++] = fourcc;
		}
	}
	*out = list;
	*count = head->count_modifiers;
	return 0;
}

int kms_in_formats_read(int fd, uint32_t blob_id, struct kms_in_format **out, size_t *count)
{
	drmModePropertyBlobRes *blob = drmModeGetPropertyBlob(fd, blob_id);
	int ret;

	*out = NULL;
	*count = 0;
	if (!blob) {
		return errno ? -errno : -EIO;
	}
	ret = kms_in_formats_decode(blob->data, blob->length, out, count);
	drmModeFreePropertyBlob(blob);
	return ret;
}
