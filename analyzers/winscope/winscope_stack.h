/*
 * One entry turned into what SurfaceFlinger sent the composer for one
 * display: its visible layers in z-order, each with its geometry, alpha,
 * dataspace, content identity and the device's recorded decision
 * (docs/winscope.md, "Visibility").
 */
#ifndef HWCT_WINSCOPE_STACK_H
#define HWCT_WINSCOPE_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

#include "session.h"
#include "winscope.h"
#include "winscope.pb-c.h"
#include "winscope_geom.h"
#include "winscope_size.h"

/* The display imported, as one entry shows it. */
struct ws_display {
	uint64_t id;			/* DisplayProto.id, 0 when the trace has none */
	char name[64];
	uint32_t layer_stack;
	struct ws_view view;
	int32_t dpi;			/* DPI * 1000, -1 unknown */
	bool is_virtual;		/* the layers' composition state is not about it */
	enum ws_size_source size_source;	/* where view.width/height came from */
};

struct ws_layer {
	int32_t id;			/* LayerProto.id */
	const char *name;		/* borrowed from the entry */
	bool color;			/* a colour fill, no buffer */
	uint32_t width, height;		/* buffer, pixels */
	int32_t format;			/* buffer HAL_PIXEL_FORMAT_* as recorded */
	uint64_t frame;			/* curr_frame: which buffer of the layer */
	bool opaque;			/* its content is opaque */
	struct session_layer_props props;
	int32_t recorded;		/* hwc_composition_type, 0 when not recorded */
	bool dataspace_unknown;		/* the dataspace text was not understood (sent as 0) */
};

struct ws_stack {
	struct ws_layer *layers;	/* bottom first; owned */
	size_t count;
	bool composition_state;		/* visible regions and decisions came from the trace */
	uint32_t duplicates;		/* layers of the entry left out: their id was an earlier layer's */
	int32_t duplicate_id;		/* one such id */
};

/*
 * Builds the stack of `entry` (index `index`, at byte `offset` of input
 * `name`) on display d. Returns 0, or -EINVAL for a buffer beyond opts'
 * limits or -ENOMEM, with err set.
 */
int ws_stack_build(struct ws_stack *stack, const Winscope__LayersTraceProto *entry, const struct ws_display *d,
	const struct winscope_options *opts, const char *name, uint64_t offset, size_t index,
	struct hwct_error *err);

/* Frees what stack holds. */
void ws_stack_finish(struct ws_stack *stack);

/*
 * Picks the display to import from the entries (opts->display, else the
 * first physical one; a trace without DisplayProto falls back to
 * LayersProto.resolution) into *d; *skipped gets how many other displays the
 * trace has. Returns 0 or -EINVAL with err set.
 */
int ws_display_select(const Winscope__LayersTraceProto *const *entries, size_t count,
	const struct winscope_options *opts, const char *name, struct ws_display *d, uint32_t *skipped,
	struct hwct_error *err);

/* d as entry shows it (its layer stack and viewport there), when the entry lists it. */
void ws_display_update(struct ws_display *d, const Winscope__LayersTraceProto *entry);

#endif
