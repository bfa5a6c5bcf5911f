/*
 * A small CPU compositor for the scenarios' client target: what the client
 * (SurfaceFlinger's RenderEngine) would have drawn for the CLIENT layers.
 * Nearest-neighbour sampling, 8-bit integer blending, deterministic.
 */
#ifndef SCENARIO_COMPOSE_H
#define SCENARIO_COMPOSE_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/frame.h>

#include "pattern.h"

struct compose_layer {
	const struct pattern_image *image;	/* NULL: a solid colour layer */
	uint32_t color;				/* solid colour, straight r | g << 8 | b << 16 | a << 24 */
	struct hwct_rect display_frame;
	struct hwct_frect source_crop;		/* in image pixels */
	int32_t transform;			/* HAL_TRANSFORM_* */
	int32_t blend;				/* HWC2_BLEND_MODE_* */
	float plane_alpha;			/* 0..1 */
};

/*
 * Draws layers (bottom first) into target, an RGBA8888 image holding
 * premultiplied pixels, inside clip only; the clip is cleared to transparent
 * black first.
 */
void compose_layers(struct pattern_image *target, const struct compose_layer *layers, size_t count,
	struct hwct_rect clip);

/*
 * The rect of the display that src (a rect of the layer's image) lands on,
 * clipped to the display frame; the whole display frame when the mapping is
 * not a plain scale (a transform).
 */
struct hwct_rect compose_map_rect(const struct compose_layer *layer, struct hwct_rect src);

#endif
