/*
 * The "kinds" trace (gen.h): records of every kind on two displays, each
 * written record listed in a struct gen_trace for the tests to compare.
 */
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/writer.h>

#include "gen.h"
#include "testutil.h"

#define T0 1000000000000ull		/* ns */
#define FRAME_NS 16666666ull
#define IMG_W 64
#define IMG_H 48
#define IMG_BPP 4

struct gen {
	struct gen_writer core;
	struct gen_trace *t;
	uint64_t ends;			/* FrameEnds written */
	uint64_t buffers[8];
	size_t buffer_count;
	struct hwct_hash last_content;
	bool has_last_content;
};

static void note_time(struct gen_trace *t, uint64_t ns)
{
	if (!t->t_first || ns < t->t_first) {
		t->t_first = ns;
	}
	if (ns > t->t_last) {
		t->t_last = ns;
	}
}

static void count_call(struct gen_trace *t, int32_t function)
{
	for (size_t i = 0; i < t->function_count; i++) {
		if (t->functions[i].function == function) {
			t->functions[i].calls++;
			return;
		}
	}
	CHECK(t->function_count < sizeof(t->functions) / sizeof(t->functions[0]));
	t->functions[t->function_count++] = (struct gen_count){ function, 1 };
}

/* Every record written: listed in t->items, counted, its times noted (gen_writer.written). */
static void written(void *ctx, const Hwct__Record *rec)
{
	struct gen *g = ctx;
	struct gen_trace *t = g->t;
	struct gen_item *item;

	t->items = realloc(t->items, (t->count + 1) * sizeof(*t->items));
	CHECK(t->items);
	item = &t->items[t->count++];
	*item = (struct gen_item){ .kind = rec->kind_case, .frame = g->ends };
	t->by_kind[rec->kind_case]++;
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		item->key = rec->call->seq;
		item->function = rec->call->function;
		item->display = rec->call->display;
		item->has_layer = rec->call->has_layer;
		item->layer = rec->call->layer;
		if (rec->call->args_case == HWCT__CALL__ARGS_BUFFER) {
			item->buffer = rec->call->buffer->buffer;
			item->fence = rec->call->buffer->fence;
			item->has_content = rec->call->buffer->has_content;
			if (item->has_content) {
				CHECK(hwct_hash_from_bytes(&item->content, rec->call->buffer->content.data,
					rec->call->buffer->content.len));
			}
		}
		count_call(t, rec->call->function);
		note_time(t, rec->call->t_enter_ns);
		note_time(t, rec->call->t_exit_ns);
		break;
	case HWCT__RECORD__KIND_FRAME_END:
		item->key = rec->frame_end->frame;
		g->ends++;
		t->frames_by_display[rec->frame_end->display]++;
		note_time(t, rec->frame_end->t_ns);
		break;
	case HWCT__RECORD__KIND_FENCE:
		item->key = rec->fence->id;
		t->distinct_fences++;
		note_time(t, rec->fence->created_ns);
		note_time(t, rec->fence->signal_ns);
		break;
	case HWCT__RECORD__KIND_BUFFER:
		item->key = rec->buffer->id;
		break;
	case HWCT__RECORD__KIND_DISPLAY:
		item->key = rec->display->id;
		break;
	case HWCT__RECORD__KIND_CALLBACK:
		note_time(t, rec->callback->t_ns);
		break;
	case HWCT__RECORD__KIND_CAPTURE_STATS:
		note_time(t, rec->capture_stats->t_ns);
		break;
	default:
		break;
	}
}

const char *gen_function_name(int32_t function)
{
	static const struct {
		int32_t function;
		const char *name;
	} names[] = {
		{ HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, "ACCEPT_DISPLAY_CHANGES" },
		{ HWC2_FUNCTION_CREATE_LAYER, "CREATE_LAYER" },
		{ HWC2_FUNCTION_DESTROY_LAYER, "DESTROY_LAYER" },
		{ HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, "GET_CHANGED_COMPOSITION_TYPES" },
		{ HWC2_FUNCTION_GET_DISPLAY_IDENTIFICATION_DATA, "GET_DISPLAY_IDENTIFICATION_DATA" },
		{ HWC2_FUNCTION_GET_RELEASE_FENCES, "GET_RELEASE_FENCES" },
		{ HWC2_FUNCTION_PRESENT_DISPLAY, "PRESENT_DISPLAY" },
		{ HWC2_FUNCTION_SET_LAYER_BUFFER, "SET_LAYER_BUFFER" },
		{ HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, "SET_LAYER_COMPOSITION_TYPE" },
		{ HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, "SET_LAYER_DISPLAY_FRAME" },
		{ HWC2_FUNCTION_VALIDATE_DISPLAY, "VALIDATE_DISPLAY" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].function == function) {
			return names[i].name;
		}
	}
	return NULL;
}

uint64_t gen_calls(const struct gen_trace *t, int32_t function)
{
	for (size_t i = 0; i < t->function_count; i++) {
		if (t->functions[i].function == function) {
			return t->functions[i].calls;
		}
	}
	return 0;
}

static void write_environment(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Environment e = HWCT__ENVIRONMENT__INIT;
	Hwct__KeyValue prop = HWCT__KEY_VALUE__INIT, *props[] = { &prop };

	g->t->capabilities[0] = HWC2_CAPABILITY_SIDEBAND_STREAM;
	g->t->capabilities[1] = HWC2_CAPABILITY_SKIP_CLIENT_COLOR_TRANSFORM;
	e.host = GEN_HOST;
	e.process = GEN_PROCESS;
	e.has_pid = true;
	e.pid = GEN_PID;
	e.kernel = GEN_KERNEL;
	e.machine = "x86_64";
	e.android_fingerprint = GEN_FINGERPRINT;
	prop.key = "ro.hardware.hwcomposer";
	prop.value = "drm";
	e.n_android_props = 1;
	e.android_props = props;
	e.mesa_version = GEN_MESA;
	e.libdrm_version = GEN_LIBDRM;
	e.n_hwc2_capabilities = 2;
	e.hwc2_capabilities = g->t->capabilities;
	e.source = GEN_SOURCE;
	e.has_clock_monotonic_ns = true;
	e.clock_monotonic_ns = GEN_BIG_U64;
	rec.kind_case = HWCT__RECORD__KIND_ENVIRONMENT;
	rec.environment = &e;
	gen_put(&g->core, &rec);
}

static void write_display(struct gen *g, uint64_t id)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Display d = HWCT__DISPLAY__INIT;
	Hwct__DisplayConfig c1 = HWCT__DISPLAY_CONFIG__INIT, c2 = HWCT__DISPLAY_CONFIG__INIT;
	Hwct__DisplayConfig *configs[] = { &c1, &c2 };
	uint8_t edid[GEN_EDID_SIZE];

	for (size_t i = 0; i < sizeof(edid); i++) {
		edid[i] = (uint8_t)(i * 7 + id);
	}
	c1.has_id = c1.has_width = c1.has_height = c1.has_vsync_period_ns = true;
	c1.id = 1;
	c1.width = IMG_W;
	c1.height = IMG_H;
	c1.vsync_period_ns = (int32_t)FRAME_NS;
	c2 = c1;
	c2.id = 2;
	c2.width = IMG_W / 2;
	c2.height = IMG_H / 2;
	c2.vsync_period_ns = (int32_t)FRAME_NS / 2;
	d.has_id = d.has_type = d.has_connection_type = d.has_active_config = true;
	d.id = id;
	d.name = id == 0 ? "Built-in" : "External";
	d.type = HWC2_DISPLAY_TYPE_PHYSICAL;
	d.connection_type = id == 0 ? HWC2_DISPLAY_CONNECTION_TYPE_INTERNAL : HWC2_DISPLAY_CONNECTION_TYPE_EXTERNAL;
	d.n_configs = id == 0 ? 2 : 1;
	d.configs = configs;
	d.active_config = 1;
	d.has_identification = true;
	d.identification = (ProtobufCBinaryData){ sizeof(edid), edid };
	rec.kind_case = HWCT__RECORD__KIND_DISPLAY;
	rec.display = &d;
	gen_put(&g->core, &rec);
}

static void write_buffer(struct gen *g, uint64_t id, uint32_t width)
{
	const struct gen_buffer_desc b = {
		.id = id, .width = width, .height = IMG_H, .stride = width * IMG_BPP,
		.hal_format = 1,	/* RGBA_8888 */
		.modifier = GEN_SAFE_U64, .allocator = "hwct-test",
	};
	bool seen = false;

	gen_buffer(&g->core, &b);
	for (size_t i = 0; i < g->buffer_count; i++) {
		seen = seen || g->buffers[i] == id;
	}
	if (!seen) {
		g->buffers[g->buffer_count++] = id;
		g->t->distinct_buffers++;
	}
}

static void write_fence(struct gen *g, uint64_t id, int32_t kind, uint64_t display, uint64_t frame, uint64_t t)
{
	Hwct__Fence f;

	gen_fence_init(&f, id, kind, display, frame, t, 2000);
	gen_fence(&g->core, &f);
}

/* Stores a blob; counts it when the writer had not stored that content yet. */
static struct hwct_hash add_blob(struct gen *g, struct hwct_blob_desc *desc)
{
	struct hwct_hash hash;

	if (gen_blob(&g->core, desc, &hash)) {
		CHECK(g->t->blob_count < sizeof(g->t->blobs) / sizeof(g->t->blobs[0]));
		g->t->blobs[g->t->blob_count++] = hash;
		g->t->blob_payload += desc->size;
	}
	return hash;
}

/* Display 0's content of its display frame df: a square that moves over three places. */
static struct hwct_hash content_blob(struct gen *g, uint64_t df)
{
	static uint8_t img[IMG_W * IMG_H * IMG_BPP];
	struct hwct_rect damage = { 0, 0, 3 * 8 + 8, 8 };
	struct hwct_blob_desc desc = {
		.data = img, .size = sizeof(img), .kind = HWCT_BLOB_PIXELS,
		.width = IMG_W, .height = IMG_H, .stride = IMG_W * IMG_BPP, .bpp = IMG_BPP,
	};
	unsigned pos = (unsigned)(df % 3) * 8;
	struct hwct_hash hash;

	for (unsigned y = 0; y < IMG_H; y++) {
		for (unsigned x = 0; x < IMG_W; x++) {
			uint8_t *p = img + (y * IMG_W + x) * IMG_BPP;
			bool in = x >= pos && x < pos + 8 && y < 8;

			p[0] = in ? 255 : (uint8_t)x;
			p[1] = in ? 0 : (uint8_t)y;
			p[2] = (uint8_t)(x ^ y);
			p[3] = 255;
		}
	}
	if (g->has_last_content) {
		desc.base = &g->last_content;
		desc.damage = &damage;
		desc.damage_count = 1;
	}
	hash = add_blob(g, &desc);
	g->last_content = hash;
	g->has_last_content = true;
	return hash;
}

static void set_layer_buffer(struct gen *g, uint64_t display, uint64_t layer, uint64_t buffer,
	const struct hwct_hash *content, uint64_t t)
{
	gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, display, (int64_t)layer, buffer, g->core.fence++,
		content, t);
}

static void identification(struct gen *g, uint64_t display, uint64_t t)
{
	Hwct__Call c;
	Hwct__IdentificationArgs a = HWCT__IDENTIFICATION_ARGS__INIT;
	uint8_t data[GEN_IDENT_SIZE];

	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(0xa0 + i);
	}
	gen_call_begin(&g->core, &c, HWC2_FUNCTION_GET_DISPLAY_IDENTIFICATION_DATA, display, -1, t);
	a.has_port = a.has_data = true;
	a.port = 7;
	a.data = (ProtobufCBinaryData){ sizeof(data), data };
	c.args_case = HWCT__CALL__ARGS_IDENTIFICATION;
	c.identification = &a;
	gen_call_end(&g->core, &c);
}

static void write_note(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Note n = HWCT__NOTE__INIT;

	n.topic = "test";
	n.text = GEN_NOTE_TEXT;
	rec.kind_case = HWCT__RECORD__KIND_NOTE;
	rec.note = &n;
	gen_put(&g->core, &rec);
}

static void write_frame(struct gen *g)
{
	uint64_t k = g->core.frame, display = k % 2, df = k / 2, t = T0 + k * FRAME_NS;
	uint64_t first_fence = g->core.fence, present_fence, changed = 11;
	struct hwct_hash content;
	bool changes = display == 0 && df % 2 == 1;

	gen_callback(&g->core, display, t);
	if (df == 0) {
		for (uint64_t l = 0; l < (display == 0 ? 2u : 1u); l++) {
			gen_value_call(&g->core, HWC2_FUNCTION_CREATE_LAYER, display, -1, (int64_t)(display * 10 + 10 + l),
				t + 100);
		}
	}
	if (display == 1 && df == 0) {
		identification(g, display, t + 200);
	}
	if (k == 6) {
		write_buffer(g, 100, IMG_W);	/* the layout again */
	}
	if (display == 0) {
		content = content_blob(g, df);
		set_layer_buffer(g, 0, 10, 100 + df % 2, &content, t + 1000);
		gen_rect_call(&g->core, 0, 10, 0, 0, IMG_W, IMG_H, t + 2000);
		gen_value_call(&g->core, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 0, 10, HWC2_COMPOSITION_DEVICE,
			t + 2500);
		set_layer_buffer(g, 0, 11, 102, NULL, t + 3000);
	} else {
		set_layer_buffer(g, 1, 20, 200, NULL, t + 1000);
	}
	gen_validate(&g->core, display, changes ? &changed : NULL, changes ? 1 : 0, t + 10000);
	present_fence = g->core.fence++;
	gen_present(&g->core, display, present_fence, display == 0 ? 10 : 20, 0, t + 20000, t + 21000);
	gen_frame_end(&g->core, display, df, present_fence, df % 4 == 3 ? HWCT_FRAME_CAPTURE_LATE : 0, t + 30000);
	for (uint64_t id = first_fence; id <= present_fence; id++) {
		write_fence(g, id, id == present_fence ? HWCT_FENCE_PRESENT : HWCT_FENCE_ACQUIRE, display, k, t + 1000);
	}
	if (k == 5) {
		write_note(g);
	}
}

/* Records after the last FrameEnd: they belong to display frame `frames`. */
static void write_tail(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__CaptureStats cs = HWCT__CAPTURE_STATS__INIT;
	Hwct__Call c;
	Hwct__OpaqueArgs o = HWCT__OPAQUE_ARGS__INIT;
	uint64_t t = T0 + g->core.frame * FRAME_NS;
	uint8_t edid[GEN_EDID_SIZE] = { 0 };
	struct hwct_blob_desc desc = { .data = edid, .size = sizeof(edid), .kind = HWCT_BLOB_BYTES };

	add_blob(g, &desc);
	cs.has_t_ns = cs.has_blobs_dropped = cs.has_bytes_queued_peak = true;
	cs.t_ns = t;
	cs.blobs_dropped = GEN_SAFE_U64;
	cs.bytes_queued_peak = GEN_BIG_U64;
	rec.kind_case = HWCT__RECORD__KIND_CAPTURE_STATS;
	rec.capture_stats = &cs;
	gen_put(&g->core, &rec);
	gen_call_begin(&g->core, &c, HWC2_FUNCTION_DESTROY_LAYER, 0, 11, t + 100);
	gen_call_end(&g->core, &c);
	gen_call_begin(&g->core, &c, GEN_UNKNOWN_FUNCTION, 0, -1, t + 200);
	o.has_descriptor = true;
	o.descriptor = GEN_UNKNOWN_FUNCTION;
	o.note = "from a newer composer";
	c.args_case = HWCT__CALL__ARGS_OPAQUE;
	c.opaque = &o;
	gen_call_end(&g->core, &c);
}

void gen_write_trace(const char *path, unsigned frames, struct gen_trace *out)
{
	static const char *const keys[] = { "mode", "budget" }, *const values[] = { "test", "1M" };
	struct hwct_writer_options opts;
	struct gen g = { .t = out, .core = { .thread = 42, .written = written } };

	g.core.ctx = &g;
	*out = (struct gen_trace){ .frames = frames };
	hwct_writer_options_init(&opts);
	opts.keyframe_interval = GEN_KEYFRAME_INTERVAL;
	opts.workers = 1;
	opts.writer_name = GEN_WRITER;
	opts.pixels = true;
	opts.option_keys = keys;
	opts.option_values = values;
	opts.option_count = 2;
	gen_writer_open(&g.core, path, &opts);
	write_environment(&g);
	for (uint64_t d = 0; d < GEN_DISPLAYS; d++) {
		write_display(&g, d);
	}
	write_buffer(&g, 100, IMG_W);
	write_buffer(&g, 101, IMG_W);
	write_buffer(&g, 102, IMG_W);
	write_buffer(&g, 200, IMG_W / 2);
	for (unsigned k = 0; k < frames; k++) {
		write_frame(&g);
	}
	write_tail(&g);
	gen_writer_close(&g.core);
}

void gen_trace_finish(struct gen_trace *t)
{
	free(t->items);
	*t = (struct gen_trace){ 0 };
}
