/*
 * Capability snapshots of a live device in the JSON shape of `drm_info -j`
 * (drm_info 2.4.0, json.c): the board-profile format that
 * board_from_drm_info_json (board.h) and `hwc-replay --profile` read.
 * Collecting only builds the tree; printing is json-c's.
 */
#ifndef HWCT_KMS_SNAPSHOT_H
#define HWCT_KMS_SNAPSHOT_H

#include <hwct/error.h>

struct json_object;
struct kms_device;

/*
 * The snapshot of dev's node: {"/dev/dri/cardN": {"driver", "device",
 * "fb_size", "connectors", "encoders", "crtcs", "planes"}}. Like drm_info it
 * reads through a descriptor of its own with every client cap it can set
 * (STEREO_3D, UNIVERSAL_PLANES, ATOMIC, ASPECT_RATIO, WRITEBACK_CONNECTORS),
 * so the device's own descriptor keeps its caps. Properties are {id, flags,
 * type, atomic, immutable, raw_value, spec, value, data}: spec {min, max}
 * for ranges, [{name, value}] for enums and bitmasks, the object type for
 * objects; data decodes IN_FORMATS ([{modifier, formats}]), MODE_ID,
 * WRITEBACK_PIXEL_FORMATS, PATH, FB_ID and SRC_* (>> 16). What cannot be
 * read is null. Returns a new reference (json_object_put it), or NULL with
 * err filled ("NODE: STEP: what"); err may be NULL.
 */
struct json_object *kms_snapshot(struct kms_device *dev, struct hwct_error *err);

/* The same for any DRM node path (no kms_device needed). */
struct json_object *kms_snapshot_path(const char *path, struct hwct_error *err);

#endif
