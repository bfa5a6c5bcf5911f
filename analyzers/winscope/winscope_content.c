/* Synthesized buffer content (winscope_content.h). */
#include <inttypes.h>
#include <stdio.h>

#include <system/graphics.h>

#include "winscope_content.h"

#define GRID 64			/* pixels between grid lines */
#define GRID_MAJOR 256		/* every fourth line is thicker */

enum pattern_format ws_content_format(int32_t hal, uint32_t width, uint32_t height)
{
	switch (hal) {
	case HAL_PIXEL_FORMAT_YCBCR_420_888:
	case HAL_PIXEL_FORMAT_YCRCB_420_SP:
	case HAL_PIXEL_FORMAT_YV12:
	case HAL_PIXEL_FORMAT_YCBCR_P010:
		return width % 2 == 0 && height % 2 == 0 ? PATTERN_NV12 : PATTERN_RGBA8888;
	default:
		return PATTERN_RGBA8888;
	}
}

struct layout {
	int32_t marker;			/* corner square side */
	uint32_t scale;			/* font pixel size */
	int32_t x, y;			/* first text line */
	int32_t line;			/* text line advance */
};

static struct layout layout_of(const struct pattern_image *img)
{
	int32_t w = (int32_t)img->width, h = (int32_t)img->height;
	int32_t small = w < h ? w : h;
	struct layout l;

	l.marker = small / 10 < 4 ? 4 : small / 10 > 96 ? 96 : small / 10;
	l.scale = (uint32_t)(small / 90 < 1 ? 1 : small / 90 > 8 ? 8 : small / 90);
	l.x = l.marker + l.marker / 2;
	l.y = l.marker + (int32_t)l.scale * 2;
	l.line = 9 * (int32_t)l.scale;
	return l;
}

/* Background colour of layer id: a muted hue of its own. */
static uint32_t background(int32_t id, bool opaque)
{
	uint32_t h = pattern_hash((uint32_t)id, 0x5eed);
	uint32_t c = pattern_rgba((uint8_t)(40 + h % 120), (uint8_t)(40 + (h >> 8) % 120),
		(uint8_t)(40 + (h >> 16) % 120), opaque ? 255 : 176);

	return opaque ? c : pattern_premul(c);
}

static uint32_t ink(uint8_t v, bool opaque)
{
	return opaque ? pattern_rgba(v, v, v, 255) : pattern_premul(pattern_rgba(v, v, v, 230));
}

static struct hwct_rect frame_line(const struct pattern_image *img, const struct layout *l)
{
	struct hwct_rect r = { l->x, l->y + l->line, (int32_t)img->width - l->marker,
		l->y + l->line + 7 * (int32_t)l->scale };

	if (r.right <= r.left) {
		r.right = (int32_t)img->width;
	}
	pattern_clip(img, &r);
	return r;
}

void ws_content_set_frame(struct pattern_image *img, int32_t id, uint64_t frame, bool opaque,
	struct hwct_rect *damage)
{
	struct layout l = layout_of(img);
	struct hwct_rect r = frame_line(img, &l);
	char text[40];

	*damage = r;
	if (!img->data) {
		return;		/* a shell: nothing drawn */
	}
	snprintf(text, sizeof(text), "FRAME %" PRIu64, frame);
	pattern_fill(img, r, background(id, opaque));
	pattern_text(img, l.x, l.y + l.line, l.scale, text, ink(250, opaque));
}

struct pattern_image *ws_content_create(enum pattern_format format, uint32_t width, uint32_t height, int32_t id,
	uint64_t frame, bool opaque, bool draw)
{
	struct pattern_image *img = draw ? pattern_image_create(format, width, height) :
		pattern_image_create_shell(format, width, height);
	int32_t w = (int32_t)width, h = (int32_t)height;
	struct hwct_rect damage;
	struct layout l;
	char text[64];

	if (!img || !draw) {
		return img;
	}
	l = layout_of(img);
	pattern_fill(img, (struct hwct_rect){ 0, 0, w, h }, background(id, opaque));
	for (int32_t x = GRID; x < w; x += GRID) {
		int32_t t = x % GRID_MAJOR ? 1 : 3;

		pattern_fill(img, (struct hwct_rect){ x - t / 2, 0, x - t / 2 + t, h }, ink(200, opaque));
	}
	for (int32_t y = GRID; y < h; y += GRID) {
		int32_t t = y % GRID_MAJOR ? 1 : 3;

		pattern_fill(img, (struct hwct_rect){ 0, y - t / 2, w, y - t / 2 + t }, ink(200, opaque));
	}
	pattern_markers(img, (struct hwct_rect){ 0, 0, w, h }, l.marker);
	snprintf(text, sizeof(text), "LAYER %" PRId32 "  %" PRIu32 "X%" PRIu32, id, width, height);
	pattern_text(img, l.x, l.y, l.scale, text, ink(250, opaque));
	ws_content_set_frame(img, id, frame, opaque, &damage);
	return img;
}
