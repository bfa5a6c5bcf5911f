/*
 * Opening an atomic-KMS device (device.h): client caps, the CRTC, the
 * connected connector and its mode, the writeback connector, the planes and
 * their property caches. Errors name the node and the step.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gbm.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

static int fail(struct hwct_error *err, int code, const char *node, const char *step,
	const char *what)
{
	return hwct_error_set(err, code, node, UINT64_MAX, "%s: %s", step, what);
}

static int fail_errno(struct hwct_error *err, const char *node, const char *step)
{
	int code = errno ? -errno : -EIO;

	return fail(err, code, node, step, strerror(-code));
}

static char *copy_string(const char *s)
{
	size_t len = strlen(s);
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, s, len + 1);
	}
	return copy;
}

static int set_caps(struct kms_device *dev, struct hwct_error *err)
{
	drmVersion *version = drmGetVersion(dev->fd);
	uint64_t cap = 0;

	if (!version) {
		return fail_errno(err, dev->path, "drmGetVersion");
	}
	dev->driver = copy_string(version->name ? version->name : "");
	drmFreeVersion(version);
	if (!dev->driver) {
		return fail(err, -ENOMEM, dev->path, "drmGetVersion", "out of memory");
	}
	if (drmSetClientCap(dev->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) != 0) {
		return fail_errno(err, dev->path, "client cap UNIVERSAL_PLANES");
	}
	if (drmSetClientCap(dev->fd, DRM_CLIENT_CAP_ATOMIC, 1) != 0) {
		return fail_errno(err, dev->path, "client cap ATOMIC");
	}
	/* Optional: without it no writeback connector is listed. */
	drmSetClientCap(dev->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	dev->addfb2_modifiers = drmGetCap(dev->fd, DRM_CAP_ADDFB2_MODIFIERS, &cap) == 0 && cap;
	return 0;
}

static int load_props(struct kms_device *dev, struct hwct_error *err)
{
	int ret;

	if ((ret = kms_props_load(dev->fd, dev->crtc_id, DRM_MODE_OBJECT_CRTC, &dev->crtc_props))) {
		return fail(err, ret, dev->path, "CRTC properties", strerror(-ret));
	}
	if ((ret = kms_props_load(dev->fd, dev->connector_id, DRM_MODE_OBJECT_CONNECTOR,
		&dev->connector_props))) {
		return fail(err, ret, dev->path, "connector properties", strerror(-ret));
	}
	dev->crtc_active = kms_props_id(&dev->crtc_props, "ACTIVE");
	dev->crtc_mode_id = kms_props_id(&dev->crtc_props, "MODE_ID");
	dev->crtc_out_fence_ptr = kms_props_id(&dev->crtc_props, "OUT_FENCE_PTR");
	dev->connector_crtc_id = kms_props_id(&dev->connector_props, "CRTC_ID");
	if (!dev->crtc_active || !dev->crtc_mode_id || !dev->connector_crtc_id) {
		return fail(err, -ENOTSUP, dev->path, "properties",
			"CRTC ACTIVE/MODE_ID or connector CRTC_ID missing");
	}
	if (dev->writeback_id) {
		if ((ret = kms_props_load(dev->fd, dev->writeback_id, DRM_MODE_OBJECT_CONNECTOR,
			&dev->writeback_props))) {
			return fail(err, ret, dev->path, "writeback properties", strerror(-ret));
		}
		dev->wb_crtc_id = kms_props_id(&dev->writeback_props, "CRTC_ID");
		dev->wb_fb_id = kms_props_id(&dev->writeback_props, "WRITEBACK_FB_ID");
		dev->wb_out_fence_ptr = kms_props_id(&dev->writeback_props, "WRITEBACK_OUT_FENCE_PTR");
		if (!dev->wb_crtc_id || !dev->wb_fb_id || !dev->wb_out_fence_ptr) {
			dev->writeback_id = 0;	/* not usable */
		}
	}
	return 0;
}

static int compare_planes(const void *a, const void *b)
{
	const struct kms_plane *pa = a, *pb = b;

	return pa->id < pb->id ? -1 : pa->id > pb->id;
}

static int load_planes(struct kms_device *dev, uint32_t crtcs_taken, struct hwct_error *err)
{
	drmModePlaneRes *res = drmModeGetPlaneResources(dev->fd);
	int ret = 0;

	if (!res) {
		return fail_errno(err, dev->path, "drmModeGetPlaneResources");
	}
	dev->planes = calloc(res->count_planes ? res->count_planes : 1, sizeof(*dev->planes));
	if (!dev->planes) {
		ret = fail(err, -ENOMEM, dev->path, "planes", "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < res->count_planes; i++) {
		struct kms_plane *plane = &dev->planes[dev->plane_count];
		drmModePlane *p = drmModeGetPlane(dev->fd, res->planes[i]);
		uint64_t type = BOARD_PLANE_OVERLAY;
		char step[64];

		snprintf(step, sizeof(step), "plane %u", res->planes[i]);
		if (!p) {
			ret = fail_errno(err, dev->path, step);
			goto out;
		}
		plane->id = p->plane_id;
		plane->possible_crtcs = p->possible_crtcs;
		if ((plane->possible_crtcs & crtcs_taken) && (plane->possible_crtcs & (1u << dev->crtc_index))) {
			plane->possible_crtcs &= ~(1u << dev->crtc_index);	/* an earlier display's */
			dev->planes_ceded++;
		}
		drmModeFreePlane(p);
		dev->plane_count++;
		if ((ret = kms_props_load(dev->fd, plane->id, DRM_MODE_OBJECT_PLANE, &plane->props))) {
			ret = fail(err, ret, dev->path, step, strerror(-ret));
			goto out;
		}
		kms_props_value(&plane->props, "type", &type);
		plane->type = type <= BOARD_PLANE_CURSOR ? (enum board_plane_type)type : BOARD_PLANE_OVERLAY;
		kms_plane_props_resolve(plane);
		if (!plane->prop.fb_id || !plane->prop.crtc_id) {
			ret = fail(err, -ENOTSUP, dev->path, step, "no FB_ID/CRTC_ID property");
			goto out;
		}
	}
	qsort(dev->planes, dev->plane_count, sizeof(*dev->planes), compare_planes);
out:
	drmModeFreePlaneResources(res);
	return ret;
}

static struct kms_device *open_node(const char *path, const struct kms_output_request *req,
	struct hwct_error *err)
{
	struct kms_device *dev = calloc(1, sizeof(*dev));
	drmModeRes *res;
	int ret;

	if (!dev) {
		fail(err, -ENOMEM, path, "open", "out of memory");
		return NULL;
	}
	dev->fd = -1;
	dev->present_fence = -1;
	dev->path = copy_string(path);
	if (!dev->path) {
		fail(err, -ENOMEM, path, "open", "out of memory");
		goto error_dev;
	}
	dev->fd = req->fd >= 0 ? fcntl(req->fd, F_DUPFD_CLOEXEC, 0) : open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		fail_errno(err, path, req->fd >= 0 ? "dup" : "open");
		goto error_dev;
	}
	if (set_caps(dev, err)) {
		goto error_dev;
	}
	res = drmModeGetResources(dev->fd);
	if (!res) {
		fail_errno(err, path, "drmModeGetResources");
		goto error_dev;
	}
	ret = kms_device_find_outputs(dev, res, req, err);
	drmModeFreeResources(res);
	if (ret || load_props(dev, err) || load_planes(dev, req->crtcs_taken, err)) {
		goto error_dev;
	}
	if ((ret = kms_device_build_board(dev))) {
		fail(err, ret, path, "board", strerror(-ret));
		goto error_dev;
	}
	return dev;

error_dev:
	kms_device_destroy(dev);
	return NULL;
}

struct kms_device *kms_device_open_output(const char *path, const struct kms_output_request *req,
	struct hwct_error *err)
{
	hwct_error_clear(err);
	return open_node(path, req, err);
}

struct kms_device *kms_device_open(const char *path, struct hwct_error *err)
{
	static const struct kms_output_request first = { .fd = -1 };
	struct kms_device *dev = NULL;
	glob_t cards = { 0 };

	hwct_error_clear(err);
	if (path) {
		return open_node(path, &first, err);
	}
	if (glob("/dev/dri/card*", 0, NULL, &cards) != 0) {
		fail(err, -ENODEV, "/dev/dri", "glob", "no card node");
		return NULL;
	}
	/* The last node's error is kept when none fits. */
	for (size_t i = 0; i < cards.gl_pathc && !dev; i++) {
		dev = open_node(cards.gl_pathv[i], &first, err);
	}
	globfree(&cards);
	if (dev) {
		hwct_error_clear(err);
	} else if (err) {
		err->code = -ENODEV;
	}
	return dev;
}

void kms_device_destroy(struct kms_device *dev)
{
	if (!dev) {
		return;
	}
	kms_device_release_screen(dev);
	if (dev->mode_blob) {
		drmModeDestroyPropertyBlob(dev->fd, dev->mode_blob);
	}
	board_destroy(dev->board);
	for (size_t i = 0; i < dev->plane_count; i++) {
		kms_props_finish(&dev->planes[i].props);
	}
	free(dev->planes);
	kms_props_finish(&dev->crtc_props);
	kms_props_finish(&dev->connector_props);
	kms_props_finish(&dev->writeback_props);
	if (dev->gbm) {
		gbm_device_destroy(dev->gbm);
	}
	if (dev->fd >= 0) {
		close(dev->fd);
	}
	free(dev->driver);
	free(dev->path);
	free(dev);
}

int kms_device_fd(const struct kms_device *dev)
{
	return dev->fd;
}

const char *kms_device_path(const struct kms_device *dev)
{
	return dev->path;
}

const char *kms_device_driver(const struct kms_device *dev)
{
	return dev->driver;
}

uint32_t kms_device_crtc_id(const struct kms_device *dev)
{
	return dev->crtc_id;
}

uint32_t kms_device_connector_index(const struct kms_device *dev)
{
	return dev->connector_index;
}

uint32_t kms_device_crtc_index(const struct kms_device *dev)
{
	return dev->crtc_index;
}

uint32_t kms_device_planes_ceded(const struct kms_device *dev)
{
	return dev->planes_ceded;
}

bool kms_device_has_writeback(const struct kms_device *dev)
{
	return dev->writeback_id != 0;
}

const struct board *kms_device_board(const struct kms_device *dev)
{
	return dev->board;
}

struct board *kms_device_board_edit(struct kms_device *dev)
{
	return dev->board;
}

const struct kms_plane *kms_device_plane(const struct kms_device *dev, uint32_t id)
{
	for (size_t i = 0; i < dev->plane_count; i++) {
		if (dev->planes[i].id == id) {
			return &dev->planes[i];
		}
	}
	return NULL;
}
