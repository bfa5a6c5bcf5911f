/*
 * Scanout framebuffers of a KMS device: LINEAR buffers (a gbm BO, or a DRM
 * dumb buffer when gbm fails) registered with ADDFB2, reference-counted so
 * that a framebuffer on screen outlives its cache entry; a bounded cache of
 * imported scene images; and the import itself, with format fallbacks
 * (format.h) reported to the caller.
 */
#ifndef HWCT_KMS_FB_H
#define HWCT_KMS_FB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>

#include "board.h"
#include "format.h"
#include "scene.h"

struct kms_device;
struct kms_fb;

/* How a framebuffer is freed; device framebuffers have one, tests may bring theirs. */
struct kms_fb_impl {
	/* Frees fb and what backs it; called when the last reference goes. */
	void (*destroy)(struct kms_fb *fb);
};

/* A framebuffer. The fields are read-only for users. */
struct kms_fb {
	const struct kms_fb_impl *impl;
	unsigned refs;			/* references; the creator holds the first */
	uint32_t id;			/* KMS framebuffer object id (FB_ID) */
	uint32_t width, height;		/* pixels */
	uint32_t fourcc;		/* DRM_FORMAT_* */
	uint64_t modifier;		/* DRM_FORMAT_MOD_LINEAR for every buffer made here */
};

/* CPU access to a device framebuffer's planes, between kms_fb_map and kms_fb_unmap. */
struct kms_fb_map {
	uint8_t *data[KMS_FORMAT_MAX_PLANES];	/* first byte of each plane */
	uint32_t stride[KMS_FORMAT_MAX_PLANES];	/* bytes per row */
	void *priv;			/* the mapping's; do not touch */
};

/*
 * Creates a width x height LINEAR framebuffer of fourcc (a format of
 * format.h), zero-filled: a gbm BO with GBM_BO_USE_SCANOUT | GBM_BO_USE_LINEAR
 * for single-plane formats, else (or when gbm fails) a dumb buffer; then
 * drmModeAddFB2WithModifiers, or drmModeAddFB2 when the driver lacks
 * ADDFB2_MODIFIERS. Returns 0 with *out (one reference: kms_fb_unref),
 * -EINVAL for a format or size the backend or driver does not take, or
 * another -errno.
 */
int kms_fb_create(struct kms_device *dev, uint32_t width, uint32_t height, uint32_t fourcc,
	struct kms_fb **out);

/* Maps a framebuffer made by kms_fb_create for reading and writing. Returns 0 or -errno. */
int kms_fb_map(struct kms_fb *fb, struct kms_fb_map *map);

/* Ends a mapping of kms_fb_map. */
void kms_fb_unmap(struct kms_fb *fb, struct kms_fb_map *map);

/* Takes a reference. Returns fb. */
struct kms_fb *kms_fb_ref(struct kms_fb *fb);

/* Drops a reference; the last removes the framebuffer. Accepts NULL. */
void kms_fb_unref(struct kms_fb *fb);

/* What a cached framebuffer holds: an image's content in one scanout format. */
struct kms_fb_key {
	struct hwct_hash hash;		/* scene_image.hash */
	uint32_t src_fourcc;		/* the image's format */
	uint32_t fourcc;		/* the framebuffer's */
	uint64_t modifier;		/* the framebuffer's */
	uint32_t width, height;
};

struct kms_fb_cache;

struct kms_fb_cache_stats {
	uint64_t hits, misses, evictions;
};

/*
 * Creates a cache of at most capacity framebuffers (at least 1). When full,
 * an insertion evicts the least recently used entries that nobody else
 * holds (framebuffers on screen are referenced by the device and kept);
 * when every entry is held, the cache grows past capacity until they are
 * released. Returns NULL when out of memory.
 */
struct kms_fb_cache *kms_fb_cache_create(size_t capacity);

/* Drops the cache's references and frees it. Accepts NULL. */
void kms_fb_cache_destroy(struct kms_fb_cache *cache);

/* The framebuffer for key, as a new reference, or NULL on a miss. */
struct kms_fb *kms_fb_cache_get(struct kms_fb_cache *cache, const struct kms_fb_key *key);

/* Inserts fb for key (the cache takes its own reference). Returns 0 or -ENOMEM. */
int kms_fb_cache_put(struct kms_fb_cache *cache, const struct kms_fb_key *key, struct kms_fb *fb);

/*
 * Removes key's entry, dropping the cache's reference (the framebuffer
 * lives on with whoever else holds it). Returns whether there was one.
 */
bool kms_fb_cache_drop(struct kms_fb_cache *cache, const struct kms_fb_key *key);

/* Entries held now. */
size_t kms_fb_cache_count(const struct kms_fb_cache *cache);

/* Hit, miss and eviction counts so far. */
struct kms_fb_cache_stats kms_fb_cache_stats(const struct kms_fb_cache *cache);

/* The outcome of an import. */
struct kms_import {
	struct kms_fb *fb;		/* a reference: kms_fb_unref it */
	uint32_t source_fourcc;		/* the image's format */
	uint32_t fourcc;		/* the framebuffer's */
	bool converted;			/* format fallback: fourcc != source_fourcc */
	bool cache_hit;
};

/*
 * Imports img (CPU pixels, LINEAR) into a framebuffer for plane (NULL: any
 * plane of the device), in img->fourcc when the plane scans it out, else
 * in the fallback kms_format_choose picks (opaque: the layer's alpha is not
 * shown, so it may be dropped), converting on the way. cache (NULL: none)
 * is looked up and filled by (img->hash, formats, modifier, size). Rows are
 * copied honouring both strides; an image without data (no pixels wanted)
 * gets a blank framebuffer. Returns 0 with *out filled; -EINVAL for an
 * image inconsistent with its format or too small for its strides,
 * -ENOTSUP for a modifier other than LINEAR or a format no fallback turns
 * into one the plane takes; or kms_fb_create's error.
 */
int kms_fb_import(struct kms_device *dev, struct kms_fb_cache *cache,
	const struct scene_image *img, const struct board_plane *plane, bool opaque,
	struct kms_import *out);

/* A buffer someone else allocated, shared as a dma-buf (fb_dmabuf.c). */
struct kms_dmabuf {
	int fd;				/* the dma-buf; borrowed */
	uint32_t width, height;		/* pixels */
	uint32_t fourcc;		/* DRM_FORMAT_* to scan it out as */
	uint32_t plane_count;		/* 1 or 2, every plane in fd */
	uint32_t pitch[KMS_FORMAT_MAX_PLANES];	/* bytes per row */
	uint32_t offset[KMS_FORMAT_MAX_PLANES];	/* bytes from the start of fd */
	uint64_t modifier;		/* DRM_FORMAT_MOD_*; INVALID: ADDFB2 without modifiers */
};

/*
 * Zero-copy import: a framebuffer showing buf's memory itself (PRIME import
 * into a GEM handle, ADDFB2, the handle closed again; the framebuffer keeps
 * the buffer alive, so buf->fd may be closed afterwards). What is scanned
 * out is whatever the buffer holds at scan-out time. buf->fourcc may name
 * a layout-compatible alias of the buffer's format (XRGB8888 for an opaque
 * ARGB8888 buffer). The buffer must not have been exported by dev's own fd
 * (the handle would be the exporter's, and closing it would free it).
 * Returns 0 with *out (one reference: kms_fb_unref; kms_fb_map refuses it),
 * -EINVAL for bad arguments, or the -errno of the PRIME import (fd is no
 * dma-buf, e.g. a memfd) or of ADDFB2 (layout or format refused).
 */
int kms_fb_import_dmabuf(struct kms_device *dev, const struct kms_dmabuf *buf, struct kms_fb **out);

/* "format fallback AB24→AR24" for a conversion, "" otherwise, into buf. Returns buf. */
char *kms_import_describe(const struct kms_import *imp, char *buf, size_t size);

#endif
