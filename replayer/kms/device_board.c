/*
 * The live device as a board (device.h, kms_device_board), with the board.h
 * construction helpers: what board_json.c reads from a drm_info dump, read
 * from the device's own property caches instead.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

static int add_formats(struct kms_device *dev, const struct kms_plane *kp, struct board_plane *bp)
{
	struct kms_in_format *mods = NULL;
	size_t count = 0;
	uint64_t blob = 0;
	drmModePlane *plane;
	int ret = 0;

	if (kms_props_value(&kp->props, "IN_FORMATS", &blob) && blob) {
		if ((ret = kms_in_formats_read(dev->fd, (uint32_t)blob, &mods, &count))) {
			return ret;
		}
		for (size_t i = 0; i < count && !ret; i++) {
			for (size_t j = 0; j < mods[i].format_count && !ret; j++) {
				ret = board_plane_add_format(bp, mods[i].formats[j], mods[i].modifier);
			}
			if (mods[i].format_count == 0) {	/* a modifier listed for no format */
				ret = board_plane_add_empty_modifier(bp, mods[i].modifier);
			}
		}
		free(mods);
		bp->has_in_formats = true;
		return ret;
	}
	plane = drmModeGetPlane(dev->fd, kp->id);
	if (!plane) {
		return errno ? -errno : -EIO;
	}
	for (uint32_t i = 0; i < plane->count_formats && !ret; i++) {
		ret = board_plane_add_format(bp, plane->formats[i], BOARD_MOD_LINEAR);
	}
	drmModeFreePlane(plane);
	return ret;
}

/* Range or signed-range limits of prop. */
static void range(const drmModePropertyRes *prop, int64_t *min, int64_t *max)
{
	*min = prop->count_values > 0 ? (int64_t)prop->values[0] : 0;
	*max = prop->count_values > 1 ? (int64_t)prop->values[1] : 0;
	if ((prop->flags & DRM_MODE_PROP_EXTENDED_TYPE) != DRM_MODE_PROP_SIGNED_RANGE) {
		/* unsigned: clamp what does not fit, as board_json.c reads it */
		if (prop->count_values > 0 && prop->values[0] > INT64_MAX) {
			*min = INT64_MAX;
		}
		if (prop->count_values > 1 && prop->values[1] > INT64_MAX) {
			*max = INT64_MAX;
		}
	}
}

static void add_properties(const struct kms_plane *kp, struct board_plane *bp)
{
	const drmModePropertyRes *prop;
	uint64_t value = 0;

	if ((prop = kms_props_find(&kp->props, "rotation"))) {
		bp->has_rotation = true;
		bp->rotations = BOARD_ROTATE_0;
		/* bitmask enum values are bit indices */
		for (int i = 0; i < prop->count_enums; i++) {
			if (prop->enums[i].value < 6) {
				bp->rotations |= 1u << prop->enums[i].value;
			}
		}
	}
	if ((prop = kms_props_find(&kp->props, "alpha")) && prop->count_values > 1 &&
		prop->values[1] > 0) {
		bp->has_alpha = true;
		bp->alpha_max = prop->values[1];
	}
	bp->blend_modes = kp->blend_mask;
	if ((prop = kms_props_find(&kp->props, "zpos"))) {
		bp->has_zpos = true;
		bp->zpos_immutable = (prop->flags & DRM_MODE_PROP_IMMUTABLE) != 0;
		range(prop, &bp->zpos_min, &bp->zpos_max);
		kms_props_value(&kp->props, "zpos", &value);
		bp->zpos = (int64_t)value;
	}
	bp->has_scaling_filter = kms_props_find(&kp->props, "SCALING_FILTER") != NULL;
}

static int add_writeback_formats(struct kms_device *dev, struct board *board)
{
	drmModePropertyBlobRes *blob;
	uint64_t id = 0;
	int ret = 0;

	if (!dev->writeback_id) {
		return 0;
	}
	board->has_writeback = true;
	if (!kms_props_value(&dev->writeback_props, "WRITEBACK_PIXEL_FORMATS", &id) || !id) {
		return 0;
	}
	blob = drmModeGetPropertyBlob(dev->fd, (uint32_t)id);
	if (!blob) {
		return errno ? -errno : -EIO;
	}
	for (size_t i = 0; i < blob->length / sizeof(uint32_t) && !ret; i++) {
		uint32_t fourcc;

		memcpy(&fourcc, (const uint8_t *)blob->data + i * sizeof(fourcc), sizeof(fourcc));
		ret = board_add_writeback_format(board, fourcc);
	}
	drmModeFreePropertyBlob(blob);
	return ret;
}

int kms_device_build_board(struct kms_device *dev)
{
	struct board *board = board_create(dev->path);
	uint64_t cap;
	int ret;

	if (!board) {
		return -ENOMEM;
	}
	if ((ret = board_set_driver(board, dev->driver))) {
		goto error_board;
	}
	board->crtc_id = dev->crtc_id;
	board->crtc_index = dev->crtc_index;
	board->width = dev->mode.hdisplay;
	board->height = dev->mode.vdisplay;
	if (drmGetCap(dev->fd, DRM_CAP_CURSOR_WIDTH, &cap) == 0) {
		board->cursor_width = (uint32_t)cap;
	}
	if (drmGetCap(dev->fd, DRM_CAP_CURSOR_HEIGHT, &cap) == 0) {
		board->cursor_height = (uint32_t)cap;
	}
	/* dev->planes are in object-id order, as the board wants them. */
	for (size_t i = 0; i < dev->plane_count; i++) {
		const struct kms_plane *kp = &dev->planes[i];
		struct board_plane *bp = board_add_plane(board, kp->id, kp->type);

		if (!bp) {
			ret = -ENOMEM;
			goto error_board;
		}
		bp->possible_crtcs = kp->possible_crtcs;
		if ((ret = add_formats(dev, kp, bp))) {
			goto error_board;
		}
		add_properties(kp, bp);
	}
	if ((ret = add_writeback_formats(dev, board))) {
		goto error_board;
	}
	board_apply_rules(board);
	dev->board = board;
	return 0;

error_board:
	board_destroy(board);
	return ret;
}
