/* The client-target compositor of the scenarios (compose.h). */
#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "compose.h"

static uint32_t ch(uint32_t c, unsigned i)
{
	return (c >> (8 * i)) & 0xff;
}

/* (x, y) of the display frame -> pixel of the source crop, undoing the transform. */
static void source_pixel(const struct compose_layer *l, int32_t dx, int32_t dy, int32_t *sx, int32_t *sy)
{
	int32_t w = l->display_frame.right - l->display_frame.left;
	int32_t h = l->display_frame.bottom - l->display_frame.top;
	int32_t u = dx - l->display_frame.left, v = dy - l->display_frame.top;
	int32_t cl = (int32_t)l->source_crop.left, ct = (int32_t)l->source_crop.top;
	int32_t cw = (int32_t)l->source_crop.right - cl, chh = (int32_t)l->source_crop.bottom - ct;
	int32_t x = u, y = v, pw = w, ph = h;

	/* HAL transforms flip first, then rotate 90 degrees clockwise */
	if (l->transform & HAL_TRANSFORM_ROT_90) {
		pw = h;
		ph = w;
		x = v;
		y = w - 1 - u;
	}
	if (l->transform & HAL_TRANSFORM_FLIP_H) {
		x = pw - 1 - x;
	}
	if (l->transform & HAL_TRANSFORM_FLIP_V) {
		y = ph - 1 - y;
	}
	*sx = cl + (int32_t)(((int64_t)2 * x + 1) * cw / (2 * (int64_t)pw));
	*sy = ct + (int32_t)(((int64_t)2 * y + 1) * chh / (2 * (int64_t)ph));
}

/* One layer pixel as premultiplied RGBA after blend mode and plane alpha. */
static uint32_t layer_pixel(const struct compose_layer *l, int32_t dx, int32_t dy, uint32_t pa)
{
	uint32_t c, a, out = 0;
	bool premultiplied = l->blend == HWC2_BLEND_MODE_PREMULTIPLIED;

	if (l->image) {
		int32_t sx, sy;

		source_pixel(l, dx, dy, &sx, &sy);
		if (sx < 0 || sy < 0 || sx >= (int32_t)l->image->width || sy >= (int32_t)l->image->height) {
			return 0;
		}
		c = pattern_get(l->image, sx, sy);
	} else {
		c = l->color;
		premultiplied = false;
	}
	a = l->blend == HWC2_BLEND_MODE_NONE ? 255 : ch(c, 3);
	for (unsigned i = 0; i < 3; i++) {
		uint32_t v = premultiplied ? ch(c, i) : (ch(c, i) * a + 127) / 255;

		out |= ((v * pa + 127) / 255) << (8 * i);
	}
	return out | ((a * pa + 127) / 255) << 24;
}

void compose_layers(struct pattern_image *target, const struct compose_layer *layers, size_t count,
	struct hwct_rect clip)
{
	if (target->format != PATTERN_RGBA8888 || !pattern_clip(target, &clip)) {
		return;
	}
	pattern_fill(target, clip, 0);
	for (size_t i = 0; i < count; i++) {
		const struct compose_layer *l = &layers[i];
		struct hwct_rect r = l->display_frame;
		float alpha = l->plane_alpha < 0.0f ? 0.0f : l->plane_alpha > 1.0f ? 1.0f : l->plane_alpha;
		uint32_t pa = (uint32_t)(alpha * 255.0f + 0.5f);

		if (r.left < clip.left) {
			r.left = clip.left;
		}
		if (r.top < clip.top) {
			r.top = clip.top;
		}
		if (r.right > clip.right) {
			r.right = clip.right;
		}
		if (r.bottom > clip.bottom) {
			r.bottom = clip.bottom;
		}
		for (int32_t y = r.top; y < r.bottom; y++) {
			uint8_t *p = target->data + (size_t)y * target->stride + (size_t)r.left * 4;

			for (int32_t x = r.left; x < r.right; x++, p += 4) {
				uint32_t s = layer_pixel(l, x, y, pa), inv = 255 - ch(s, 3);

				for (unsigned k = 0; k < 4; k++) {
					p[k] = (uint8_t)(ch(s, k) + (p[k] * inv + 127) / 255);
				}
			}
		}
	}
}

struct hwct_rect compose_map_rect(const struct compose_layer *l, struct hwct_rect src)
{
	struct hwct_rect df = l->display_frame, out;
	int64_t cl = (int64_t)l->source_crop.left, ct = (int64_t)l->source_crop.top;
	int64_t cw = (int64_t)l->source_crop.right - cl, chh = (int64_t)l->source_crop.bottom - ct;
	int64_t w = df.right - df.left, h = df.bottom - df.top;
	int32_t margin;

	if (l->transform || !l->image || cw <= 0 || chh <= 0) {
		return df;
	}
	/* outward rounding, a pixel more when scaled: every display pixel whose sample may fall in src */
	margin = w != cw || h != chh;
	out.left = df.left + (int32_t)(((src.left - cl) * w) / cw) - margin;
	out.top = df.top + (int32_t)(((src.top - ct) * h) / chh) - margin;
	out.right = df.left + (int32_t)(((src.right - cl) * w + cw - 1) / cw) + margin;
	out.bottom = df.top + (int32_t)(((src.bottom - ct) * h + chh - 1) / chh) + margin;
	if (out.left < df.left) {
		out.left = df.left;
	}
	if (out.top < df.top) {
		out.top = df.top;
	}
	if (out.right > df.right) {
		out.right = df.right;
	}
	if (out.bottom > df.bottom) {
		out.bottom = df.bottom;
	}
	return out;
}
