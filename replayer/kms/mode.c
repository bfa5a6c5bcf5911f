/*
 * The display mode commits set (device.h): the connector's preferred one, or
 * a made-up width x height mode for drivers that take any (vkms).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

#define MAX_REFRESH_HZ 240

/*
 * Simple blanking (small porches, as kms_probe uses); vkms ignores the
 * timings but the DRM core checks that they are ordered and that the clock
 * gives the refresh rate.
 */
static void make_mode(uint32_t width, uint32_t height, uint32_t refresh_hz, drmModeModeInfo *mode)
{
	*mode = (drmModeModeInfo){
		.hdisplay = (uint16_t)width,
		.hsync_start = (uint16_t)(width + 16),
		.hsync_end = (uint16_t)(width + 48),
		.htotal = (uint16_t)(width + 64),
		.vdisplay = (uint16_t)height,
		.vsync_start = (uint16_t)(height + 3),
		.vsync_end = (uint16_t)(height + 6),
		.vtotal = (uint16_t)(height + 14),
		.vrefresh = refresh_hz,
		.type = DRM_MODE_TYPE_USERDEF,
	};
	/* kHz, rounded up so that the refresh is not below the one asked for */
	mode->clock = (uint32_t)(((uint64_t)mode->htotal * mode->vtotal * refresh_hz + 999) / 1000);
	snprintf(mode->name, sizeof(mode->name), "%ux%u", width, height);
}

int kms_device_set_mode(struct kms_device *dev, uint32_t width, uint32_t height,
	uint32_t refresh_hz, struct hwct_error *err)
{
	uint32_t max_w = dev->max_width ? dev->max_width : 8192;
	uint32_t max_h = dev->max_height ? dev->max_height : 8192;

	if (refresh_hz == 0) {
		refresh_hz = 60;
	}
	/* 64 columns / 14 rows of blanking must fit the 16-bit timings. */
	if (width == 0 || height == 0 || width > max_w || height > max_h ||
		width > 65535 - 64 || height > 65535 - 14 || refresh_hz > MAX_REFRESH_HZ) {
		return hwct_error_set(err, -EINVAL, dev->path, UINT64_MAX,
			"mode: %ux%u@%u outside 1x1..%ux%u@%u", width, height, refresh_hz,
			max_w, max_h, MAX_REFRESH_HZ);
	}
	make_mode(width, height, refresh_hz, &dev->mode);
	if (dev->mode_blob) {
		drmModeDestroyPropertyBlob(dev->fd, dev->mode_blob);
		dev->mode_blob = 0;
	}
	dev->modeset_pending = true;
	dev->board->width = width;
	dev->board->height = height;
	return 0;
}

void kms_device_mode_size(const struct kms_device *dev, uint32_t *width, uint32_t *height)
{
	*width = dev->mode.hdisplay;
	*height = dev->mode.vdisplay;
}

uint32_t kms_device_mode_refresh_mhz(const struct kms_device *dev)
{
	const drmModeModeInfo *m = &dev->mode;
	uint64_t pixels = (uint64_t)m->htotal * m->vtotal;

	if (m->clock && pixels) {
		return (uint32_t)(((uint64_t)m->clock * 1000000 + pixels / 2) / pixels);
	}
	return m->vrefresh * 1000;
}

int kms_device_mode_blob(struct kms_device *dev, uint32_t *blob)
{
	if (!dev->mode_blob &&
		drmModeCreatePropertyBlob(dev->fd, &dev->mode, sizeof(dev->mode), &dev->mode_blob) != 0) {
		dev->mode_blob = 0;
		return errno ? -errno : -EIO;
	}
	*blob = dev->mode_blob;
	return 0;
}
