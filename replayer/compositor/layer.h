/*
 * What every compositor derives from a scene_layer the same way: the
 * display-to-buffer mapping (crop, transform, frame), the clipped rectangle
 * to draw, the quantised plane alpha, the blend mode and the solid colour.
 * Written once so that the implementations cannot disagree.
 */
#ifndef HWCT_COMP_LAYER_H
#define HWCT_COMP_LAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "scene.h"

/* A 3x3 matrix m[row][col] applied to column vectors (x, y, 1). */
struct comp_matrix {
	double m[3][3];
};

/*
 * The affine map from display coordinates to buffer coordinates of the
 * layer (continuous coordinates: pixel (x, y) has its centre at x + 0.5,
 * y + 0.5 on both sides), as the 3x3 matrix m[row][col] applied to
 * (x, y, 1); the last row is 0 0 1. It is the inverse of what
 * SurfaceFlinger does: take crop (buffer pixels), flip it (FLIP_H, FLIP_V),
 * rotate it 90 degrees clockwise (ROT_90) and scale it onto frame. crop and
 * frame must be non-empty.
 */
void comp_layer_matrix(const struct hwct_frect *crop, const struct hwct_rect *frame,
	int32_t transform, struct comp_matrix *out);

/* Applies m to (x, y). */
void comp_matrix_apply(const struct comp_matrix *m, double x, double y, double *out_x,
	double *out_y);

/*
 * The part of frame inside a width x height target. Returns false (out
 * undefined) when nothing of it is inside.
 */
bool comp_frame_clip(const struct hwct_rect *frame, uint32_t width, uint32_t height,
	struct hwct_rect *out);

/* The plane alpha as 0..255 (clamped, rounded); NaN gives 255. */
uint8_t comp_layer_alpha8(const struct scene_layer *l);

/* HWC2_BLEND_MODE_NONE, PREMULTIPLIED or COVERAGE (INVALID gives NONE). */
int32_t comp_layer_blend(const struct scene_layer *l);

/* Whether the layer is drawn from its colour rather than an image. */
bool comp_layer_is_solid(const struct scene_layer *l);

/*
 * The solid colour as a premultiplied source pixel, r | g << 8 | b << 16 |
 * a << 24, before plane alpha: straight colours are premultiplied for
 * COVERAGE, alpha is set to 255 for NONE.
 */
uint32_t comp_layer_solid_premultiplied(const struct scene_layer *l);

/* x * a / 255, rounded to nearest (exact for 8-bit x and a). */
static inline uint8_t comp_mul8(uint32_t x, uint32_t a)
{
	uint32_t t = x * a + 128;

	return (uint8_t)((t + (t >> 8)) >> 8);
}

#endif
