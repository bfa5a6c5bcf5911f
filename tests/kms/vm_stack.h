/*
 * Layer stacks the device tests show, as tables: the KMS backend cases
 * (vm_backend.c), the HWC2 client (tests/hwc2) and the KMS benchmark
 * (tests/bench/bench_kms.c) build the same stacks from them, each in its
 * own buffers, with the same deterministic pixels. Also the image
 * comparison every one of them reports with.
 */
#ifndef HWCT_TESTS_KMS_VM_STACK_H
#define HWCT_TESTS_KMS_VM_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compositor.h"
#include "scene.h"

#define VS_WIDTH 256		/* the display every stack is made for */
#define VS_HEIGHT 192
#define VS_MAX_LAYERS 8

/* One layer: its buffer (made by vs_fill) and how it is shown. */
struct vs_layer {
	uint32_t fourcc;		/* DRM_FORMAT_XRGB8888, ARGB8888, ABGR8888 or NV12 */
	uint32_t width, height;		/* buffer, pixels */
	uint32_t seed;			/* pixel pattern */
	bool translucent;		/* alpha varies (premultiplied); else every pixel is opaque */
	struct hwct_rect frame;		/* display frame */
	int32_t transform;		/* HAL_TRANSFORM_* */
	int32_t blend;			/* HWC2_BLEND_MODE_* */
	float alpha;			/* plane alpha */
	int32_t composition;		/* HWC2_COMPOSITION_* asked for */
	uint32_t color;			/* SOLID_COLOR */
};

struct vs_stack {
	const char *name;
	const char *about;		/* one line: what it shows */
	size_t count;
	struct vs_layer layers[VS_MAX_LAYERS];
};

/* The stacks, NULL-terminated; and one by name (NULL: unknown). */
extern const struct vs_stack *const vs_stacks[];
const struct vs_stack *vs_stack_find(const char *name);

/* Bytes per row and rows per plane of l's buffer, packed (stride = row bytes + pad). */
void vs_layout(const struct vs_layer *l, uint32_t pad, uint32_t stride[2], uint32_t offset[2],
	size_t *size);

/*
 * Writes l's pixels (premultiplied; opaque unless translucent; 0x5a in X
 * bytes; NV12 as BT.601 limited-range values) into data laid out as
 * stride/offset say. frame varies the pattern (animations): 0 is the
 * base picture.
 */
void vs_fill(const struct vs_layer *l, uint32_t frame, uint8_t *data, const uint32_t stride[2],
	const uint32_t offset[2]);

/* A CPU image of l: malloc'd pixels (free img->data) with a padded stride and its hash. */
bool vs_image_make(const struct vs_layer *l, uint32_t frame, struct scene_image *img);

/* The scene_layer that shows l with img (borrowed); z = index. */
struct scene_layer vs_scene_layer(const struct vs_layer *l, size_t index,
	const struct scene_image *img, int acquire_fence);

/*
 * The reference: the whole scene composed by the pixman compositor onto
 * opaque black, XRGB8888 width x height, packed (free out->data).
 * Returns 0 or -errno.
 */
int vs_reference(const struct scene *scene, struct comp_target *out);

/* How two 32-bit frames differ, over R, G and B (the 4th byte is ignored). */
struct vs_diff {
	unsigned max;			/* largest channel difference */
	double over1;			/* fraction of pixels with a channel differing by more than 1 */
	double any;			/* fraction of pixels differing at all */
	uint32_t x, y;			/* the first pixel with the largest difference */
};

/* Compares a and b (same size; fourcc XRGB8888 or ARGB8888 both). */
struct vs_diff vs_compare(const struct comp_target *a, const struct comp_target *b);

#endif
