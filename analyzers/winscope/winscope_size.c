/* Inferring a display size the trace does not record (winscope_size.h). */
#include <stdbool.h>

#include "winscope_size.h"
#include "winscope_tree.h"

struct best {
	uint32_t w, h;
	uint64_t area;
};

/* Takes right x bottom when the rect starts at or after the origin and fits. */
static void consider(struct best *b, double left, double top, double right, double bottom, uint32_t max)
{
	uint32_t w, h;

	if (!(left >= 0 && top >= 0 && right > left && bottom > top && right <= max && bottom <= max)) {
		return;		/* also rejects NaN */
	}
	w = (uint32_t)(right + 0.5);
	h = (uint32_t)(bottom + 0.5);
	if (w && h && (uint64_t)w * h > b->area) {
		*b = (struct best){ w, h, (uint64_t)w * h };
	}
}

static void consider_frect(struct best *b, const Winscope__FloatRectProto *r, uint32_t max)
{
	if (r) {
		consider(b, r->left, r->top, r->right, r->bottom, max);
	}
}

static bool from_stack_rect(const Winscope__LayersTraceProto *const *entries, size_t count, uint64_t id,
	uint32_t max, struct best *b)
{
	for (size_t i = 0; i < count; i++) {
		for (size_t k = 0; k < entries[i]->n_displays; k++) {
			const Winscope__DisplayProto *p = entries[i]->displays[k];
			const Winscope__RectProto *r = p->layer_stack_space_rect;

			if (p->id == id && r) {
				consider(b, r->left, r->top, r->right, r->bottom, max);
			}
		}
	}
	return b->area > 0;
}

static bool from_layers(const Winscope__LayersTraceProto *const *entries, size_t count, uint32_t stack,
	bool roots, uint32_t max, struct best *b)
{
	for (size_t i = 0; i < count; i++) {
		const Winscope__LayersProto *layers = entries[i]->layers;

		for (size_t k = 0; layers && k < layers->n_layers; k++) {
			const Winscope__LayerProto *l = layers->layers[k];

			if (l->layer_stack != stack || l->id == WS_OFFSCREEN_ROOT_ID) {
				continue;
			}
			if (roots && l->parent < 0) {
				consider_frect(b, l->bounds, max);
			} else if (!roots) {
				consider_frect(b, l->screen_bounds, max);
			}
		}
	}
	return b->area > 0;
}

enum ws_size_source ws_size_infer(const Winscope__LayersTraceProto *const *entries, size_t count, bool has_id,
	uint64_t id, uint32_t stack, uint32_t max_dimension, uint32_t *w, uint32_t *h)
{
	enum ws_size_source source = WS_SIZE_NONE;
	struct best b = { 0 };

	if (has_id && from_stack_rect(entries, count, id, max_dimension, &b)) {
		source = WS_SIZE_STACK_RECT;
	} else if (from_layers(entries, count, stack, true, max_dimension, &b)) {
		source = WS_SIZE_ROOT_BOUNDS;
	} else if (from_layers(entries, count, stack, false, max_dimension, &b)) {
		source = WS_SIZE_LAYER_BOUNDS;
	}
	*w = b.w;
	*h = b.h;
	return source;
}

const char *ws_size_source_text(enum ws_size_source source)
{
	switch (source) {
	case WS_SIZE_RECORDED:
		return "recorded";
	case WS_SIZE_OPTION:
		return "given with --size";
	case WS_SIZE_STACK_RECT:
		return "inferred from the display's layer-stack rect";
	case WS_SIZE_ROOT_BOUNDS:
		return "inferred from the root layers' bounds";
	case WS_SIZE_LAYER_BOUNDS:
		return "inferred from the largest layer's screen bounds";
	default:
		return "unknown";
	}
}
