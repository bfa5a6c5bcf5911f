/* Trace builder and helpers for the format tests (testlib.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>

#include "testlib.h"

int test_run_cases(const struct test_case *cases, size_t count, int argc, char **argv)
{
	for (size_t i = 0; i < count; i++) {
		if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) {
			cases[i].run();
			if (argc >= 2) {
				return 0;
			}
		}
	}
	if (argc >= 2) {
		fprintf(stderr, "unknown case %s\n", argv[1]);
		return 2;
	}
	return 0;
}

char *test_tmp_path(const char *suffix)
{
	static unsigned counter;
	const char *dir = getenv("TMPDIR");
	char *path = malloc(4096);

	CHECK(path);
	snprintf(path, 4096, "%s/hwct-test-%d-%u%s", dir ? dir : "/tmp", (int)getpid(), counter++, suffix);
	return path;
}

uint8_t *test_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long n;

	CHECK_MSG(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc((size_t)n + 1);
	CHECK(data);
	CHECK(fread(data, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return data;
}

void test_write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	CHECK_MSG(f, "%s", path);
	CHECK(fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
}

struct builder {
	struct hwct_writer *w;
	uint64_t records;
	uint64_t seq;
	uint64_t t;
	uint32_t rng;
};

static uint32_t next_rand(struct builder *b)
{
	b->rng = b->rng * 1103515245u + 12345u;
	return b->rng >> 8;
}

struct test_capture *test_capture;

static void put(struct builder *b, Hwct__Record *rec)
{
	struct test_capture *cap = test_capture;

	CHECK(hwct_writer_write(b->w, rec) == 0);
	b->records++;
	if (cap) {
		if (cap->count == cap->cap) {
			cap->cap = cap->cap ? cap->cap * 2 : 256;
			cap->records = realloc(cap->records, cap->cap * sizeof(*cap->records));
			cap->sizes = realloc(cap->sizes, cap->cap * sizeof(*cap->sizes));
			CHECK(cap->records && cap->sizes);
		}
		cap->sizes[cap->count] = hwct__record__get_packed_size(rec);
		cap->records[cap->count] = malloc(cap->sizes[cap->count] + 1);
		CHECK(cap->records[cap->count]);
		hwct__record__pack(rec, cap->records[cap->count]);
		cap->count++;
	}
}

static void call(struct builder *b, int32_t fn, uint64_t layer, Hwct__Call *c)
{
	Hwct__Record rec = HWCT__RECORD__INIT;

	c->has_seq = c->has_thread = c->has_t_enter_ns = c->has_t_exit_ns = true;
	c->has_function = c->has_display = true;
	c->seq = ++b->seq;
	c->thread = 1000 + (uint32_t)(b->seq % 3);
	c->t_enter_ns = b->t;
	c->t_exit_ns = b->t + 1500;
	b->t += 2000;
	c->function = fn;
	c->display = 0;
	if (layer) {
		c->has_layer = true;
		c->layer = layer;
	}
	c->has_error = true;
	rec.kind_case = HWCT__RECORD__KIND_CALL;
	rec.call = c;
	put(b, &rec);
}

static void value_call(struct builder *b, int32_t fn, uint64_t layer, int64_t v)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__ValueArgs a = HWCT__VALUE_ARGS__INIT;

	a.has_value = true;
	a.value = v;
	c.args_case = HWCT__CALL__ARGS_VALUE;
	c.value = &a;
	call(b, fn, layer, &c);
}

static void every_kind(struct builder *b)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Environment env = HWCT__ENVIRONMENT__INIT;
	Hwct__Display disp = HWCT__DISPLAY__INIT;
	Hwct__DisplayConfig cfg = HWCT__DISPLAY_CONFIG__INIT, *cfgs[] = { &cfg };
	Hwct__Callback cb = HWCT__CALLBACK__INIT;
	Hwct__CaptureStats cs = HWCT__CAPTURE_STATS__INIT;
	Hwct__Note note = HWCT__NOTE__INIT;
	int32_t caps[] = { HWC2_CAPABILITY_SKIP_CLIENT_COLOR_TRANSFORM };

	env.source = "test:every-kind";
	env.kernel = "6.1.0-test";
	env.n_hwc2_capabilities = 1;
	env.hwc2_capabilities = caps;
	rec.kind_case = HWCT__RECORD__KIND_ENVIRONMENT;
	rec.environment = &env;
	put(b, &rec);

	cfg.has_id = cfg.has_width = cfg.has_height = cfg.has_vsync_period_ns = true;
	cfg.id = 1;
	cfg.width = 1080;
	cfg.height = 2400;
	cfg.vsync_period_ns = 16666667;
	disp.has_id = disp.has_type = disp.has_active_config = true;
	disp.name = "built-in";
	disp.type = HWC2_DISPLAY_TYPE_PHYSICAL;
	disp.active_config = 1;
	disp.n_configs = 1;
	disp.configs = cfgs;
	rec.kind_case = HWCT__RECORD__KIND_DISPLAY;
	rec.display = &disp;
	put(b, &rec);

	cb.has_descriptor = cb.has_display = cb.has_connection = cb.has_t_ns = true;
	cb.descriptor = HWC2_CALLBACK_HOTPLUG;
	cb.connection = HWC2_CONNECTION_CONNECTED;
	cb.t_ns = b->t;
	rec.kind_case = HWCT__RECORD__KIND_CALLBACK;
	rec.callback = &cb;
	put(b, &rec);

	cs.has_blobs_dropped = true;
	cs.blobs_dropped = 3;
	rec.kind_case = HWCT__RECORD__KIND_CAPTURE_STATS;
	rec.capture_stats = &cs;
	put(b, &rec);

	note.topic = "test";
	note.text = "every record kind";
	rec.kind_case = HWCT__RECORD__KIND_NOTE;
	rec.note = &note;
	put(b, &rec);
}

static void set_buffer(struct builder *b, const struct test_trace_options *o, uint64_t layer,
	unsigned frame, uint8_t *pixels, struct hwct_hash *prev, bool *has_prev)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__LayerBufferArgs a = HWCT__LAYER_BUFFER_ARGS__INIT;
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Fence fence = HWCT__FENCE__INIT;
	struct hwct_hash h;
	uint8_t hb[HWCT_HASH_BYTES];
	struct hwct_rect damage = { 0 };
	size_t size = (size_t)o->width * o->height * 4;

	a.has_buffer = a.has_fence = true;
	a.buffer = 100 + layer;
	a.fence = ++b->seq + 100000;
	if (o->pixels) {
		struct hwct_blob_desc d = { .data = pixels, .size = size, .width = o->width,
			.height = o->height, .stride = o->width * 4, .bpp = 4 };
		unsigned y0 = (frame * 7 + (unsigned)layer * 13) % o->height;

		/* change a band of rows: the damage */
		damage = (struct hwct_rect){ 0, (int32_t)y0, (int32_t)o->width,
			(int32_t)(y0 + 4 > o->height ? o->height : y0 + 4) };
		for (int32_t y = damage.top; y < damage.bottom; y++) {
			for (unsigned x = 0; x < o->width * 4; x++) {
				pixels[(size_t)y * o->width * 4 + x] = (uint8_t)(next_rand(b) & 0x3f);
			}
		}
		if (*has_prev) {
			d.base = prev;
			d.damage = &damage;
			d.damage_count = 1;
		}
		CHECK(hwct_writer_add_blob(b->w, &d, HWCT_BLOB_WAIT, &h) >= 0);
		if (test_capture) {
			struct test_capture *cap = test_capture;

			cap->blobs = realloc(cap->blobs, (cap->blob_count + 1) * sizeof(*cap->blobs));
			CHECK(cap->blobs);
			cap->blobs[cap->blob_count].hash = h;
			cap->blobs[cap->blob_count].size = size;
			cap->blobs[cap->blob_count].data = malloc(size);
			CHECK(cap->blobs[cap->blob_count].data);
			memcpy(cap->blobs[cap->blob_count].data, pixels, size);
			cap->blob_count++;
		}
		hwct_hash_to_bytes(&h, hb);
		a.has_content = true;
		a.content = (ProtobufCBinaryData){ sizeof(hb), hb };
		*prev = h;
		*has_prev = true;
	}
	c.args_case = HWCT__CALL__ARGS_BUFFER;
	c.buffer = &a;
	call(b, HWC2_FUNCTION_SET_LAYER_BUFFER, layer, &c);

	fence.has_id = fence.has_kind = fence.has_created_ns = fence.has_signal_ns = fence.has_status = true;
	fence.id = a.fence;
	fence.kind = HWCT_FENCE_ACQUIRE;
	fence.created_ns = b->t;
	fence.signal_ns = b->t + 500;
	fence.status = HWCT_FENCE_SIGNALLED;
	rec.kind_case = HWCT__RECORD__KIND_FENCE;
	rec.fence = &fence;
	put(b, &rec);
}

static void frame(struct builder *b, const struct test_trace_options *o, unsigned f, uint8_t **pixels,
	struct hwct_hash *prev, bool *has_prev)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__RectArgs ra = HWCT__RECT_ARGS__INIT;
	Hwct__Rect r = HWCT__RECT__INIT;
	Hwct__ValidateArgs va = HWCT__VALIDATE_ARGS__INIT;
	Hwct__ChangedTypesArgs ct = HWCT__CHANGED_TYPES_ARGS__INIT;
	Hwct__PresentArgs pa = HWCT__PRESENT_ARGS__INIT;
	uint64_t layer_ids[64];
	int32_t types[64];

	for (unsigned l = 1; l <= o->layers; l++) {
		set_buffer(b, o, l, f, pixels[l - 1], &prev[l - 1], &has_prev[l - 1]);
		value_call(b, HWC2_FUNCTION_SET_LAYER_Z_ORDER, l, (int64_t)((l + f) % o->layers));
		r.has_left = r.has_top = r.has_right = r.has_bottom = true;
		r.left = (int32_t)(f % 50);
		r.top = (int32_t)l * 10;
		r.right = r.left + 100;
		r.bottom = r.top + 200;
		ra.rect = &r;
		c = (Hwct__Call)HWCT__CALL__INIT;
		c.args_case = HWCT__CALL__ARGS_RECT;
		c.rect = &ra;
		call(b, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, l, &c);
	}
	va.has_num_types = true;
	va.num_types = 1;
	c = (Hwct__Call)HWCT__CALL__INIT;
	c.args_case = HWCT__CALL__ARGS_VALIDATE;
	c.validate = &va;
	call(b, HWC2_FUNCTION_VALIDATE_DISPLAY, 0, &c);
	for (unsigned l = 0; l < o->layers && l < 64; l++) {
		layer_ids[l] = l + 1;
		types[l] = (l + f) % 2 ? HWC2_COMPOSITION_CLIENT : HWC2_COMPOSITION_DEVICE;
	}
	ct.n_layers = ct.n_types = o->layers < 64 ? o->layers : 64;
	ct.layers = layer_ids;
	ct.types = types;
	c = (Hwct__Call)HWCT__CALL__INIT;
	c.args_case = HWCT__CALL__ARGS_CHANGED_TYPES;
	c.changed_types = &ct;
	call(b, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, 0, &c);
	c = (Hwct__Call)HWCT__CALL__INIT;
	call(b, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, 0, &c);
	pa.has_present_fence = true;
	pa.present_fence = 200000 + f;
	c = (Hwct__Call)HWCT__CALL__INIT;
	c.args_case = HWCT__CALL__ARGS_PRESENT;
	c.present = &pa;
	call(b, HWC2_FUNCTION_PRESENT_DISPLAY, 0, &c);

	fe.has_frame = fe.has_display = fe.has_display_frame = fe.has_t_ns = fe.has_present_fence = true;
	fe.has_validated = true;
	fe.frame = f;
	fe.display_frame = f;
	fe.t_ns = b->t;
	fe.present_fence = pa.present_fence;
	fe.validated = true;
	rec.kind_case = HWCT__RECORD__KIND_FRAME_END;
	rec.frame_end = &fe;
	put(b, &rec);
}

uint64_t test_write_trace(const char *path, const struct test_trace_options *o)
{
	struct hwct_writer_options wo;
	struct builder b = { .rng = o->seed ? o->seed : 1, .t = 1000000 };
	uint8_t **pixels = calloc(o->layers ? o->layers : 1, sizeof(*pixels));
	struct hwct_hash *prev = calloc(o->layers ? o->layers : 1, sizeof(*prev));
	bool *has_prev = calloc(o->layers ? o->layers : 1, sizeof(*has_prev));
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Buffer buf = HWCT__BUFFER__INIT;

	CHECK(pixels && prev && has_prev);
	hwct_writer_options_init(&wo);
	wo.keyframe_interval = o->keyframe_interval ? o->keyframe_interval : 30;
	wo.writer_name = "hwctrace tests";
	b.w = hwct_writer_create(path, &wo);
	CHECK_MSG(b.w, "create %s", path);
	if (o->every_kind) {
		every_kind(&b);
	}
	for (unsigned l = 1; l <= o->layers; l++) {
		value_call(&b, HWC2_FUNCTION_CREATE_LAYER, 0, (int64_t)l);
		value_call(&b, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, l, HWC2_COMPOSITION_DEVICE);
		buf.has_id = buf.has_width = buf.has_height = buf.has_hal_format = true;
		buf.id = 100 + l;
		buf.width = o->width;
		buf.height = o->height;
		buf.hal_format = HAL_PIXEL_FORMAT_RGBA_8888;
		rec.kind_case = HWCT__RECORD__KIND_BUFFER;
		rec.buffer = &buf;
		put(&b, &rec);
		if (o->pixels) {
			pixels[l - 1] = calloc((size_t)o->width * o->height, 4);
			CHECK(pixels[l - 1]);
		}
	}
	for (unsigned f = 0; f < o->frames; f++) {
		frame(&b, o, f, pixels, prev, has_prev);
	}
	CHECK(hwct_writer_close(b.w) == 0);
	for (unsigned l = 0; l < o->layers; l++) {
		free(pixels[l]);
	}
	free(pixels);
	free(prev);
	free(has_prev);
	return b.records;
}

size_t test_read_packed(const char *path, uint8_t ***out, size_t **sizes, int *result)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	size_t n = 0, cap = 0;
	int ret;

	*out = NULL;
	*sizes = NULL;
	if (!r) {
		*result = err.code;
		return 0;
	}
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		if (rec->kind_case == HWCT__RECORD__KIND_KEYFRAME) {
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			*out = realloc(*out, cap * sizeof(**out));
			*sizes = realloc(*sizes, cap * sizeof(**sizes));
			CHECK(*out && *sizes);
		}
		(*sizes)[n] = hwct__record__get_packed_size(rec);
		(*out)[n] = malloc((*sizes)[n] + 1);
		CHECK((*out)[n]);
		hwct__record__pack(rec, (*out)[n]);
		n++;
	}
	*result = ret;
	hwct_reader_destroy(r);
	return n;
}

void test_capture_finish(struct test_capture *cap)
{
	for (size_t i = 0; i < cap->count; i++) {
		free(cap->records[i]);
	}
	for (size_t i = 0; i < cap->blob_count; i++) {
		free(cap->blobs[i].data);
	}
	free(cap->records);
	free(cap->sizes);
	free(cap->blobs);
	*cap = (struct test_capture){ 0 };
}
