/*
 * Synthesized buffer content: a function of (layer id, frame number, size,
 * format) only, so the same buffer always hashes the same and is stored
 * once. It shows where the buffer's corners went (orientation markers), its
 * scale (a grid every 64 pixels, thicker every 256) and whose it is (the
 * layer id, size and frame number as text); flat colours compress well.
 */
#ifndef HWCT_WINSCOPE_CONTENT_H
#define HWCT_WINSCOPE_CONTENT_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/writer.h>

#include "pattern.h"

/* The pattern format that stands for HAL format `hal` (YUV formats: NV12 when w and h are even). */
enum pattern_format ws_content_format(int32_t hal, uint32_t width, uint32_t height);

/*
 * Creates the content of layer `id`'s buffer `frame`. opaque: alpha 255,
 * else the background is translucent (premultiplied). !draw: a shell with
 * no pixels (winscope_options.no_pixels). Returns NULL with errno set.
 */
struct pattern_image *ws_content_create(enum pattern_format format, uint32_t width, uint32_t height, int32_t id,
	uint64_t frame, bool opaque, bool draw);

/*
 * Redraws img (made by ws_content_create for the same id and opacity) for
 * frame `frame`: only the frame-number line changes, which *damage gets
 * (a shell is not drawn; *damage is set all the same).
 */
void ws_content_set_frame(struct pattern_image *img, int32_t id, uint64_t frame, bool opaque,
	struct hwct_rect *damage);

#endif
