/* Per-layer geometry and colour, shared by the compositors (layer.h). */
#include <math.h>

#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "layer.h"

void comp_layer_matrix(const struct hwct_frect *crop, const struct hwct_rect *frame,
	int32_t transform, struct comp_matrix *out)
{
	double (*m)[3] = out->m;
	double fl = frame->left, ft = frame->top;
	double fw = (double)frame->right - fl, fh = (double)frame->bottom - ft;
	double cl = crop->left, ct = crop->top;
	double cw = (double)crop->right - cl, ch = (double)crop->bottom - ct;

	/*
	 * Frame-normalised (u, v) = ((x - fl) / fw, (y - ft) / fh), as the
	 * affine rows u = a[0] . (x, y, 1), v = a[1] . (x, y, 1).
	 */
	double u[3] = { 1.0 / fw, 0.0, -fl / fw };
	double v[3] = { 0.0, 1.0 / fh, -ft / fh };
	double s[3], t[3];

	/*
	 * Undo the rotation: 90 degrees clockwise took crop-normalised
	 * (s1, t1) to (u, v) = (1 - t1, s1), so s1 = v and t1 = 1 - u.
	 */
	for (int i = 0; i < 3; i++) {
		if (transform & HAL_TRANSFORM_ROT_90) {
			s[i] = v[i];
			t[i] = -u[i];
		} else {
			s[i] = u[i];
			t[i] = v[i];
		}
	}
	if (transform & HAL_TRANSFORM_ROT_90) {
		t[2] += 1.0;
	}
	/* Undo the flips, which came first: s = 1 - s1, t = 1 - t1. */
	if (transform & HAL_TRANSFORM_FLIP_H) {
		for (int i = 0; i < 3; i++) {
			s[i] = -s[i];
		}
		s[2] += 1.0;
	}
	if (transform & HAL_TRANSFORM_FLIP_V) {
		for (int i = 0; i < 3; i++) {
			t[i] = -t[i];
		}
		t[2] += 1.0;
	}
	/* Buffer coordinates: (cl + s * cw, ct + t * ch). */
	for (int i = 0; i < 3; i++) {
		m[0][i] = s[i] * cw;
		m[1][i] = t[i] * ch;
		m[2][i] = 0.0;
	}
	m[0][2] += cl;
	m[1][2] += ct;
	m[2][2] = 1.0;
}

void comp_matrix_apply(const struct comp_matrix *m, double x, double y, double *out_x,
	double *out_y)
{
	*out_x = m->m[0][0] * x + m->m[0][1] * y + m->m[0][2];
	*out_y = m->m[1][0] * x + m->m[1][1] * y + m->m[1][2];
}

bool comp_frame_clip(const struct hwct_rect *frame, uint32_t width, uint32_t height,
	struct hwct_rect *out)
{
	int64_t l = frame->left > 0 ? frame->left : 0;
	int64_t t = frame->top > 0 ? frame->top : 0;
	int64_t r = frame->right < (int64_t)width ? frame->right : (int64_t)width;
	int64_t b = frame->bottom < (int64_t)height ? frame->bottom : (int64_t)height;

	if (l >= r || t >= b) {
		return false;
	}
	out->left = (int32_t)l;
	out->top = (int32_t)t;
	out->right = (int32_t)r;
	out->bottom = (int32_t)b;
	return true;
}

uint8_t comp_layer_alpha8(const struct scene_layer *l)
{
	float a = l->alpha;

	if (!(a < 1.0f)) {		/* also NaN */
		return 255;
	}
	if (a <= 0.0f) {
		return 0;
	}
	return (uint8_t)lrintf(a * 255.0f);
}

int32_t comp_layer_blend(const struct scene_layer *l)
{
	if (l->blend == HWC2_BLEND_MODE_PREMULTIPLIED || l->blend == HWC2_BLEND_MODE_COVERAGE) {
		return l->blend;
	}
	return HWC2_BLEND_MODE_NONE;
}

bool comp_layer_is_solid(const struct scene_layer *l)
{
	return l->composition == HWC2_COMPOSITION_SOLID_COLOR;
}

uint32_t comp_layer_solid_premultiplied(const struct scene_layer *l)
{
	uint32_t r = l->color & 0xff, g = (l->color >> 8) & 0xff;
	uint32_t b = (l->color >> 16) & 0xff, a = l->color >> 24;

	switch (comp_layer_blend(l)) {
	case HWC2_BLEND_MODE_COVERAGE:
		r = comp_mul8(r, a);
		g = comp_mul8(g, a);
		b = comp_mul8(b, a);
		break;
	case HWC2_BLEND_MODE_PREMULTIPLIED:
		break;
	default:
		a = 255;
		break;
	}
	return r | g << 8 | b << 16 | a << 24;
}
