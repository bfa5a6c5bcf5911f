/*
 * One entry's visible layer stack (winscope_stack.h). When the entry has
 * composition state, SurfaceFlinger's own visible regions say which layers
 * it sent to the composer; without it (excludes_composition_state) this
 * works it out: drawn, not hidden, with content and alpha, on screen, and
 * not covered by opaque layers above.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "winscope_stack.h"
#include "winscope_tree.h"

#define MAX_STACK 1024		/* layers sent to the composer for one frame */
#define MAX_PIECES 256		/* rects of a layer's uncovered area, before giving up and calling it visible */

static bool has_visible_region(const Winscope__LayerProto *l)
{
	const Winscope__RegionProto *r = l->visible_region;

	for (size_t i = 0; r && i < r->n_rect; i++) {
		if (r->rect[i]->left < r->rect[i]->right && r->rect[i]->top < r->rect[i]->bottom) {
			return true;
		}
	}
	return false;
}

/* Whether the entry carries SurfaceFlinger's composition state (visible regions, composition types). */
static bool composition_state(const Winscope__LayersTraceProto *e)
{
	const Winscope__LayersProto *layers = e->layers;

	if (e->excludes_composition_state || !layers) {
		return false;
	}
	for (size_t i = 0; i < layers->n_layers; i++) {
		if (layers->layers[i]->visible_region || layers->layers[i]->has_hwc_composition_type) {
			return true;
		}
	}
	return false;
}

static bool has_buffer(const Winscope__LayerProto *l)
{
	return l->active_buffer && l->active_buffer->width && l->active_buffer->height;
}

/* A colour fill: a ColorLayer, or an EffectLayer with a colour (its r, g, b are -1 when it has none). */
static bool is_color_fill(const Winscope__LayerProto *l)
{
	const Winscope__ColorProto *c = l->color;

	return c && l->type && (strstr(l->type, "Color") || strstr(l->type, "Effect")) && c->r >= 0 && c->g >= 0 &&
		c->b >= 0;
}

static float alpha_of(const Winscope__LayerProto *l)
{
	float a = l->color ? l->color->a : 0.0f;

	return !(a > 0.0f) ? 0.0f : a > 1.0f ? 1.0f : a;	/* NaN: 0 */
}

static uint8_t channel(float v)
{
	return (uint8_t)(!(v > 0) ? 0 : v >= 1 ? 255 : v * 255.0f + 0.5f);	/* NaN: 0 */
}

/* What SurfaceFlinger asks for: DEVICE or SOLID_COLOR, the special types as the device reported them. */
static int32_t requested_type(const struct ws_layer *wl, bool axis_aligned)
{
	switch (wl->recorded) {
	case HWC2_COMPOSITION_CURSOR:
	case HWC2_COMPOSITION_SIDEBAND:
	case 6:		/* composer3 DISPLAY_DECORATION */
	case 7:		/* composer3 REFRESH_RATE_INDICATOR */
		return wl->recorded;
	default:
		break;
	}
	if (!axis_aligned) {
		return HWC2_COMPOSITION_CLIENT;		/* no HWC2 transform shows it */
	}
	return wl->color ? HWC2_COMPOSITION_SOLID_COLOR : HWC2_COMPOSITION_DEVICE;
}

static int check_buffer(const Winscope__LayerProto *l, const struct winscope_options *opts, const char *name,
	uint64_t offset, size_t index, struct hwct_error *err)
{
	uint32_t w = l->active_buffer->width, h = l->active_buffer->height;

	if (w > opts->max_dimension || h > opts->max_dimension || (uint64_t)w * h > opts->max_pixels) {
		return hwct_error_set(err, -EINVAL, name, offset,
			"entry %zu: layer %" PRId32 " has a %" PRIu32 "x%" PRIu32 " buffer: larger than the limits "
			"(%" PRIu32 " a side, %" PRIu64 " pixels)", index, l->id, w, h, opts->max_dimension,
			opts->max_pixels);
	}
	return 0;
}

/* Fills wl from l placed at p; state: the entry has composition state. */
static void describe(struct ws_layer *wl, const Winscope__LayerProto *l, const struct ws_placement *p,
	bool state)
{
	float alpha = alpha_of(l);

	*wl = (struct ws_layer){ .id = l->id, .name = l->name ? l->name : "" };
	wl->color = !has_buffer(l);
	if (!wl->color) {
		wl->width = l->active_buffer->width;
		wl->height = l->active_buffer->height;
		wl->format = l->active_buffer->format;
		wl->frame = l->curr_frame;
	}
	wl->opaque = l->is_opaque;
	if (state && l->has_hwc_composition_type && l->hwc_composition_type >= HWC2_COMPOSITION_CLIENT &&
		l->hwc_composition_type <= 7) {
		wl->recorded = l->hwc_composition_type;
	}
	wl->props.composition = requested_type(wl, p->axis_aligned);
	wl->props.display_frame = p->display_frame;
	wl->props.source_crop = p->source_crop;
	wl->props.transform = p->transform;
	wl->props.blend = wl->opaque && alpha >= 1.0f ? HWC2_BLEND_MODE_NONE : HWC2_BLEND_MODE_PREMULTIPLIED;
	wl->props.plane_alpha = alpha;
	wl->dataspace_unknown = !ws_dataspace_parse(l->dataspace, &wl->props.dataspace);
	if (wl->color) {
		wl->props.color = (uint32_t)channel(l->color->r) | (uint32_t)channel(l->color->g) << 8 |
			(uint32_t)channel(l->color->b) << 16 | 255u << 24;
	}
}

/*
 * Whether any of r is left after removing the covers. Rects are split
 * into the parts outside each cover; past MAX_PIECES it answers yes.
 */
static bool uncovered(struct hwct_rect r, const struct hwct_rect *covers, size_t count)
{
	struct hwct_rect pieces[MAX_PIECES], next[MAX_PIECES];
	size_t n = 1;

	pieces[0] = r;
	for (size_t c = 0; c < count && n; c++) {
		const struct hwct_rect *k = &covers[c];
		size_t m = 0;

		for (size_t i = 0; i < n; i++) {
			struct hwct_rect p = pieces[i];
			struct hwct_rect parts[4];
			size_t np = 0;

			if (k->left >= p.right || k->right <= p.left || k->top >= p.bottom || k->bottom <= p.top) {
				parts[np++] = p;
			} else {
				int32_t top = k->top > p.top ? k->top : p.top;
				int32_t bottom = k->bottom < p.bottom ? k->bottom : p.bottom;

				if (p.top < top) {
					parts[np++] = (struct hwct_rect){ p.left, p.top, p.right, top };
				}
				if (bottom < p.bottom) {
					parts[np++] = (struct hwct_rect){ p.left, bottom, p.right, p.bottom };
				}
				if (p.left < k->left) {
					parts[np++] = (struct hwct_rect){ p.left, top, k->left, bottom };
				}
				if (k->right < p.right) {
					parts[np++] = (struct hwct_rect){ k->right, top, p.right, bottom };
				}
			}
			if (m + np > MAX_PIECES) {
				return true;
			}
			memcpy(next + m, parts, np * sizeof(*parts));
			m += np;
		}
		memcpy(pieces, next, m * sizeof(*next));
		n = m;
	}
	return n > 0;
}

/* Without composition state: drops the layers opaque layers above cover (top down). */
static void drop_covered(struct ws_stack *stack)
{
	struct hwct_rect covers[MAX_STACK];
	bool gone[MAX_STACK] = { false };
	size_t n = 0;

	for (size_t i = stack->count; i-- > 0;) {
		const struct ws_layer *wl = &stack->layers[i];
		bool opaque = wl->props.blend == HWC2_BLEND_MODE_NONE &&
			wl->props.composition != HWC2_COMPOSITION_CLIENT;

		if (!uncovered(wl->props.display_frame, covers, n)) {
			gone[i] = true;
		} else if (opaque) {
			covers[n++] = wl->props.display_frame;
		}
	}
	n = 0;
	for (size_t i = 0; i < stack->count; i++) {
		if (!gone[i]) {
			stack->layers[n] = stack->layers[i];
			stack->layers[n].props.z = (int32_t)n;
			n++;
		}
	}
	stack->count = n;
}

static int collect(struct ws_stack *stack, Winscope__LayerProto *const *layers, const size_t *order, size_t count,
	const struct ws_display *d, const struct winscope_options *opts, const char *name, uint64_t offset,
	size_t index, struct hwct_error *err)
{
	for (size_t k = 0; k < count; k++) {
		const Winscope__LayerProto *l = layers[order[k]];
		struct ws_placement p;
		int ret;

		if (!(has_buffer(l) || is_color_fill(l)) || alpha_of(l) <= 0.0f) {
			continue;
		}
		if (stack->composition_state && !has_visible_region(l)) {
			continue;
		}
		if (has_buffer(l)) {
			ret = check_buffer(l, opts, name, offset, index, err);
			if (ret < 0) {
				return ret;
			}
		}
		if (!ws_place(l, &d->view, has_buffer(l) ? l->active_buffer->width : 0,
			has_buffer(l) ? l->active_buffer->height : 0, &p)) {
			continue;
		}
		if (stack->count == MAX_STACK) {
			return hwct_error_set(err, -EINVAL, name, offset,
				"entry %zu: more than %d visible layers: not a plausible layer trace", index,
				MAX_STACK);
		}
		describe(&stack->layers[stack->count], l, &p, stack->composition_state);
		stack->layers[stack->count].props.z = (int32_t)stack->count;
		stack->count++;
	}
	return 0;
}

int ws_stack_build(struct ws_stack *stack, const Winscope__LayersTraceProto *entry, const struct ws_display *d,
	const struct winscope_options *opts, const char *name, uint64_t offset, size_t index,
	struct hwct_error *err)
{
	Winscope__LayerProto *const *layers = entry->layers ? entry->layers->layers : NULL;
	size_t n = entry->layers ? entry->layers->n_layers : 0, drawn, visible = 0;
	struct ws_tree *tree;
	size_t *order;
	int ret;

	/* a LayerProto's visible region and composition type are its output's on the physical display */
	*stack = (struct ws_stack){ .composition_state = !d->is_virtual && composition_state(entry) };
	tree = ws_tree_create(layers, n);
	order = calloc(n ? n : 1, sizeof(*order));
	stack->layers = calloc(MAX_STACK, sizeof(*stack->layers));
	if (!tree || !order || !stack->layers) {
		ret = hwct_error_set(err, -ENOMEM, name, offset, "out of memory");
		goto out;
	}
	stack->duplicates = (uint32_t)ws_tree_duplicates(tree, &stack->duplicate_id);
	drawn = ws_tree_zorder(tree, d->layer_stack, order);
	for (size_t k = 0; k < drawn; k++) {
		if (!ws_tree_hidden(tree, order[k])) {
			order[visible++] = order[k];
		}
	}
	ret = collect(stack, layers, order, visible, d, opts, name, offset, index, err);
	if (ret == 0 && !stack->composition_state) {
		drop_covered(stack);
	}
	if (ret == 0) {
		/* every entry's stack is kept until the end: only what it holds */
		struct ws_layer *fit = realloc(stack->layers, (stack->count ? stack->count : 1) * sizeof(*fit));

		stack->layers = fit ? fit : stack->layers;
	}
out:
	ws_tree_destroy(tree);
	free(order);
	if (ret < 0) {
		ws_stack_finish(stack);
	}
	return ret;
}

void ws_stack_finish(struct ws_stack *stack)
{
	free(stack->layers);
	*stack = (struct ws_stack){ 0 };
}
