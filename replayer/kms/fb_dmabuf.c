/*
 * Zero-copy framebuffers over dma-bufs (fb.h, kms_fb_import_dmabuf): PRIME
 * import of the buffer into a GEM handle, ADDFB2, and the handle closed
 * right away, since the framebuffer holds its own reference to the object.
 */
#include <errno.h>
#include <stdlib.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms_private.h"

struct dmabuf_fb {
	struct kms_fb base;
	int fd;				/* the device's; borrowed */
};

static void dmabuf_fb_destroy(struct kms_fb *base)
{
	struct dmabuf_fb *fb = (struct dmabuf_fb *)(void *)((char *)base - offsetof(struct dmabuf_fb, base));

	drmModeRmFB(fb->fd, base->id);
	free(fb);
}

static const struct kms_fb_impl dmabuf_fb_impl = {
	.destroy = dmabuf_fb_destroy,
};

int kms_fb_import_dmabuf(struct kms_device *dev, const struct kms_dmabuf *buf, struct kms_fb **out)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint64_t modifiers[4] = { 0 };
	bool explicit_mod = buf->modifier != DRM_FORMAT_MOD_INVALID;
	struct dmabuf_fb *fb;
	uint32_t handle = 0;
	int ret;

	*out = NULL;
	if (buf->fd < 0 || buf->width == 0 || buf->height == 0 || buf->plane_count == 0 ||
		buf->plane_count > KMS_FORMAT_MAX_PLANES || (explicit_mod && buf->modifier !=
		DRM_FORMAT_MOD_LINEAR && !dev->addfb2_modifiers)) {
		return -EINVAL;
	}
	fb = calloc(1, sizeof(*fb));
	if (!fb) {
		return -ENOMEM;
	}
	if (drmPrimeFDToHandle(dev->fd, buf->fd, &handle) != 0) {
		ret = errno ? -errno : -EINVAL;
		free(fb);
		return ret;
	}
	for (uint32_t i = 0; i < buf->plane_count; i++) {
		handles[i] = handle;
		pitches[i] = buf->pitch[i];
		offsets[i] = buf->offset[i];
		modifiers[i] = buf->modifier;
	}
	fb->base = (struct kms_fb){ .impl = &dmabuf_fb_impl, .refs = 1, .width = buf->width,
		.height = buf->height, .fourcc = buf->fourcc,
		.modifier = explicit_mod ? buf->modifier : DRM_FORMAT_MOD_LINEAR };
	fb->fd = dev->fd;
	if (explicit_mod && dev->addfb2_modifiers) {
		ret = drmModeAddFB2WithModifiers(dev->fd, buf->width, buf->height, buf->fourcc, handles,
			pitches, offsets, modifiers, &fb->base.id, DRM_MODE_FB_MODIFIERS);
	} else {
		ret = drmModeAddFB2(dev->fd, buf->width, buf->height, buf->fourcc, handles, pitches,
			offsets, &fb->base.id, 0);
	}
	ret = ret == 0 ? 0 : errno ? -errno : -EINVAL;
	/* The framebuffer (if any) keeps the object; the handle is not needed any more. */
	drmCloseBufferHandle(dev->fd, handle);
	if (ret) {
		free(fb);
		return ret;
	}
	*out = &fb->base;
	return 0;
}
