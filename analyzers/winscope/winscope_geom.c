/*
 * Layer placement (winscope_geom.h). SurfaceFlinger's OutputLayer computes
 * the composer's display frame as the layer's bounds mapped to the display
 * and clipped to the viewport, and its source crop as that frame mapped
 * back through the layer and buffer transforms into buffer pixels; this does
 * the same from the bounds the trace recorded.
 */
#include <math.h>
#include <string.h>

#include <system/graphics.h>

#include "winscope_geom.h"

#define TYPE_SCALE 0x4u		/* ui::Transform::SCALE */
#define TYPE_UNKNOWN 0x8u	/* ui::Transform::UNKNOWN (any other matrix) */
#define ORIENT_INVALID 0x80u	/* ui::Transform::ROT_INVALID */
#define EPSILON 1e-6

static const struct ws_matrix identity = { .a = 1, .d = 1 };

static bool box_empty(struct ws_box b)
{
	return !(b.left < b.right && b.top < b.bottom);
}

static struct ws_box box_of(const Winscope__FloatRectProto *r)
{
	return (struct ws_box){ r->left, r->top, r->right, r->bottom };
}

static struct ws_box intersect(struct ws_box a, struct ws_box b)
{
	return (struct ws_box){ fmax(a.left, b.left), fmax(a.top, b.top), fmin(a.right, b.right),
		fmin(a.bottom, b.bottom) };
}

/* The bounding box of b's corners mapped by m. */
static struct ws_box map_box(const struct ws_matrix *m, struct ws_box b)
{
	const double xs[2] = { b.left, b.right }, ys[2] = { b.top, b.bottom };
	struct ws_box out = { INFINITY, INFINITY, -INFINITY, -INFINITY };

	for (unsigned i = 0; i < 4; i++) {
		double x = xs[i & 1], y = ys[i >> 1];
		double u = m->a * x + m->c * y + m->tx, v = m->b * x + m->d * y + m->ty;

		out.left = fmin(out.left, u);
		out.top = fmin(out.top, v);
		out.right = fmax(out.right, u);
		out.bottom = fmax(out.bottom, v);
	}
	return out;
}

static bool invert(const struct ws_matrix *m, struct ws_matrix *out)
{
	double det = m->a * m->d - m->b * m->c;

	if (!(fabs(det) > EPSILON) || !isfinite(det)) {
		return false;
	}
	out->a = m->d / det;
	out->b = -m->b / det;
	out->c = -m->c / det;
	out->d = m->a / det;
	out->tx = -(out->a * m->tx + out->c * m->ty);
	out->ty = -(out->b * m->tx + out->d * m->ty);
	return true;
}

/* m then n: n(m(p)), linear parts only. */
static struct ws_matrix multiply(const struct ws_matrix *n, const struct ws_matrix *m)
{
	return (struct ws_matrix){
		.a = n->a * m->a + n->c * m->b,
		.b = n->b * m->a + n->d * m->b,
		.c = n->a * m->c + n->c * m->d,
		.d = n->b * m->c + n->d * m->d,
	};
}

/* HAL transforms flip first (H, then V), then rotate 90 degrees clockwise. */
static struct ws_matrix orientation_matrix(uint32_t hal)
{
	double fh = (hal & HAL_TRANSFORM_FLIP_H) ? -1 : 1, fv = (hal & HAL_TRANSFORM_FLIP_V) ? -1 : 1;

	if (hal & HAL_TRANSFORM_ROT_90) {
		return (struct ws_matrix){ .a = 0, .b = fh, .c = -fv, .d = 0 };
	}
	return (struct ws_matrix){ .a = fh, .d = fv };
}

static bool zero(double v)
{
	return fabs(v) < EPSILON;
}

/* The HAL transform m is a multiple of, or -1 when it is no flip/90-degree rotation. */
static int32_t orientation_of(const struct ws_matrix *m)
{
	if (zero(m->b) && zero(m->c) && !zero(m->a) && !zero(m->d)) {
		return (m->a < 0 ? HAL_TRANSFORM_FLIP_H : 0) | (m->d < 0 ? HAL_TRANSFORM_FLIP_V : 0);
	}
	if (zero(m->a) && zero(m->d) && !zero(m->b) && !zero(m->c)) {
		return HAL_TRANSFORM_ROT_90 | (m->b < 0 ? HAL_TRANSFORM_FLIP_H : 0) |
			(m->c > 0 ? HAL_TRANSFORM_FLIP_V : 0);
	}
	return -1;
}

/*
 * The linear part of a TransformProto: its floats when its type says they
 * were written (or, in old traces without type, when they are set), else
 * the orientation in bits 8..15 of type.
 */
static struct ws_matrix linear_of(const Winscope__TransformProto *t)
{
	struct ws_matrix m;
	bool floats;

	if (!t) {
		return identity;
	}
	m = (struct ws_matrix){ .a = t->dsdx, .b = t->dtdx, .c = t->dsdy, .d = t->dtdy };
	floats = t->has_type ? (t->type & (TYPE_SCALE | TYPE_UNKNOWN)) != 0 :
		!(zero(m.a) && zero(m.b) && zero(m.c) && zero(m.d));
	if (floats) {
		return m;
	}
	if (t->has_type && !(((uint32_t)t->type >> 8) & ORIENT_INVALID)) {
		return orientation_matrix(((uint32_t)t->type >> 8) & 7u);
	}
	return identity;
}

/* Layer space to display space: the transform's linear part, its translation from the bounds. */
static struct ws_matrix layer_matrix(const Winscope__LayerProto *l)
{
	struct ws_matrix m = linear_of(l->transform);

	if (l->screen_bounds && l->bounds && !box_empty(box_of(l->bounds))) {
		struct ws_box mapped = map_box(&m, box_of(l->bounds));

		m.tx = l->screen_bounds->left - mapped.left;
		m.ty = l->screen_bounds->top - mapped.top;
	} else if (l->position) {
		m.tx = l->position->x;
		m.ty = l->position->y;
	}
	return m;
}

bool ws_axis_aligned(const Winscope__LayerProto *l)
{
	struct ws_matrix m = layer_matrix(l);

	return orientation_of(&m) >= 0;
}

static int32_t clamp_round(double v, int32_t lo, int32_t hi)
{
	double r = floor(v + 0.5);

	return !(r > lo) ? lo : r > hi ? hi : (int32_t)r;	/* NaN: lo */
}

/* Layer-stack space to display pixels: the viewport scaled onto the display. */
static struct ws_box to_display(const struct ws_view *view, struct ws_box b)
{
	const struct ws_box *vp = &view->viewport;
	double sx = view->width / (vp->right - vp->left), sy = view->height / (vp->bottom - vp->top);

	return (struct ws_box){ (b.left - vp->left) * sx, (b.top - vp->top) * sy, (b.right - vp->left) * sx,
		(b.bottom - vp->top) * sy };
}

/*
 * crop (layer space) in buffer pixels: the buffer covers `source` in layer
 * space once its transform `bt` is applied.
 */
static struct ws_box buffer_crop(struct ws_box crop, struct ws_box source, int32_t bt, uint32_t bw, uint32_t bh)
{
	struct ws_matrix o = orientation_matrix((uint32_t)bt), inv;
	struct ws_box shown = map_box(&o, (struct ws_box){ 0, 0, bw, bh });
	double sw = shown.right - shown.left, shh = shown.bottom - shown.top;
	struct ws_box in_shown = {
		(crop.left - source.left) * sw / (source.right - source.left),
		(crop.top - source.top) * shh / (source.bottom - source.top),
		(crop.right - source.left) * sw / (source.right - source.left),
		(crop.bottom - source.top) * shh / (source.bottom - source.top),
	};

	/* shown = o(raw) - (shown.left, shown.top) */
	o.tx = -shown.left;
	o.ty = -shown.top;
	if (!invert(&o, &inv)) {
		return (struct ws_box){ 0, 0, 0, 0 };
	}
	return intersect(map_box(&inv, in_shown), (struct ws_box){ 0, 0, bw, bh });
}

static bool rect_empty(const Winscope__RectProto *r)
{
	return !r || !(r->left < r->right && r->top < r->bottom);
}

bool ws_place(const Winscope__LayerProto *l, const struct ws_view *view, uint32_t buffer_w, uint32_t buffer_h,
	struct ws_placement *out)
{
	struct ws_matrix m = layer_matrix(l), bm = linear_of(l->buffer_transform), inv;
	struct ws_box screen, shown, frame;
	int32_t layer_orient = orientation_of(&m), buffer_orient;

	if (l->screen_bounds) {
		screen = box_of(l->screen_bounds);
	} else if (l->bounds) {
		screen = map_box(&m, box_of(l->bounds));
	} else {
		return false;
	}
	shown = intersect(screen, view->viewport);
	if (box_empty(shown) || !invert(&m, &inv)) {
		return false;
	}
	frame = to_display(view, shown);
	out->display_frame = (struct hwct_rect){
		clamp_round(frame.left, 0, (int32_t)view->width), clamp_round(frame.top, 0, (int32_t)view->height),
		clamp_round(frame.right, 0, (int32_t)view->width), clamp_round(frame.bottom, 0, (int32_t)view->height),
	};
	if (!rect_empty(l->hwc_frame)) {
		out->display_frame = (struct hwct_rect){ l->hwc_frame->left, l->hwc_frame->top, l->hwc_frame->right,
			l->hwc_frame->bottom };
	}
	if (out->display_frame.left >= out->display_frame.right ||
		out->display_frame.top >= out->display_frame.bottom) {
		return false;
	}
	buffer_orient = orientation_of(&bm);
	buffer_orient = buffer_orient < 0 ? 0 : buffer_orient;	/* buffer transforms are flips and rotations */
	out->axis_aligned = layer_orient >= 0;
	if (buffer_w && buffer_h) {
		struct ws_box crop = map_box(&inv, shown), source;
		bool swap = (buffer_orient & HAL_TRANSFORM_ROT_90) != 0;

		if (l->bounds && !box_empty(box_of(l->bounds))) {
			crop = intersect(crop, box_of(l->bounds));
		}
		source = l->source_bounds && !box_empty(box_of(l->source_bounds)) ? box_of(l->source_bounds) :
			(struct ws_box){ 0, 0, swap ? buffer_h : buffer_w, swap ? buffer_w : buffer_h };
		crop = buffer_crop(crop, source, buffer_orient, buffer_w, buffer_h);
		if (l->hwc_crop && !box_empty(box_of(l->hwc_crop))) {
			crop = box_of(l->hwc_crop);
		}
		if (box_empty(crop)) {
			return false;
		}
		out->source_crop = (struct hwct_frect){ (float)crop.left, (float)crop.top, (float)crop.right,
			(float)crop.bottom };
	} else {
		out->source_crop = (struct hwct_frect){ 0.0f, 0.0f,
			(float)(out->display_frame.right - out->display_frame.left),
			(float)(out->display_frame.bottom - out->display_frame.top) };
	}
	if (l->has_hwc_transform) {
		out->transform = l->hwc_transform;
	} else if (out->axis_aligned) {
		struct ws_matrix lo = orientation_matrix((uint32_t)layer_orient);
		struct ws_matrix bo = orientation_matrix((uint32_t)buffer_orient);
		struct ws_matrix both = multiply(&lo, &bo);

		out->transform = orientation_of(&both);
	} else {
		out->transform = 0;
	}
	return true;
}

struct name_value {
	const char *name;
	int32_t value;
};

/* ui/DebugUtils decodeStandard(), decodeTransfer(), decodeRange(); longer names first where one prefixes another. */
static const struct name_value standards[] = {
	{ "BT709", HAL_DATASPACE_STANDARD_BT709 },
	{ "BT601_625_UNADJUSTED", HAL_DATASPACE_STANDARD_BT601_625_UNADJUSTED },
	{ "BT601_625", HAL_DATASPACE_STANDARD_BT601_625 },
	{ "BT601_525_UNADJUSTED", HAL_DATASPACE_STANDARD_BT601_525_UNADJUSTED },
	{ "BT601_525", HAL_DATASPACE_STANDARD_BT601_525 },
	{ "BT2020 (constant luminance)", HAL_DATASPACE_STANDARD_BT2020_CONSTANT_LUMINANCE },
	{ "BT2020", HAL_DATASPACE_STANDARD_BT2020 },
	{ "BT470M", HAL_DATASPACE_STANDARD_BT470M },
	{ "FILM", HAL_DATASPACE_STANDARD_FILM },
	{ "DCI-P3", HAL_DATASPACE_STANDARD_DCI_P3 },
	{ "AdobeRGB", HAL_DATASPACE_STANDARD_ADOBE_RGB },
	{ "Unknown dataspace code 0", HAL_DATASPACE_STANDARD_UNSPECIFIED },
};

static const struct name_value transfers[] = {
	{ "Unspecified", HAL_DATASPACE_TRANSFER_UNSPECIFIED },
	{ "Linear", HAL_DATASPACE_TRANSFER_LINEAR },
	{ "sRGB", HAL_DATASPACE_TRANSFER_SRGB },
	{ "SMPTE_170M", HAL_DATASPACE_TRANSFER_SMPTE_170M },
	{ "gamma 2.2", HAL_DATASPACE_TRANSFER_GAMMA2_2 },
	{ "gamma 2.6", HAL_DATASPACE_TRANSFER_GAMMA2_6 },
	{ "gamma 2.8", HAL_DATASPACE_TRANSFER_GAMMA2_8 },
	{ "SMPTE 2084", HAL_DATASPACE_TRANSFER_ST2084 },
	{ "STD-B67", HAL_DATASPACE_TRANSFER_HLG },
};

static const struct name_value ranges[] = {
	{ "Range Unspecified", HAL_DATASPACE_RANGE_UNSPECIFIED },
	{ "Full range", HAL_DATASPACE_RANGE_FULL },
	{ "Limited range", HAL_DATASPACE_RANGE_LIMITED },
	{ "Extended range", HAL_DATASPACE_RANGE_EXTENDED },
};

/* The legacy values (standard 0), printed whole. */
static const struct name_value legacy[] = {
	{ "(deprecated) JFIF (BT601_625) SMPTE_170M Full range", HAL_DATASPACE_JFIF },
	{ "(deprecated) BT601_625 SMPTE_170M Limited range", HAL_DATASPACE_BT601_625 },
	{ "(deprecated) BT601_525 SMPTE_170M Limited range", HAL_DATASPACE_BT601_525 },
	{ "(deprecated) BT709 SMPTE_170M Limited range", HAL_DATASPACE_BT709 },
	{ "(deprecated) sRGB sRGB Full range", HAL_DATASPACE_SRGB },
	{ "(deprecated) sRGB Linear Full range", HAL_DATASPACE_SRGB_LINEAR },
	{ "ARBITRARY Linear unspecified range", HAL_DATASPACE_ARBITRARY },
	{ "Default", 0 },
};

/* Matches one name of table at *s followed by a space or the end; advances *s past it. */
static bool match(const char **s, const struct name_value *table, size_t count, int32_t *value)
{
	for (size_t i = 0; i < count; i++) {
		size_t n = strlen(table[i].name);

		if (strncmp(*s, table[i].name, n) == 0 && ((*s)[n] == ' ' || (*s)[n] == '\0')) {
			*value |= table[i].value;
			*s += n + ((*s)[n] == ' ');
			return true;
		}
	}
	return false;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

bool ws_dataspace_parse(const char *s, int32_t *out)
{
	int32_t v = 0;

	*out = 0;
	if (!s || !*s) {
		return true;	/* not recorded: unknown, as SurfaceFlinger's default */
	}
	for (size_t i = 0; i < COUNT(legacy); i++) {
		if (strcmp(s, legacy[i].name) == 0) {
			*out = legacy[i].value;
			return true;
		}
	}
	if (match(&s, standards, COUNT(standards), &v) && match(&s, transfers, COUNT(transfers), &v) &&
		match(&s, ranges, COUNT(ranges), &v) && *s == '\0') {
		*out = v;
		return true;
	}
	return false;
}
