/*
 * From the frame model to a scene: decodes each layer's buffer content
 * (blobs, delta chains) into CPU images, maps HAL formats to DRM fourccs,
 * and keeps recently used images in a cache bounded in bytes.
 */
#ifndef HWCT_FRAME_SCENE_H
#define HWCT_FRAME_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/frame.h>
#include <hwct/reader.h>

#include "scene.h"

struct frame_scene;

/*
 * Creates a converter reading blobs through r (borrowed, must outlive it).
 * cache_bytes bounds the decoded images kept between frames. NULL on ENOMEM.
 */
struct frame_scene *frame_scene_create(struct hwct_reader *r, size_t cache_bytes);

/* Frees fs and every image it holds. fs may be NULL. */
void frame_scene_destroy(struct frame_scene *fs);

/*
 * Builds the scene of frame f into *out: layers in ascending z, images
 * decoded. Layers whose content cannot be had (not captured, unknown
 * format) get image NULL and `missing` counts them. Pointers in *out stay
 * valid until the next call. Returns 0 or -errno (blob decoding errors: the
 * reader's error says what and where).
 */
int frame_scene_build(struct frame_scene *fs, const struct hwct_frame *f, struct scene *out,
	unsigned *missing);

/*
 * DRM fourcc of a buffer: Buffer.drm_format when recorded, else the mapping
 * of its HAL format (RGBA_8888 -> ABGR8888, ...). 0 when unknown.
 */
uint32_t frame_scene_fourcc(const Hwct__Buffer *b);

/*
 * Fills plane count, offsets and strides of img for its fourcc, width and
 * height: the packed picture (<hwct/picture.h>), which is how
 * hwct_reader_picture() hands out content of every format version. Returns
 * the bytes the layout needs, or 0 for a fourcc the replayer does not show.
 */
size_t frame_scene_layout(struct scene_image *img);

#endif
