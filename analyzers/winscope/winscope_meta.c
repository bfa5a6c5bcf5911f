/* The Environment, Note and session configuration of an import (winscope_import.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winscope_content.h"
#include "winscope_import.h"

#define HWC_DUMP_MAX (64u << 10)	/* of the composer's dump kept in the Environment */
#define PLANES 4096u			/* the stand-in rule never moves a layer: decisions are the trace's */

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
	va_list args;
	char *s;
	int n;

	va_start(args, fmt);
	n = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (s) {
		va_start(args, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, args);
		va_end(args);
	}
	return s;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static const char *shape_name(enum ws_shape shape)
{
	switch (shape) {
	case WS_SHAPE_FILE:
		return "LayersTraceFileProto";
	case WS_SHAPE_ENTRY:
		return "LayersTraceProto (a single dump)";
	case WS_SHAPE_PERFETTO:
		return "Perfetto trace (LayersSnapshotProto packets)";
	default:
		return "LayersProto (a single dump)";
	}
}

/* Appends key = value (value owned by m from now on); false when out of memory or room. */
static bool add(struct ws_meta *m, size_t *n, const char *key, char *value)
{
	if (!value || *n == WS_META_EXTRA) {
		free(value);
		return false;
	}
	m->strings[*n] = value;
	hwct__key_value__init(&m->extra[*n]);
	m->extra[*n].key = (char *)key;
	m->extra[*n].value = value;
	m->extra_ptrs[*n] = &m->extra[*n];
	(*n)++;
	return true;
}

struct tally {
	size_t with_state;
	uint64_t unknown_dataspaces;
	char formats[128];		/* the substituted HAL formats, "0x2b, ..." */
};

static void tally_of(struct tally *t, const struct ws_stack *stacks, size_t count)
{
	int32_t seen[8];
	size_t n = 0, len = 0;

	*t = (struct tally){ 0 };
	for (size_t i = 0; i < count; i++) {
		t->with_state += stacks[i].composition_state;
		for (size_t k = 0; k < stacks[i].count; k++) {
			const struct ws_layer *wl = &stacks[i].layers[k];
			bool known = false;

			t->unknown_dataspaces += wl->dataspace_unknown;
			if (wl->color || wl->format == 1 ||
				ws_content_format(wl->format, wl->width, wl->height) != PATTERN_RGBA8888) {
				continue;
			}
			for (size_t j = 0; j < n; j++) {
				known = known || seen[j] == wl->format;
			}
			if (!known && n < 8) {
				seen[n++] = wl->format;
				len += (size_t)snprintf(t->formats + len, sizeof(t->formats) - len, "%s%#" PRIx32,
					len ? ", " : "", (uint32_t)wl->format);
				len = len < sizeof(t->formats) ? len : sizeof(t->formats) - 1;
			}
		}
	}
}

static char *note_text(const struct ws_trace *t, const struct ws_display *d, const struct winscope_report *rep,
	const struct tally *tl, const char *name)
{
	return format("Imported by hwc-trace import-winscope from the SurfaceFlinger layer trace %s (%s, %zu "
		"entries), display %" PRIu64 " '%s' (%" PRIu32 "x%" PRIu32 ", layer stack %" PRIu32 "). "
		"%s"
		"From the trace: one display frame per entry, its visible layers in z-order with their geometry, "
		"alpha, dataspace and buffer size, and %s. "
		"Synthesized: the pixel content of every buffer (a pattern of the layer id and the buffer's frame "
		"number: corner markers, a 64-pixel grid, text; capture status SYNTHETIC)%s, the HWC2 call "
		"sequence around the recorded state, the fences and every timestamp inside a frame (the frame's "
		"first call is at the entry's elapsed_realtime_nanos, the vsync period assumed 60 Hz), and the "
		"client target's content. See docs/winscope.md.",
		base_name(name), shape_name(t->shape), t->count, d->id, d->name, d->view.width, d->view.height,
		d->layer_stack, rep->display_count > 1 ? "With the other displays of the trace (Environment "
		"'displays'), each hotplugged at the first entry listing it. " : "",
		tl->with_state ? "the device's composition type of each layer (hwc_composition_type) as the outcome "
			"of validateDisplay" : "no composition decisions (the trace excludes composition state: "
			"every layer is recorded as composed the way SurfaceFlinger asked)",
		rep->formats_substituted ? " in RGBA_8888 (or NV12 for YUV) instead of the recorded format" : "");
}

int ws_meta_init(struct ws_meta *m, const struct ws_trace *t, const struct ws_display *d,
	const struct winscope_report *rep, const struct ws_stack *stacks, const char *name, const char *origin_note)
{
	const Winscope__LayersTraceProto *first = t->entries[0].msg;
	const char *dump = NULL;
	struct tally tl;
	size_t n = 0;
	bool ok = true;

	memset(m, 0, sizeof(*m));
	tally_of(&tl, stacks, t->count);
	for (size_t i = 0; i < t->count && !dump; i++) {
		dump = t->entries[i].msg->hwc_blob && *t->entries[i].msg->hwc_blob ? t->entries[i].msg->hwc_blob : NULL;
	}
	ok = ok && add(m, &n, "winscope-file", format("%s", base_name(name)));
	ok = ok && add(m, &n, "winscope-shape", format("%s, %zu entries", shape_name(t->shape), t->count));
	ok = ok && add(m, &n, "display", format("%" PRIu64 " '%s', layer stack %" PRIu32 ", %" PRIu32 "x%" PRIu32
		" pixels", d->id, d->name, d->layer_stack, d->view.width, d->view.height));
	if (rep->display_count > 1) {
		char list[1024];
		size_t len = 0;

		for (uint32_t k = 0; k < rep->display_count && len < sizeof(list); k++) {
			const struct winscope_display_report *dr = &rep->displays[k];

			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%" PRIu64 ": %" PRIu64 " '%s'%s %"
				PRIu32 "x%" PRIu32 " (%s)", k ? "; " : "", dr->hwc2_id, dr->id, dr->name,
				dr->is_virtual ? " virtual" : "", dr->width, dr->height, dr->size_source);
		}
		ok = ok && add(m, &n, "displays", format("%s", list));
	}
	ok = ok && add(m, &n, "display-size", format("%s", rep->size_source ? rep->size_source : "recorded"));
	if (rep->duplicates) {
		ok = ok && add(m, &n, "duplicated-layer-ids", format("%" PRIu32 " layers in one entry repeat an "
			"earlier layer's id (e.g. %" PRId32 "); left out", rep->duplicates, rep->duplicate_id));
	}
	ok = ok && add(m, &n, "displays-not-imported", format("%" PRIu32, rep->displays_skipped));
	ok = ok && add(m, &n, "composition-state", format("%zu of %zu entries", tl.with_state, t->count));
	ok = ok && add(m, &n, "vsync-period-ns", format("%u (assumed: layer traces do not record it)",
		WS_VSYNC_PERIOD_NS));
	if (tl.formats[0]) {
		ok = ok && add(m, &n, "formats-substituted", format("HAL formats %s drawn as RGBA_8888", tl.formats));
	}
	if (tl.unknown_dataspaces) {
		ok = ok && add(m, &n, "dataspaces-unknown", format("%" PRIu64 " layer uses with a dataspace text "
			"not understood, sent as 0 (UNKNOWN)", tl.unknown_dataspaces));
	}
	if (t->has_real_offset) {
		ok = ok && add(m, &n, "real-to-elapsed-offset-ns", format("%" PRIu64, t->real_to_elapsed_ns));
	}
	if (dump) {
		ok = ok && add(m, &n, "hwc-dump", format("%.*s", (int)HWC_DUMP_MAX, dump));
	}
	m->strings[WS_META_EXTRA] = format("import-winscope:%s", base_name(name));
	m->strings[WS_META_EXTRA + 1] = note_text(t, d, rep, &tl, name);
	if (origin_note && m->strings[WS_META_EXTRA + 1]) {
		char *both = format("%s %s", origin_note, m->strings[WS_META_EXTRA + 1]);

		free(m->strings[WS_META_EXTRA + 1]);
		m->strings[WS_META_EXTRA + 1] = both;
	}
	if (!ok || !m->strings[WS_META_EXTRA] || !m->strings[WS_META_EXTRA + 1]) {
		return -ENOMEM;
	}
	hwct__environment__init(&m->env);
	m->env.source = m->strings[WS_META_EXTRA];
	m->env.process = "surfaceflinger (from a layer trace; calls synthesized by hwc-trace import-winscope)";
	m->env.hwc2_module = "the traced device (decisions as recorded in hwc_composition_type)";
	if (first->has_elapsed_realtime_nanos && first->elapsed_realtime_nanos > 0) {
		m->env.has_clock_monotonic_ns = true;
		m->env.clock_monotonic_ns = (uint64_t)first->elapsed_realtime_nanos;
		if (t->has_real_offset) {
			m->env.has_clock_realtime_ns = true;
			m->env.clock_realtime_ns = m->env.clock_monotonic_ns + t->real_to_elapsed_ns;
		}
	}
	m->env.n_extra = n;
	m->env.extra = m->extra_ptrs;
	m->config = (struct session_config){
		.name = "import-winscope",
		.width = d->view.width,
		.height = d->view.height,
		.vsync_period_ns = WS_VSYNC_PERIOD_NS,
		.dpi = d->dpi,
		.device = { .planes = PLANES, .solid_color = true, .yuv = true },
		.note = m->strings[WS_META_EXTRA + 1],
		.environment = &m->env,
		.note_replaces = true,
		.display_name = d->name[0] ? d->name : NULL,
	};
	return 0;
}

void ws_meta_finish(struct ws_meta *m)
{
	for (size_t i = 0; i < WS_META_EXTRA + 2; i++) {
		free(m->strings[i]);
		m->strings[i] = NULL;
	}
}
