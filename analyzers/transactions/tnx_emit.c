/*
 * The rebuilt state written as a layer trace entry (tnx_entry_make()).
 * Geometry as SurfaceFlinger's LayerSnapshotBuilder derives it:
 * - local transform: the destination frame scaled onto the buffer when a
 *   buffer layer has one, else position and matrix (x' = dsdx x + dtdy y +
 *   x, y' = dtdx x + dsdy y + y); the layer-to-display transform is the
 *   parent's times the local one;
 * - bounds: the parent's bounds brought into layer space, or the buffer's
 *   size (rotated by a 90° buffer transform, cut by the buffer crop) for a
 *   buffer layer, cut by the parent's bounds and the layer's crop; a root's
 *   parent bounds are ten times the display each way;
 * - alpha: the product of the layer's and its parents';
 * - layer stack: that of the root the layer is drawn under (a relative
 *   layer's comes from its relative parent).
 * Offscreen layers are hung under SurfaceFlinger's offscreen root id, which
 * the layer-trace importer does not draw.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tnx.h"

#define OFFSCREEN_ROOT 0x7ffffffd
#define MAX_DEPTH 256

struct aff {
	double m00, m01, m10, m11, tx, ty;	/* x' = m00 x + m10 y + tx; y' = m01 x + m11 y + ty */
};

struct box {
	double l, t, r, b;
};

struct derived {
	int done;			/* 0 not yet, 1 in progress, 2 done */
	struct aff global;
	struct box bounds;		/* layer space */
	struct box source;		/* the buffer in layer space */
	double alpha;
	uint32_t layer_stack;
};

struct holder {
	Winscope__LayerProto l;
	Winscope__PositionProto pos;
	Winscope__TransformProto tr, btr;
	Winscope__ColorProto color;
	Winscope__ActiveBufferProto buf;
	Winscope__FloatRectProto bounds, screen, source;
};

struct made {
	Winscope__LayersTraceProto e;	/* first: tnx_entry_free() casts back */
	Winscope__LayersProto layers;
	Winscope__LayerProto **layer_ptrs;
	struct holder *holders;
	Winscope__DisplayProto displays[TNX_MAX_DISPLAYS + 1];
	Winscope__DisplayProto *display_ptrs[TNX_MAX_DISPLAYS + 1];
	Winscope__SizeProto sizes[TNX_MAX_DISPLAYS + 1];
	Winscope__RectProto rects[TNX_MAX_DISPLAYS + 1];
	char names[TNX_MAX_DISPLAYS + 1][48];
};

static struct aff compose(const struct aff *p, const struct aff *l)
{
	return (struct aff){
		.m00 = p->m00 * l->m00 + p->m10 * l->m01,
		.m01 = p->m01 * l->m00 + p->m11 * l->m01,
		.m10 = p->m00 * l->m10 + p->m10 * l->m11,
		.m11 = p->m01 * l->m10 + p->m11 * l->m11,
		.tx = p->m00 * l->tx + p->m10 * l->ty + p->tx,
		.ty = p->m01 * l->tx + p->m11 * l->ty + p->ty,
	};
}

static bool invert(const struct aff *a, struct aff *out)
{
	double det = a->m00 * a->m11 - a->m10 * a->m01;

	if (fabs(det) < 1e-12) {
		return false;
	}
	out->m00 = a->m11 / det;
	out->m10 = -a->m10 / det;
	out->m01 = -a->m01 / det;
	out->m11 = a->m00 / det;
	out->tx = -(out->m00 * a->tx + out->m10 * a->ty);
	out->ty = -(out->m01 * a->tx + out->m11 * a->ty);
	return true;
}

static struct box map(const struct aff *a, struct box b)
{
	double xs[4] = { b.l, b.r, b.l, b.r }, ys[4] = { b.t, b.t, b.b, b.b };
	struct box o = { INFINITY, INFINITY, -INFINITY, -INFINITY };

	for (int i = 0; i < 4; i++) {
		double x = a->m00 * xs[i] + a->m10 * ys[i] + a->tx, y = a->m01 * xs[i] + a->m11 * ys[i] + a->ty;

		o.l = fmin(o.l, x);
		o.r = fmax(o.r, x);
		o.t = fmin(o.t, y);
		o.b = fmax(o.b, y);
	}
	return o;
}

static struct box cut(struct box a, struct box b)
{
	struct box o = { fmax(a.l, b.l), fmax(a.t, b.t), fmin(a.r, b.r), fmin(a.b, b.b) };

	if (o.r < o.l || o.b < o.t) {
		o = (struct box){ 0, 0, 0, 0 };
	}
	return o;
}

static bool rect_set(const int32_t r[4])
{
	return r[2] > r[0] && r[3] > r[1];
}

static struct box box_of(const int32_t r[4])
{
	return (struct box){ r[0], r[1], r[2], r[3] };
}

/* The buffer's size in layer space before the local transform: rotated, cut by the buffer crop. */
static struct box buffer_box(const struct tnx_layer *l)
{
	double w = l->buf_w, h = l->buf_h;
	struct box b;

	if (l->transform & 4u) {	/* HAL_TRANSFORM_ROT_90 */
		double t = w;

		w = h;
		h = t;
	}
	b = (struct box){ 0, 0, w, h };
	if (rect_set(l->buffer_crop)) {
		b = cut(b, box_of(l->buffer_crop));
	}
	return b;
}

static struct aff local_of(const struct tnx_layer *l)
{
	if (l->has_buffer && rect_set(l->dest)) {
		struct box b = buffer_box(l);
		double bw = b.r - b.l, bh = b.b - b.t;
		double dw = l->dest[2] - l->dest[0], dh = l->dest[3] - l->dest[1];
		double left = l->dest[0] < 0 ? 0 : l->dest[0], top = l->dest[1] < 0 ? 0 : l->dest[1];

		return (struct aff){ .m00 = bw > 0 ? dw / bw : 1, .m11 = bh > 0 ? dh / bh : 1, .tx = left, .ty = top };
	}
	return (struct aff){ .m00 = l->m[0], .m10 = l->m[2], .m01 = l->m[1], .m11 = l->m[3], .tx = l->x, .ty = l->y };
}

struct ctx {
	const struct tnx_state *s;
	struct derived *d;
	struct box root;
};

static const struct tnx_layer *find(const struct tnx_state *s, uint32_t id, size_t *index)
{
	*index = tnx_state_index(s, id);
	return *index < s->count ? &s->layers[*index] : NULL;
}

static void derive(struct ctx *c, size_t i, unsigned depth)
{
	const struct tnx_layer *l = &c->s->layers[i];
	struct derived *d = &c->d[i], parent = { .global = { 1, 0, 0, 1, 0, 0 }, .bounds = c->root, .alpha = 1 };
	const struct tnx_layer *p = NULL, *rel = NULL;
	struct aff local = local_of(l), inv;
	struct box parent_local, crop;
	size_t pi, ri;

	if (d->done) {
		return;	/* done, or a loop: what it has */
	}
	d->done = 1;
	if (l->parent != TNX_NONE && !l->offscreen && depth < MAX_DEPTH && (p = find(c->s, l->parent, &pi))) {
		derive(c, pi, depth + 1);
		parent = c->d[pi];
	}
	d->global = compose(&parent.global, &local);
	parent_local = invert(&local, &inv) ? map(&inv, parent.bounds) : (struct box){ 0, 0, 0, 0 };
	crop = rect_set(l->crop) ? cut(parent_local, box_of(l->crop)) : parent_local;
	d->source = l->has_buffer ? buffer_box(l) : (struct box){ 0, 0, 0, 0 };
	d->bounds = cut(l->has_buffer ? d->source : parent_local, crop);
	d->alpha = parent.alpha * l->alpha;
	d->layer_stack = l->layer_stack;
	if (l->relative != TNX_NONE && depth < MAX_DEPTH && (rel = find(c->s, l->relative, &ri))) {
		derive(c, ri, depth + 1);
		d->layer_stack = c->d[ri].layer_stack;
	} else if (p) {
		d->layer_stack = parent.layer_stack;
	}
	d->done = 2;
}

static void frect(Winscope__FloatRectProto *f, struct box b)
{
	winscope__float_rect_proto__init(f);
	f->has_left = f->has_top = f->has_right = f->has_bottom = true;
	f->left = (float)b.l;
	f->top = (float)b.t;
	f->right = (float)b.r;
	f->bottom = (float)b.b;
}

static bool fills(const struct tnx_layer *l)
{
	return l->r >= 0 && l->g >= 0 && l->b >= 0;
}

static bool opaque_format(int32_t f)
{
	return f == 2 || f == 3 || f == 4;	/* PIXEL_FORMAT_RGBX_8888, RGB_888, RGB_565 */
}

static void fill_layer(struct holder *h, const struct tnx_layer *l, const struct derived *d)
{
	Winscope__LayerProto *p = &h->l;

	winscope__layer_proto__init(p);
	p->has_id = true;
	p->id = (int32_t)l->id;
	p->name = l->name;
	p->type = l->has_buffer ? "BufferStateLayer" : fills(l) ? "EffectLayer" : "ContainerLayer";
	p->has_layer_stack = true;
	p->layer_stack = d->layer_stack;
	p->has_z = true;
	p->z = l->z;
	p->has_flags = true;
	p->flags = l->flags;
	p->has_parent = true;
	p->parent = l->offscreen ? OFFSCREEN_ROOT : l->parent == TNX_NONE ? -1 : (int32_t)l->parent;
	p->has_z_order_relative_of = true;
	p->z_order_relative_of = l->relative == TNX_NONE ? -1 : (int32_t)l->relative;
	p->has_is_relative_of = true;
	p->is_relative_of = l->relative != TNX_NONE;
	p->has_is_opaque = true;
	p->is_opaque = l->has_buffer ? ((l->flags & 0x02u) || opaque_format(l->format)) : fills(l) && d->alpha >= 1;
	winscope__position_proto__init(&h->pos);
	h->pos.has_x = h->pos.has_y = true;
	h->pos.x = (float)d->global.tx;
	h->pos.y = (float)d->global.ty;
	p->position = &h->pos;
	winscope__transform_proto__init(&h->tr);
	h->tr.has_dsdx = h->tr.has_dtdx = h->tr.has_dsdy = h->tr.has_dtdy = h->tr.has_type = true;
	h->tr.dsdx = (float)d->global.m00;
	h->tr.dtdx = (float)d->global.m01;
	h->tr.dsdy = (float)d->global.m10;
	h->tr.dtdy = (float)d->global.m11;
	h->tr.type = 0x4;	/* SCALE: the floats are written */
	p->transform = &h->tr;
	winscope__color_proto__init(&h->color);
	h->color.has_r = h->color.has_g = h->color.has_b = h->color.has_a = true;
	h->color.r = l->r;
	h->color.g = l->g;
	h->color.b = l->b;
	h->color.a = (float)d->alpha;
	p->color = &h->color;
	frect(&h->bounds, d->bounds);
	p->bounds = &h->bounds;
	frect(&h->screen, map(&d->global, d->bounds));
	p->screen_bounds = &h->screen;
	if (l->has_buffer) {
		winscope__active_buffer_proto__init(&h->buf);
		h->buf.has_width = h->buf.has_height = h->buf.has_stride = h->buf.has_format = true;
		h->buf.width = l->buf_w;
		h->buf.height = l->buf_h;
		h->buf.stride = l->buf_w;
		h->buf.format = l->format;
		p->active_buffer = &h->buf;
		p->has_curr_frame = true;
		p->curr_frame = l->frame;
		frect(&h->source, d->source);
		p->source_bounds = &h->source;
		winscope__transform_proto__init(&h->btr);
		h->btr.has_type = true;
		h->btr.type = (int32_t)((l->transform & 7u) << 8);
		p->buffer_transform = &h->btr;
	}
}

static void fill_display(struct made *m, size_t k, uint64_t id, const char *name, uint32_t layer_stack,
	uint32_t w, uint32_t h, const int32_t rect[4], bool is_virtual)
{
	Winscope__DisplayProto *d = &m->displays[k];

	winscope__display_proto__init(d);
	d->has_id = true;
	d->id = id;
	snprintf(m->names[k], sizeof(m->names[k]), "%s", name);
	d->name = m->names[k];
	d->has_layer_stack = true;
	d->layer_stack = layer_stack;
	if (w && h) {
		winscope__size_proto__init(&m->sizes[k]);
		m->sizes[k].has_w = m->sizes[k].has_h = true;
		m->sizes[k].w = (int32_t)w;
		m->sizes[k].h = (int32_t)h;
		d->size = &m->sizes[k];
	}
	if (rect && rect_set(rect)) {
		winscope__rect_proto__init(&m->rects[k]);
		m->rects[k].has_left = m->rects[k].has_top = m->rects[k].has_right = m->rects[k].has_bottom = true;
		m->rects[k].left = rect[0];
		m->rects[k].top = rect[1];
		m->rects[k].right = rect[2];
		m->rects[k].bottom = rect[3];
		d->layer_stack_space_rect = &m->rects[k];
	}
	d->has_is_virtual = true;
	d->is_virtual = is_virtual;
	m->display_ptrs[k] = d;
}

int tnx_entry_make(const struct tnx_state *s, uint32_t width, uint32_t height, Winscope__LayersTraceProto **out)
{
	struct made *m = calloc(1, sizeof(*m));
	struct ctx c = { .s = s };
	size_t n = s->count ? s->count : 1;

	*out = NULL;
	if (!m) {
		return -ENOMEM;
	}
	m->layer_ptrs = calloc(n, sizeof(*m->layer_ptrs));
	m->holders = calloc(n, sizeof(*m->holders));
	c.d = calloc(n, sizeof(*c.d));
	if (!m->layer_ptrs || !m->holders || !c.d) {
		free(c.d);
		tnx_entry_free(&m->e);
		return -ENOMEM;
	}
	c.root = (struct box){ -10.0 * width, -10.0 * height, 10.0 * width, 10.0 * height };
	for (size_t i = 0; i < s->count; i++) {
		derive(&c, i, 0);
	}
	for (size_t i = 0; i < s->count; i++) {
		fill_layer(&m->holders[i], &s->layers[i], &c.d[i]);
		m->layer_ptrs[i] = &m->holders[i].l;
	}
	free(c.d);
	winscope__layers_proto__init(&m->layers);
	m->layers.n_layers = s->count;
	m->layers.layers = m->layer_ptrs;
	winscope__layers_trace_proto__init(&m->e);
	m->e.has_elapsed_realtime_nanos = true;
	m->e.elapsed_realtime_nanos = s->time_ns;
	m->e.layers = &m->layers;
	m->e.has_excludes_composition_state = true;
	m->e.excludes_composition_state = true;
	fill_display(m, 0, 0, "layer stack 0 (not in the transaction trace)", 0, width, height, NULL, false);
	for (size_t k = 0; k < s->display_count; k++) {
		const struct tnx_display *d = &s->displays[k];
		char name[48];

		snprintf(name, sizeof(name), "display %d (from transactions)", d->id);
		fill_display(m, k + 1, (uint64_t)(uint32_t)d->id + 1, name, d->layer_stack, d->width ? d->width : width,
			d->height ? d->height : height, d->rect, true);
	}
	m->e.n_displays = s->display_count + 1;
	m->e.displays = m->display_ptrs;
	*out = &m->e;
	return 0;
}

void tnx_entry_free(Winscope__LayersTraceProto *e)
{
	struct made *m = (struct made *)e;

	if (!m) {
		return;
	}
	free(m->layer_ptrs);
	free(m->holders);
	free(m);
}
