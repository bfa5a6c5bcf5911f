/*
 * SurfaceFlinger transaction traces rebuilt into layer stacks
 * (docs/import.md, "Transaction traces"): the entries are read (legacy
 * TNXTRACE file or Perfetto packets, field 94), SurfaceFlinger's front-end
 * layer state is rebuilt from the starting state and then each
 * transaction in order, and the state at chosen times is written as layer
 * trace entries (Winscope's LayerProto model), which the layer-trace
 * importer (analyzers/winscope/) turns into display frames.
 */
#ifndef HWCT_TNX_H
#define HWCT_TNX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

#include "transactions.pb-c.h"
#include "winscope.pb-c.h"

#define TNX_NONE 0xffffffffu		/* no parent / relative parent */
#define TNX_MAX_DISPLAYS 16

struct tnx_layer {
	uint32_t id;
	char *name;			/* owned */
	uint32_t create_flags;		/* ISurfaceComposerClient flags it was created with */
	uint32_t parent;		/* TNX_NONE: a root, or offscreen when `offscreen` */
	bool offscreen;			/* reparented to nothing: not drawn */
	uint32_t relative;		/* relative-z parent, TNX_NONE */
	int32_t z;
	uint32_t layer_stack;
	float x, y;			/* position */
	float m[4];			/* matrix: dsdx, dtdx, dtdy, dsdy */
	uint32_t flags;			/* layer_state_t flags: 0x01 hidden, 0x02 opaque, 0x80 secure */
	float alpha;
	float r, g, b;			/* fill colour; negative: none */
	int32_t crop[4];		/* left, top, right, bottom; empty: none */
	int32_t buffer_crop[4];
	int32_t dest[4];		/* destination frame; empty: none */
	bool has_buffer;
	uint32_t buf_w, buf_h;		/* pixels */
	int32_t format;			/* PIXEL_FORMAT_* */
	uint64_t frame;			/* frame number of the buffer */
	uint32_t transform;		/* buffer transform, HAL_TRANSFORM_* */
	bool mirror;			/* a mirror of another layer or layer stack (not rebuilt) */
};

struct tnx_display {
	int32_t id;			/* DisplayState.id */
	uint32_t layer_stack;
	int32_t rect[4];		/* layer_stack_space_rect, may be empty */
	uint32_t width, height;		/* pixels, 0 unknown */
};

/* What the rebuild met that its rules do not cover: said once in the output and the notes. */
struct tnx_gaps {
	uint64_t unknown_layers;	/* changes to layers never created */
	uint64_t mirrors;		/* mirror layers (drawn as empty containers) */
	uint64_t duplicate_creations;	/* a layer created twice (the later one kept) */
	uint64_t display_transforms;	/* display orientation changes (not applied) */
};

struct tnx_state {
	struct tnx_layer *layers;	/* owned, sorted by id */
	size_t count, cap;
	struct tnx_display displays[TNX_MAX_DISPLAYS];
	size_t display_count;
	int64_t time_ns;		/* of the last entry applied */
	struct tnx_gaps gaps;
	uint32_t max_layers;		/* limit; creations past it fail */
};

/* Starts an empty state allowing max_layers layers. */
void tnx_state_init(struct tnx_state *s, uint32_t max_layers);

/* Frees what s holds. */
void tnx_state_finish(struct tnx_state *s);

/* The layer with id, or NULL. */
struct tnx_layer *tnx_state_find(struct tnx_state *s, uint32_t id);

/* The index in s->layers of the layer with id, or s->count when there is none. */
size_t tnx_state_index(const struct tnx_state *s, uint32_t id);

/* Applies entry e (borrowed). Returns 0, -ENOMEM, or -E2BIG past max_layers. */
int tnx_state_apply(struct tnx_state *s, const Tnx__TransactionTraceEntry *e);

/*
 * The state as a layer trace entry (Winscope LayersTraceProto), allocated
 * in *out (free with tnx_entry_free()): every layer with the geometry
 * SurfaceFlinger's front end derives (transforms, bounds, crops, alpha,
 * inherited layer stack), and one DisplayProto per display (the first, on
 * layer stack 0, of size width x height: the trace records no physical
 * display). Returns 0 or -ENOMEM.
 */
int tnx_entry_make(const struct tnx_state *s, uint32_t width, uint32_t height, Winscope__LayersTraceProto **out);

/* Frees an entry of tnx_entry_make() (NULL accepted). */
void tnx_entry_free(Winscope__LayersTraceProto *e);

struct tnx_trace {
	Tnx__TransactionTraceEntry **entries;	/* owned */
	size_t count;
	bool perfetto;
	uint64_t packets;		/* Perfetto: packets read */
};

/*
 * Reads the transaction trace in data (size bytes, borrowed; name for
 * messages): a TransactionTraceFile (magic TNXTRACE) or a Perfetto trace
 * (packets' field 94). Returns 0 or -EINVAL / -ENOMEM with *err naming the
 * input, the offset and the entry.
 */
int tnx_trace_read(struct tnx_trace *t, const uint8_t *data, size_t size, const char *name, struct hwct_error *err);

/* Frees what t holds. */
void tnx_trace_finish(struct tnx_trace *t);

#endif
