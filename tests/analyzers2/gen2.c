/*
 * The traces of analyzers2-test (gen2.h). The diff variant differs from the
 * base trace in three display frames of display 0, one category each:
 * frame 3 layer 1's pixels, frame 5 layer 5's display frame (back in frame
 * 6), frame 6 layer 2's final composition (CLIENT).
 */
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/writer.h>

#include "gen2.h"
#include "testutil.h"

#define HAL_RGBA_8888 1
#define HAL_RGB_565 4
#define HAL_BGRA_8888 5
#define HAL_YCBCR_420_888 0x23

struct gen {
	struct hwct_writer *w;
	struct gen2_info *info;
	const struct gen2_options *o;
	uint64_t seq, fence, frame;
	struct fence_batch {
		Hwct__Fence fences[8];
		size_t count;
	} current[2], previous[2];	/* per display: Fence records of this frame and the previous one */
	uint64_t display_frames[2];
};

uint32_t gen2_l1_rgba(unsigned k)
{
	return 200u | 100u << 8 | (uint32_t)(k * 10 % 256) << 16 | 0xffu << 24;
}

uint32_t gen2_l2_rgba(unsigned x, unsigned y)
{
	return 100u | (uint32_t)(y * 20) << 8 | (uint32_t)(x * 10) << 16 | 0xffu << 24;
}

uint32_t gen2_ct_rgba(unsigned k, unsigned x, unsigned y)
{
	return (uint32_t)(x * 4) | (uint32_t)(y * 5) << 8 | (uint32_t)(k * 20 % 256) << 16 | 0xffu << 24;
}

int32_t gen2_final(unsigned layer, unsigned k, bool variant)
{
	if (layer == 6) {
		return HWC2_COMPOSITION_SOLID_COLOR;
	}
	if ((layer == 3 && k % 2 == 1) || (variant && layer == 2 && k == 6)) {
		return HWC2_COMPOSITION_CLIENT;
	}
	return HWC2_COMPOSITION_DEVICE;
}

static void put(struct gen *g, Hwct__Record *rec)
{
	CHECK(hwct_writer_write(g->w, rec) == 0);
}

static Hwct__Call *begin_call(Hwct__Call *c, struct gen *g, int32_t function, uint64_t display, int64_t layer,
	uint64_t t)
{
	hwct__call__init(c);
	c->has_seq = c->has_thread = c->has_t_enter_ns = c->has_t_exit_ns = true;
	c->has_function = c->has_display = c->has_error = true;
	c->seq = g->seq++;
	c->thread = 77;
	c->t_enter_ns = t;
	c->t_exit_ns = t + 1500;
	c->function = function;
	c->display = display;
	if (layer >= 0) {
		c->has_layer = true;
		c->layer = (uint64_t)layer;
	}
	return c;
}

static void end_call(struct gen *g, Hwct__Call *c)
{
	Hwct__Record rec = HWCT__RECORD__INIT;

	rec.kind_case = HWCT__RECORD__KIND_CALL;
	rec.call = c;
	put(g, &rec);
	g->info->calls++;
}

static void value_call(struct gen *g, int32_t function, uint64_t display, int64_t layer, int64_t value, uint64_t t)
{
	Hwct__Call c;
	Hwct__ValueArgs v = HWCT__VALUE_ARGS__INIT;

	begin_call(&c, g, function, display, layer, t);
	v.has_value = true;
	v.value = value;
	c.args_case = HWCT__CALL__ARGS_VALUE;
	c.value = &v;
	end_call(g, &c);
}

static void rect_call(struct gen *g, uint64_t display, uint64_t layer, int32_t l, int32_t t_, int32_t r, int32_t b,
	uint64_t t)
{
	Hwct__Call c;
	Hwct__RectArgs a = HWCT__RECT_ARGS__INIT;
	Hwct__Rect rect = HWCT__RECT__INIT;

	begin_call(&c, g, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, display, (int64_t)layer, t);
	rect.has_left = rect.has_top = rect.has_right = rect.has_bottom = true;
	rect.left = l;
	rect.top = t_;
	rect.right = r;
	rect.bottom = b;
	a.rect = &rect;
	c.args_case = HWCT__CALL__ARGS_RECT;
	c.rect = &a;
	end_call(g, &c);
}

static void crop_call(struct gen *g, uint64_t display, uint64_t layer, float w, float h, uint64_t t)
{
	Hwct__Call c;
	Hwct__FRectArgs a = HWCT__FRECT_ARGS__INIT;
	Hwct__FRect rect = HWCT__FRECT__INIT;

	begin_call(&c, g, HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, display, (int64_t)layer, t);
	rect.has_left = rect.has_top = rect.has_right = rect.has_bottom = true;
	rect.right = w;
	rect.bottom = h;
	a.rect = &rect;
	c.args_case = HWCT__CALL__ARGS_FRECT;
	c.frect = &a;
	end_call(g, &c);
}

static void color_call(struct gen *g, uint64_t display, uint64_t layer, uint32_t rgba, uint64_t t)
{
	Hwct__Call c;
	Hwct__ColorArgs a = HWCT__COLOR_ARGS__INIT;
	Hwct__Color color = HWCT__COLOR__INIT;

	begin_call(&c, g, HWC2_FUNCTION_SET_LAYER_COLOR, display, (int64_t)layer, t);
	color.has_rgba = true;
	color.rgba = rgba;
	a.color = &color;
	c.args_case = HWCT__CALL__ARGS_COLOR;
	c.color = &a;
	end_call(g, &c);
}

static void buffer_record(struct gen *g, uint64_t id, uint32_t w, uint32_t h, int32_t hal, uint32_t drm,
	uint32_t stride, uint32_t uv_offset)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Buffer b = HWCT__BUFFER__INIT;
	Hwct__BufferPlane p0 = HWCT__BUFFER_PLANE__INIT, p1 = HWCT__BUFFER_PLANE__INIT, *planes[] = { &p0, &p1 };

	b.has_id = b.has_width = b.has_height = b.has_hal_format = true;
	b.id = id;
	b.width = w;
	b.height = h;
	b.hal_format = hal;
	if (drm) {
		b.has_drm_format = true;
		b.drm_format = drm;
	}
	p0.has_offset = p0.has_stride = p1.has_offset = p1.has_stride = true;
	p0.stride = stride;
	p1.offset = uv_offset;
	p1.stride = stride;
	b.n_planes = uv_offset ? 2 : 1;
	b.planes = planes;
	b.allocator = "analyzers2";
	rec.kind_case = HWCT__RECORD__KIND_BUFFER;
	rec.buffer = &b;
	put(g, &rec);
}

static struct hwct_hash blob(struct gen *g, const void *data, size_t size, uint32_t w, uint32_t h, uint32_t stride,
	uint32_t bpp)
{
	struct hwct_blob_desc d = { .data = data, .size = size, .kind = HWCT_BLOB_PIXELS, .width = w, .height = h,
		.stride = stride, .bpp = bpp };
	struct hwct_hash hash;
	int ret = hwct_writer_add_blob(g->w, &d, HWCT_BLOB_WAIT, &hash);

	CHECK(ret == 0 || ret == 1);
	return hash;
}

/* setLayerBuffer or setClientTarget; content NULL: not captured. */
static void buffer_call(struct gen *g, int32_t function, uint64_t display, int64_t layer, uint64_t buffer,
	uint64_t fence, const struct hwct_hash *content, uint64_t t)
{
	Hwct__Call c;
	Hwct__LayerBufferArgs a = HWCT__LAYER_BUFFER_ARGS__INIT;
	uint8_t bytes[HWCT_HASH_BYTES];

	begin_call(&c, g, function, display, layer, t);
	a.has_buffer = a.has_fence = a.has_capture = true;
	a.buffer = buffer;
	a.fence = fence;
	a.capture = content ? HWCT_CAPTURE_OK : HWCT_CAPTURE_OFF;
	if (content) {
		hwct_hash_to_bytes(content, bytes);
		a.has_content = true;
		a.content = (ProtobufCBinaryData){ sizeof(bytes), bytes };
	}
	c.args_case = HWCT__CALL__ARGS_BUFFER;
	c.buffer = &a;
	end_call(g, &c);
	if (function == HWC2_FUNCTION_SET_LAYER_BUFFER) {
		g->info->layer_buffer_ok += content != NULL;
		g->info->layer_buffer_off += content == NULL;
	}
}

static void queue_fence(struct gen *g, uint64_t display, uint64_t id, int32_t kind, uint64_t created, int64_t wait)
{
	Hwct__Fence *f = &g->current[display].fences[g->current[display].count++];

	hwct__fence__init(f);
	f->has_id = f->has_kind = f->has_display = f->has_created_ns = f->has_status = f->has_frame = true;
	f->id = id;
	f->kind = kind;
	f->display = display;
	f->created_ns = created;
	f->frame = g->frame;
	f->status = wait < 0 ? HWCT_FENCE_PENDING : HWCT_FENCE_SIGNALLED;
	if (wait >= 0) {
		f->has_signal_ns = true;
		f->signal_ns = created + (uint64_t)wait;
	}
}

static void write_fences(struct gen *g, struct fence_batch *b)
{
	for (size_t i = 0; i < b->count; i++) {
		Hwct__Record rec = HWCT__RECORD__INIT;

		if (!b->fences[i].has_signal_ns) {
			continue;	/* never signalled: no record */
		}
		rec.kind_case = HWCT__RECORD__KIND_FENCE;
		rec.fence = &b->fences[i];
		put(g, &rec);
		g->info->fences_signalled++;
	}
	b->count = 0;
}

/* A display's frame starts: the fences of its previous frame wait for this one's FrameEnd. */
static void begin_frame(struct gen *g, uint64_t display)
{
	g->previous[display] = g->current[display];
	g->current[display].count = 0;
}

static void callback(struct gen *g, uint64_t display, uint64_t t)
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
	put(g, &rec);
	g->info->callbacks++;
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
	c.vsync_period_ns = (int32_t)GEN2_FRAME_NS;
	d.has_id = d.has_active_config = true;
	d.id = id;
	d.name = id ? "External" : "Built-in";
	d.n_configs = 1;
	d.configs = configs;
	d.active_config = 1;
	rec.kind_case = HWCT__RECORD__KIND_DISPLAY;
	rec.display = &d;
	put(g, &rec);
}

/* Layer ids, z, display frames of display 0 (gen2.h). */
static const struct {
	int32_t frame[4];
	bool solid;
} layers0[GEN2_LAYERS] = {
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
	uint8_t bgra[GEN2_BUF_W * GEN2_BUF_H * 4];
	uint8_t nv12[GEN2_BUF_W * GEN2_BUF_H * 3 / 2], xrgb[GEN2_BUF_W * GEN2_BUF_H * 4];
	struct hwct_hash h;

	buffer_record(g, 100, GEN2_BUF_W, GEN2_BUF_H, HAL_RGBA_8888, 0, GEN2_BUF_W * 4, 0);
	buffer_record(g, 106, GEN2_BUF_W, GEN2_BUF_H, HAL_RGBA_8888, 0, GEN2_BUF_W * 4, 0);
	buffer_record(g, 101, GEN2_BUF_W, GEN2_BUF_H, HAL_BGRA_8888, 0, GEN2_BUF_W * 4, 0);
	buffer_record(g, 102, GEN2_BUF_W, GEN2_BUF_H, HAL_RGB_565, 0, GEN2_BUF_W * 2, 0);
	buffer_record(g, 103, GEN2_BUF_W, GEN2_BUF_H, HAL_YCBCR_420_888, 0, GEN2_BUF_W, GEN2_BUF_W * GEN2_BUF_H);
	buffer_record(g, 104, GEN2_BUF_W, GEN2_BUF_H, 0, DRM_FORMAT_XRGB8888, GEN2_BUF_W * 4, 0);
	buffer_record(g, 105, GEN2_BUF_W, GEN2_BUF_H, HAL_RGBA_8888, 0, GEN2_BUF_W * 4, 0);
	buffer_record(g, 110, GEN2_W, GEN2_H, HAL_RGBA_8888, 0, GEN2_W * 4, 0);
	for (unsigned i = 0; i < GEN2_LAYERS; i++) {
		uint64_t id = i + 1;

		value_call(g, HWC2_FUNCTION_CREATE_LAYER, 0, -1, (int64_t)id, t);
		value_call(g, HWC2_FUNCTION_SET_LAYER_Z_ORDER, 0, (int64_t)id, i, t + 10);
		rect_call(g, 0, id, layers0[i].frame[0], layers0[i].frame[1], layers0[i].frame[2], layers0[i].frame[3],
			t + 20);
		value_call(g, HWC2_FUNCTION_SET_LAYER_BLEND_MODE, 0, (int64_t)id, HWC2_BLEND_MODE_NONE, t + 30);
		value_call(g, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 0, (int64_t)id,
			layers0[i].solid ? HWC2_COMPOSITION_SOLID_COLOR : HWC2_COMPOSITION_DEVICE, t + 40);
		if (layers0[i].solid) {
			color_call(g, 0, id, GEN2_SOLID, t + 50);
		} else {
			crop_call(g, 0, id, GEN2_BUF_W, GEN2_BUF_H, t + 50);
		}
	}
	for (unsigned y = 0; y < GEN2_BUF_H; y++) {
		for (unsigned x = 0; x < GEN2_BUF_W; x++) {
			uint32_t c = gen2_l2_rgba(x, y);
			uint8_t *p = bgra + (y * GEN2_BUF_W + x) * 4, *q = xrgb + (y * GEN2_BUF_W + x) * 4;

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
	memset(nv12, 81, GEN2_BUF_W * GEN2_BUF_H);
	for (size_t i = 0; i < GEN2_BUF_W * GEN2_BUF_H / 2; i += 2) {
		nv12[GEN2_BUF_W * GEN2_BUF_H + i] = 90;
		nv12[GEN2_BUF_W * GEN2_BUF_H + i + 1] = 240;
	}
	h = blob(g, bgra, sizeof(bgra), GEN2_BUF_W, GEN2_BUF_H, GEN2_BUF_W * 4, 4);
	buffer_call(g, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 2, 101, 0, &h, t + 100);
	h = blob(g, nv12, sizeof(nv12), GEN2_BUF_W, GEN2_BUF_H, GEN2_BUF_W, 1);
	buffer_call(g, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 4, 103, 0, &h, t + 110);
	h = blob(g, xrgb, sizeof(xrgb), GEN2_BUF_W, GEN2_BUF_H, GEN2_BUF_W * 4, 4);
	buffer_call(g, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 5, 104, 0, &h, t + 120);
	buffer_call(g, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 7, 105, 0, NULL, t + 130);
}

static struct hwct_hash content_565(struct gen *g)
{
	uint8_t b565[GEN2_BUF_W * GEN2_BUF_H * 2];

	for (size_t i = 0; i < sizeof(b565); i += 2) {
		b565[i] = 0x00;
		b565[i + 1] = 0xf8;	/* 0xf800: red */
	}
	return blob(g, b565, sizeof(b565), GEN2_BUF_W, GEN2_BUF_H, GEN2_BUF_W * 2, 2);
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
	uint8_t img[GEN2_W * GEN2_H * 4];

	for (unsigned y = 0; y < GEN2_H; y++) {
		for (unsigned x = 0; x < GEN2_W; x++) {
			uint32_t c = gen2_ct_rgba(k, x, y);

			memcpy(img + (y * GEN2_W + x) * 4, (uint8_t[4]){ (uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16),
				(uint8_t)(c >> 24) }, 4);
		}
	}
	return blob(g, img, sizeof(img), GEN2_W, GEN2_H, GEN2_W * 4, 4);
}

static void validate(struct gen *g, uint64_t display, const uint64_t *changed, size_t n, uint64_t t)
{
	Hwct__Call c, ct;
	Hwct__ValidateArgs v = HWCT__VALIDATE_ARGS__INIT;
	Hwct__ChangedTypesArgs a = HWCT__CHANGED_TYPES_ARGS__INIT;
	int32_t types[4] = { HWC2_COMPOSITION_CLIENT, HWC2_COMPOSITION_CLIENT, HWC2_COMPOSITION_CLIENT,
		HWC2_COMPOSITION_CLIENT };

	begin_call(&c, g, HWC2_FUNCTION_VALIDATE_DISPLAY, display, -1, t);
	v.has_num_types = v.has_num_requests = true;
	v.num_types = (uint32_t)n;
	c.error = n ? HWC2_ERROR_HAS_CHANGES : HWC2_ERROR_NONE;
	c.args_case = HWCT__CALL__ARGS_VALIDATE;
	c.validate = &v;
	end_call(g, &c);
	if (!n) {
		return;
	}
	begin_call(&ct, g, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, display, -1, t + 2000);
	a.n_layers = a.n_types = n;
	a.layers = (uint64_t *)changed;
	a.types = types;
	ct.args_case = HWCT__CALL__ARGS_CHANGED_TYPES;
	ct.changed_types = &a;
	end_call(g, &ct);
	begin_call(&c, g, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, display, -1, t + 4000);
	end_call(g, &c);
}

/* presentDisplay, getReleaseFences for release_layer, FrameEnd, then the previous frame's fences. */
static void present(struct gen *g, uint64_t display, unsigned k, uint64_t release_layer, bool last, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;
	Hwct__Call c, rel;
	Hwct__PresentArgs p = HWCT__PRESENT_ARGS__INIT;
	Hwct__ReleaseFencesArgs r = HWCT__RELEASE_FENCES_ARGS__INIT;
	uint64_t present_fence = g->fence++, release_fence = g->fence++;

	begin_call(&c, g, HWC2_FUNCTION_PRESENT_DISPLAY, display, -1, t);
	p.has_present_fence = true;
	p.present_fence = present_fence;
	c.args_case = HWCT__CALL__ARGS_PRESENT;
	c.present = &p;
	end_call(g, &c);
	begin_call(&rel, g, HWC2_FUNCTION_GET_RELEASE_FENCES, display, -1, t + 3000);
	r.n_layers = r.n_fences = 1;
	r.layers = &release_layer;
	r.fences = &release_fence;
	rel.args_case = HWCT__CALL__ARGS_RELEASE_FENCES;
	rel.release_fences = &r;
	end_call(g, &rel);
	queue_fence(g, display, present_fence, HWCT_FENCE_PRESENT, c.t_exit_ns, (int64_t)(k % 3 + 1) * 1000000);
	queue_fence(g, display, release_fence, HWCT_FENCE_RELEASE, rel.t_exit_ns, last ? -1 : GEN2_RELEASE_NS);
	fe.has_frame = fe.has_display = fe.has_display_frame = fe.has_t_ns = true;
	fe.has_present_fence = fe.has_validated = fe.has_flags = true;
	fe.frame = g->frame++;
	fe.display = display;
	fe.display_frame = g->display_frames[display]++;
	fe.t_ns = c.t_exit_ns;
	fe.present_fence = present_fence;
	fe.validated = true;
	fe.flags = display == 0 && k == GEN2_LATE_FRAME ? HWCT_FRAME_CAPTURE_LATE : 0;
	rec.kind_case = HWCT__RECORD__KIND_FRAME_END;
	rec.frame_end = &fe;
	put(g, &rec);
	g->info->frames++;
	write_fences(g, &g->previous[display]);
}

static void frame0(struct gen *g, unsigned k, bool last)
{
	const bool v = g->o->variant;
	uint64_t t = GEN2_T0 + k * GEN2_FRAME_NS, fence = g->fence++, changed[2];
	size_t n = 0;
	struct hwct_hash h;

	begin_frame(g, 0);
	callback(g, 0, t);
	if (k == 0) {
		create_layers0(g, t + 100);
	}
	h = content_uniform(g, v && k == 3 ? gen2_l1_rgba(k) ^ 0x00ffffu : gen2_l1_rgba(k), GEN2_BUF_W, GEN2_BUF_H);
	buffer_call(g, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 1, k % 2 ? 106 : 100, fence, &h, t + 1000);
	queue_fence(g, 0, fence, HWCT_FENCE_ACQUIRE, t + 1000, (int64_t)(k + 1) * 100000);
	if (k % 4 == 0) {
		h = content_565(g);
		buffer_call(g, HWC2_FUNCTION_SET_LAYER_BUFFER, 0, 3, 102, 0, &h, t + 1100);
	}
	value_call(g, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 0, 3, HWC2_COMPOSITION_DEVICE, t + 1200);
	value_call(g, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 0, 2, HWC2_COMPOSITION_DEVICE, t + 1300);
	if (v && k == 5) {
		rect_call(g, 0, 5, 48, 8, 64, 16, t + 1400);
	} else if (v && k == 6) {
		rect_call(g, 0, 5, 48, 0, 64, 8, t + 1400);
	}
	if (k % 2 == 1) {
		changed[n++] = 3;
	}
	if (v && k == 6) {
		changed[n++] = 2;
	}
	validate(g, 0, changed, n, t + 10000);
	if (k % 2 == 1) {
		h = content_client_target(g, k);
		buffer_call(g, HWC2_FUNCTION_SET_CLIENT_TARGET, 0, -1, 110, 0, &h, t + 16000);
	}
	present(g, 0, k, 1, last, t + 20000);
}

static void frame1(struct gen *g, unsigned k, bool last)
{
	uint64_t t = GEN2_T0 + k * GEN2_FRAME_NS + 1000000, fence = g->fence++;
	struct hwct_hash h;

	begin_frame(g, 1);
	callback(g, 1, t);
	if (k == 0) {
		buffer_record(g, 200, 32, 24, HAL_RGBA_8888, 0, 32 * 4, 0);
		value_call(g, HWC2_FUNCTION_CREATE_LAYER, 1, -1, 50, t + 100);
		rect_call(g, 1, 50, 0, 0, 32, 24, t + 110);
		crop_call(g, 1, 50, 32, 24, t + 120);
		value_call(g, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, 1, 50, HWC2_COMPOSITION_DEVICE, t + 130);
	}
	h = content_uniform(g, 0xff000000u | k * 3, 32, 24);
	buffer_call(g, HWC2_FUNCTION_SET_LAYER_BUFFER, 1, 50, 200, fence, &h, t + 1000);
	queue_fence(g, 1, fence, HWCT_FENCE_ACQUIRE, t + 1000, 50000);
	validate(g, 1, NULL, 0, t + 5000);
	present(g, 1, k, 50, last, t + 8000);
}

static void environment(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Environment e = HWCT__ENVIRONMENT__INIT;
	Hwct__Note n = HWCT__NOTE__INIT;

	e.source = "scenario:analyzers2";
	e.process = "surfaceflinger";
	rec.kind_case = HWCT__RECORD__KIND_ENVIRONMENT;
	rec.environment = &e;
	put(g, &rec);
	n.topic = "synthesized-content";
	n.text = "analyzers2-test";
	rec.kind_case = HWCT__RECORD__KIND_NOTE;
	rec.note = &n;
	put(g, &rec);
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
	put(g, &rec);
}

void gen2_write(const char *path, const struct gen2_options *o, struct gen2_info *info)
{
	struct hwct_writer_options opts;
	struct gen g = { .info = info, .o = o, .seq = 1, .fence = 1 };

	*info = (struct gen2_info){ 0 };
	hwct_writer_options_init(&opts);
	opts.workers = 1;
	opts.writer_name = "analyzers2-test";
	opts.pixels = true;
	if (o->keyframe_interval) {
		opts.keyframe_interval = o->keyframe_interval;
	}
	g.w = hwct_writer_create(path, &opts);
	CHECK(g.w);
	environment(&g);
	display_record(&g, 0, GEN2_W, GEN2_H);
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
			capture_stats(&g, 1, 100, 0, GEN2_T0 + k * GEN2_FRAME_NS + 30000);
		}
	}
	capture_stats(&g, GEN2_BLOBS_DROPPED, GEN2_BYTES_DROPPED, 1, GEN2_T0 + o->frames * GEN2_FRAME_NS);
	for (uint64_t d = 0; d < o->displays; d++) {
		write_fences(&g, &g.current[d]);
	}
	CHECK(hwct_writer_close(g.w) == 0);
}
