/*
 * Device framebuffers (fb.h): a gbm BO or a dumb buffer, registered with
 * ADDFB2, mapped for the CPU, removed with the last reference.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm_fourcc.h>
#include <gbm.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

struct device_fb {
	struct kms_fb base;
	int fd;				/* the device's; borrowed */
	struct gbm_bo *bo;		/* NULL for a dumb buffer */
	uint32_t handle;		/* GEM handle (the BO's, or the dumb buffer's) */
	uint32_t pitch[KMS_FORMAT_MAX_PLANES], offset[KMS_FORMAT_MAX_PLANES];
	uint8_t *dumb_map;		/* dumb buffer: mapped once, on first use */
	uint64_t dumb_size;
};

static void device_fb_destroy(struct kms_fb *fb);

static const struct kms_fb_impl device_fb_impl = {
	.destroy = device_fb_destroy,
};

static struct device_fb *device_fb(struct kms_fb *fb)
{
	if (fb->impl != &device_fb_impl) {
		return NULL;
	}
	return (struct device_fb *)(void *)((char *)fb - offsetof(struct device_fb, base));
}

struct gbm_device *kms_device_gbm(struct kms_device *dev)
{
	if (!dev->gbm && !dev->gbm_failed) {
		dev->gbm = kms_gbm_create_quiet(dev->fd);
		dev->gbm_failed = dev->gbm == NULL;
	}
	return dev->gbm;
}

static int create_gbm(struct kms_device *dev, struct device_fb *fb, const struct kms_format *format)
{
	struct gbm_device *gbm = kms_device_gbm(dev);
	struct kms_fb *base = &fb->base;
	void *data = NULL;
	uint32_t stride = 0;
	uint8_t *pixels;

	if (!gbm) {
		return -ENODEV;
	}
	fb->bo = gbm_bo_create(gbm, base->width, base->height, base->fourcc,
		GBM_BO_USE_SCANOUT | GBM_BO_USE_LINEAR);
	if (!fb->bo) {
		return errno ? -errno : -ENOMEM;
	}
	fb->handle = gbm_bo_get_handle(fb->bo).u32;
	fb->pitch[0] = gbm_bo_get_stride(fb->bo);
	fb->offset[0] = gbm_bo_get_offset(fb->bo, 0);
	/* Only drivers that zero their BOs could skip this; gbm does not say. */
	pixels = gbm_bo_map(fb->bo, 0, 0, base->width, base->height, GBM_BO_TRANSFER_WRITE,
		&stride, &data);
	if (!pixels) {
		gbm_bo_destroy(fb->bo);
		fb->bo = NULL;
		return -EIO;
	}
	for (uint32_t y = 0; y < base->height; y++) {
		memset(pixels + (size_t)y * stride, 0, (size_t)base->width * format->cpp[0]);
	}
	gbm_bo_unmap(fb->bo, data);
	return 0;
}

static int create_dumb(struct device_fb *fb, const struct kms_format *format)
{
	struct kms_fb *base = &fb->base;
	uint32_t rows = base->height, pitch = 0;
	uint32_t width = base->width;

	if (format->plane_count == 2) {
		/* one buffer of luma-sized samples: luma rows, then the interleaved chroma rows */
		width = (width + 1) & ~1u;
		rows = base->height + (base->height + format->vsub - 1) / format->vsub;
	}
	if (drmModeCreateDumbBuffer(fb->fd, width, rows, format->cpp[0] * 8, 0, &fb->handle, &pitch,
		&fb->dumb_size) != 0) {
		fb->handle = 0;
		return errno ? -errno : -ENOMEM;
	}
	fb->pitch[0] = pitch;
	if (format->plane_count == 2) {
		fb->pitch[1] = pitch;
		fb->offset[1] = pitch * base->height;
	}
	return 0;
}

static int add_fb(struct kms_device *dev, struct device_fb *fb, const struct kms_format *format)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint64_t modifiers[4] = { 0 };
	struct kms_fb *base = &fb->base;
	int ret;

	for (uint32_t i = 0; i < format->plane_count; i++) {
		handles[i] = fb->handle;
		pitches[i] = fb->pitch[i];
		offsets[i] = fb->offset[i];
		modifiers[i] = DRM_FORMAT_MOD_LINEAR;
	}
	if (dev->addfb2_modifiers) {
		ret = drmModeAddFB2WithModifiers(fb->fd, base->width, base->height, base->fourcc,
			handles, pitches, offsets, modifiers, &base->id, DRM_MODE_FB_MODIFIERS);
	} else {
		ret = drmModeAddFB2(fb->fd, base->width, base->height, base->fourcc, handles,
			pitches, offsets, &base->id, 0);
	}
	if (ret != 0) {
		base->id = 0;
		return errno ? -errno : -EINVAL;
	}
	return 0;
}

int kms_fb_create(struct kms_device *dev, uint32_t width, uint32_t height, uint32_t fourcc,
	struct kms_fb **out)
{
	const struct kms_format *format = kms_format_find(fourcc);
	struct device_fb *fb;
	int ret;

	*out = NULL;
	if (!format || width == 0 || height == 0 || width > 16384 || height > 16384) {
		return -EINVAL;
	}
	fb = calloc(1, sizeof(*fb));
	if (!fb) {
		return -ENOMEM;
	}
	fb->base = (struct kms_fb){ .impl = &device_fb_impl, .refs = 1, .width = width,
		.height = height, .fourcc = fourcc, .modifier = DRM_FORMAT_MOD_LINEAR };
	fb->fd = dev->fd;
	if (format->plane_count != 1 || create_gbm(dev, fb, format) != 0) {
		if ((ret = create_dumb(fb, format))) {
			goto error_fb;
		}
	}
	if ((ret = add_fb(dev, fb, format))) {
		goto error_fb;
	}
	*out = &fb->base;
	return 0;

error_fb:
	device_fb_destroy(&fb->base);
	return ret;
}

static void device_fb_destroy(struct kms_fb *base)
{
	struct device_fb *fb = device_fb(base);

	if (base->id) {
		drmModeRmFB(fb->fd, base->id);
	}
	if (fb->bo) {
		gbm_bo_destroy(fb->bo);
	} else if (fb->handle) {
		if (fb->dumb_map) {
			munmap(fb->dumb_map, fb->dumb_size);
		}
		drmModeDestroyDumbBuffer(fb->fd, fb->handle);
	}
	free(fb);
}

int kms_fb_map(struct kms_fb *base, struct kms_fb_map *map)
{
	struct device_fb *fb = device_fb(base);
	uint32_t stride = 0;
	uint8_t *data;

	*map = (struct kms_fb_map){ 0 };
	if (!fb) {
		return -EINVAL;
	}
	if (fb->bo) {
		void *map_data = NULL;	/* Mesa refuses a non-NULL one */

		data = gbm_bo_map(fb->bo, 0, 0, base->width, base->height,
			GBM_BO_TRANSFER_READ_WRITE, &stride, &map_data);
		if (!data) {
			return -EIO;
		}
		map->data[0] = data;
		map->stride[0] = stride;
		map->priv = map_data;
		return 0;
	}
	if (!fb->dumb_map) {
		uint64_t offset = 0;
		void *p;

		if (drmModeMapDumbBuffer(fb->fd, fb->handle, &offset) != 0) {
			return errno ? -errno : -EIO;
		}
		p = mmap(NULL, fb->dumb_size, PROT_READ | PROT_WRITE, MAP_SHARED, fb->fd, (off_t)offset);
		if (p == MAP_FAILED) {
			return -errno;
		}
		fb->dumb_map = p;
	}
	for (int i = 0; i < KMS_FORMAT_MAX_PLANES; i++) {
		map->data[i] = fb->pitch[i] ? fb->dumb_map + fb->offset[i] : NULL;
		map->stride[i] = fb->pitch[i];
	}
	return 0;
}

void kms_fb_unmap(struct kms_fb *base, struct kms_fb_map *map)
{
	struct device_fb *fb = device_fb(base);

	if (fb && fb->bo && map->priv) {
		gbm_bo_unmap(fb->bo, map->priv);
	}
	*map = (struct kms_fb_map){ 0 };
}

struct kms_fb *kms_fb_ref(struct kms_fb *fb)
{
	fb->refs++;
	return fb;
}

void kms_fb_unref(struct kms_fb *fb)
{
	if (fb && --fb->refs == 0) {
		fb->impl->destroy(fb);
	}
}
