/* Finding and unpacking the entries of a layer trace (winscope_read.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winscope_perfetto.h"
#include "winscope_read.h"
#include "winscope_wire.h"

#define MAX_ENTRIES 1000000u

int ws_trace_add(struct ws_trace *t, size_t *cap, uint64_t offset, uint64_t size, const char *name,
	struct hwct_error *err)
{
	if (t->count == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct ws_entry *e;

		if (t->count >= MAX_ENTRIES) {
			return hwct_error_set(err, -EINVAL, name, offset,
				"more than %u entries: not a plausible layer trace", MAX_ENTRIES);
		}
		e = realloc(t->entries, n * sizeof(*e));
		if (!e) {
			return hwct_error_set(err, -ENOMEM, name, offset, "out of memory");
		}
		t->entries = e;
		*cap = n;
	}
	t->entries[t->count++] = (struct ws_entry){ .offset = offset, .size = (size_t)size };
	return 0;
}

static void magic_text(uint64_t v, char out[9])
{
	for (unsigned i = 0; i < 8; i++) {
		char c = (char)(v >> (8 * i));

		out[i] = c >= 0x20 && c < 0x7f ? c : '.';
	}
	out[8] = '\0';
}

/*
 * Winscope trace files start with field 1, a fixed64 of 8 letters
 * ("LYRTRACE", "WINTRACE", ...); a lone LayersTraceProto starts with field
 * 1 too, but as a timestamp (whose high bytes are never letters).
 */
static bool looks_like_magic(const uint8_t *data, size_t size)
{
	if (size < 9 || data[0] != 0x09) {
		return false;
	}
	for (unsigned i = 1; i < 9; i++) {
		if (!((data[i] >= 'A' && data[i] <= 'Z') || (data[i] >= 'a' && data[i] <= 'z'))) {
			return false;
		}
	}
	return true;
}

/* LayersTraceFileProto: field 1 magic, 2 entries, 3 clock offset; the rest skipped. */
static int walk_file(struct ws_trace *t, struct ws_walker *wk, size_t *cap)
{
	struct ws_field f;
	int ret;

	for (;;) {
		snprintf(wk->context, sizeof(wk->context), "entry %zu: ", t->count);
		ret = ws_wire_next(wk, &f);
		if (ret <= 0) {
			break;
		}
		wk->context[0] = '\0';
		if (f.number == 1 && f.type == WS_WIRE_I64 && f.value != WS_MAGIC) {
			char text[9];

			magic_text(f.value, text);
			return ws_wire_fail(wk, f.offset, "magic \"%s\" is not a SurfaceFlinger layer trace's (\"LYRTRACE\")",
				text);
		}
		if (f.number == 2 && f.type == WS_WIRE_LEN) {
			ret = ws_trace_add(t, cap, f.data_offset, f.length, wk->name, wk->err);
			if (ret < 0) {
				return ret;
			}
		} else if (f.number == 2 || (f.number == 1 && f.type != WS_WIRE_I64)) {
			return ws_wire_fail(wk, f.offset, "entry %zu: malformed: field %" PRIu32 " has wire type %u", t->count,
				f.number, (unsigned)f.type);
		} else if (f.number == 3 && f.type == WS_WIRE_I64) {
			t->has_real_offset = true;
			t->real_to_elapsed_ns = f.value;
		}
	}
	if (ret < 0) {
		return ret;
	}
	if (!t->count) {
		return ws_wire_fail(wk, wk->size, "the layer trace has no entries");
	}
	return 0;
}

/*
 * Without the wrapper: a LayersProto has its layers (messages) in field 1;
 * a LayersTraceProto has a fixed64 or nothing in field 1 and its layers in
 * field 3. Walks the top level to tell them apart.
 */
static int guess_shape(struct ws_walker *wk, enum ws_shape *shape)
{
	bool layers_list = false, entry = false;
	struct ws_field f;
	int ret;

	snprintf(wk->context, sizeof(wk->context),
		"not a layer trace (no \"LYRTRACE\" magic; read as a lone LayersTraceProto or LayersProto): ");
	while ((ret = ws_wire_next(wk, &f)) > 0) {
		if (f.number == 1 && f.type == WS_WIRE_LEN) {
			layers_list = true;
		} else if ((f.number == 1 && f.type == WS_WIRE_I64) || (f.number == 3 && f.type == WS_WIRE_LEN) ||
			(f.number == 7 && f.type == WS_WIRE_LEN)) {
			entry = true;
		}
	}
	if (ret < 0) {
		return ret;
	}
	if (layers_list == entry) {
		return ws_wire_fail(wk, 0, "no layers and no entry fields at the top level");
	}
	*shape = layers_list ? WS_SHAPE_LAYERS : WS_SHAPE_ENTRY;
	return 0;
}

static int check_entry(const struct ws_entry *e, size_t index, size_t count, const char *name,
	const struct winscope_options *opts, struct hwct_error *err)
{
	const Winscope__LayersProto *layers = e->msg->layers;

	if (layers && layers->n_layers > opts->max_layers) {
		return hwct_error_set(err, -EINVAL, name, e->offset,
			"entry %zu of %zu: %zu layers (the limit is %" PRIu32 "): not a plausible layer trace",
			index, count, layers->n_layers, opts->max_layers);
	}
	if (e->msg->n_displays > 256) {
		return hwct_error_set(err, -EINVAL, name, e->offset,
			"entry %zu of %zu: %zu displays: not a plausible layer trace", index, count,
			e->msg->n_displays);
	}
	return 0;
}

static int unpack_entries(struct ws_trace *t, const uint8_t *data, const char *name,
	const struct winscope_options *opts, struct hwct_error *err)
{
	for (size_t i = 0; i < t->count; i++) {
		struct ws_entry *e = &t->entries[i];
		const uint8_t *p = data + e->offset;
		int ret;

		if (t->shape == WS_SHAPE_LAYERS) {
			Winscope__LayersProto *layers = winscope__layers_proto__unpack(NULL, e->size, p);

			e->msg = layers ? malloc(sizeof(*e->msg)) : NULL;
			if (e->msg) {
				winscope__layers_trace_proto__init(e->msg);
				e->msg->layers = layers;
				e->shell = true;
			} else if (layers) {
				winscope__layers_proto__free_unpacked(layers, NULL);
				return hwct_error_set(err, -ENOMEM, name, e->offset, "out of memory");
			}
		} else {
			e->msg = winscope__layers_trace_proto__unpack(NULL, e->size, p);
		}
		if (!e->msg) {
			return hwct_error_set(err, -EINVAL, name, e->offset,
				"entry %zu of %zu (%zu bytes): not a valid %s (protobuf-c could not unpack it: a "
				"field of the wrong type, or a truncated or corrupt nested message)", i, t->count,
				e->size, t->shape == WS_SHAPE_LAYERS ? "LayersProto" :
				t->shape == WS_SHAPE_PERFETTO ? "LayersSnapshotProto" : "LayersTraceProto");
		}
		ret = check_entry(e, i, t->count, name, opts, err);
		if (ret < 0) {
			return ret;
		}
	}
	return 0;
}

int ws_trace_read(struct ws_trace *t, const uint8_t *data, size_t size, const char *name,
	const struct winscope_options *opts, struct hwct_error *err)
{
	struct ws_walker wk = { .data = data, .size = size, .name = name, .err = err };
	size_t cap = 0;
	int ret;

	*t = (struct ws_trace){ 0 };
	if (size == 0) {
		return hwct_error_set(err, -EINVAL, name, 0, "empty file");
	}
	if (size > opts->max_input) {
		return hwct_error_set(err, -EINVAL, name, UINT64_MAX,
			"%zu bytes: larger than the limit of %" PRIu64 " bytes", size, opts->max_input);
	}
	if (ws_perfetto_detect(data, size)) {
		t->shape = WS_SHAPE_PERFETTO;
		ret = ws_perfetto_walk(t, &wk, &cap);
	} else if (looks_like_magic(data, size)) {	/* field 1, fixed64, 8 letters: a Winscope file's magic */
		t->shape = WS_SHAPE_FILE;
		ret = walk_file(t, &wk, &cap);
	} else {
		ret = guess_shape(&wk, &t->shape);
		ret = ret < 0 ? ret : ws_trace_add(t, &cap, 0, size, name, err);
	}
	ret = ret < 0 ? ret : unpack_entries(t, data, name, opts, err);
	if (ret < 0) {
		ws_trace_finish(t);
	}
	return ret;
}

void ws_trace_finish(struct ws_trace *t)
{
	for (size_t i = 0; i < t->count; i++) {
		struct ws_entry *e = &t->entries[i];

		if (e->shell && e->msg) {
			winscope__layers_proto__free_unpacked(e->msg->layers, NULL);
			free(e->msg);
		} else if (e->msg) {
			winscope__layers_trace_proto__free_unpacked(e->msg, NULL);
		}
	}
	free(t->entries);
	*t = (struct ws_trace){ 0 };
}
