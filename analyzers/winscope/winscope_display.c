/* Which display of the trace is imported, and its geometry per entry (winscope_stack.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "winscope_stack.h"

#define MAX_SEEN 64		/* other display ids counted */

static const Winscope__DisplayProto *find_display(const Winscope__LayersTraceProto *e, uint64_t id)
{
	for (size_t i = 0; i < e->n_displays; i++) {
		if (e->displays[i]->id == id) {
			return e->displays[i];
		}
	}
	return NULL;
}

/* The first physical display of the first entry listing displays, else the first display. */
static const Winscope__DisplayProto *pick(const Winscope__LayersTraceProto *const *entries, size_t count,
	const struct winscope_options *opts)
{
	const Winscope__DisplayProto *any = NULL;

	for (size_t i = 0; i < count; i++) {
		for (size_t k = 0; k < entries[i]->n_displays; k++) {
			const Winscope__DisplayProto *d = entries[i]->displays[k];

			if (opts->has_display ? d->id == opts->display : !d->is_virtual) {
				return d;
			}
			any = any ? any : d;
		}
	}
	return opts->has_display ? NULL : any;
}

static uint32_t count_others(const Winscope__LayersTraceProto *const *entries, size_t count, uint64_t id)
{
	uint64_t seen[MAX_SEEN];
	uint32_t n = 0;

	for (size_t i = 0; i < count; i++) {
		for (size_t k = 0; k < entries[i]->n_displays; k++) {
			uint64_t other = entries[i]->displays[k]->id;
			bool known = other == id;

			for (uint32_t j = 0; j < n && !known; j++) {
				known = seen[j] == other;
			}
			if (!known && n < MAX_SEEN) {
				seen[n++] = other;
			}
		}
	}
	return n;
}

static void set_view(struct ws_display *d, const Winscope__RectProto *space)
{
	d->view.viewport = (struct ws_box){ 0, 0, d->view.width, d->view.height };
	if (space && space->left < space->right && space->top < space->bottom) {
		d->view.viewport = (struct ws_box){ space->left, space->top, space->right, space->bottom };
	}
}

int ws_display_select(const Winscope__LayersTraceProto *const *entries, size_t count,
	const struct winscope_options *opts, const char *name, struct ws_display *d, uint32_t *skipped,
	struct hwct_error *err)
{
	const Winscope__DisplayProto *p = pick(entries, count, opts);
	const Winscope__SizeProto *size = p ? p->size : NULL;

	*d = (struct ws_display){ .dpi = -1 };
	*skipped = 0;
	if (opts->has_display && !p) {
		return hwct_error_set(err, -EINVAL, name, UINT64_MAX,
			"no display with id %" PRIu64 " in the trace", opts->display);
	}
	if (p) {
		d->id = p->id;
		snprintf(d->name, sizeof(d->name), "%s", p->name ? p->name : "");
		d->layer_stack = p->layer_stack;
		d->is_virtual = p->is_virtual;
		if (p->dpi_x > 0 && p->dpi_x < 100000) {
			d->dpi = (int32_t)(p->dpi_x * 1000 + 0.5);
		}
		*skipped = count_others(entries, count, p->id);
	} else {
		/* old traces: no DisplayProto, the size in LayersProto.resolution */
		for (size_t i = 0; i < count && !size; i++) {
			size = entries[i]->layers ? entries[i]->layers->resolution : NULL;
		}
		snprintf(d->name, sizeof(d->name), "display");
	}
	if (size && size->w > 0 && size->h > 0) {
		d->view.width = (uint32_t)size->w;
		d->view.height = (uint32_t)size->h;
		d->size_source = WS_SIZE_RECORDED;
	} else if (opts->width && opts->height) {
		d->view.width = opts->width;
		d->view.height = opts->height;
		d->size_source = WS_SIZE_OPTION;
	} else {
		d->size_source = ws_size_infer(entries, count, p != NULL, d->id, d->layer_stack, opts->max_dimension,
			&d->view.width, &d->view.height);
	}
	if (d->size_source == WS_SIZE_NONE) {
		return hwct_error_set(err, -EINVAL, name, UINT64_MAX,
			"the trace records no display size (no DisplayProto.size, no LayersProto.resolution) and "
			"implies none (no layer-stack rect, no layer bounds within %" PRIu32 " pixels): give it "
			"with --size WxH", opts->max_dimension);
	}
	if (d->view.width > opts->max_dimension || d->view.height > opts->max_dimension) {
		return hwct_error_set(err, -EINVAL, name, UINT64_MAX,
			"display %" PRIu64 " is %" PRIu32 "x%" PRIu32 " pixels: larger than the limit of %" PRIu32,
			d->id, d->view.width, d->view.height, opts->max_dimension);
	}
	set_view(d, p ? p->layer_stack_space_rect : NULL);
	return 0;
}

void ws_display_update(struct ws_display *d, const Winscope__LayersTraceProto *entry)
{
	const Winscope__DisplayProto *p = find_display(entry, d->id);

	if (p) {
		d->layer_stack = p->layer_stack;
		set_view(d, p->layer_stack_space_rect);
	}
}
