/*
 * What the files of the KMS backend share and nothing else sees: the device
 * object, the property caches, the on-screen framebuffer bookkeeping and the
 * writeback hooks of the commit. Names carry the kms_ prefix.
 */
#ifndef HWCT_KMS_PRIVATE_H
#define HWCT_KMS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xf86drmMode.h>

#include "board.h"
#include "commit.h"
#include "device.h"
#include "fb.h"

struct gbm_device;

/* Present fences older than this are given up on (drm_hwcomposer waits 500 ms). */
#define KMS_PRESENT_WAIT_MS 1000

/* Every property of one KMS object, as read at open (props.c). */
struct kms_props {
	size_t count;
	drmModePropertyRes **props;	/* owned */
	uint64_t *values;		/* values when read */
};

/* Property ids of a plane that commits write; 0 = the plane lacks it. */
struct kms_plane_props {
	uint32_t fb_id, crtc_id;
	uint32_t src_x, src_y, src_w, src_h;
	uint32_t crtc_x, crtc_y, crtc_w, crtc_h;
	uint32_t in_fence_fd;
	uint32_t rotation, alpha, blend, zpos;
	uint32_t color_encoding, color_range;	/* 0: the plane has none (no YUV, or fixed) */
};

struct kms_plane {
	uint32_t id;
	uint32_t possible_crtcs;	/* bit per CRTC index */
	enum board_plane_type type;
	struct kms_props props;
	struct kms_plane_props prop;
	uint64_t blend_values[3];	/* "pixel blend mode" values of None, Pre-multiplied, Coverage */
	uint32_t blend_mask;		/* BOARD_BLEND_* the property offers */
	/* COLOR_ENCODING / COLOR_RANGE values of BT.601 and limited range; valid when yuv_601_limited */
	uint64_t encoding_bt601, range_limited;
	bool yuv_601_limited;		/* both properties exist and offer those values */
};

struct kms_device {
	int fd;				/* owned */
	char *path;			/* owned */
	char *driver;			/* owned; DRM driver name */
	bool addfb2_modifiers;		/* DRM_CAP_ADDFB2_MODIFIERS */
	uint32_t max_width, max_height;	/* framebuffer limits (drmModeRes) */

	uint32_t crtc_id, crtc_index;
	struct kms_props crtc_props;
	uint32_t crtc_active, crtc_mode_id, crtc_out_fence_ptr;	/* property ids */

	uint32_t connector_id;		/* the connected connector */
	uint32_t connector_index;	/* its index in drmModeRes */
	struct kms_props connector_props;
	uint32_t connector_crtc_id;	/* property id */
	drmModeModeInfo preferred;	/* its preferred (or first) mode */

	uint32_t writeback_id;		/* 0: no writeback connector */
	struct kms_props writeback_props;
	uint32_t wb_crtc_id, wb_fb_id, wb_out_fence_ptr;	/* property ids */
	bool writeback_attached;	/* a commit put it on the CRTC */
	/*
	 * Its encoder cannot be cloned with the display's (possible_clones;
	 * vkms in Linux 6.1): with readback, the CRTC drives the writeback
	 * connector alone and the display connector is taken off it.
	 */
	bool writeback_exclusive;

	size_t plane_count;
	struct kms_plane *planes;	/* owned; object-id order */
	uint32_t planes_ceded;		/* planes whose bit of crtc_index was cleared: other CRTCs' */

	drmModeModeInfo mode;		/* the mode commits set */
	uint32_t mode_blob;		/* MODE_ID blob of mode; 0 until needed */
	bool modeset_pending;		/* the next commit sets the mode (ALLOW_MODESET) */

	struct board *board;		/* owned; the live board (device_board.c) */
	struct gbm_device *gbm;		/* owned; NULL until the first gbm allocation, or when gbm fails */
	bool gbm_failed;		/* do not try gbm again */

	int present_fence;		/* owned dup of the last present fence, -1 */
	size_t shown_count, pending_count;
	struct kms_fb **shown;		/* references: FBs of the commit on screen */
	struct kms_fb **pending;	/* references: FBs of the last present commit */
};

/* props.c */

/* Reads every property of the object. Returns 0 or -errno. */
int kms_props_load(int fd, uint32_t obj_id, uint32_t obj_type, struct kms_props *out);

/* Frees what props holds. Accepts an empty (zeroed) cache. */
void kms_props_finish(struct kms_props *props);

/* The property called name, or NULL. */
const drmModePropertyRes *kms_props_find(const struct kms_props *props, const char *name);

/* The id of the property called name; 0 when the object lacks it. */
uint32_t kms_props_id(const struct kms_props *props, const char *name);

/* The value of the property called name when read. Returns whether it exists. */
bool kms_props_value(const struct kms_props *props, const char *name, uint64_t *value);

/* The value of the enum entry called name of prop. Returns whether it exists. */
bool kms_prop_enum_value(const drmModePropertyRes *prop, const char *name, uint64_t *value);

/* One drm_format_modifier entry of an IN_FORMATS blob, decoded. */
struct kms_in_format {
	uint64_t modifier;
	size_t format_count;
	uint32_t formats[64];		/* the entry's 64-format window, in blob order */
};

/*
 * Decodes an IN_FORMATS blob (struct drm_format_modifier_blob, version 1)
 * of size bytes. Returns 0 with *out (free() it; NULL when *count is 0),
 * -EINVAL for a malformed blob or -ENOMEM.
 */
int kms_in_formats_decode(const void *data, size_t size, struct kms_in_format **out,
	size_t *count);

/* The same from the blob with that id on fd. Returns 0 or -errno. */
int kms_in_formats_read(int fd, uint32_t blob_id, struct kms_in_format **out, size_t *count);

/* Fills plane->prop, blend_values and blend_mask from plane->props. */
void kms_plane_props_resolve(struct kms_plane *plane);

/*
 * outputs.c: picks the connector, its mode and CRTC (none of req's taken
 * ones), and the writeback connector (unless req->no_writeback) from res.
 * Returns 0, or -ENODEV (no connected connector at all) or -ENOSPC (every
 * one, or every CRTC they can use, taken) with err filled.
 */
int kms_device_find_outputs(struct kms_device *dev, const drmModeRes *res, const struct kms_output_request *req,
	struct hwct_error *err);

/* device_board.c: builds dev->board from the cached objects. Returns 0 or -errno. */
int kms_device_build_board(struct kms_device *dev);

/* The plane with that object id, or NULL. */
const struct kms_plane *kms_device_plane(const struct kms_device *dev, uint32_t id);

/* mode.c: the MODE_ID blob of dev->mode, created on first use. Returns 0 or -errno. */
int kms_device_mode_blob(struct kms_device *dev, uint32_t *blob);

/* commit.c: an atomic request being built, with the fence fds it dup'd. */
struct kms_request {
	struct kms_device *dev;
	drmModeAtomicReq *req;		/* owned */
	size_t fence_count;
	int fences[BOARD_MAX_PLANES + 1];	/* dup'd IN_FENCE_FDs, closed with the request */
};

/* Adds one property (prop 0, a property the object lacks: -EINVAL). Returns 0 or -errno. */
int kms_request_add(struct kms_request *r, uint32_t obj, uint32_t prop, uint64_t value);

/*
 * Adds args (every plane of the candidate, the other planes of the CRTC
 * off) and, when modeset, MODE_ID, ACTIVE and the connector routing.
 * Returns 0, -EINVAL for what no plane property can hold, or -errno.
 */
int kms_request_build(struct kms_request *r, const struct kms_commit_args *args, bool modeset);

/* Commits with flags, retrying EINTR/EAGAIN. Returns 0 or -errno. */
int kms_request_commit(struct kms_request *r, uint32_t flags);

/* Closes the dup'd fences and frees the request. */
void kms_request_finish(struct kms_request *r);

/*
 * commit.c: adds the display connector's CRTC_ID for a modeset: the CRTC,
 * or 0 when with_writeback and the writeback connector must drive it alone.
 * Returns 0 or -ENOMEM.
 */
int kms_device_route(struct kms_device *dev, drmModeAtomicReq *req, bool with_writeback);

/* present.c: drops the on-screen references and the present fence (device teardown). */
void kms_device_release_screen(struct kms_device *dev);

/*
 * gbm_quiet.c: gbm_create_device(fd) with what Mesa's loader prints on
 * stderr meanwhile passed to the log at debug level instead. Returns the
 * device (gbm_device_destroy it) or NULL with errno, as gbm does.
 */
struct gbm_device *kms_gbm_create_quiet(int fd);

/* fb.c: the device's gbm device, created on first use; NULL when gbm cannot run here. */
struct gbm_device *kms_device_gbm(struct kms_device *dev);

/* readback.c: hooks the presenting commit calls. */
struct kms_readback;

/*
 * Adds WRITEBACK_FB_ID, WRITEBACK_OUT_FENCE_PTR and CRTC_ID of the writeback
 * connector to req; sets *modeset when the connector still has to be put on
 * the CRTC. Returns 0 or -errno.
 */
int kms_readback_attach(struct kms_readback *rb, drmModeAtomicReq *req, bool *modeset);

/* Tells rb whether the commit it was attached to went through. */
void kms_readback_committed(struct kms_readback *rb, bool ok);

/* snapshot_props.c: drm_info's JSON of parts of a node; NULL where it has null. */
struct json_object;

/* {name: {id, flags, type, atomic, immutable, raw_value, spec, value, data}} of an object. */
struct json_object *kms_snapshot_properties(int fd, uint32_t obj_id, uint32_t obj_type);

/* A mode: {clock, hdisplay, ..., flags, type, name}. */
struct json_object *kms_snapshot_mode(const drmModeModeInfo *mode);

/* A framebuffer: {id, width, height, format, modifier?, planes: [{offset, pitch}]}. */
struct json_object *kms_snapshot_fb(int fd, uint32_t fb_id);

#endif
