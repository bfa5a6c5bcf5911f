/*
 * The client's buffers: gbm BOs (GBM_BO_USE_LINEAR) exported as dma-bufs,
 * or memfds for formats gbm does not make here (NV12 on kms_swrast), each
 * wrapped in a test_buffer handle. A CPU copy of what was written is kept
 * for the client's own composition and the reference. A buffer is written
 * only after its release fence signalled.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <gbm.h>
#include <xf86drm.h>

#include "fence_wait.h"
#include "hwc2_client.h"

bool hc_alloc_open(struct hc_alloc *a, const char *path)
{
	a->drm_fd = open(path, O_RDWR | O_CLOEXEC);
	if (a->drm_fd >= 0) {
		/* a card node's first opener is the DRM master: leave that to the composer */
		drmDropMaster(a->drm_fd);
	}
	a->gbm = a->drm_fd >= 0 ? gbm_create_device(a->drm_fd) : NULL;
	if (!a->gbm && a->drm_fd >= 0) {
		close(a->drm_fd);
		a->drm_fd = -1;
	}
	return true;	/* memfds when there is no gbm */
}

void hc_alloc_close(struct hc_alloc *a)
{
	if (a->gbm) {
		gbm_device_destroy(a->gbm);
	}
	if (a->drm_fd >= 0) {
		close(a->drm_fd);
	}
	a->gbm = NULL;
	a->drm_fd = -1;
}

static int32_t hal_format(uint32_t fourcc)
{
	switch (fourcc) {
	case DRM_FORMAT_ABGR8888:
		return HAL_PIXEL_FORMAT_RGBA_8888;
	case DRM_FORMAT_XBGR8888:
		return HAL_PIXEL_FORMAT_RGBX_8888;
	case DRM_FORMAT_ARGB8888:
		return HAL_PIXEL_FORMAT_BGRA_8888;
	case DRM_FORMAT_NV12:
		return HAL_PIXEL_FORMAT_YCBCR_420_888;
	default:
		return 0;
	}
}

static bool create_gbm(struct hc_alloc *a, uint32_t fourcc, uint32_t width, uint32_t height,
	struct hc_buffer *b)
{
	uint64_t modifier;

	if (!a->gbm || fourcc == DRM_FORMAT_NV12) {
		return false;
	}
	b->bo = gbm_bo_create(a->gbm, width, height, fourcc, GBM_BO_USE_LINEAR);
	if (!b->bo) {
		return false;
	}
	b->fd = gbm_bo_get_fd(b->bo);
	if (b->fd < 0) {
		gbm_bo_destroy(b->bo);
		b->bo = NULL;
		return false;
	}
	modifier = gbm_bo_get_modifier(b->bo);
	b->tb.stride[0] = gbm_bo_get_stride(b->bo);
	b->tb.offset[0] = gbm_bo_get_offset(b->bo, 0);
	b->tb.modifier = modifier == DRM_FORMAT_MOD_INVALID ? DRM_FORMAT_MOD_LINEAR : modifier;
	return true;
}

static bool create_memfd(uint32_t fourcc, uint32_t width, uint32_t height, struct hc_buffer *b)
{
	struct vs_layer l = { .fourcc = fourcc, .width = width, .height = height };
	uint32_t stride[2], offset[2];
	size_t size;

	vs_layout(&l, 0, stride, offset, &size);
	b->fd = memfd_create("hwc2-client-buffer", MFD_CLOEXEC);
	if (b->fd < 0 || ftruncate(b->fd, (off_t)size) != 0) {
		return false;
	}
	b->tb.stride[0] = stride[0];
	b->tb.stride[1] = stride[1];
	b->tb.offset[0] = offset[0];
	b->tb.offset[1] = offset[1];
	b->tb.modifier = DRM_FORMAT_MOD_LINEAR;
	return true;
}

void hc_buffer_init(struct hc_buffer *b)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->release_fence = -1;
}

bool hc_buffer_create(struct hc_alloc *a, uint32_t fourcc, uint32_t width, uint32_t height,
	struct hc_buffer *b)
{
	hc_buffer_init(b);
	if (!create_gbm(a, fourcc, width, height, b) && !create_memfd(fourcc, width, height, b)) {
		CHECK(false, "no buffer %ux%u of %.4s", width, height, (const char *)&fourcc);
		hc_buffer_destroy(b);
		return false;
	}
	b->tb.fd = b->fd;
	b->tb.width = width;
	b->tb.height = height;
	b->tb.fourcc = fourcc;
	b->tb.hal_format = hal_format(fourcc);
	b->handle = hwct_test_handle_create(&b->tb);
	return CHECK(b->handle != NULL, "out of memory");
}

void hc_buffer_destroy(struct hc_buffer *b)
{
	if (b->release_fence >= 0) {
		hwct_fence_wait(b->release_fence, HC_FENCE_MS);
		close(b->release_fence);
	}
	free(b->handle);
	free((void *)b->cpu.data);
	if (b->fd >= 0) {
		close(b->fd);
	}
	if (b->bo) {
		gbm_bo_destroy(b->bo);
	}
	hc_buffer_init(b);
}

void hc_buffer_set_release(struct hc_buffer *b, int fence)
{
	if (b->release_fence >= 0) {
		close(b->release_fence);
	}
	b->release_fence = fence;
}

static bool wait_release(struct hc_buffer *b)
{
	int ret = 0;

	if (b->release_fence >= 0) {
		ret = hwct_fence_wait(b->release_fence, HC_FENCE_MS);
		close(b->release_fence);
		b->release_fence = -1;
	}
	return CHECK(ret == 0, "a release fence did not signal in %d ms", HC_FENCE_MS);
}

/* Copies img's rows into the buffer (gbm map or memfd map). */
static bool upload(struct hc_buffer *b, const struct scene_image *img)
{
	uint32_t rows[2] = { img->height, img->fourcc == DRM_FORMAT_NV12 ? (img->height + 1) / 2 : 0 };
	size_t row = img->fourcc == DRM_FORMAT_NV12 ? (img->width + 1) / 2 * 2 : (size_t)img->width * 4;
	void *map_data = NULL, *p;
	uint32_t stride = b->tb.stride[0];
	size_t size = 0;
	uint8_t *base;

	if (b->bo) {
		p = gbm_bo_map(b->bo, 0, 0, img->width, img->height, GBM_BO_TRANSFER_WRITE, &stride, &map_data);
		if (!p) {
			return false;
		}
		base = p;
	} else {
		size = (size_t)lseek(b->fd, 0, SEEK_END);
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
		if (p == MAP_FAILED) {
			return false;
		}
		base = (uint8_t *)p + b->tb.offset[0];
	}
	for (uint32_t pl = 0; pl < img->plane_count && pl < 2; pl++) {
		uint8_t *dst = pl == 0 ? base : (uint8_t *)p + b->tb.offset[1];
		uint32_t dst_stride = pl == 0 ? stride : b->tb.stride[1];

		for (uint32_t y = 0; y < rows[pl]; y++) {
			memcpy(dst + (size_t)y * dst_stride, img->data + img->offset[pl] + (size_t)y * img->stride[pl],
				row);
		}
	}
	if (b->bo) {
		gbm_bo_unmap(b->bo, map_data);
	} else {
		munmap(p, size);
	}
	return true;
}

bool hc_buffer_fill(struct hc_buffer *b, const struct vs_layer *l, uint32_t frame)
{
	struct scene_image img;

	if (!wait_release(b) || !CHECK(vs_image_make(l, frame, &img), "out of memory")) {
		return false;
	}
	if (!CHECK(upload(b, &img), "writing a %ux%u buffer", l->width, l->height)) {
		free((void *)img.data);
		return false;
	}
	free((void *)b->cpu.data);
	b->cpu = img;
	return true;
}

bool hc_buffer_compose(struct hc_buffer *b, struct compositor *c, const struct scene *scene,
	const struct scene_layer *const *layers, size_t count)
{
	struct comp_target t = { .fourcc = b->tb.fourcc, .width = b->tb.width, .height = b->tb.height,
		.stride = b->tb.width * 4 };
	struct scene_image img = { .fourcc = t.fourcc, .modifier = DRM_FORMAT_MOD_LINEAR,
		.width = t.width, .height = t.height, .plane_count = 1, .stride = { t.stride } };
	int ret;

	if (!wait_release(b)) {
		return false;
	}
	t.data = malloc((size_t)t.stride * t.height);
	if (!CHECK(t.data != NULL, "out of memory")) {
		return false;
	}
	ret = compositor_compose(c, scene, layers, count, 0, &t);
	if (!CHECK(ret == 0, "client composition: %d", ret)) {
		free(t.data);
		return false;
	}
	img.data = t.data;
	img.size = (size_t)t.stride * t.height;
	if (!CHECK(upload(b, &img), "writing the client target")) {
		free(t.data);
		return false;
	}
	free((void *)b->cpu.data);
	b->cpu = img;
	return true;
}

void hc_print_fds(const char *what)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], target[256];

	while (dir && (e = readdir(dir))) {
		ssize_t n;

		if (e->d_name[0] == '.') {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "  %s: fd %s -> %s\n", what, e->d_name, target);
	}
	if (dir) {
		closedir(dir);
	}
}
