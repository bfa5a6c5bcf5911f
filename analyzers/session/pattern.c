/* Synthetic pixel content (pattern.h). Integer arithmetic only. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"

struct pattern_image *pattern_image_create_shell(enum pattern_format format, uint32_t width, uint32_t height)
{
	struct pattern_image *img;

	if (!width || !height || width > 16384 || height > 16384 ||
		(format == PATTERN_NV12 && (width % 2 || height % 2))) {
		errno = EINVAL;
		return NULL;
	}
	img = calloc(1, sizeof(*img));
	if (!img) {
		return NULL;
	}
	img->format = format;
	img->width = width;
	img->height = height;
	if (format == PATTERN_NV12) {
		img->bpp = 1;
		img->stride = width;
		img->uv_offset = width * height;
		img->size = (size_t)width * height * 3 / 2;
	} else {
		img->bpp = 4;
		img->stride = width * 4;
		img->size = (size_t)width * height * 4;
	}
	return img;
}

struct pattern_image *pattern_image_create(enum pattern_format format, uint32_t width, uint32_t height)
{
	struct pattern_image *img = pattern_image_create_shell(format, width, height);

	if (!img) {
		return NULL;
	}
	img->data = calloc(1, img->size);
	if (!img->data) {
		free(img);
		return NULL;
	}
	if (format == PATTERN_NV12) {
		memset(img->data, 16, img->uv_offset);
		memset(img->data + img->uv_offset, 128, img->size - img->uv_offset);
	}
	return img;
}

void pattern_image_destroy(struct pattern_image *img)
{
	if (!img) {
		return;
	}
	free(img->data);
	free(img);
}

uint32_t pattern_rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
	return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | (uint32_t)a << 24;
}

static uint8_t channel(uint32_t rgba, unsigned i)
{
	return (uint8_t)(rgba >> (8 * i));
}

uint32_t pattern_premul(uint32_t rgba)
{
	uint32_t a = channel(rgba, 3);

	return pattern_rgba((uint8_t)((channel(rgba, 0) * a + 127) / 255),
		(uint8_t)((channel(rgba, 1) * a + 127) / 255),
		(uint8_t)((channel(rgba, 2) * a + 127) / 255), (uint8_t)a);
}

uint32_t pattern_hash(uint32_t a, uint32_t b)
{
	uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;

	h ^= h >> 15;
	h *= 0x2C1B3C6Du;
	h ^= h >> 12;
	h *= 0x297A2D39u;
	h ^= h >> 15;
	return h;
}

bool pattern_clip(const struct pattern_image *img, struct hwct_rect *r)
{
	if (r->left < 0) {
		r->left = 0;
	}
	if (r->top < 0) {
		r->top = 0;
	}
	if (r->right > (int32_t)img->width) {
		r->right = (int32_t)img->width;
	}
	if (r->bottom > (int32_t)img->height) {
		r->bottom = (int32_t)img->height;
	}
	return r->left < r->right && r->top < r->bottom;
}

/* BT.709 limited range, 8-bit fixed point. */
static uint8_t rgb_y(uint32_t c)
{
	return (uint8_t)((16 * 256 + 128 + 47 * channel(c, 0) + 157 * channel(c, 1) + 16 * channel(c, 2)) >> 8);
}

static uint8_t rgb_cb(uint32_t c)
{
	return (uint8_t)((128 * 256 + 128 - 26 * channel(c, 0) - 87 * channel(c, 1) + 112 * channel(c, 2)) >> 8);
}

static uint8_t rgb_cr(uint32_t c)
{
	return (uint8_t)((128 * 256 + 128 + 112 * channel(c, 0) - 102 * channel(c, 1) - 10 * channel(c, 2)) >> 8);
}

static uint8_t clamp8(int32_t v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

void pattern_put(struct pattern_image *img, int32_t x, int32_t y, uint32_t rgba)
{
	if (img->format == PATTERN_RGBA8888) {
		uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 4;

		p[0] = channel(rgba, 0);
		p[1] = channel(rgba, 1);
		p[2] = channel(rgba, 2);
		p[3] = channel(rgba, 3);
		return;
	}
	img->data[(size_t)y * img->stride + (size_t)x] = rgb_y(rgba);
	if (x % 2 == 0 && y % 2 == 0) {
		uint8_t *uv = img->data + img->uv_offset + (size_t)(y / 2) * img->stride + (size_t)x;

		uv[0] = rgb_cb(rgba);
		uv[1] = rgb_cr(rgba);
	}
}

void pattern_fill(struct pattern_image *img, struct hwct_rect r, uint32_t rgba)
{
	if (!pattern_clip(img, &r)) {
		return;
	}
	if (img->format == PATTERN_RGBA8888) {
		const uint8_t px[4] = { channel(rgba, 0), channel(rgba, 1), channel(rgba, 2), channel(rgba, 3) };

		for (int32_t y = r.top; y < r.bottom; y++) {
			uint8_t *p = img->data + (size_t)y * img->stride + (size_t)r.left * 4;

			for (int32_t x = r.left; x < r.right; x++, p += 4) {
				memcpy(p, px, 4);
			}
		}
		return;
	}
	for (int32_t y = r.top; y < r.bottom; y++) {
		memset(img->data + (size_t)y * img->stride + (size_t)r.left, rgb_y(rgba), (size_t)(r.right - r.left));
	}
	/* every chroma sample whose 2x2 block the rect touches */
	for (int32_t y = r.top / 2; y < (r.bottom + 1) / 2; y++) {
		uint8_t *uv = img->data + img->uv_offset + (size_t)y * img->stride;

		for (int32_t x = r.left / 2; x < (r.right + 1) / 2; x++) {
			uv[2 * x] = rgb_cb(rgba);
			uv[2 * x + 1] = rgb_cr(rgba);
		}
	}
}

static uint32_t mix(uint32_t c0, uint32_t c1, int32_t num, int32_t den)
{
	uint32_t out = 0;

	for (unsigned i = 0; i < 4; i++) {
		int32_t a = channel(c0, i), b = channel(c1, i);

		out |= (uint32_t)(uint8_t)(a + (b - a) * num / den) << (8 * i);
	}
	return out;
}

void pattern_gradient(struct pattern_image *img, struct hwct_rect r, uint32_t c0, uint32_t c1, bool vertical)
{
	struct hwct_rect full = r;
	int32_t den = vertical ? full.bottom - full.top : full.right - full.left;

	if (!pattern_clip(img, &r) || den <= 0) {
		return;
	}
	for (int32_t y = r.top; y < r.bottom; y++) {
		for (int32_t x = r.left; x < r.right; x++) {
			int32_t num = vertical ? y - full.top : x - full.left;

			pattern_put(img, x, y, mix(c0, c1, num, den));
		}
	}
}

void pattern_disc(struct pattern_image *img, int32_t cx, int32_t cy, int32_t rad, uint32_t rgba)
{
	struct hwct_rect r = { cx - rad, cy - rad, cx + rad + 1, cy + rad + 1 };

	if (!pattern_clip(img, &r)) {
		return;
	}
	for (int32_t y = r.top; y < r.bottom; y++) {
		for (int32_t x = r.left; x < r.right; x++) {
			if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad) {
				pattern_put(img, x, y, rgba);
			}
		}
	}
}

static int32_t glyph(struct pattern_image *img, int32_t x, int32_t y, uint32_t scale, char c, uint32_t rgba)
{
	static const uint8_t box[7] = { 0x1f, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1f };
	const uint8_t *rows = pattern_glyph(c);
	int32_t s = (int32_t)scale;

	rows = rows ? rows : box;
	for (int32_t row = 0; row < 7; row++) {
		for (int32_t col = 0; col < 5; col++) {
			if (rows[row] & (0x10 >> col)) {
				pattern_fill(img, (struct hwct_rect){ x + col * s, y + row * s, x + (col + 1) * s,
					y + (row + 1) * s }, rgba);
			}
		}
	}
	return x + 6 * s;
}

int32_t pattern_text(struct pattern_image *img, int32_t x, int32_t y, uint32_t scale, const char *text,
	uint32_t rgba)
{
	for (const char *p = text; *p; p++) {
		x = glyph(img, x, y, scale, *p, rgba);
	}
	return x;
}

void pattern_words(struct pattern_image *img, int32_t x, int32_t y, int32_t width, uint32_t scale,
	uint32_t seed, uint32_t rgba)
{
	int32_t end = x + width, advance = 6 * (int32_t)scale;

	for (uint32_t word = 0; x + advance <= end; word++) {
		uint32_t h = pattern_hash(seed, word);
		uint32_t letters = 2 + h % 8;

		for (uint32_t i = 0; i < letters && x + advance <= end; i++) {
			x = glyph(img, x, y, scale, (char)('A' + pattern_hash(h, i) % 26), rgba);
		}
		x += advance;	/* the space */
	}
}

void pattern_markers(struct pattern_image *img, struct hwct_rect r, int32_t size)
{
	int32_t s = size;

	pattern_fill(img, (struct hwct_rect){ r.left, r.top, r.left + s, r.top + s }, pattern_rgba(230, 30, 30, 255));
	pattern_fill(img, (struct hwct_rect){ r.right - s, r.top, r.right, r.top + s },
		pattern_rgba(30, 200, 60, 255));
	pattern_fill(img, (struct hwct_rect){ r.left, r.bottom - s, r.left + s, r.bottom },
		pattern_rgba(40, 70, 230, 255));
	pattern_fill(img, (struct hwct_rect){ r.right - s, r.bottom - s, r.right, r.bottom },
		pattern_rgba(255, 255, 255, 255));
	glyph(img, r.left + s + s / 4, r.top, (uint32_t)(s / 7 > 0 ? s / 7 : 1), 'F', pattern_rgba(255, 220, 0, 255));
}

uint32_t pattern_get(const struct pattern_image *img, int32_t x, int32_t y)
{
	const uint8_t *p;
	int32_t luma, cb, cr;

	if (img->format == PATTERN_RGBA8888) {
		p = img->data + (size_t)y * img->stride + (size_t)x * 4;
		return pattern_rgba(p[0], p[1], p[2], p[3]);
	}
	p = img->data + img->uv_offset + (size_t)(y / 2) * img->stride + (size_t)(x & ~1);
	luma = 298 * (img->data[(size_t)y * img->stride + (size_t)x] - 16);
	cb = p[0] - 128;
	cr = p[1] - 128;
	return pattern_rgba(clamp8((luma + 459 * cr + 128) >> 8), clamp8((luma - 55 * cb - 136 * cr + 128) >> 8),
		clamp8((luma + 541 * cb + 128) >> 8), 255);
}
