/*
 * The outputs a device drives (device.h): the first connected connector
 * that no other display drives, its preferred mode and a CRTC for it that
 * no other display drives, and the writeback connector with whether its
 * encoder may share that CRTC: the first whose encoder can drive that CRTC
 * (else the first), or, for a display after the first, one whose encoder
 * drives that CRTC alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

/* The preferred mode of conn, else its first. */
static const drmModeModeInfo *preferred_mode(const drmModeConnector *conn)
{
	for (int i = 0; i < conn->count_modes; i++) {
		if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) {
			return &conn->modes[i];
		}
	}
	return conn->count_modes > 0 ? &conn->modes[0] : NULL;
}

/* The CRTC index conn drives now, else the first its encoders can drive; neither taken; -1 none. */
static int pick_crtc(int fd, const drmModeRes *res, const drmModeConnector *conn, uint32_t taken)
{
	int first = -1;

	for (int i = 0; i < conn->count_encoders; i++) {
		drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoders[i]);

		if (!enc) {
			continue;
		}
		for (int c = 0; c < res->count_crtcs && c < 32; c++) {
			if (taken & (1u << c)) {
				continue;
			}
			if (enc->encoder_id == conn->encoder_id && enc->crtc_id == res->crtcs[c]) {
				drmModeFreeEncoder(enc);
				return c;
			}
			if (first < 0 && (enc->possible_crtcs & (1u << c))) {
				first = c;
			}
		}
		drmModeFreeEncoder(enc);
	}
	return first;
}

/*
 * The connector as the kernel knows it; probed only when that knows no mode
 * (probing changes what others, drm_info for one, see afterwards).
 * Writeback connectors are never probed.
 */
static drmModeConnector *get_connector(int fd, uint32_t id)
{
	drmModeConnector *conn = drmModeGetConnectorCurrent(fd, id);

	if (conn && conn->connector_type != DRM_MODE_CONNECTOR_WRITEBACK &&
		(conn->connection != DRM_MODE_CONNECTED || conn->count_modes == 0)) {
		drmModeFreeConnector(conn);
		conn = drmModeGetConnector(fd, id);
	}
	return conn;
}

/* The possible_clones mask of encoder id and its index in res (-1 when unknown). */
static uint32_t encoder_clones(int fd, const drmModeRes *res, uint32_t id, int *index)
{
	drmModeEncoder *enc;
	uint32_t clones;

	*index = -1;
	for (int i = 0; i < res->count_encoders && i < 32; i++) {
		if (res->encoders[i] == id) {
			*index = i;
		}
	}
	enc = *index >= 0 ? drmModeGetEncoder(fd, id) : NULL;
	if (!enc) {
		return 0;
	}
	clones = enc->possible_clones;
	drmModeFreeEncoder(enc);
	return clones;
}

#define WRITEBACK_CANDIDATES 32

struct writeback_candidate {
	uint32_t connector, encoder;
	uint32_t crtcs;			/* the encoder's possible_crtcs */
};

static uint32_t encoder_crtcs(int fd, uint32_t id)
{
	drmModeEncoder *enc = drmModeGetEncoder(fd, id);
	uint32_t crtcs = enc ? enc->possible_crtcs : 0;

	drmModeFreeEncoder(enc);
	return crtcs;
}

/* Takes the writeback connector for the display on CRTC index crtc (kms_output_request). */
static void pick_writeback(struct kms_device *dev, const struct writeback_candidate *wb, size_t count,
	int crtc, bool own_only, uint32_t *wb_enc)
{
	const struct writeback_candidate *pick = NULL;
	uint32_t bit = crtc >= 0 && crtc < 32 ? 1u << crtc : 0;

	for (size_t i = 0; i < count && !pick; i++) {
		if (own_only ? wb[i].crtcs == bit : (wb[i].crtcs & bit) != 0) {
			pick = &wb[i];
		}
	}
	if (!pick && !own_only && count > 0) {
		pick = &wb[0];
	}
	if (pick) {
		dev->writeback_id = pick->connector;
		*wb_enc = pick->encoder;
	}
}

/* Whether the display's and the writeback's encoders may drive one CRTC together. */
static bool clonable(int fd, const drmModeRes *res, uint32_t display_enc, uint32_t wb_enc)
{
	int di, wi;
	uint32_t dc = encoder_clones(fd, res, display_enc, &di);
	uint32_t wc = encoder_clones(fd, res, wb_enc, &wi);

	return di >= 0 && wi >= 0 && (dc & (1u << wi)) && (wc & (1u << di));
}

int kms_device_find_outputs(struct kms_device *dev, const drmModeRes *res, const struct kms_output_request *req,
	struct hwct_error *err)
{
	uint32_t display_enc = 0, wb_enc = 0, connected = 0, free_connected = 0;
	struct writeback_candidate wb[WRITEBACK_CANDIDATES];
	size_t wb_count = 0;
	int crtc = -1, display_crtc = -1;

	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *conn = get_connector(dev->fd, res->connectors[i]);
		const drmModeModeInfo *mode;

		if (!conn) {
			continue;
		}
		if (conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			if (conn->count_encoders > 0 && wb_count < WRITEBACK_CANDIDATES &&
				(!req->no_writeback || req->own_writeback)) {
				wb[wb_count++] = (struct writeback_candidate){ conn->connector_id, conn->encoders[0],
					encoder_crtcs(dev->fd, conn->encoders[0]) };
			}
		} else if (conn->connection == DRM_MODE_CONNECTED && (mode = preferred_mode(conn))) {
			bool taken = i < 32 && (req->connectors_taken & (1u << i));

			connected++;
			free_connected += !taken;
			if (taken || dev->connector_id || (crtc = pick_crtc(dev->fd, res, conn, req->crtcs_taken)) < 0) {
				drmModeFreeConnector(conn);
				continue;
			}
			dev->connector_id = conn->connector_id;
			dev->connector_index = (uint32_t)i;
			dev->preferred = *mode;
			dev->crtc_index = (uint32_t)crtc;
			dev->crtc_id = res->crtcs[crtc];
			display_crtc = crtc;
			display_enc = conn->encoder_id ? conn->encoder_id :
				(conn->count_encoders > 0 ? conn->encoders[0] : 0);
		}
		drmModeFreeConnector(conn);
	}
	if (!dev->connector_id && connected && !free_connected) {
		return hwct_error_set(err, -ENOSPC, dev->path, UINT64_MAX, "connectors: each of the %" PRIu32
			" connected one(s) is driven by an earlier display", connected);
	}
	if (!dev->connector_id && free_connected && req->crtcs_taken) {
		return hwct_error_set(err, -ENOSPC, dev->path, UINT64_MAX, "connectors: no CRTC free for the %" PRIu32
			" connected one(s) no other display drives", free_connected);
	}
	if (!dev->connector_id) {
		return hwct_error_set(err, -ENODEV, dev->path, UINT64_MAX,
			"connectors: no connected connector with a mode and a CRTC");
	}
	pick_writeback(dev, wb, wb_count, display_crtc, req->no_writeback, &wb_enc);
	dev->writeback_exclusive = dev->writeback_id &&
		!clonable(dev->fd, res, display_enc, wb_enc);
	dev->mode = dev->preferred;
	dev->modeset_pending = true;
	dev->max_width = res->max_width;
	dev->max_height = res->max_height;
	return 0;
}
