/*
 * The client's buffers (hwc2_private.h): test_buffer handles (a dma-buf or
 * a memfd plus layout ints, <hwct/test_buffer.h>) cached by the fd's
 * identity (st_dev, st_ino, as drm_hwcomposer keys buffers, §1.6) and
 * layout; imported zero-copy (kms_fb_import_dmabuf) when the device takes
 * the dma-buf, and mapped read-only for what the CPU must read (format
 * conversions, module-side composition), with DMA_BUF_IOCTL_SYNC around
 * the reads.
 *
 * Framebuffers reach the backend through its cache: a scene image's hash
 * is the buffer's identity plus its generation (bumped by every
 * setLayerBuffer/setClientTarget naming it: new content), and the
 * zero-copy framebuffers are put in the cache under that hash, so that
 * the planner's TEST_ONLY commits and the presenting commit find them
 * instead of copying pixels. A conversion still copies, under the same
 * generation-keyed hash, so that stale copies are never reused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <linux/dma-buf.h>

#include <hwct/hash.h>

#include "commit.h"
#include "fb.h"
#include "hwc2_private.h"

#define CACHE_UNHELD 64		/* unheld buffers kept for reuse */

/* The alpha-less format with the same memory layout, or 0. */
static uint32_t alias_of(uint32_t fourcc)
{
	switch (fourcc) {
	case DRM_FORMAT_ARGB8888:
		return DRM_FORMAT_XRGB8888;
	case DRM_FORMAT_ABGR8888:
		return DRM_FORMAT_XBGR8888;
	case DRM_FORMAT_RGBA8888:
		return DRM_FORMAT_RGBX8888;
	case DRM_FORMAT_BGRA8888:
		return DRM_FORMAT_BGRX8888;
	default:
		return 0;
	}
}

static bool same_layout(const struct hwct_test_buffer *a, const struct hwct_test_buffer *b)
{
	return a->width == b->width && a->height == b->height && a->fourcc == b->fourcc &&
		a->stride[0] == b->stride[0] && a->stride[1] == b->stride[1] &&
		a->offset[0] == b->offset[0] && a->offset[1] == b->offset[1] &&
		a->modifier == b->modifier;
}

static void update_hash(struct hwc2_kms_buffer *b)
{
	uint64_t id[3] = { (uint64_t)b->st_dev, (uint64_t)b->st_ino, b->generation };

	b->image.hash = hwct_hash_compute(id, sizeof(id));
}

static struct kms_fb_key key_for(const struct hwc2_kms_buffer *b, uint64_t generation, uint32_t fourcc)
{
	uint64_t id[3] = { (uint64_t)b->st_dev, (uint64_t)b->st_ino, generation };

	return (struct kms_fb_key){ .hash = hwct_hash_compute(id, sizeof(id)),
		.src_fourcc = b->layout.fourcc, .fourcc = fourcc, .modifier = DRM_FORMAT_MOD_LINEAR,
		.width = b->layout.width, .height = b->layout.height };
}

static void unregister(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b)
{
	struct kms_fb_key key;

	if (!b->registered) {
		return;
	}
	if (b->fb) {
		key = key_for(b, b->registered, b->layout.fourcc);
		kms_fb_cache_drop(d->cache, &key);
	}
	if (b->alias_fb) {
		key = key_for(b, b->registered, b->alias_fourcc);
		kms_fb_cache_drop(d->cache, &key);
	}
	b->registered = 0;
}

void hwc2_kms_buffer_register(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b)
{
	struct kms_fb_key key;

	if (b->registered == b->generation || (!b->fb && !b->alias_fb)) {
		return;
	}
	unregister(d, b);
	if (b->fb) {
		key = key_for(b, b->generation, b->layout.fourcc);
		if (kms_fb_cache_put(d->cache, &key, b->fb) < 0) {
			return;
		}
	}
	if (b->alias_fb) {
		key = key_for(b, b->generation, b->alias_fourcc);
		kms_fb_cache_put(d->cache, &key, b->alias_fb);
	}
	b->registered = b->generation;
}

static void buffer_free(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b)
{
	unregister(d, b);
	kms_fb_unref(b->fb);
	kms_fb_unref(b->alias_fb);
	if (b->map) {
		munmap((void *)b->map, b->map_size);
	}
	if (b->fd >= 0) {
		close(b->fd);
	}
	free(b);
}

/* The zero-copy framebuffers; failures only mean CPU copies later. */
static void import(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b)
{
	const struct kms_format *f = kms_format_find(b->layout.fourcc);
	struct kms_dmabuf buf = { .fd = b->fd, .width = b->layout.width, .height = b->layout.height,
		.fourcc = b->layout.fourcc, .plane_count = f ? f->plane_count : 1,
		.modifier = b->layout.modifier == DRM_FORMAT_MOD_INVALID ? DRM_FORMAT_MOD_LINEAR :
			b->layout.modifier };

	for (uint32_t i = 0; i < buf.plane_count && i < 2; i++) {
		buf.pitch[i] = b->layout.stride[i];
		buf.offset[i] = b->layout.offset[i];
	}
	if (kms_fb_import_dmabuf(d->kms, &buf, &b->fb) < 0) {
		b->fb = NULL;
		return;
	}
	d->stats.zero_copy++;
	b->alias_fourcc = alias_of(b->layout.fourcc);
	if (b->alias_fourcc) {
		buf.fourcc = b->alias_fourcc;
		if (kms_fb_import_dmabuf(d->kms, &buf, &b->alias_fb) < 0) {
			b->alias_fb = NULL;
			b->alias_fourcc = 0;
		}
	}
}

/* Maps the buffer for reading (when it can be) and describes it as a scene image. */
static void map(struct hwc2_kms_buffer *b)
{
	const struct kms_format *f = kms_format_find(b->layout.fourcc);
	off_t size = lseek(b->fd, 0, SEEK_END);
	void *p = size > 0 ? mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, b->fd, 0) : MAP_FAILED;

	if (p != MAP_FAILED) {
		b->map = p;
		b->map_size = (size_t)size;
	}
	b->image = (struct scene_image){ .fourcc = b->layout.fourcc,
		.modifier = b->layout.modifier == DRM_FORMAT_MOD_INVALID ? DRM_FORMAT_MOD_LINEAR :
			b->layout.modifier,
		.width = b->layout.width, .height = b->layout.height,
		.plane_count = f ? f->plane_count : 1,
		.offset = { b->layout.offset[0], b->layout.offset[1] },
		.stride = { b->layout.stride[0], b->layout.stride[1] },
		.data = b->map, .size = b->map_size };
}

static struct hwc2_kms_buffer *create(struct hwc2_kms_device *d, const struct hwct_test_buffer *t,
	const struct stat *st)
{
	struct hwc2_kms_buffer *b = calloc(1, sizeof(*b));
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ };

	if (!b) {
		return NULL;
	}
	b->fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 0);
	if (b->fd < 0) {
		free(b);
		return NULL;
	}
	b->st_dev = st->st_dev;
	b->st_ino = st->st_ino;
	b->layout = *t;
	b->layout.fd = b->fd;
	/* A dma-buf answers DMA_BUF_IOCTL_SYNC; a memfd says ENOTTY. */
	if (ioctl(b->fd, DMA_BUF_IOCTL_SYNC, &sync) == 0) {
		sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ;
		ioctl(b->fd, DMA_BUF_IOCTL_SYNC, &sync);
		b->dmabuf = true;
	} else {
		b->dmabuf = errno != ENOTTY;
	}
	map(b);
	import(d, b);
	if (!b->map && !b->fb) {
		buffer_free(d, b);
		return NULL;
	}
	return b;
}

/* Frees the least recently used unheld buffers beyond CACHE_UNHELD. */
static void trim(struct hwc2_kms_device *d)
{
	for (;;) {
		size_t unheld = 0, victim = d->buffer_count;

		for (size_t i = 0; i < d->buffer_count; i++) {
			struct hwc2_kms_buffer *b = d->buffers[i];

			if (b->refs == 0) {
				unheld++;
				if (victim == d->buffer_count || b->last_use < d->buffers[victim]->last_use) {
					victim = i;
				}
			}
		}
		if (unheld <= CACHE_UNHELD) {
			return;
		}
		buffer_free(d, d->buffers[victim]);
		d->buffers[victim] = d->buffers[--d->buffer_count];
	}
}

int hwc2_kms_buffer_get(struct hwc2_kms_device *d, buffer_handle_t handle,
	struct hwc2_kms_buffer **out)
{
	struct hwct_test_buffer t;
	struct hwc2_kms_buffer *b = NULL;
	struct stat st;

	*out = NULL;
	if (!hwct_test_handle_parse(handle, &t) || t.fd < 0 || fstat(t.fd, &st) != 0 ||
		!kms_format_find(t.fourcc)) {
		return -EINVAL;
	}
	for (size_t i = 0; i < d->buffer_count && !b; i++) {
		if (d->buffers[i]->st_dev == st.st_dev && d->buffers[i]->st_ino == st.st_ino &&
			same_layout(&d->buffers[i]->layout, &t)) {
			b = d->buffers[i];
		}
	}
	if (!b) {
		if (d->buffer_count == d->buffer_cap) {
			size_t cap = d->buffer_cap ? d->buffer_cap * 2 : 16;
			struct hwc2_kms_buffer **p = realloc(d->buffers, cap * sizeof(*p));

			if (!p) {
				return -ENOMEM;
			}
			d->buffers = p;
			d->buffer_cap = cap;
		}
		b = create(d, &t, &st);
		if (!b) {
			return -EINVAL;
		}
		d->buffers[d->buffer_count++] = b;
		d->stats.cpu_imports += b->fb ? 0 : 1;
	}
	b->refs++;
	b->generation++;
	b->last_use = d->frame;
	update_hash(b);
	trim(d);
	*out = b;
	return 0;
}

void hwc2_kms_buffer_put(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b)
{
	if (b && b->refs > 0) {
		b->refs--;
		b->last_use = d->frame;
	}
}

void hwc2_kms_buffers_destroy(struct hwc2_kms_device *d)
{
	for (size_t i = 0; i < d->buffer_count; i++) {
		buffer_free(d, d->buffers[i]);
	}
	free(d->buffers);
	d->buffers = NULL;
	d->buffer_count = d->buffer_cap = 0;
}

bool hwc2_kms_buffer_needs_cpu(const struct hwc2_kms_device *d, const struct hwc2_kms_buffer *b,
	int32_t blend)
{
	bool opaque = blend == HWC2_BLEND_MODE_NONE || blend == HWC2_BLEND_MODE_INVALID;

	if (b->fb && board_any_plane_has_format(d->board, b->layout.fourcc, DRM_FORMAT_MOD_LINEAR)) {
		return false;
	}
	return !(b->alias_fb && opaque &&
		board_any_plane_has_format(d->board, b->alias_fourcc, DRM_FORMAT_MOD_LINEAR));
}

static void sync_cpu(struct hwc2_kms_buffer *b, uint64_t flags)
{
	struct dma_buf_sync sync = { .flags = flags | DMA_BUF_SYNC_READ };

	if (b->dmabuf) {
		while (ioctl(b->fd, DMA_BUF_IOCTL_SYNC, &sync) != 0 && (errno == EINTR || errno == EAGAIN)) {
		}
	}
}

void hwc2_kms_buffer_begin_cpu(struct hwc2_kms_buffer *b)
{
	sync_cpu(b, DMA_BUF_SYNC_START);
}

void hwc2_kms_buffer_end_cpu(struct hwc2_kms_buffer *b)
{
	sync_cpu(b, DMA_BUF_SYNC_END);
}

int hwc2_kms_buffer_target_fb(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b,
	const struct plan_plane_state *state, struct kms_fb **out)
{
	const struct board_plane *plane = board_find_plane(d->board, state->plane_id);
	const struct kms_format *want = kms_format_find(state->fourcc);
	bool opaque = want && want->a < 0;	/* the plan put the target where its alpha is not shown */
	struct kms_import imp;
	int ret;

	*out = NULL;
	if (!plane || b->layout.width != state->fb_width || b->layout.height != state->fb_height) {
		return -EINVAL;
	}
	if (b->fb && board_plane_has_format(plane, b->layout.fourcc, DRM_FORMAT_MOD_LINEAR)) {
		*out = kms_fb_ref(b->fb);
		return 0;
	}
	if (b->alias_fb && opaque && board_plane_has_format(plane, b->alias_fourcc,
		DRM_FORMAT_MOD_LINEAR)) {
		*out = kms_fb_ref(b->alias_fb);
		return 0;
	}
	if (!b->map) {
		return -ENOTSUP;
	}
	hwc2_kms_buffer_begin_cpu(b);
	ret = kms_fb_import(d->kms, d->cache, &b->image, plane, opaque, &imp);
	hwc2_kms_buffer_end_cpu(b);
	if (ret < 0) {
		return ret;
	}
	*out = imp.fb;
	return 0;
}
