/*
 * The display size when the trace records none (no DisplayProto.size, no
 * LayersProto.resolution): taken from what the entries imply, in this order
 * (docs/winscope.md, "Display size"):
 *   1. the display's layer_stack_space_rect (the layer-stack area shown on it);
 *   2. the largest bounds of a root layer on its layer stack that starts in
 *      the display's quadrant and fits the size limit (SurfaceFlinger gives
 *      root containers +-50000 "infinite" bounds, which do not fit);
 *   3. the largest screen bounds of any layer on its layer stack.
 */
#ifndef HWCT_WINSCOPE_SIZE_H
#define HWCT_WINSCOPE_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "winscope.pb-c.h"

enum ws_size_source {
	WS_SIZE_NONE,			/* nothing implies a size */
	WS_SIZE_RECORDED,		/* DisplayProto.size or LayersProto.resolution */
	WS_SIZE_OPTION,			/* --size */
	WS_SIZE_STACK_RECT,		/* 1. */
	WS_SIZE_ROOT_BOUNDS,		/* 2. */
	WS_SIZE_LAYER_BOUNDS,		/* 3. */
};

/*
 * Infers the size of the display showing layer stack `stack` (its
 * DisplayProto id `id`, or has_id false when the trace lists none) from
 * count entries (borrowed), sides at most max_dimension. Returns the source
 * with *w, *h set, or WS_SIZE_NONE.
 */
enum ws_size_source ws_size_infer(const Winscope__LayersTraceProto *const *entries, size_t count, bool has_id,
	uint64_t id, uint32_t stack, uint32_t max_dimension, uint32_t *w, uint32_t *h);

/* What source says, for reports: "recorded", "inferred from the root layers' bounds", ... */
const char *ws_size_source_text(enum ws_size_source source);

#endif
