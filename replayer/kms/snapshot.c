/*
 * Capability snapshots (snapshot.h): the node's driver, device, framebuffer
 * limits, connectors, encoders, CRTCs and planes in drm_info's JSON shape
 * (drm_info 2.4.0 json.c: node_info and what it calls).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"
#include "snapshot.h"

static const struct {
	const char *name;
	uint64_t cap;
} client_caps[] = {
	{ "STEREO_3D", DRM_CLIENT_CAP_STEREO_3D },
	{ "UNIVERSAL_PLANES", DRM_CLIENT_CAP_UNIVERSAL_PLANES },
	{ "ATOMIC", DRM_CLIENT_CAP_ATOMIC },
	{ "ASPECT_RATIO", DRM_CLIENT_CAP_ASPECT_RATIO },
	{ "WRITEBACK_CONNECTORS", DRM_CLIENT_CAP_WRITEBACK_CONNECTORS },
};

static const struct {
	const char *name;
	uint64_t cap;
} caps[] = {
	{ "DUMB_BUFFER", DRM_CAP_DUMB_BUFFER },
	{ "VBLANK_HIGH_CRTC", DRM_CAP_VBLANK_HIGH_CRTC },
	{ "DUMB_PREFERRED_DEPTH", DRM_CAP_DUMB_PREFERRED_DEPTH },
	{ "DUMB_PREFER_SHADOW", DRM_CAP_DUMB_PREFER_SHADOW },
	{ "PRIME", DRM_CAP_PRIME },
	{ "TIMESTAMP_MONOTONIC", DRM_CAP_TIMESTAMP_MONOTONIC },
	{ "ASYNC_PAGE_FLIP", DRM_CAP_ASYNC_PAGE_FLIP },
	{ "CURSOR_WIDTH", DRM_CAP_CURSOR_WIDTH },
	{ "CURSOR_HEIGHT", DRM_CAP_CURSOR_HEIGHT },
	{ "ADDFB2_MODIFIERS", DRM_CAP_ADDFB2_MODIFIERS },
	{ "PAGE_FLIP_TARGET", DRM_CAP_PAGE_FLIP_TARGET },
	{ "CRTC_IN_VBLANK_EVENT", DRM_CAP_CRTC_IN_VBLANK_EVENT },
	{ "SYNCOBJ", DRM_CAP_SYNCOBJ },
	{ "SYNCOBJ_TIMELINE", DRM_CAP_SYNCOBJ_TIMELINE },
};

static void put(struct json_object *obj, const char *key, struct json_object *value)
{
	json_object_object_add(obj, key, value);
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static struct json_object *kernel_info(void)
{
	struct utsname uts;
	struct json_object *obj;

	if (uname(&uts) != 0) {
		return NULL;
	}
	obj = json_object_new_object();
	put(obj, "sysname", json_object_new_string(uts.sysname));
	put(obj, "release", json_object_new_string(uts.release));
	put(obj, "version", json_object_new_string(uts.version));
	return obj;
}

/* Sets every client cap it can (that is what drm_info reports). */
static struct json_object *driver_info(int fd)
{
	drmVersion *ver = drmGetVersion(fd);
	struct json_object *obj, *version, *cc, *c;

	if (!ver) {
		return NULL;
	}
	obj = json_object_new_object();
	put(obj, "name", json_object_new_string(ver->name ? ver->name : ""));
	put(obj, "desc", json_object_new_string(ver->desc ? ver->desc : ""));
	version = json_object_new_object();
	put(version, "major", json_object_new_int(ver->version_major));
	put(version, "minor", json_object_new_int(ver->version_minor));
	put(version, "patch", json_object_new_int(ver->version_patchlevel));
	put(version, "date", json_object_new_string(ver->date ? ver->date : ""));
	put(obj, "version", version);
	drmFreeVersion(ver);
	put(obj, "kernel", kernel_info());
	cc = json_object_new_object();
	for (size_t i = 0; i < sizeof(client_caps) / sizeof(client_caps[0]); i++) {
		put(cc, client_caps[i].name,
			json_object_new_boolean(drmSetClientCap(fd, client_caps[i].cap, 1) == 0));
	}
	put(obj, "client_caps", cc);
	c = json_object_new_object();
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		uint64_t value = 0;

		put(c, caps[i].name, drmGetCap(fd, caps[i].cap, &value) == 0 ? u64(value) : NULL);
	}
	put(obj, "caps", c);
	return obj;
}

static struct json_object *device_data(const drmDevice *dev)
{
	struct json_object *obj = NULL, *list;

	switch (dev->bustype) {
	case DRM_BUS_PCI:
		obj = json_object_new_object();
		put(obj, "vendor", u64(dev->deviceinfo.pci->vendor_id));
		put(obj, "device", u64(dev->deviceinfo.pci->device_id));
		put(obj, "subsystem_vendor", u64(dev->deviceinfo.pci->subvendor_id));
		put(obj, "subsystem_device", u64(dev->deviceinfo.pci->subdevice_id));
		break;
	case DRM_BUS_USB:
		obj = json_object_new_object();
		put(obj, "vendor", u64(dev->deviceinfo.usb->vendor));
		put(obj, "product", u64(dev->deviceinfo.usb->product));
		break;
	case DRM_BUS_PLATFORM:
		obj = json_object_new_object();
		list = json_object_new_array();
		for (size_t i = 0; dev->deviceinfo.platform->compatible &&
			dev->deviceinfo.platform->compatible[i]; i++) {
			json_object_array_add(list,
				json_object_new_string(dev->deviceinfo.platform->compatible[i]));
		}
		put(obj, "compatible", list);
		break;
	default:
		break;
	}
	return obj;
}

static struct json_object *device_info(int fd)
{
	drmDevice *dev = NULL;
	struct json_object *obj;

	if (drmGetDevice(fd, &dev) != 0) {
		return NULL;
	}
	obj = json_object_new_object();
	put(obj, "available_nodes", u64((uint64_t)dev->available_nodes));
	put(obj, "bus_type", u64((uint64_t)dev->bustype));
	put(obj, "device_data", device_data(dev));
	drmFreeDevice(&dev);
	return obj;
}

static struct json_object *connectors_info(int fd, const drmModeRes *res)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *conn = drmModeGetConnectorCurrent(fd, res->connectors[i]);
		struct json_object *obj, *encoders, *modes;

		if (!conn) {
			continue;
		}
		obj = json_object_new_object();
		put(obj, "id", u64(conn->connector_id));
		put(obj, "type", u64(conn->connector_type));
		put(obj, "status", u64(conn->connection));
		put(obj, "phy_width", u64(conn->mmWidth));
		put(obj, "phy_height", u64(conn->mmHeight));
		put(obj, "subpixel", u64(conn->subpixel));
		put(obj, "encoder_id", u64(conn->encoder_id));
		encoders = json_object_new_array();
		for (int j = 0; j < conn->count_encoders; j++) {
			json_object_array_add(encoders, u64(conn->encoders[j]));
		}
		put(obj, "encoders", encoders);
		modes = json_object_new_array();
		for (int j = 0; j < conn->count_modes; j++) {
			json_object_array_add(modes, kms_snapshot_mode(&conn->modes[j]));
		}
		put(obj, "modes", modes);
		put(obj, "properties", kms_snapshot_properties(fd, conn->connector_id,
			DRM_MODE_OBJECT_CONNECTOR));
		drmModeFreeConnector(conn);
		json_object_array_add(arr, obj);
	}
	return arr;
}

static struct json_object *encoders_info(int fd, const drmModeRes *res)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; i < res->count_encoders; i++) {
		drmModeEncoder *enc = drmModeGetEncoder(fd, res->encoders[i]);
		struct json_object *obj;

		if (!enc) {
			continue;
		}
		obj = json_object_new_object();
		put(obj, "id", u64(enc->encoder_id));
		put(obj, "type", u64(enc->encoder_type));
		put(obj, "crtc_id", u64(enc->crtc_id));
		put(obj, "possible_crtcs", u64(enc->possible_crtcs));
		put(obj, "possible_clones", u64(enc->possible_clones));
		drmModeFreeEncoder(enc);
		json_object_array_add(arr, obj);
	}
	return arr;
}

static struct json_object *crtcs_info(int fd, const drmModeRes *res)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; i < res->count_crtcs; i++) {
		drmModeCrtc *crtc = drmModeGetCrtc(fd, res->crtcs[i]);
		struct json_object *obj;

		if (!crtc) {
			continue;
		}
		obj = json_object_new_object();
		put(obj, "id", u64(crtc->crtc_id));
		put(obj, "fb_id", u64(crtc->buffer_id));
		put(obj, "x", u64(crtc->x));
		put(obj, "y", u64(crtc->y));
		put(obj, "mode", crtc->mode_valid ? kms_snapshot_mode(&crtc->mode) : NULL);
		put(obj, "gamma_size", json_object_new_int(crtc->gamma_size));
		put(obj, "properties", kms_snapshot_properties(fd, crtc->crtc_id, DRM_MODE_OBJECT_CRTC));
		drmModeFreeCrtc(crtc);
		json_object_array_add(arr, obj);
	}
	return arr;
}

static struct json_object *planes_info(int fd)
{
	drmModePlaneRes *res = drmModeGetPlaneResources(fd);
	struct json_object *arr;

	if (!res) {
		return NULL;
	}
	arr = json_object_new_array();
	for (uint32_t i = 0; i < res->count_planes; i++) {
		drmModePlane *plane = drmModeGetPlane(fd, res->planes[i]);
		struct json_object *obj, *formats;

		if (!plane) {
			continue;
		}
		obj = json_object_new_object();
		put(obj, "id", u64(plane->plane_id));
		put(obj, "possible_crtcs", u64(plane->possible_crtcs));
		put(obj, "crtc_id", u64(plane->crtc_id));
		put(obj, "fb_id", u64(plane->fb_id));
		put(obj, "crtc_x", u64(plane->crtc_x));
		put(obj, "crtc_y", u64(plane->crtc_y));
		put(obj, "x", u64(plane->x));
		put(obj, "y", u64(plane->y));
		put(obj, "gamma_size", u64(plane->gamma_size));
		put(obj, "fb", plane->fb_id ? kms_snapshot_fb(fd, plane->fb_id) : NULL);
		formats = json_object_new_array();
		for (uint32_t j = 0; j < plane->count_formats; j++) {
			json_object_array_add(formats, u64(plane->formats[j]));
		}
		put(obj, "formats", formats);
		put(obj, "properties", kms_snapshot_properties(fd, plane->plane_id,
			DRM_MODE_OBJECT_PLANE));
		drmModeFreePlane(plane);
		json_object_array_add(arr, obj);
	}
	drmModeFreePlaneResources(res);
	return arr;
}

static struct json_object *node_info(int fd, const char *path, struct hwct_error *err)
{
	struct json_object *node = json_object_new_object();
	struct json_object *fb_size;
	drmModeRes *res;

	/* driver_info sets the client caps, so it goes first (as in drm_info) */
	put(node, "driver", driver_info(fd));
	put(node, "device", device_info(fd));
	res = drmModeGetResources(fd);
	if (!res) {
		int code = errno ? -errno : -EIO;

		hwct_error_set(err, code, path, UINT64_MAX, "drmModeGetResources: %s", strerror(-code));
		json_object_put(node);
		return NULL;
	}
	fb_size = json_object_new_object();
	put(fb_size, "min_width", u64(res->min_width));
	put(fb_size, "max_width", u64(res->max_width));
	put(fb_size, "min_height", u64(res->min_height));
	put(fb_size, "max_height", u64(res->max_height));
	put(node, "fb_size", fb_size);
	put(node, "connectors", connectors_info(fd, res));
	put(node, "encoders", encoders_info(fd, res));
	put(node, "crtcs", crtcs_info(fd, res));
	put(node, "planes", planes_info(fd));
	drmModeFreeResources(res);
	return node;
}

struct json_object *kms_snapshot_path(const char *path, struct hwct_error *err)
{
	struct json_object *root, *node;
	int fd;

	hwct_error_clear(err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int code = -errno;

		hwct_error_set(err, code, path, UINT64_MAX, "open: %s", strerror(-code));
		return NULL;
	}
	node = node_info(fd, path, err);
	close(fd);
	if (!node) {
		return NULL;
	}
	root = json_object_new_object();
	put(root, path, node);
	return root;
}

struct json_object *kms_snapshot(struct kms_device *dev, struct hwct_error *err)
{
	return kms_snapshot_path(dev->path, err);
}
