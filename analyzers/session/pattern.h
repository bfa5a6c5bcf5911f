/*
 * Synthetic pixel content for scenarios: deterministic (integer arithmetic
 * only, so every machine draws the same bytes), cheap, and with visible
 * structure — gradients, text set in a 5x7 font, corner markers that show a
 * wrong crop or transform at a glance.
 *
 * RGBA8888 images hold bytes R, G, B, A per pixel; colours are given as
 * r | g << 8 | b << 16 | a << 24 (Hwct__Color.rgba), premultiplied by the
 * caller where alpha < 255 (pattern_premul). NV12 images take the same RGB
 * colours and store them as BT.709 limited-range Y and interleaved Cb/Cr.
 */
#ifndef SCENARIO_PATTERN_H
#define SCENARIO_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/writer.h>

enum pattern_format {
	PATTERN_RGBA8888,
	PATTERN_NV12,
};

struct pattern_image {
	enum pattern_format format;
	uint32_t width, height;		/* pixels */
	uint32_t stride;		/* bytes per row, both NV12 planes */
	uint32_t uv_offset;		/* NV12: byte offset of the Cb/Cr plane, else 0 */
	uint32_t bpp;			/* bytes per pixel of plane 0 */
	size_t size;			/* bytes of data */
	uint8_t *data;			/* owned */
};

/*
 * Creates a zeroed image (NV12: black). NV12 needs even width and height.
 * Returns NULL with errno set.
 */
struct pattern_image *pattern_image_create(enum pattern_format format, uint32_t width, uint32_t height);

/*
 * The same image without its pixels (data NULL): format and layout only, for
 * a session with no_pixels, which never draws, composes or stores. Returns
 * NULL with errno set.
 */
struct pattern_image *pattern_image_create_shell(enum pattern_format format, uint32_t width, uint32_t height);

/* Frees img. img may be NULL. */
void pattern_image_destroy(struct pattern_image *img);

/* r | g << 8 | b << 16 | a << 24 */
uint32_t pattern_rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a);

/* The same colour with r, g, b multiplied by a / 255. */
uint32_t pattern_premul(uint32_t rgba);

/* Clips r to the image. Returns false when nothing is left. */
bool pattern_clip(const struct pattern_image *img, struct hwct_rect *r);

/* Sets pixel (x, y), which must be inside the image (NV12: the 2x2 chroma from even x and y). */
void pattern_put(struct pattern_image *img, int32_t x, int32_t y, uint32_t rgba);

/* Fills a rect (clipped) with one colour. */
void pattern_fill(struct pattern_image *img, struct hwct_rect r, uint32_t rgba);

/*
 * A linear gradient over rect from c0 to c1 (each channel, alpha too):
 * horizontal when vertical is false, else top to bottom.
 */
void pattern_gradient(struct pattern_image *img, struct hwct_rect r, uint32_t c0, uint32_t c1, bool vertical);

/* A filled disc of radius rad (pixels) centred at (cx, cy), clipped. */
void pattern_disc(struct pattern_image *img, int32_t cx, int32_t cy, int32_t rad, uint32_t rgba);

/*
 * Draws text in the 5x7 font, each font pixel scale x scale, glyphs 6 font
 * pixels apart, from (x, y) (top-left). Knows ' ', '%', '-', '.', '/', '0'-'9',
 * ':', '<', '>' and 'A'-'Z' (lower case drawn as upper); others draw as a box.
 * Returns the x after the last glyph.
 */
int32_t pattern_text(struct pattern_image *img, int32_t x, int32_t y, uint32_t scale, const char *text,
	uint32_t rgba);

/*
 * Text-like filler: pseudo-random words of capitals from seed, set from
 * (x, y) and cut at x + width. Same seed, same words.
 */
void pattern_words(struct pattern_image *img, int32_t x, int32_t y, int32_t width, uint32_t scale,
	uint32_t seed, uint32_t rgba);

/*
 * Orientation markers inside rect: a size x size square in each corner
 * (top-left red, top-right green, bottom-left blue, bottom-right white) and
 * an 'F' beside the top-left one. The four corners tell all eight
 * transforms apart; a crop shows as a missing marker.
 */
void pattern_markers(struct pattern_image *img, struct hwct_rect r, int32_t size);

/* Reads pixel (x, y) as straight RGBA (NV12 converted back to RGB, alpha 255). */
uint32_t pattern_get(const struct pattern_image *img, int32_t x, int32_t y);

/* The 5x7 glyph of c: 7 rows, bit 4 leftmost; NULL when the font lacks it (font.c). */
const uint8_t *pattern_glyph(char c);

/* A deterministic 32-bit hash of two values (for pseudo-random choices). */
uint32_t pattern_hash(uint32_t a, uint32_t b);

#endif
