/*
 * The atomic-KMS device: one DRM card node, the CRTC the replayer drives,
 * its connected connector and mode, the writeback connector when there is
 * one, and every plane, with the property ids of each object cached by name.
 * Framebuffers (fb.h), commits (commit.h), readback (readback.h) and the
 * capability snapshot (snapshot.h) work on it. One thread at a time.
 */
#ifndef HWCT_KMS_DEVICE_H
#define HWCT_KMS_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/error.h>

#include "board.h"

struct kms_device;

/*
 * Opens path (NULL: the first /dev/dri/card* that offers atomic KMS and has
 * a connected connector), sets the client caps UNIVERSAL_PLANES, ATOMIC and
 * WRITEBACK_CONNECTORS (the last only when offered), and picks the CRTC, the
 * first connected connector and its preferred mode (else its first). Nothing
 * is committed until the first commit, which also sets the mode.
 * Returns the device (free with kms_device_destroy), or NULL with err filled
 * ("NODE: STEP: what"; code -errno, -ENODEV when no node fits); err may be
 * NULL.
 */
struct kms_device *kms_device_open(const char *path, struct hwct_error *err);

/*
 * Which output a device drives when several displays share one node (one
 * kms_device per display, each on a connector and CRTC of its own).
 */
struct kms_output_request {
	int fd;				/* >= 0: drive through a dup of this open node (the same DRM
					 * file: its master and client caps); -1: open the path */
	uint32_t connectors_taken;	/* connector indices (bit per drmModeRes index) other displays drive */
	uint32_t crtcs_taken;		/* CRTC indices (bit per index) other displays drive; the planes
					 * those CRTCs can use are left to them */
	bool no_writeback;		/* leave the writeback connector to another display */
	bool own_writeback;		/* ... unless one serves this display's CRTC alone (vkms made by
					 * configfs with writeback on every CRTC) */
};

/*
 * As kms_device_open on path (not NULL), driving the first connected
 * connector not in req->connectors_taken on a CRTC not in
 * req->crtcs_taken. Returns the device, or NULL with err filled; -ENOSPC
 * when every connected connector or every CRTC they can use is taken.
 */
struct kms_device *kms_device_open_output(const char *path, const struct kms_output_request *req,
	struct hwct_error *err);

/*
 * Closes the device: framebuffers still on screen are removed (the kernel
 * then turns their planes off). Accepts NULL. Framebuffers and caches made
 * on dev must be gone first.
 */
void kms_device_destroy(struct kms_device *dev);

/*
 * Replaces the mode by a width x height one at refresh_hz (0: 60) with
 * simple blanking (vkms takes any size from 20x20 to its limit, 8192x8192
 * in Linux 6.1). The next commit sets it. Returns 0, or -EINVAL with err
 * filled for a size outside the device's limits or a refresh over 240 Hz.
 */
int kms_device_set_mode(struct kms_device *dev, uint32_t width, uint32_t height,
	uint32_t refresh_hz, struct hwct_error *err);

/* The size of the mode commits set, pixels. */
void kms_device_mode_size(const struct kms_device *dev, uint32_t *width, uint32_t *height);

/* The refresh rate of the mode commits set, mHz (from its clock and timings); 0 unknown. */
uint32_t kms_device_mode_refresh_mhz(const struct kms_device *dev);

/* The DRM fd; owned by dev. */
int kms_device_fd(const struct kms_device *dev);

/* The node path ("/dev/dri/card0"); owned by dev. */
const char *kms_device_path(const struct kms_device *dev);

/* The DRM driver name ("vkms"); owned by dev. */
const char *kms_device_driver(const struct kms_device *dev);

/* The CRTC object id commits drive. */
uint32_t kms_device_crtc_id(const struct kms_device *dev);

/* The index (in drmModeRes) of the connector driven, and of its CRTC. */
uint32_t kms_device_connector_index(const struct kms_device *dev);
uint32_t kms_device_crtc_index(const struct kms_device *dev);

/* Planes the device's CRTC could use that were left to other displays' CRTCs (crtcs_taken). */
uint32_t kms_device_planes_ceded(const struct kms_device *dev);

/* Whether a writeback connector exists (readback.h can capture frames). */
bool kms_device_has_writeback(const struct kms_device *dev);

/*
 * The device as a board (board.h) for the planners: the CRTC, its mode,
 * every plane with its formats (IN_FORMATS when the plane has it), rotation,
 * alpha, blend, zpos and SCALING_FILTER properties, the cursor size caps and
 * the writeback formats, then board_apply_rules. Owned by dev and valid until
 * kms_device_destroy; kms_device_set_mode updates its size in place.
 */
const struct board *kms_device_board(const struct kms_device *dev);

/*
 * The same board, to narrow before the first frame (board_constrain: a
 * device shaped like another board). Owned by dev.
 */
struct board *kms_device_board_edit(struct kms_device *dev);

#endif
