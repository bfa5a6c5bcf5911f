/*
 * The "stack" traces (gen.h): a composition stack of seven layers on
 * display 0 (and one on display 1), pixels the tests can compute. The diff
 * variant differs from the base trace in three display frames of display 0,
 * one category each: frame 3 layer 1's pixels, frame 5 layer 5's display
 * frame (back in frame 6), frame 6 layer 2's final composition (CLIENT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fourcc.h"

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/writer.h>

#include "gen.h"
#include "testutil.h"

#define HAL_RGBA_8888 1
#define HAL_RGB_565 4
#define HAL_BGRA_8888 5
#define HAL_YCBCR_420_888 0x23

struct gen {
	struct gen_writer core;
	struct gen_stack_info *info;
	const struct gen_stack_options *o;
	struct fence_batch {
		Hwct__Fence fences[8];
		size_t count;
	} current[2], previous[2];	/* per display: Fence records of this frame and the previous one */
	uint64_t display_frames[2];
};

uint32_t gen_stack_l1_rgba(unsigned k)
{
	return 200u | 100u << 8 | (uint32_t)(k * 10 % 256) << 16 | 0xffu << 24;
}

uint32_t gen_stack_l2_rgba(unsigned x, unsigned y)
{
	return 100u | (uint32_t)(y * 20) << 8 | (uint32_t)(x * 10) << 16 | 0xffu << 24;
}

uint32_t gen_stack_ct_rgba(unsigned k, unsigned x, unsigned y)
{
	return (uint32_t)(x * 4) | (uint32_t)(y * 5) << 8 | (uint32_t)(k * 20 % 256) << 16 | 0xffu << 24;
}

int32_t gen_stack_final(unsigned layer, unsigned k, bool variant)
{
	if (layer == 6) {
		return HWC2_COMPOSITION_SOLID_COLOR;
	}
	if ((layer == 3 && k % 2 == 1) || (variant && layer == 2 && k == 6)) {
		return HWC2_COMPOSITION_CLIENT;
	}
	return HWC2_COMPOSITION_DEVICE;
}

/* What was written (gen_writer.written). */
static void written(void *ctx, const Hwct__Record *rec)
{
	struct gen_stack_info *info = ctx;

	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		info->calls++;
		if (rec->call->function == HWC2_FUNCTION_SET_LAYER_BUFFER) {
			info->layer_buffer_ok += rec->call->buffer->capture == HWCT_CAPTURE_OK;
			info->layer_buffer_off += rec->call->buffer->capture != HWCT_CAPTURE_OK;
		}
		break;
	case HWCT__RECORD__KIND_CALLBACK:
		info->callbacks++;
		break;
	case HWCT__RECORD__KIND_FENCE:
		info->fences_signalled++;
		break;
	case HWCT__RECORD__KIND_FRAME_END:
		info->frames++;
		break;
	default:
		break;
	}
}

static void crop_call(struct gen *g, uint64_t display, uint64_t layer, float w, float h, uint64_t t)
{
	Hwct__Call c;
	Hwct__FRectArgs a = HWCT__FRECT_ARGS__INIT;
	Hwct__FRect rect = HWCT__FRECT__INIT;

	gen_call_begin(&g->core, &c, HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, display, (int64_t)layer, t);
	rect.has_left = rect.has_top = rect.has_right = rect.has_bottom = true;
	rect.right = w;
	rect.bottom = h;
	a.rect = &rect;
	c.args_case = HWCT__CALL__ARGS_FRECT;
	c.frect = &a;
	gen_call_end(&g->core, &c);
}

static void color_call(struct gen *g, uint64_t display, uint64_t layer, uint32_t rgba, uint64_t t)
{
	Hwct__Call c;
	Hwct__ColorArgs a = HWCT__COLOR_ARGS__INIT;
	Hwct__Color color = HWCT__COLOR__INIT;

	gen_call_begin(&g->core, &c, HWC2_FUNCTION_SET_LAYER_COLOR, display, (int64_t)layer, t);
	color.has_rgba = true;
	color.rgba = rgba;
	a.color = &color;
	c.args_case = HWCT__CALL__ARGS_COLOR;
	c.color = &a;
	gen_call_end(&g->core, &c);
}

/* A row of row bytes in a buffer of the old_pad variant. */
static uint32_t padded(const struct gen *g, uint32_t row)
{
	uint32_t a = g->o->old_pad;

	return a ? (row + a - 1) / a * a : row;
}

static void buffer_record(struct gen *g, uint64_t id, uint32_t w, uint32_t h, int32_t hal, uint32_t drm,
	uint32_t stride, uint32_t uv_offset)
{
	uint32_t s = padded(g, stride);
	const struct gen_buffer_desc b = {
		.id = id, .width = w, .height = h, .stride = s, .hal_format = hal, .drm_format = drm,
		.uv_offset = uv_offset && g->o->old_pad ? s * h + g->o->old_pad : uv_offset,
		.allocator = "analyzers-stack",
	};

	gen_buffer(&g->core, &b);
}

/*
 * The content of a packed picture (size bytes, rows of stride bytes; NV12
 * when size holds more than h rows) as the old_pad variant's buffer holds
 * it: rows padded with random bytes, the chroma plane after a zeroed gap.
 */
static uint8_t *pad_content(struct gen *g, const uint8_t *data, size_t size, uint32_t h, uint32_t stride,
	uint32_t *padded_stride, size_t *padded_size)
{
	uint32_t s = padded(g, stride), rows1 = size > (size_t)stride * h ? (h + 1) / 2 : 0;
	size_t uv = (size_t)s * h + g->o->old_pad;
	uint8_t *out;

	*padded_stride = s;
	*padded_size = rows1 ? uv + (size_t)s * rows1 : (size_t)s * h;
	out = malloc(*padded_size);
	CHECK(out);
	for (size_t i = 0; i < *padded_size; i++) {
		out[i] = (uint8_t)rand();
	}
	for (uint32_t y = 0; y < h; y++) {
		memcpy(out + (size_t)y * s, data + (size_t)y * stride, stride);
	}
	if (rows1) {
		memset(out + (size_t)s * h, 0, g->o->old_pad);
		for (uint32_t y = 0; y < rows1; y++) {
			memcpy(out + uv + (size_t)y * s, data + (size_t)stride * h + (size_t)y * stride, stride);
		}
	}
	return out;
}

static struct hwct_hash blob(struct gen *g, const void *data, size_t size, uint32_t w, uint32_t h, uint32_t stride,
	uint32_t bpp)
{
	struct hwct_blob_desc d = { .data = data, .size = size, .kind = HWCT_BLOB_PIXELS, .width = w, .height = h,
		.stride = stride, .bpp = bpp };
	struct hwct_hash hash;
	uint8_t *old = NULL;

	if (g->o->old_pad) {
		old = pad_content(g, data, size, h, stride, &d.stride, &d.size);
		d.data = old;
	}
	gen_blob(&g->core, &d, &hash);
	free(old);
	return hash;
}

/* Says format 1.2 in the header of the trace at path (docs/format.md section 1.1: minor at byte 10 of the payload). */
static void declare_1_2(const char *path)
{
	FILE *f = fopen(path, "r+b");
	uint8_t minor[2] = { 2, 0 };

	CHECK(f && fseek(f, 8 + 10, SEEK_SET) == 0 && fwrite(minor, 1, 2, f) == 2);
	CHECK(fclose(f) == 0);
}

static void queue_fence(struct gen *g, uint64_t display, uint64_t id, int32_t kind, uint64_t created, int64_t wait)
{
	gen_fence_init(&g->current[display].fences[g->current[display].count++], id, kind, display, g->core.frame,
		created, wait);
}

static void write_fences(struct gen *g, struct fence_batch *b)
{
	for (size_t i = 0; i < b->count; i++) {
		if (b->fences[i].has_signal_ns) {
			gen_fence(&g->core, &b->fences[i]);	/* never signalled: no record */
		}
	}
	b->count = 0;
}

/* A display's frame starts: the fences of its previous frame wait for this one's FrameEnd. */
static void begin_frame(struct gen *g, uint64_t display)
{
	g->previous[display] = g->current[display];
	g->current[display].count = 0;
}

static void display_record(struct gen *g, uint64_t id, int32_t w, int32_t h)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Display d = HWCT__DISPLAY__INIT;
	Hwct__DisplayConfig c = HWCT__DISPLAY_CONFIG__INIT, *configs[] = { &c };

	c.has_id = c.has_width = c.has_height = c.has_vsync_period_ns = true;
	c.id = 1;
	c.width = w;
	c.height = h;
	c.vsync_period_ns = (int32_t)GEN_STACK_FRAME_NS;
	d.has_id = d.has_active_config = true;
	d.id = id;
	d.name = id ? "External" : "Built-in";
	d.n_configs = 1;
	d.configs = configs;
	d.active_config = 1;
	rec.kind_case = HWCT__RECORD__KIND_DISPLAY;
	rec.display = &d;
	gen_put(&g->core, &rec);
}

/* Layer ids, z, display frames of display 0 (gen2.h). */
static const struct {
	int32_t frame[4];
	bool solid;
} layers0[GEN_STACK_LAYERS] = {
	{ { 0, 0, 64, 48 }, false },
	{ { 0, 0, 16, 8 }, false },
	{ { 16, 0, 32, 8 }, false },
	{ { 32, 0, 48, 8 }, false },
	{ { 48, 0, 64, 8 }, false },
	{ { 0, 40, 64, 48 }, true },
	{ { 56, 40, 72, 56 }, false },
};

static void create_layers0(struct gen *g, uint64_t t)
{
	uint8_t bgra[GEN_STACK_BUF_W * GEN_STACK_BUF_H * 4];
	uint8_t nv12[GEN_STACK_BUF_W * GEN_STACK_BUF_H * 3 / 2], xrgb[GEN_STACK_BUF_W * GEN_STACK_BUF_H * 4];
	struct hwct_hash h;

	buffer_record(g, 100, GEN_STACK_BUF_W, GEN_STACK_BUF_H, HAL_RGBA_8888, 0, GEN_STACK_BUF_W * 4, 0);
	buffer_record(g, 106, GEN_STACK_BUF_W, GEN_STACK_BUF_H, HAL_RGBA_8888, 0, GEN_STACK_BUF_W * 4, 0);
	buffer_record(g, 101, GEN_STACK_BUF_W, GEN_STACK_BUF_H, HAL_BGRA_8888, 0, GEN_STACK_BUF_W * 4, 0);
	buffer_record(g, 102, GEN_STACK_BUF_W, GEN_STACK_BUF_H, HAL_RGB_565, 0, GEN_STACK_BUF_W * 2, 0);
	buffer_record(g, 103, GEN_STACK_BUF_W, GEN_STACK_BUF_H, HAL_YCBCR_420_888, 0, GEN_STACK_BUF_W, GEN_STACK_BUF_W * GEN_STACK_BUF_H);
	buffer_record(g, 104, GEN_STACK_BUF_W, GEN_STACK_BUF_H, 0, DRM_FORMAT_XRGB8888, GEN_STACK_BUF_W * 4, 0);
	buffer_record(g, 105, GEN_STACK_BUF_W, GEN_STACK_BUF_H, HAL_RGBA_8888, 0, GEN_STACK_BUF_W * 4, 0);
	buffer_record(g, 110, GEN_STACK_W, GEN_STACK_H, HAL_RGBA_8888, 0, GEN_STACK_W * 4, 0);
	for (unsigned i = 0; i < GEN_STACK_LAYERS; i++) {
		uint64_t id = i + 1;

		gen_value_call(&g->core, HWC2_FUNCTION_CREATE_LAYER, 0, -1, (int64_t)id, t);
		gen_value_call(&g->core, HWC2_FUNCTION_SET_LAYER_Z_ORDER, 0, (int64_t)id, i, t + 10);
		gen_rect_call(&g->core, 0, id, layers0[i].frame[0], layers0[i].frame[1], layers0[i].frame[2], layers0[i].frame[3],
			t + 20);
		gen_value_call(&g->core, HWC2_FUNCTION_SET_LAYER_BLEND_MODE, 0, (int64_t)id, HWC2_BLEND_MODE_NONE, t + 30);
		gen_value_call(&g->core, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 0, (int64_t)id,
			layers0[i].solid ? HWC2_COMPOSITION_SOLID_COLOR : HWC2_COMPOSITION_DEVICE, t + 40);
		if (layers0[i].solid) {
			color_call(g, 0, id, GEN_STACK_SOLID, t + 50);
		} else {
			crop_call(g, 0, id, GEN_STACK_BUF_W, GEN_STACK_BUF_H, t + 50);
		}
	}
	for (unsigned y = 0; y < GEN_STACK_BUF_H; y++) {
		for (unsigned x = 0; x < GEN_STACK_BUF_W; x++) {
			uint32_t c = gen_stack_l2_rgba(x, y);
			uint8_t *p = bgra + (y * GEN_STACK_BUF_W + x) * 4, *q = xrgb + (y * GEN_STACK_BUF_W + x) * 4;

			p[0] = (uint8_t)(c >> 16);	/* B */
			p[1] = (uint8_t)(c >> 8);	/* G */
			p[2] = (uint8_t)c;		/* R */
			p[3] = 0xff;
			q[0] = 1;
			q[1] = 2;
			q[2] = 3;
			q[3] = 0;
		}
	}
	memset(nv12, 81, GEN_STACK_BUF_W * GEN_STACK_BUF_H);
	for (size_t i = 0; i < GEN_STACK_BUF_W * GEN_STACK_BUF_H / 2; i += 2) {
		nv12[GEN_STACK_BUF_W * GEN_STACK_BUF_H + i] = 90;
		nv12[GEN_STACK_BUF_W * GEN_STACK_BUF_H + i + 1] = 240;
	}
	h = blob(g, bgra, sizeof(bgra), GEN_STACK_BUF_W, GEN_STACK_BUF_H, GEN_STACK_BUF_W * 4, 4);
	gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 2, 101, 0, &h, t + 100);
	h = blob(g, nv12, sizeof(nv12), GEN_STACK_BUF_W, GEN_STACK_BUF_H, GEN_STACK_BUF_W, 1);
	gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 4, 103, 0, &h, t + 110);
	h = blob(g, xrgb, sizeof(xrgb), GEN_STACK_BUF_W, GEN_STACK_BUF_H, GEN_STACK_BUF_W * 4, 4);
	gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 5, 104, 0, &h, t + 120);
	gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 7, 105, 0, NULL, t + 130);
}

static struct hwct_hash content_565(struct gen *g)
{
	uint8_t b565[GEN_STACK_BUF_W * GEN_STACK_BUF_H * 2];

	for (size_t i = 0; i < sizeof(b565); i += 2) {
		b565[i] = 0x00;
		b565[i + 1] = 0xf8;	/* 0xf800: red */
	}
	return blob(g, b565, sizeof(b565), GEN_STACK_BUF_W, GEN_STACK_BUF_H, GEN_STACK_BUF_W * 2, 2);
}

static struct hwct_hash content_uniform(struct gen *g, uint32_t rgba, uint32_t w, uint32_t h)
{
	uint8_t *img = malloc((size_t)w * h * 4);
	struct hwct_hash hash;

	CHECK(img);
	for (size_t i = 0; i < (size_t)w * h; i++) {
		memcpy(img + i * 4, (uint8_t[4]){ (uint8_t)rgba, (uint8_t)(rgba >> 8), (uint8_t)(rgba >> 16),
			(uint8_t)(rgba >> 24) }, 4);
	}
	hash = blob(g, img, (size_t)w * h * 4, w, h, w * 4, 4);
	free(img);
	return hash;
}

static struct hwct_hash content_client_target(struct gen *g, unsigned k)
{
	uint8_t img[GEN_STACK_W * GEN_STACK_H * 4];

	for (unsigned y = 0; y < GEN_STACK_H; y++) {
		for (unsigned x = 0; x < GEN_STACK_W; x++) {
			uint32_t c = gen_stack_ct_rgba(k, x, y);

			memcpy(img + (y * GEN_STACK_W + x) * 4, (uint8_t[4]){ (uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16),
				(uint8_t)(c >> 24) }, 4);
		}
	}
	return blob(g, img, sizeof(img), GEN_STACK_W, GEN_STACK_H, GEN_STACK_W * 4, 4);
}

/* presentDisplay, getReleaseFences for release_layer, FrameEnd, then the previous frame's fences. */
static void present(struct gen *g, uint64_t display, unsigned k, uint64_t release_layer, bool last, uint64_t t)
{
	uint64_t present_fence = g->core.fence++, release_fence = g->core.fence++;
	uint32_t flags = display == 0 && k == GEN_STACK_LATE_FRAME ? HWCT_FRAME_CAPTURE_LATE : 0;

	gen_present(&g->core, display, present_fence, release_layer, release_fence, t, t + 3000);
	queue_fence(g, display, present_fence, HWCT_FENCE_PRESENT, t + GEN_CALL_NS, (int64_t)(k % 3 + 1) * 1000000);
	queue_fence(g, display, release_fence, HWCT_FENCE_RELEASE, t + 3000 + GEN_CALL_NS,
		last ? -1 : GEN_STACK_RELEASE_NS);
	gen_frame_end(&g->core, display, g->display_frames[display]++, present_fence, flags, t + GEN_CALL_NS);
	write_fences(g, &g->previous[display]);
}

static void frame0(struct gen *g, unsigned k, bool last)
{
	const bool v = g->o->variant;
	uint64_t t = GEN_STACK_T0 + k * GEN_STACK_FRAME_NS, fence = g->core.fence++, changed[2];
	size_t n = 0;
	struct hwct_hash h;

	begin_frame(g, 0);
	gen_callback(&g->core, 0, t);
	if (k == 0) {
		create_layers0(g, t + 100);
	}
	h = content_uniform(g, v && k == 3 ? gen_stack_l1_rgba(k) ^ 0x00ffffu : gen_stack_l1_rgba(k), GEN_STACK_BUF_W, GEN_STACK_BUF_H);
	gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 1, k % 2 ? 106 : 100, fence, &h, t + 1000);
	queue_fence(g, 0, fence, HWCT_FENCE_ACQUIRE, t + 1000, (int64_t)(k + 1) * 100000);
	if (k % 4 == 0) {
		h = content_565(g);
		gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 3, 102, 0, &h, t + 1100);
	}
	gen_value_call(&g->core, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 0, 3, HWC2_COMPOSITION_DEVICE, t + 1200);
	gen_value_call(&g->core, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 0, 2, HWC2_COMPOSITION_DEVICE, t + 1300);
	if (v && k == 5) {
		gen_rect_call(&g->core, 0, 5, 48, 8, 64, 16, t + 1400);
	} else if (v && k == 6) {
		gen_rect_call(&g->core, 0, 5, 48, 0, 64, 8, t + 1400);
	}
	if (k % 2 == 1) {
		changed[n++] = 3;
	}
	if (v && k == 6) {
		changed[n++] = 2;
	}
	gen_validate(&g->core, 0, changed, n, t + 10000);
	if (k % 2 == 1) {
		h = content_client_target(g, k);
		gen_buffer_call(&g->core, HWC2_FUNCTION_SET_CLIENT_TARGET, 0, -1, 110, 0, &h, t + 16000);
	}
	present(g, 0, k, 1, last, t + 20000);
}

static void frame1(struct gen *g, unsigned k, bool last)
{
	uint64_t t = GEN_STACK_T0 + k * GEN_STACK_FRAME_NS + 1000000, fence = g->core.fence++;
	struct hwct_hash h;

	begin_frame(g, 1);
	gen_callback(&g->core, 1, t);
	if (k == 0) {
		buffer_record(g, 200, 32, 24, HAL_RGBA_8888, 0, 32 * 4, 0);
		gen_value_call(&g->core, HWC2_FUNCTION_CREATE_LAYER, 1, -1, 50, t + 100);
		gen_rect_call(&g->core, 1, 50, 0, 0, 32, 24, t + 110);
		crop_call(g, 1, 50, 32, 24, t + 120);
		gen_value_call(&g->core, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 1, 50, HWC2_COMPOSITION_DEVICE, t + 130);
	}
	h = content_uniform(g, 0xff000000u | k * 3, 32, 24);
	gen_buffer_call(&g->core, HWC2_FUNCTION_SET_LAYER_BUFFER, 1, 50, 200, fence, &h, t + 1000);
	queue_fence(g, 1, fence, HWCT_FENCE_ACQUIRE, t + 1000, 50000);
	gen_validate(&g->core, 1, NULL, 0, t + 5000);
	present(g, 1, k, 50, last, t + 8000);
}

static void environment(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Environment e = HWCT__ENVIRONMENT__INIT;
	Hwct__Note n = HWCT__NOTE__INIT;

	e.source = "scenario:analyzers-stack";
	e.process = "surfaceflinger";
	rec.kind_case = HWCT__RECORD__KIND_ENVIRONMENT;
	rec.environment = &e;
	gen_put(&g->core, &rec);
	n.topic = "synthesized-content";
	n.text = "analyzers-test stack";
	rec.kind_case = HWCT__RECORD__KIND_NOTE;
	rec.note = &n;
	gen_put(&g->core, &rec);
}

static void capture_stats(struct gen *g, uint64_t blobs, uint64_t bytes, uint64_t late, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__CaptureStats cs = HWCT__CAPTURE_STATS__INIT;

	cs.has_t_ns = cs.has_blobs_dropped = cs.has_bytes_dropped = cs.has_frames_capture_late = true;
	cs.t_ns = t;
	cs.blobs_dropped = blobs;
	cs.bytes_dropped = bytes;
	cs.frames_capture_late = late;
	rec.kind_case = HWCT__RECORD__KIND_CAPTURE_STATS;
	rec.capture_stats = &cs;
	gen_put(&g->core, &rec);
}

void gen_stack_write(const char *path, const struct gen_stack_options *o, struct gen_stack_info *info)
{
	struct hwct_writer_options opts;
	struct gen g = { .info = info, .o = o, .core = { .thread = 77, .written = written, .ctx = info } };

	*info = (struct gen_stack_info){ 0 };
	hwct_writer_options_init(&opts);
	opts.workers = 1;
	opts.writer_name = "analyzers-test stack";
	opts.pixels = true;
	if (o->keyframe_interval) {
		opts.keyframe_interval = o->keyframe_interval;
	}
	srand(o->old_pad);	/* the padding: any bytes, the same each run */
	gen_writer_open(&g.core, path, &opts);
	environment(&g);
	display_record(&g, 0, GEN_STACK_W, GEN_STACK_H);
	if (o->displays > 1) {
		display_record(&g, 1, 32, 24);
	}
	for (unsigned k = 0; k < o->frames; k++) {
		bool last = k + 1 == o->frames;

		frame0(&g, k, last);
		if (o->displays > 1) {
			frame1(&g, k, last);
		}
		if (k == 1) {
			capture_stats(&g, 1, 100, 0, GEN_STACK_T0 + k * GEN_STACK_FRAME_NS + 30000);
		}
	}
	capture_stats(&g, GEN_STACK_BLOBS_DROPPED, GEN_STACK_BYTES_DROPPED, 1, GEN_STACK_T0 + o->frames * GEN_STACK_FRAME_NS);
	for (uint64_t d = 0; d < o->displays; d++) {
		write_fences(&g, &g.current[d]);
	}
	gen_writer_close(&g.core);
	if (o->old_pad) {
		declare_1_2(path);
	}
}
