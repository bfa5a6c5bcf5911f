/*
 * The front-end layer state of SurfaceFlinger rebuilt from transactions
 * (tnx.h). The rules are those of SurfaceFlinger's RequestedLayerState:
 * a layer's creation flags give its first policy flags (hidden, opaque,
 * secure) and whether it fills a colour; each LayerState applies only the
 * fields its `what` bits name; eLayerChanged sets z and ends a relative
 * parenthood; a layer destroyed ends the relative parenthood of layers
 * relative to it, and its children lose their parent (offscreen).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tnx.h"

/* layer_state_t::what bits (ChangesLsb, then ChangesMsb << 32) */
#define E_POSITION		0x00000001ull
#define E_LAYER			0x00000002ull
#define E_ALPHA			0x00000008ull
#define E_MATRIX		0x00000010ull
#define E_FLAGS			0x00000040ull
#define E_LAYER_STACK		0x00000080ull
#define E_BUFFER_CROP		0x00002000ull
#define E_RELATIVE_LAYER	0x00004000ull
#define E_REPARENT		0x00008000ull
#define E_COLOR			0x00010000ull
#define E_BUFFER_TRANSFORM	0x00040000ull
#define E_CROP			0x00100000ull
#define E_BUFFER		0x00200000ull
#define E_DESTINATION_FRAME	(0x1ull << 32)
#define E_FRAME_NUMBER		(0x400ull << 32)

/* ISurfaceComposerClient creation flags */
#define CREATE_HIDDEN		0x00000004u
#define CREATE_SKIP_SCREENSHOT	0x00000040u
#define CREATE_SECURE		0x00000080u
#define CREATE_OPAQUE		0x00000400u
#define CREATE_NO_COLOR_FILL	0x00004000u
#define CREATE_KIND_MASK	0x000f0000u
#define CREATE_EFFECT		0x00020000u

/* DisplayState::what bits */
#define D_LAYER_STACK		0x02u
#define D_PROJECTION		0x04u
#define D_SIZE			0x08u

void tnx_state_init(struct tnx_state *s, uint32_t max_layers)
{
	*s = (struct tnx_state){ .max_layers = max_layers };
}

void tnx_state_finish(struct tnx_state *s)
{
	for (size_t i = 0; i < s->count; i++) {
		free(s->layers[i].name);
	}
	free(s->layers);
	*s = (struct tnx_state){ 0 };
}

/* Index of the first layer with an id >= id. */
static size_t lower_bound(const struct tnx_state *s, uint32_t id)
{
	size_t lo = 0, hi = s->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->layers[mid].id < id) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

size_t tnx_state_index(const struct tnx_state *s, uint32_t id)
{
	size_t i = lower_bound(s, id);

	return i < s->count && s->layers[i].id == id ? i : s->count;
}

struct tnx_layer *tnx_state_find(struct tnx_state *s, uint32_t id)
{
	size_t i = tnx_state_index(s, id);

	return i < s->count ? &s->layers[i] : NULL;
}

static void remove_layer(struct tnx_state *s, uint32_t id)
{
	size_t i = lower_bound(s, id);

	if (i >= s->count || s->layers[i].id != id) {
		return;
	}
	free(s->layers[i].name);
	memmove(&s->layers[i], &s->layers[i + 1], (s->count - i - 1) * sizeof(s->layers[0]));
	s->count--;
	for (size_t k = 0; k < s->count; k++) {
		if (s->layers[k].relative == id) {
			s->layers[k].relative = TNX_NONE;
		}
	}
}

static int create(struct tnx_state *s, const Tnx__LayerCreationArgs *a)
{
	struct tnx_layer *l;
	size_t i;

	if (tnx_state_find(s, a->layer_id)) {
		s->gaps.duplicate_creations++;
		remove_layer(s, a->layer_id);
	}
	if (s->count >= s->max_layers) {
		return -E2BIG;
	}
	if (s->count == s->cap) {
		size_t n = s->cap ? s->cap * 2 : 128;
		struct tnx_layer *v = realloc(s->layers, n * sizeof(*v));

		if (!v) {
			return -ENOMEM;
		}
		s->layers = v;
		s->cap = n;
	}
	i = lower_bound(s, a->layer_id);
	memmove(&s->layers[i + 1], &s->layers[i], (s->count - i) * sizeof(s->layers[0]));
	s->count++;
	l = &s->layers[i];
	*l = (struct tnx_layer){
		.id = a->layer_id,
		.name = strdup(a->name ? a->name : ""),
		.create_flags = a->flags,
		.parent = a->has_parent_id ? a->parent_id : TNX_NONE,
		.relative = TNX_NONE,
		.m = { 1, 0, 0, 1 },
		.alpha = 1,
		.r = -1, .g = -1, .b = -1,
	};
	if (!l->name) {
		memmove(&s->layers[i], &s->layers[i + 1], (s->count - i - 1) * sizeof(s->layers[0]));
		s->count--;
		return -ENOMEM;
	}
	l->flags = (a->flags & CREATE_HIDDEN ? 0x01u : 0) | (a->flags & CREATE_OPAQUE ? 0x02u : 0) |
		(a->flags & CREATE_SKIP_SCREENSHOT ? 0x40u : 0) | (a->flags & CREATE_SECURE ? 0x80u : 0);
	if ((a->flags & CREATE_KIND_MASK) == CREATE_EFFECT && !(a->flags & CREATE_NO_COLOR_FILL)) {
		l->r = l->g = l->b = 0;	/* an effect layer fills black until told a colour */
	}
	l->mirror = (a->has_mirror_from_id && a->mirror_from_id != TNX_NONE) ||
		(a->has_layer_stack_to_mirror && a->layer_stack_to_mirror != TNX_NONE);
	s->gaps.mirrors += l->mirror;
	return 0;
}

static void rect_of(int32_t out[4], const Tnx__RectProto *r)
{
	out[0] = r ? r->left : 0;
	out[1] = r ? r->top : 0;
	out[2] = r ? r->right : 0;
	out[3] = r ? r->bottom : 0;
}

static void change(struct tnx_state *s, const Tnx__LayerState *c)
{
	struct tnx_layer *l = tnx_state_find(s, c->layer_id);
	uint64_t what = c->what;

	if (!l) {
		s->gaps.unknown_layers++;
		return;
	}
	if (what & E_POSITION) {
		l->x = c->x;
		l->y = c->y;
	}
	if (what & E_LAYER) {
		l->z = c->z;
		l->relative = TNX_NONE;
	}
	if (what & E_RELATIVE_LAYER) {
		l->z = c->z;
		l->relative = c->has_relative_parent_id ? c->relative_parent_id : TNX_NONE;
	}
	if (what & E_ALPHA) {
		l->alpha = c->alpha;
	}
	if ((what & E_MATRIX) && c->matrix) {
		l->m[0] = c->matrix->dsdx;
		l->m[1] = c->matrix->dtdx;
		l->m[2] = c->matrix->dtdy;
		l->m[3] = c->matrix->dsdy;
	}
	if (what & E_FLAGS) {
		l->flags = (l->flags & ~c->mask) | (c->flags & c->mask);
	}
	if (what & E_LAYER_STACK) {
		l->layer_stack = c->layer_stack;
	}
	if (what & E_REPARENT) {
		l->parent = c->has_parent_id ? c->parent_id : TNX_NONE;
		l->offscreen = l->parent == TNX_NONE;
	}
	if ((what & E_COLOR) && c->color) {
		l->r = c->color->r;
		l->g = c->color->g;
		l->b = c->color->b;
	}
	if (what & E_BUFFER_TRANSFORM) {
		l->transform = c->transform;
	}
	if (what & E_CROP) {
		rect_of(l->crop, c->crop);
	}
	if (what & E_BUFFER_CROP) {
		rect_of(l->buffer_crop, c->buffer_crop);
	}
	if (what & E_DESTINATION_FRAME) {
		rect_of(l->dest, c->destination_frame);
	}
	if ((what & E_BUFFER) && c->buffer_data) {
		const Tnx__LayerState__BufferData *b = c->buffer_data;

		l->has_buffer = b->width && b->height;
		l->buf_w = b->width;
		l->buf_h = b->height;
		l->format = b->pixel_format;
		l->frame = b->frame_number;
	}
	if ((what & E_FRAME_NUMBER) && c->has_frame_number) {
		l->frame = c->frame_number;
	}
}

static struct tnx_display *display(struct tnx_state *s, int32_t id)
{
	for (size_t i = 0; i < s->display_count; i++) {
		if (s->displays[i].id == id) {
			return &s->displays[i];
		}
	}
	if (s->display_count == TNX_MAX_DISPLAYS) {
		return NULL;
	}
	s->displays[s->display_count] = (struct tnx_display){ .id = id };
	return &s->displays[s->display_count++];
}

static void display_change(struct tnx_state *s, const Tnx__DisplayState *c)
{
	struct tnx_display *d = display(s, c->id);

	if (!d) {
		return;
	}
	if (c->what & D_LAYER_STACK) {
		d->layer_stack = c->layer_stack;
	}
	if (c->what & D_PROJECTION) {
		rect_of(d->rect, c->layer_stack_space_rect);
		if (c->orientation) {
			s->gaps.display_transforms++;
		}
		if (!d->width && c->oriented_display_space_rect) {
			d->width = (uint32_t)(c->oriented_display_space_rect->right - c->oriented_display_space_rect->left);
			d->height = (uint32_t)(c->oriented_display_space_rect->bottom - c->oriented_display_space_rect->top);
		}
	}
	if (c->what & D_SIZE) {
		d->width = c->width;
		d->height = c->height;
	}
}

static void remove_display(struct tnx_state *s, int32_t id)
{
	for (size_t i = 0; i < s->display_count; i++) {
		if (s->displays[i].id == id) {
			memmove(&s->displays[i], &s->displays[i + 1], (s->display_count - i - 1) * sizeof(s->displays[0]));
			s->display_count--;
			return;
		}
	}
}

int tnx_state_apply(struct tnx_state *s, const Tnx__TransactionTraceEntry *e)
{
	int ret;

	for (size_t i = 0; i < e->n_added_layers; i++) {
		ret = create(s, e->added_layers[i]);
		if (ret < 0) {
			return ret;
		}
	}
	for (size_t i = 0; i < e->n_added_displays; i++) {
		display_change(s, e->added_displays[i]);
	}
	for (size_t i = 0; i < e->n_transactions; i++) {
		const Tnx__TransactionState *t = e->transactions[i];

		for (size_t k = 0; k < t->n_layer_changes; k++) {
			change(s, t->layer_changes[k]);
		}
		for (size_t k = 0; k < t->n_display_changes; k++) {
			display_change(s, t->display_changes[k]);
		}
	}
	for (size_t i = 0; i < e->n_removed_displays; i++) {
		remove_display(s, e->removed_displays[i]);
	}
	for (size_t i = 0; i < e->n_destroyed_layers; i++) {
		remove_layer(s, e->destroyed_layers[i]);
	}
	if (e->has_elapsed_realtime_nanos) {
		s->time_ns = e->elapsed_realtime_nanos;
	}
	return 0;
}
