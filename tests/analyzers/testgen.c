/* The synthetic trace of the analyzer tests (testgen.h). */
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/writer.h>

#include "testgen.h"
#include "testutil.h"

#define T0 1000000000000ull		/* ns */
#define FRAME_NS 16666666ull
#define IMG_W 64
#define IMG_H 48
#define IMG_BPP 4

struct gen {
	struct hwct_writer *w;
	struct gen_trace *t;
	uint64_t seq, fence, frame;	/* next Call.seq, Fence.id, FrameEnd.frame */
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

static struct gen_item *write_record(struct gen *g, const Hwct__Record *rec, uint64_t key)
{
	struct gen_trace *t = g->t;
	struct gen_item *item;

	CHECK(hwct_writer_write(g->w, rec) == 0);
	t->items = realloc(t->items, (t->count + 1) * sizeof(*t->items));
	CHECK(t->items);
	item = &t->items[t->count++];
	*item = (struct gen_item){ .kind = rec->kind_case, .frame = g->ends, .key = key };
	if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
		g->ends++;
	}
	t->by_kind[rec->kind_case]++;
	return item;
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

/* Writes a Call; c has its args set by the caller. */
static struct gen_item *call(struct gen *g, Hwct__Call *c, int32_t function, uint64_t display,
	int64_t layer, int32_t error, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	struct gen_item *item;

	c->has_seq = c->has_thread = c->has_t_enter_ns = c->has_t_exit_ns = true;
	c->has_function = c->has_display = c->has_error = true;
	c->seq = g->seq++;
	c->thread = 42;
	c->t_enter_ns = t;
	c->t_exit_ns = t + 1500;
	c->function = function;
	c->display = display;
	c->error = error;
	if (layer >= 0) {
		c->has_layer = true;
		c->layer = (uint64_t)layer;
	}
	rec.kind_case = HWCT__RECORD__KIND_CALL;
	rec.call = c;
	item = write_record(g, &rec, c->seq);
	item->function = function;
	item->display = display;
	item->has_layer = layer >= 0;
	item->layer = layer >= 0 ? (uint64_t)layer : 0;
	count_call(g->t, function);
	note_time(g->t, c->t_enter_ns);
	note_time(g->t, c->t_exit_ns);
	return item;
}

static void simple_call(struct gen *g, int32_t function, uint64_t display, int64_t layer, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT;

	call(g, &c, function, display, layer, HWC2_ERROR_NONE, t);
}

static void value_call(struct gen *g, int32_t function, uint64_t display, int64_t layer, int64_t value,
	uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__ValueArgs v = HWCT__VALUE_ARGS__INIT;

	v.has_value = true;
	v.value = value;
	c.args_case = HWCT__CALL__ARGS_VALUE;
	c.value = &v;
	call(g, &c, function, display, layer, HWC2_ERROR_NONE, t);
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
	write_record(g, &rec, 0);
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
	write_record(g, &rec, id);
}

static void write_buffer(struct gen *g, uint64_t id, uint32_t width)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Buffer b = HWCT__BUFFER__INIT;
	Hwct__BufferPlane plane = HWCT__BUFFER_PLANE__INIT, *planes[] = { &plane };
	bool seen = false;

	plane.has_offset = plane.has_stride = true;
	plane.stride = width * IMG_BPP;
	b.has_id = b.has_width = b.has_height = b.has_hal_format = b.has_modifier = true;
	b.id = id;
	b.width = width;
	b.height = IMG_H;
	b.hal_format = 1;	/* RGBA_8888 */
	b.modifier = GEN_SAFE_U64;
	b.n_planes = 1;
	b.planes = planes;
	b.allocator = "hwct-test";
	rec.kind_case = HWCT__RECORD__KIND_BUFFER;
	rec.buffer = &b;
	write_record(g, &rec, id);
	for (size_t i = 0; i < g->buffer_count; i++) {
		seen = seen || g->buffers[i] == id;
	}
	if (!seen) {
		g->buffers[g->buffer_count++] = id;
		g->t->distinct_buffers++;
	}
}

static void write_fence(struct gen *g, uint64_t id, int32_t kind, uint64_t display, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Fence f = HWCT__FENCE__INIT;

	f.has_id = f.has_kind = f.has_display = f.has_created_ns = f.has_signal_ns = true;
	f.has_status = f.has_frame = true;
	f.id = id;
	f.kind = kind;
	f.display = display;
	f.created_ns = t;
	f.signal_ns = t + 2000;
	f.status = HWCT_FENCE_SIGNALLED;
	f.frame = g->frame;
	rec.kind_case = HWCT__RECORD__KIND_FENCE;
	rec.fence = &f;
	write_record(g, &rec, id);
	g->t->distinct_fences++;
	note_time(g->t, f.created_ns);
	note_time(g->t, f.signal_ns);
}

static void write_callback(struct gen *g, uint64_t display, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Callback cb = HWCT__CALLBACK__INIT;

	cb.has_descriptor = cb.has_display = cb.has_t_ns = cb.has_timestamp_ns = true;
	cb.descriptor = HWC2_CALLBACK_VSYNC;
	cb.display = display;
	cb.t_ns = t;
	cb.timestamp_ns = (int64_t)t;
	rec.kind_case = HWCT__RECORD__KIND_CALLBACK;
	rec.callback = &cb;
	write_record(g, &rec, 0);
	note_time(g->t, t);
}

/* Stores a blob; counts it when the writer had not stored that content yet. */
static struct hwct_hash add_blob(struct gen *g, struct hwct_blob_desc *desc)
{
	struct hwct_hash hash;
	int ret = hwct_writer_add_blob(g->w, desc, HWCT_BLOB_WAIT, &hash);

	CHECK(ret == 0 || ret == 1);
	if (ret == 0) {
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
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__LayerBufferArgs a = HWCT__LAYER_BUFFER_ARGS__INIT;
	uint8_t bytes[HWCT_HASH_BYTES];
	struct gen_item *item;

	a.has_buffer = a.has_fence = a.has_capture = true;
	a.buffer = buffer;
	a.fence = g->fence++;
	a.capture = content ? HWCT_CAPTURE_OK : HWCT_CAPTURE_OFF;
	if (content) {
		hwct_hash_to_bytes(content, bytes);
		a.has_content = true;
		a.content = (ProtobufCBinaryData){ sizeof(bytes), bytes };
	}
	c.args_case = HWCT__CALL__ARGS_BUFFER;
	c.buffer = &a;
	item = call(g, &c, HWC2_FUNCTION_SET_LAYER_BUFFER, display, (int64_t)layer, HWC2_ERROR_NONE, t);
	item->buffer = buffer;
	item->fence = a.fence;
	item->has_content = content != NULL;
	if (content) {
		item->content = *content;
	}
}

static void validate(struct gen *g, uint64_t display, bool changes, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT, changed = HWCT__CALL__INIT;
	Hwct__ValidateArgs v = HWCT__VALIDATE_ARGS__INIT;
	Hwct__ChangedTypesArgs ct = HWCT__CHANGED_TYPES_ARGS__INIT;
	uint64_t layers[] = { 11 };
	int32_t types[] = { HWC2_COMPOSITION_CLIENT };

	v.has_num_types = v.has_num_requests = true;
	v.num_types = changes ? 1 : 0;
	c.args_case = HWCT__CALL__ARGS_VALIDATE;
	c.validate = &v;
	call(g, &c, HWC2_FUNCTION_VALIDATE_DISPLAY, display, -1, changes ? HWC2_ERROR_HAS_CHANGES : 0, t);
	if (!changes) {
		return;
	}
	ct.n_layers = ct.n_types = 1;
	ct.layers = layers;
	ct.types = types;
	changed.args_case = HWCT__CALL__ARGS_CHANGED_TYPES;
	changed.changed_types = &ct;
	call(g, &changed, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, display, -1, 0, t + 2000);
	simple_call(g, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, display, -1, t + 4000);
}

static void frame_end(struct gen *g, uint64_t display, uint64_t df, uint64_t present_fence, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;

	fe.has_frame = fe.has_display = fe.has_display_frame = fe.has_t_ns = true;
	fe.has_present_fence = fe.has_validated = fe.has_flags = true;
	fe.frame = g->frame;
	fe.display = display;
	fe.display_frame = df;
	fe.t_ns = t;
	fe.present_fence = present_fence;
	fe.validated = true;
	fe.flags = df % 4 == 3 ? HWCT_FRAME_CAPTURE_LATE : 0;
	rec.kind_case = HWCT__RECORD__KIND_FRAME_END;
	rec.frame_end = &fe;
	write_record(g, &rec, g->frame);
	g->t->frames_by_display[display]++;
	note_time(g->t, t);
}

static void identification(struct gen *g, uint64_t display, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__IdentificationArgs a = HWCT__IDENTIFICATION_ARGS__INIT;
	uint8_t data[GEN_IDENT_SIZE];

	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(0xa0 + i);
	}
	a.has_port = a.has_data = true;
	a.port = 7;
	a.data = (ProtobufCBinaryData){ sizeof(data), data };
	c.args_case = HWCT__CALL__ARGS_IDENTIFICATION;
	c.identification = &a;
	call(g, &c, HWC2_FUNCTION_GET_DISPLAY_IDENTIFICATION_DATA, display, -1, 0, t);
}

static void present(struct gen *g, uint64_t display, uint64_t fence, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT, rel = HWCT__CALL__INIT;
	Hwct__PresentArgs p = HWCT__PRESENT_ARGS__INIT;
	Hwct__ReleaseFencesArgs r = HWCT__RELEASE_FENCES_ARGS__INIT;
	uint64_t layers[] = { display == 0 ? 10 : 20 }, fences[] = { 0 };

	p.has_present_fence = true;
	p.present_fence = fence;
	c.args_case = HWCT__CALL__ARGS_PRESENT;
	c.present = &p;
	call(g, &c, HWC2_FUNCTION_PRESENT_DISPLAY, display, -1, 0, t);
	r.n_layers = r.n_fences = 1;
	r.layers = layers;
	r.fences = fences;
	rel.args_case = HWCT__CALL__ARGS_RELEASE_FENCES;
	rel.release_fences = &r;
	call(g, &rel, HWC2_FUNCTION_GET_RELEASE_FENCES, display, -1, 0, t + 1000);
}

static void layer_geometry(struct gen *g, uint64_t display, uint64_t layer, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__RectArgs a = HWCT__RECT_ARGS__INIT;
	Hwct__Rect r = HWCT__RECT__INIT;

	r.has_left = r.has_top = r.has_right = r.has_bottom = true;
	r.right = IMG_W;
	r.bottom = IMG_H;
	a.rect = &r;
	c.args_case = HWCT__CALL__ARGS_RECT;
	c.rect = &a;
	call(g, &c, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, display, (int64_t)layer, 0, t);
	value_call(g, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, display, (int64_t)layer, HWC2_COMPOSITION_DEVICE,
		t + 500);
}

static void write_note(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Note n = HWCT__NOTE__INIT;

	n.topic = "test";
	n.text = GEN_NOTE_TEXT;
	rec.kind_case = HWCT__RECORD__KIND_NOTE;
	rec.note = &n;
	write_record(g, &rec, 0);
}

static void write_frame(struct gen *g)
{
	uint64_t k = g->frame, display = k % 2, df = k / 2, t = T0 + k * FRAME_NS;
	uint64_t first_fence = g->fence, present_fence;
	struct hwct_hash content;

	write_callback(g, display, t);
	if (df == 0) {
		for (uint64_t l = 0; l < (display == 0 ? 2u : 1u); l++) {
			value_call(g, HWC2_FUNCTION_CREATE_LAYER, display, -1, (int64_t)(display * 10 + 10 + l), t + 100);
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
		layer_geometry(g, 0, 10, t + 2000);
		set_layer_buffer(g, 0, 11, 102, NULL, t + 3000);
	} else {
		set_layer_buffer(g, 1, 20, 200, NULL, t + 1000);
	}
	validate(g, display, display == 0 && df % 2 == 1, t + 10000);
	present_fence = g->fence++;
	present(g, display, present_fence, t + 20000);
	frame_end(g, display, df, present_fence, t + 30000);
	for (uint64_t id = first_fence; id <= present_fence; id++) {
		write_fence(g, id, id == present_fence ? HWCT_FENCE_PRESENT : HWCT_FENCE_ACQUIRE, display, t + 1000);
	}
	g->frame++;
	if (k == 5) {
		write_note(g);
	}
}

/* Records after the last FrameEnd: they belong to display frame `frames`. */
static void write_tail(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__CaptureStats cs = HWCT__CAPTURE_STATS__INIT;
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__OpaqueArgs o = HWCT__OPAQUE_ARGS__INIT;
	uint64_t t = T0 + g->frame * FRAME_NS;
	uint8_t edid[GEN_EDID_SIZE] = { 0 };
	struct hwct_blob_desc desc = { .data = edid, .size = sizeof(edid), .kind = HWCT_BLOB_BYTES };

	add_blob(g, &desc);
	cs.has_t_ns = cs.has_blobs_dropped = cs.has_bytes_queued_peak = true;
	cs.t_ns = t;
	cs.blobs_dropped = GEN_SAFE_U64;
	cs.bytes_queued_peak = GEN_BIG_U64;
	rec.kind_case = HWCT__RECORD__KIND_CAPTURE_STATS;
	rec.capture_stats = &cs;
	write_record(g, &rec, 0);
	note_time(g->t, t);
	simple_call(g, HWC2_FUNCTION_DESTROY_LAYER, 0, 11, t + 100);
	o.has_descriptor = true;
	o.descriptor = GEN_UNKNOWN_FUNCTION;
	o.note = "from a newer composer";
	c.args_case = HWCT__CALL__ARGS_OPAQUE;
	c.opaque = &o;
	call(g, &c, GEN_UNKNOWN_FUNCTION, 0, -1, 0, t + 200);
}

void gen_write_trace(const char *path, unsigned frames, struct gen_trace *out)
{
	static const char *const keys[] = { "mode", "budget" }, *const values[] = { "test", "1M" };
	struct hwct_writer_options opts;
	struct gen g = { .t = out, .seq = 1, .fence = 1 };

	*out = (struct gen_trace){ .frames = frames };
	hwct_writer_options_init(&opts);
	opts.keyframe_interval = GEN_KEYFRAME_INTERVAL;
	opts.workers = 1;
	opts.writer_name = GEN_WRITER;
	opts.pixels = true;
	opts.option_keys = keys;
	opts.option_values = values;
	opts.option_count = 2;
	g.w = hwct_writer_create(path, &opts);
	CHECK(g.w);
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
	CHECK(hwct_writer_close(g.w) == 0);
}

void gen_trace_finish(struct gen_trace *t)
{
	free(t->items);
	*t = (struct gen_trace){ 0 };
}
