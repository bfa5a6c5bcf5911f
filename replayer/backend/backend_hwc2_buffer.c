/*
 * The hwc2 backend's buffers (backend_hwc2_private.h): test_buffer handles
 * over linear gbm BOs exported as dma-bufs when a DRM node opens (what a
 * KMS-backed module can import), else over memfds laid out like the scene
 * image they carry, made dma-bufs by udmabuf where the kernel has it. A buffer is written only after its release fence
 * signalled; the pool keeps one buffer per recorded buffer id.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/udmabuf.h>

#include "hwct_config.h"
#include "backend_hwc2_private.h"
#include "fence_wait.h"
#include "fourcc.h"

#if HWCT_HAVE_GBM
#include <gbm.h>
#include <xf86drm.h>
#endif

#if HWCT_HAVE_GBM
/* "/dev/dri/cardN" opened, its master dropped (the module is the compositor), with a gbm device. */
static bool try_node(struct hwc2_alloc *a, const char *path)
{
	a->drm_fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (a->drm_fd < 0) {
		return false;
	}
	drmDropMaster(a->drm_fd);
	a->gbm = gbm_create_device(a->drm_fd);
	if (!a->gbm) {
		close(a->drm_fd);
		a->drm_fd = -1;
		return false;
	}
	return true;
}
#endif

static char alloc_name[96];

void hwc2_alloc_open(struct hwc2_alloc *a, const char *node)
{
	*a = (struct hwc2_alloc){ .drm_fd = -1 };
	snprintf(alloc_name, sizeof(alloc_name), "memfd");
#if HWCT_HAVE_GBM
	if (node) {
		if (try_node(a, node)) {
			snprintf(alloc_name, sizeof(alloc_name), "gbm (%s)", node);
		}
		return;
	}
	for (int i = 0; i < 8 && !a->gbm; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		if (try_node(a, path)) {
			snprintf(alloc_name, sizeof(alloc_name), "gbm (%s)", path);
		}
	}
#else
	(void)node;
#endif
}

void hwc2_alloc_close(struct hwc2_alloc *a)
{
#if HWCT_HAVE_GBM
	if (a->gbm) {
		gbm_device_destroy(a->gbm);
	}
#endif
	if (a->drm_fd >= 0) {
		close(a->drm_fd);
	}
	*a = (struct hwc2_alloc){ .drm_fd = -1 };
}

bool hwc2_alloc_is_vkms(const struct hwc2_alloc *a)
{
	bool vkms = false;
#if HWCT_HAVE_GBM
	drmVersionPtr v = a->drm_fd >= 0 ? drmGetVersion(a->drm_fd) : NULL;

	vkms = v && v->name && strcmp(v->name, "vkms") == 0;
	drmFreeVersion(v);
#else
	(void)a;
#endif
	return vkms;
}

const char *hwc2_alloc_name(const struct hwc2_alloc *a)
{
	(void)a;
	return alloc_name;
}

/* DMA_BUF_IOCTL_SYNC around CPU writes of a dma-buf; a no-op error on a memfd. */
static void dma_buf_sync(const struct hwc2_buffer *b, uint64_t flags)
{
	struct dma_buf_sync sync = { .flags = flags | DMA_BUF_SYNC_WRITE };

	if (b->bo) {
		ioctl(b->fd, DMA_BUF_IOCTL_SYNC, &sync);
	}
}

/* Bytes per pixel of plane 0 for the formats the compositors read; 0 unknown. */
static uint32_t bytes_per_pixel(uint32_t fourcc)
{
	switch (fourcc) {
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XRGB8888:
		return 4;
	case DRM_FORMAT_RGB565:
		return 2;
	case DRM_FORMAT_NV12:
		return 1;
	case DRM_FORMAT_P010:
		return 2;
	default:
		return 0;
	}
}

/* Whether fourcc has a CbCr plane after its luma plane (NV12, P010). */
static bool two_planes(uint32_t fourcc)
{
	return fourcc == DRM_FORMAT_NV12 || fourcc == DRM_FORMAT_P010;
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
	case DRM_FORMAT_RGB565:
		return HAL_PIXEL_FORMAT_RGB_565;
	case DRM_FORMAT_NV12:
		return HAL_PIXEL_FORMAT_YCBCR_420_888;
	case DRM_FORMAT_P010:
		return HAL_PIXEL_FORMAT_YCBCR_P010;
	default:
		return 0;
	}
}

static bool create_gbm(struct hwc2_alloc *a, struct hwc2_buffer *b)
{
#if HWCT_HAVE_GBM
	struct gbm_bo *bo;
	uint64_t modifier;

	if (!a->gbm || two_planes(b->tb.fourcc)) {
		return false;
	}
	bo = gbm_bo_create(a->gbm, b->tb.width, b->tb.height, b->tb.fourcc, GBM_BO_USE_LINEAR);
	if (!bo) {
		return false;
	}
	b->fd = gbm_bo_get_fd(bo);
	if (b->fd < 0) {
		gbm_bo_destroy(bo);
		return false;
	}
	b->bo = bo;
	modifier = gbm_bo_get_modifier(bo);
	b->tb.stride[0] = gbm_bo_get_stride(bo);
	b->tb.offset[0] = gbm_bo_get_offset(bo, 0);
	b->tb.modifier = modifier == DRM_FORMAT_MOD_INVALID ? DRM_FORMAT_MOD_LINEAR : modifier;
	b->size = (size_t)b->tb.stride[0] * b->tb.height;
	return true;
#else
	(void)a;
	(void)b;
	return false;
#endif
}

/*
 * Turns the memfd b->fd (size bytes, a whole number of pages) into a dma-buf
 * over the same pages through /dev/udmabuf, so that a module imports it as
 * it imports any buffer (PRIME): what gbm cannot allocate (NV12, P010 on kms_swrast)
 * is still a real dma-buf. Leaves the memfd where the kernel has no udmabuf.
 */
static void wrap_udmabuf(struct hwc2_buffer *b, size_t size)
{
	struct udmabuf_create create = { .memfd = (uint32_t)b->fd, .flags = UDMABUF_FLAGS_CLOEXEC,
		.offset = 0, .size = size };
	int dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC), dmabuf;

	if (dev < 0) {
		return;
	}
	dmabuf = fcntl(b->fd, F_ADD_SEALS, F_SEAL_SHRINK) == 0 ? ioctl(dev, UDMABUF_CREATE, &create) : -1;
	close(dev);
	if (dmabuf >= 0) {
		close(b->fd);
		b->fd = dmabuf;
	}
}

/* A memfd with rows of exactly width pixels (NV12, P010: width rounded up to even, the chroma
 * plane after the luma), made a dma-buf by udmabuf where the kernel has it. */
static int create_memfd(struct hwc2_buffer *b)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages;
	uint32_t bpp = bytes_per_pixel(b->tb.fourcc);
	size_t size;

	if (!bpp) {
		return -ENOTSUP;
	}
	b->tb.stride[0] = two_planes(b->tb.fourcc) ? (b->tb.width + 1) / 2 * 2 * bpp : b->tb.width * bpp;
	b->tb.offset[0] = 0;
	size = (size_t)b->tb.stride[0] * b->tb.height;
	if (two_planes(b->tb.fourcc)) {
		b->tb.stride[1] = b->tb.stride[0];
		b->tb.offset[1] = (uint32_t)size;
		size += (size_t)b->tb.stride[1] * ((b->tb.height + 1) / 2);
	}
	b->tb.modifier = DRM_FORMAT_MOD_LINEAR;
	b->fd = memfd_create("hwc-replay-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (b->fd < 0) {
		return -errno;
	}
	page = page > 0 ? page : 4096;
	pages = (size + (size_t)page - 1) / (size_t)page * (size_t)page;
	if (ftruncate(b->fd, (off_t)pages) != 0) {
		return -errno;
	}
	wrap_udmabuf(b, pages);
	b->size = size;
	return 0;
}

int hwc2_buffer_create(struct hwc2_alloc *a, uint32_t fourcc, uint32_t width, uint32_t height,
	struct hwc2_buffer *b)
{
	int ret = 0;

	*b = (struct hwc2_buffer){ .fd = -1, .release_fence = -1 };
	b->tb = (struct hwct_test_buffer){ .width = width, .height = height, .fourcc = fourcc,
		.hal_format = hal_format(fourcc) };
	if (!create_gbm(a, b)) {
		ret = create_memfd(b);
	}
	if (ret == 0) {
		b->tb.fd = b->fd;
		b->handle = hwct_test_handle_create(&b->tb);
		ret = b->handle ? 0 : -ENOMEM;
	}
	if (ret < 0) {
		hwc2_buffer_destroy(b);
	}
	return ret;
}

bool hwc2_buffer_wait_release(struct hwc2_buffer *b)
{
	int ret = hwct_fence_wait(b->release_fence, b->release_due ? HWC2_FENCE_WAIT_MS : HWC2_FENCE_SHORT_MS);

	if (b->release_fence >= 0) {
		close(b->release_fence);
		b->release_fence = -1;
	}
	return ret == 0;
}

void hwc2_buffer_set_release(struct hwc2_buffer *b, int fence)
{
	if (b->release_fence >= 0) {
		close(b->release_fence);
	}
	b->release_fence = fence;
	b->release_due = false;
}

void hwc2_buffer_presented(struct hwc2_buffer *b)
{
	b->release_due = b->release_fence >= 0;
}

void hwc2_buffer_destroy(struct hwc2_buffer *b)
{
	if (b->release_fence >= 0) {
		hwc2_buffer_wait_release(b);
	}
	free(b->handle);
	if (b->fd >= 0) {
		close(b->fd);
	}
#if HWCT_HAVE_GBM
	if (b->bo) {
		gbm_bo_destroy(b->bo);
	}
#endif
	*b = (struct hwc2_buffer){ .fd = -1, .release_fence = -1 };
}

/*
 * Maps b for writing: the fd itself (a memfd, or a dma-buf bracketed by
 * DMA_BUF_IOCTL_SYNC: gbm_bo_map of kms_swrast's dumb BOs fails on a
 * node that is not the DRM master), else through gbm. NULL on failure.
 */
static uint8_t *map_write(struct hwc2_buffer *b, void **cookie, uint32_t *stride0)
{
	void *p;

	*stride0 = b->tb.stride[0];
	*cookie = NULL;
	p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
	if (p != MAP_FAILED) {
		dma_buf_sync(b, DMA_BUF_SYNC_START);
		return p;
	}
#if HWCT_HAVE_GBM
	if (b->bo) {
		return gbm_bo_map(b->bo, 0, 0, b->tb.width, b->tb.height, GBM_BO_TRANSFER_WRITE, stride0, cookie);
	}
#endif
	return NULL;
}

static void unmap_write(struct hwc2_buffer *b, uint8_t *p, void *cookie)
{
#if HWCT_HAVE_GBM
	if (cookie) {
		gbm_bo_unmap(b->bo, cookie);
		return;
	}
#endif
	dma_buf_sync(b, DMA_BUF_SYNC_END);
	munmap(p, b->size);
}

static void copy_rows(uint8_t *dst, uint32_t dst_stride, const uint8_t *src, uint32_t src_stride, size_t row,
	uint32_t rows)
{
	for (uint32_t y = 0; y < rows; y++) {
		memcpy(dst + (size_t)y * dst_stride, src + (size_t)y * src_stride, row);
	}
}

int hwc2_buffer_write(struct hwc2_buffer *b, const struct scene_image *img)
{
	uint32_t bpp = bytes_per_pixel(img->fourcc), stride0;
	size_t row = two_planes(img->fourcc) ? (size_t)(img->width + 1) / 2 * 2 * bpp : (size_t)img->width * bpp;
	void *cookie;
	uint8_t *p;

	hwc2_buffer_wait_release(b);
	b->has_content = true;
	b->content = img->hash;
	if (!img->data) {
		return 0;	/* no pixels asked for: the buffer keeps what it has */
	}
	if (!bpp || img->fourcc != b->tb.fourcc || img->width != b->tb.width || img->height != b->tb.height) {
		return -EINVAL;
	}
	p = map_write(b, &cookie, &stride0);
	if (!p) {
		return -EIO;
	}
	copy_rows(p + b->tb.offset[0], stride0, img->data + img->offset[0], img->stride[0], row, img->height);
	if (two_planes(img->fourcc) && img->plane_count > 1) {
		copy_rows(p + b->tb.offset[1], b->tb.stride[1], img->data + img->offset[1], img->stride[1], row,
			(img->height + 1) / 2);
	}
	unmap_write(b, p, cookie);
	return 0;
}

int hwc2_buffer_write_target(struct hwc2_buffer *b, const struct comp_target *t)
{
	uint32_t stride0;
	void *cookie;
	uint8_t *p;

	hwc2_buffer_wait_release(b);
	if (t->width != b->tb.width || t->height != b->tb.height || bytes_per_pixel(b->tb.fourcc) != 4) {
		return -EINVAL;
	}
	p = map_write(b, &cookie, &stride0);
	if (!p) {
		return -EIO;
	}
	copy_rows(p + b->tb.offset[0], stride0, t->data, t->stride, (size_t)t->width * 4, t->height);
	unmap_write(b, p, cookie);
	return 0;
}

struct hwc2_buffer *hwc2_pool_get(struct hwc2_pool *p, struct hwc2_alloc *a, uint64_t key,
	const struct scene_image *img)
{
	struct hwc2_buffer *b;
	size_t i;
	int ret;

	for (i = 0; i < p->count; i++) {
		b = p->buffers[i];
		if (b->key != key) {
			continue;
		}
		if (b->tb.fourcc == img->fourcc && b->tb.width == img->width && b->tb.height == img->height) {
			return b;
		}
		if (!b->holders) {
			hwc2_buffer_destroy(b);
			free(b);
			p->buffers[i] = p->buffers[--p->count];
		} else {
			b->key = HWC2_KEY_RETIRED;	/* a layer still shows it: trimmed once released */
		}
		break;
	}
	if (p->count == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct hwc2_buffer **grown = realloc(p->buffers, cap * sizeof(*grown));

		if (!grown) {
			errno = ENOMEM;
			return NULL;
		}
		p->buffers = grown;
		p->cap = cap;
	}
	b = malloc(sizeof(*b));
	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	ret = hwc2_buffer_create(a, img->fourcc, img->width, img->height, b);
	if (ret < 0) {
		free(b);
		errno = -ret;
		return NULL;
	}
	b->key = key;
	p->buffers[p->count++] = b;
	return b;
}

void hwc2_pool_trim(struct hwc2_pool *p, uint64_t frame, uint64_t age)
{
	for (size_t i = 0; i < p->count;) {
		struct hwc2_buffer *b = p->buffers[i];

		if (!b->holders && b->last_frame + age < frame) {
			hwc2_buffer_destroy(b);
			free(b);
			p->buffers[i] = p->buffers[--p->count];
		} else {
			i++;
		}
	}
}

void hwc2_pool_presented(struct hwc2_pool *p)
{
	for (size_t i = 0; i < p->count; i++) {
		hwc2_buffer_presented(p->buffers[i]);
	}
}

void hwc2_pool_finish(struct hwc2_pool *p)
{
	for (size_t i = 0; i < p->count; i++) {
		hwc2_buffer_destroy(p->buffers[i]);
		free(p->buffers[i]);
	}
	free(p->buffers);
	*p = (struct hwc2_pool){ 0 };
}
