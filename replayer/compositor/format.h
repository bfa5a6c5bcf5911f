/*
 * The pixel formats the compositors read and write, and the checks that
 * keep them from reading or writing outside a buffer. DRM formats are
 * little-endian: a uint32_t ARGB8888 pixel is a << 24 | r << 16 | g << 8 | b
 * on the (little-endian) hosts hwctrace supports.
 */
#ifndef HWCT_COMP_FORMAT_H
#define HWCT_COMP_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "compositor.h"
#include "scene.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the compositors read DRM formats as little-endian words"
#endif

struct comp_format {
	uint32_t fourcc;		/* DRM_FORMAT_* */
	uint32_t planes;		/* 1, or 2 for NV12 and P010/P012/P016 (Y, then CbCr) */
	uint32_t cpp;			/* bytes per pixel of plane 0 */
	bool alpha;			/* has an alpha channel (else X or none) */
	bool rgba_order;		/* 32-bit with bytes R, G, B, A/X in memory */
};

/* The source format fourcc, or NULL when the compositors cannot read it. */
const struct comp_format *comp_format_get(uint32_t fourcc);

/*
 * Whether the image can be read as its format: size, planes, strides and
 * offsets inside size. Returns 0 or -EINVAL.
 */
int comp_image_check(const struct scene_image *img);

/* Whether the target is one compositor_compose accepts. Returns 0 or -EINVAL. */
int comp_target_check(const struct comp_target *t);

/*
 * The background r | g << 8 | b << 16 | a << 24 as one pixel of the target
 * format (alpha 255 for X formats).
 */
uint32_t comp_target_pixel(uint32_t fourcc, uint32_t rgba);

/* Fills the target with comp_target_pixel(background). */
void comp_target_clear(struct comp_target *t, uint32_t background_rgba);

/*
 * Premultiplies count 32-bit pixels with alpha in the top byte (ARGB8888 or
 * ABGR8888, in either byte order's word), from src to dst (may be equal).
 */
void comp_premultiply_row(uint32_t *dst, const uint32_t *src, uint32_t count);

#endif
