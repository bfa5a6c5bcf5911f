/*
 * The transaction trace of tests/data/winscope rebuilt at each snapshot
 * time of the layer trace SurfaceFlinger recorded in the same session, and
 * compared with that snapshot on the physical display, through the layer
 * importer's own stack builder (analyzers/winscope/winscope_stack.h): which
 * layers are visible, in which order, with which display frames.
 *
 * Usage: rebuild-test LAYER_TRACE TRANSACTION_TRACE
 *
 * Prints per snapshot the agreement figure (layers visible on both sides
 * with the same display frame, over the layers visible on either side) and
 * every disagreement with its layer; fails when the order of the common
 * layers differs, or when a disagreement is not one of the kinds that
 * docs/import.md explains (see explained()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "files.h"
#include "tnx_import.h"
#include "winscope_read.h"
#include "winscope_stack.h"

#define MAX_SNAPSHOTS 16

static const struct ws_layer *find(const struct ws_stack *s, int32_t id, size_t *pos)
{
	for (size_t i = 0; i < s->count; i++) {
		if (s->layers[i].id == id) {
			*pos = i;
			return &s->layers[i];
		}
	}
	return NULL;
}

static bool same_frame(const struct hwct_rect *a, const struct hwct_rect *b)
{
	return a->left == b->left && a->top == b->top && a->right == b->right && a->bottom == b->bottom;
}

static bool near(float a, float b)
{
	return a - b < 0.5f && b - a < 0.5f;
}

/* What else of a layer must agree: buffer, crop, transform, alpha, colour fill. */
static const char *other_difference(const struct ws_layer *a, const struct ws_layer *b)
{
	const struct hwct_frect *x = &a->props.source_crop, *y = &b->props.source_crop;

	if (a->color != b->color || a->width != b->width || a->height != b->height) {
		return "content (buffer size or colour fill)";
	}
	if (!near(x->left, y->left) || !near(x->top, y->top) || !near(x->right, y->right) || !near(x->bottom, y->bottom)) {
		return "source crop";
	}
	if (a->props.transform != b->props.transform) {
		return "transform";
	}
	if (!near(a->props.plane_alpha * 255, b->props.plane_alpha * 255)) {
		return "plane alpha";
	}
	return NULL;
}

/* Display ids listed in e, as "NAME, NAME". */
static void display_names(const Winscope__LayersTraceProto *e, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < e->n_displays && used < size; i++) {
		used += (size_t)snprintf(out + used, size - used, "%s%s (layer stack %" PRIu32 ")", i ? ", " : "",
			e->displays[i]->name ? e->displays[i]->name : "?", e->displays[i]->layer_stack);
	}
}

/* The recorded layer with id in entry e, NULL if none. */
static const Winscope__LayerProto *recorded_layer(const Winscope__LayersTraceProto *e, int32_t id)
{
	for (size_t i = 0; e->layers && i < e->layers->n_layers; i++) {
		if (e->layers->layers[i]->id == id) {
			return e->layers->layers[i];
		}
	}
	return NULL;
}

/*
 * Why a layer the rebuild shows is not in SurfaceFlinger's stack, when the
 * reason is one the transaction trace cannot carry: SurfaceFlinger's own
 * visible region of it is empty (it is covered, e.g. by an opaque layer
 * whose content the rebuild cannot know to be opaque, or cut by rounded
 * corners / transparent regions), while the layer exists there with the
 * same buffer and on-screen bounds.
 */
static const char *explained(const Winscope__LayersTraceProto *rec, const struct ws_layer *reb)
{
	const Winscope__LayerProto *l = recorded_layer(rec, reb->id);

	if (!l) {
		return NULL;
	}
	if (!l->visible_region || !l->visible_region->n_rect) {
		return "SurfaceFlinger's visible region of it is empty (covered or cut: composition state the "
			"transaction trace does not carry)";
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct winscope_options wopts;
	struct ws_trace rec = { 0 }, reb = { 0 };
	struct tnx_options to = { 0 };
	struct tnx_report tr;
	struct hwct_error err;
	int64_t at[MAX_SNAPSHOTS];
	uint8_t *layers, *tnx, *rebuilt;
	size_t layers_size, tnx_size, rebuilt_size;
	unsigned unexplained = 0;

	CHECK(argc == 3, "usage: rebuild-test LAYER_TRACE TRANSACTION_TRACE");
	winscope_options_init(&wopts);
	layers = test_read_file(argv[1], &layers_size);
	tnx = test_read_file(argv[2], &tnx_size);
	CHECK(ws_trace_read(&rec, layers, layers_size, argv[1], &wopts, &err) == 0, "%s", err.message);
	CHECK(rec.count <= MAX_SNAPSHOTS, "too many snapshots");
	for (size_t i = 0; i < rec.count; i++) {
		at[i] = rec.entries[i].msg->elapsed_realtime_nanos;
	}
	to.at = at;
	to.at_count = rec.count;
	to.max_layers = wopts.max_layers;
	CHECK(tnx_import(tnx, tnx_size, argv[2], &to, &rebuilt, &rebuilt_size, &tr, &err) == 0, "%s", err.message);
	CHECK(tr.written == rec.count, "%" PRIu64 " rebuilt entries for %zu snapshots", tr.written, rec.count);
	CHECK(ws_trace_read(&reb, rebuilt, rebuilt_size, "rebuilt", &wopts, &err) == 0, "%s", err.message);
	printf("%s: %zu snapshots; %s: %" PRIu64 " entries rebuilt at their times (display %" PRIu32 "x%" PRIu32
		" %s)\n", argv[1], rec.count, argv[2], tr.entries, tr.width, tr.height,
		tr.size_inferred ? "from the largest buffer" : "given");
	for (size_t i = 0; i < rec.count; i++) {
		const Winscope__LayersTraceProto *re = rec.entries[i].msg, *be = reb.entries[i].msg;
		const Winscope__LayersTraceProto *re_list[1] = { re }, *be_list[1] = { be };
		struct ws_display drec, dreb;
		struct ws_stack srec, sreb;
		uint32_t skipped;
		size_t both = 0, same = 0, union_count, last_pos = 0;
		bool order = true;

		CHECK(ws_display_select(re_list, 1, &wopts, argv[1], &drec, &skipped, &err) == 0, "%s", err.message);
		CHECK(ws_display_select(be_list, 1, &wopts, "rebuilt", &dreb, &skipped, &err) == 0, "%s", err.message);
		CHECK(drec.layer_stack == dreb.layer_stack, "layer stacks %" PRIu32 " and %" PRIu32, drec.layer_stack,
			dreb.layer_stack);
		CHECK(ws_stack_build(&srec, re, &drec, &wopts, argv[1], 0, i, &err) == 0, "%s", err.message);
		CHECK(ws_stack_build(&sreb, be, &dreb, &wopts, "rebuilt", 0, i, &err) == 0, "%s", err.message);
		for (size_t k = 0; k < srec.count; k++) {
			const struct ws_layer *a = &srec.layers[k], *b;
			size_t pos;

			b = find(&sreb, a->id, &pos);
			if (!b) {
				printf("  snapshot %zu: only recorded: layer %d '%s'\n", i, a->id, a->name);
				unexplained++;
				continue;
			}
			both++;
			if (pos < last_pos) {
				order = false;
			}
			last_pos = pos;
			if (same_frame(&a->props.display_frame, &b->props.display_frame) && !other_difference(a, b)) {
				same++;
			} else if (same_frame(&a->props.display_frame, &b->props.display_frame)) {
				printf("  snapshot %zu: layer %d '%s': %s differs\n", i, a->id, a->name, other_difference(a, b));
				unexplained++;
			} else {
				printf("  snapshot %zu: layer %d '%s': display frame recorded [%d %d %d %d], rebuilt "
					"[%d %d %d %d]\n", i, a->id, a->name, a->props.display_frame.left,
					a->props.display_frame.top, a->props.display_frame.right, a->props.display_frame.bottom,
					b->props.display_frame.left, b->props.display_frame.top, b->props.display_frame.right,
					b->props.display_frame.bottom);
				unexplained++;
			}
		}
		for (size_t k = 0; k < sreb.count; k++) {
			size_t pos;

			if (!find(&srec, sreb.layers[k].id, &pos)) {
				const char *why = explained(re, &sreb.layers[k]);

				printf("  snapshot %zu: only rebuilt: layer %d '%s': %s\n", i, sreb.layers[k].id,
					sreb.layers[k].name, why ? why : "UNEXPLAINED");
				unexplained += !why;
			}
		}
		union_count = srec.count + sreb.count - both;
		printf("snapshot %zu (%.3f s): recorded %zu visible layers, rebuilt %zu; on both %zu, %s order; same "
			"display frame, crop, transform, alpha and content %zu; agreement %zu/%zu = %.0f %%\n", i, at[i] / 1e9, srec.count, sreb.count, both,
			order ? "same" : "DIFFERENT", same, same, union_count, union_count ? 100.0 * same / union_count : 100);
		CHECK_MSG(order, "snapshot %zu: the common layers are in another order", i);
		{
			size_t alive_both = 0, nrec = re->layers ? re->layers->n_layers : 0, nreb = be->layers->n_layers;

			for (size_t k = 0; k < nreb; k++) {
				alive_both += recorded_layer(re, be->layers->layers[k]->id) != NULL;
			}
			printf("  layers alive: recorded %zu, rebuilt %zu, on both %zu\n", nrec, nreb, alive_both);
		}
		{
			char a[256], b[256];

			display_names(re, a, sizeof(a));
			display_names(be, b, sizeof(b));
			printf("  displays recorded: %s; rebuilt: %s\n", a, b);
		}
		ws_stack_finish(&srec);
		ws_stack_finish(&sreb);
	}
	CHECK_MSG(unexplained == 0, "%u disagreements not explained", unexplained);
	ws_trace_finish(&rec);
	ws_trace_finish(&reb);
	free(layers);
	free(tnx);
	free(rebuilt);
	return 0;
}
