/* Synthetic traces for the replay tests and benchmark (replay_gen.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/writer.h>
#include <system/graphics.h>

#include "replay_gen.h"

#define T0 1000000000ull	/* ns */
#define PERIOD 16666667ull
#define DEVICE_PLANES 4
#define MAX_LAYERS 64

struct gen {
	struct hwct_writer *w;
	const struct gen_options *o;
	uint64_t seq, fence;
	uint8_t *pixels;		/* scratch: the largest buffer */
	struct hwct_hash content[MAX_LAYERS];
	int ret;
};

void gen_options_init(struct gen_options *o)
{
	*o = (struct gen_options){ .width = 1024, .height = 768, .layers = 5, .frames = 90, .tile = 64,
		.uncaptured = GEN_NONE };
}

static void put(struct gen *g, Hwct__Record *rec)
{
	int ret = g->ret ? 0 : hwct_writer_write(g->w, rec);

	g->ret = g->ret ? g->ret : ret;
}

static void call(struct gen *g, Hwct__Call *c, int32_t function, int64_t layer, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;

	c->has_seq = c->has_t_enter_ns = c->has_t_exit_ns = c->has_function = c->has_display = true;
	c->has_error = true;
	c->seq = g->seq++;
	c->t_enter_ns = t;
	c->t_exit_ns = t + 1000;
	c->function = function;
	c->display = 0;
	if (layer >= 0) {
		c->has_layer = true;
		c->layer = (uint64_t)layer;
	}
	rec.kind_case = HWCT__RECORD__KIND_CALL;
	rec.call = c;
	put(g, &rec);
}

static void value_call(struct gen *g, int32_t function, int64_t layer, int64_t value, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__ValueArgs v = HWCT__VALUE_ARGS__INIT;

	v.has_value = true;
	v.value = value;
	c.args_case = HWCT__CALL__ARGS_VALUE;
	c.value = &v;
	call(g, &c, function, layer, t);
}

static uint64_t layer_id(uint32_t i)
{
	return 100 + i;
}

static uint64_t buffer_id(uint32_t i)
{
	return 1000 + i;
}

static bool is_nv12(const struct gen *g, uint32_t i)
{
	return i == 1 && g->o->nv12;
}

static bool is_p010(const struct gen *g, uint32_t i)
{
	return i == 1 && g->o->p010 && !g->o->nv12;
}

static void put10(uint8_t *p, uint32_t sample)
{
	uint32_t word = sample << 6;	/* P010: the 10 bits at the top of a little-endian word */

	p[0] = (uint8_t)(word & 0xff);
	p[1] = (uint8_t)(word >> 8);
}

/* The same picture as draw_nv12 in 10-bit P010 (luma 64..940 and a 940 column), other chroma. */
static size_t draw_p010(struct gen *g, uint32_t w, uint32_t h, uint32_t f)
{
	uint8_t *chroma = g->pixels + (size_t)w * h * 2;

	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			put10(g->pixels + ((size_t)y * w + x) * 2, x == f % w ? 940 : 64 + (x + y) * 800 / (w + h));
		}
	}
	for (uint32_t y = 0; y < (h + 1) / 2; y++) {
		for (uint32_t x = 0; x + 1 < w + 1; x += 2) {
			put10(chroma + ((size_t)y * w + x) * 2, 64 + (x * 29 + f * 21) % 897);	/* Cb */
			put10(chroma + ((size_t)y * w + x + 1) * 2, 64 + (y * 43 + f * 13) % 897);	/* Cr */
		}
	}
	return ((size_t)w * h + (size_t)w * ((h + 1) / 2)) * 2;
}

/*
 * Layer i's NV12 content of frame f: a luma ramp with a bright column that
 * moves; chroma that changes from one sample to the next (Cb across, Cr
 * down, both with the frame), so that how chroma is sampled shows.
 */
static size_t draw_nv12(struct gen *g, uint32_t w, uint32_t h, uint32_t f)
{
	uint8_t *chroma = g->pixels + (size_t)w * h;

	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			g->pixels[(size_t)y * w + x] = (uint8_t)(x == f % w ? 235 : 16 + (x + y) * 200 / (w + h));
		}
	}
	for (uint32_t y = 0; y < (h + 1) / 2; y++) {
		for (uint32_t x = 0; x + 1 < w + 1; x += 2) {
			chroma[(size_t)y * w + x] = (uint8_t)(16 + (x * 7 + f * 5) % 225);	/* Cb */
			chroma[(size_t)y * w + x + 1] = (uint8_t)(16 + (y * 11 + f * 3) % 225);	/* Cr */
		}
	}
	return (size_t)w * h + (size_t)w * ((h + 1) / 2);
}

static void layer_size(const struct gen *g, uint32_t i, uint32_t *w, uint32_t *h)
{
	*w = i == 0 ? g->o->width : g->o->tile;
	*h = i == 0 ? g->o->height : g->o->tile;
}

/* Tiles in a grid from the top-left, a tile apart, unscaled. */
static struct hwct_rect layer_frame(const struct gen *g, uint32_t i)
{
	uint32_t t = g->o->tile, per_row = g->o->width / (2 * t) ? g->o->width / (2 * t) : 1;
	int32_t x = (int32_t)(((i - 1) % per_row) * 2 * t + t / 2), y = (int32_t)(((i - 1) / per_row) * 2 * t + t / 2);

	if (i == 0) {
		return (struct hwct_rect){ 0, 0, (int32_t)g->o->width, (int32_t)g->o->height };
	}
	return (struct hwct_rect){ x, y, x + (int32_t)t, y + (int32_t)t };
}

static void write_header_records(struct gen *g)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Environment e = HWCT__ENVIRONMENT__INIT;
	Hwct__Display d = HWCT__DISPLAY__INIT;
	Hwct__DisplayConfig c = HWCT__DISPLAY_CONFIG__INIT, *configs[] = { &c };

	e.source = "scenario:replay-test";
	e.kernel = "6.1.0-test";
	e.android_fingerprint = "hwct/replay-test";
	e.mesa_version = "23.0.0-test";
	e.libdrm_version = "2.4.114-test";
	rec.kind_case = HWCT__RECORD__KIND_ENVIRONMENT;
	rec.environment = &e;
	put(g, &rec);
	c.has_id = c.has_width = c.has_height = c.has_vsync_period_ns = true;
	c.id = 1;
	c.width = (int32_t)g->o->width;
	c.height = (int32_t)g->o->height;
	c.vsync_period_ns = (int32_t)PERIOD;
	d.has_id = d.has_type = d.has_active_config = true;
	d.id = 0;
	d.name = "Built-in";
	d.type = HWC2_DISPLAY_TYPE_PHYSICAL;
	d.n_configs = 1;
	d.configs = configs;
	d.active_config = 1;
	rec = (Hwct__Record)HWCT__RECORD__INIT;
	rec.kind_case = HWCT__RECORD__KIND_DISPLAY;
	rec.display = &d;
	put(g, &rec);
	for (uint32_t i = 0; i < g->o->layers; i++) {
		Hwct__Buffer b = HWCT__BUFFER__INIT;
		Hwct__BufferPlane p = HWCT__BUFFER_PLANE__INIT, *planes[] = { &p };
		uint32_t w, h;

		Hwct__BufferPlane chroma = HWCT__BUFFER_PLANE__INIT, *nv12_planes[] = { &p, &chroma };
		bool nv12 = is_nv12(g, i), p010 = is_p010(g, i);

		layer_size(g, i, &w, &h);
		p.has_offset = p.has_stride = true;
		p.stride = nv12 ? w : p010 ? w * 2 : w * 4;
		b.has_id = b.has_width = b.has_height = b.has_hal_format = true;
		b.id = buffer_id(i);
		b.width = w;
		b.height = h;
		b.hal_format = nv12 ? HAL_PIXEL_FORMAT_YCBCR_420_888 : HAL_PIXEL_FORMAT_BGRA_8888;
		b.n_planes = 1;
		b.planes = planes;
		if (nv12) {
			/* luma rows, then the interleaved Cb/Cr rows of half the height (DRM NV12) */
			chroma.has_offset = chroma.has_stride = true;
			chroma.offset = w * h;
			chroma.stride = w;
			b.has_drm_format = true;
			b.drm_format = 0x3231564Eu;	/* fourcc_code('N', 'V', '1', '2') */
			b.n_planes = 2;
			b.planes = nv12_planes;
		}
		if (p010) {
			/* 16-bit luma rows, then the interleaved 16-bit Cb/Cr rows of half the height (DRM P010) */
			chroma.has_offset = chroma.has_stride = true;
			chroma.offset = w * h * 2;
			chroma.stride = w * 2;
			b.hal_format = HAL_PIXEL_FORMAT_YCBCR_P010;
			b.has_drm_format = true;
			b.drm_format = 0x30313050u;	/* fourcc_code('P', '0', '1', '0') */
			b.n_planes = 2;
			b.planes = nv12_planes;
		}
		rec = (Hwct__Record)HWCT__RECORD__INIT;
		rec.kind_case = HWCT__RECORD__KIND_BUFFER;
		rec.buffer = &b;
		put(g, &rec);
	}
}

/* Draws layer i's content of frame f and stores it. */
static void store_content(struct gen *g, uint32_t i, uint32_t f)
{
	uint32_t w, h;
	struct hwct_blob_desc desc = { .kind = HWCT_BLOB_PIXELS, .bpp = 4 };
	int ret;

	layer_size(g, i, &w, &h);
	if (is_nv12(g, i) || is_p010(g, i)) {
		uint32_t bpp = is_nv12(g, i) ? 1 : 2;

		desc = (struct hwct_blob_desc){ .kind = HWCT_BLOB_PIXELS, .bpp = bpp, .data = g->pixels,
			.size = bpp == 1 ? draw_nv12(g, w, h, f) : draw_p010(g, w, h, f), .width = w, .height = h,
			.stride = w * bpp };
		ret = hwct_writer_add_blob(g->w, &desc, HWCT_BLOB_WAIT, &g->content[i]);
		if (ret < 0 && !g->ret) {
			g->ret = ret;
		}
		return;
	}
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint8_t *p = g->pixels + ((size_t)y * w + x) * 4;
			bool mark = i > 0 && x == f % w;

			/* B, G, R, A; opaque: the blend mode says nothing about alpha then */
			p[0] = (uint8_t)(i == 0 ? x * 255 / (w ? w : 1) : 40 * i);
			p[1] = (uint8_t)(i == 0 ? y * 255 / (h ? h : 1) : mark ? 255 : 200 - 20 * i);
			p[2] = (uint8_t)(i == 0 ? 64 : mark ? 0 : 30 * i);
			p[3] = 0xff;
		}
	}
	desc.data = g->pixels;
	desc.size = (size_t)w * h * 4;
	desc.width = w;
	desc.height = h;
	desc.stride = w * 4;
	ret = hwct_writer_add_blob(g->w, &desc, HWCT_BLOB_WAIT, &g->content[i]);
	if (ret < 0 && !g->ret) {
		g->ret = ret;
	}
}

static void set_buffer(struct gen *g, uint32_t i, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__LayerBufferArgs a = HWCT__LAYER_BUFFER_ARGS__INIT;
	uint8_t bytes[HWCT_HASH_BYTES];
	bool captured = i != g->o->uncaptured;

	a.has_buffer = a.has_fence = a.has_capture = true;
	a.buffer = buffer_id(i);
	a.fence = g->fence++;
	a.capture = captured ? HWCT_CAPTURE_SYNTHETIC : HWCT_CAPTURE_OFF;
	if (captured) {
		hwct_hash_to_bytes(&g->content[i], bytes);
		a.has_content = true;
		a.content = (ProtobufCBinaryData){ sizeof(bytes), bytes };
	}
	c.args_case = HWCT__CALL__ARGS_BUFFER;
	c.buffer = &a;
	call(g, &c, HWC2_FUNCTION_SET_LAYER_BUFFER, (int64_t)layer_id(i), t);
}

static void set_geometry(struct gen *g, uint32_t i, uint64_t t)
{
	Hwct__Call rc = HWCT__CALL__INIT, fc = HWCT__CALL__INIT, ac = HWCT__CALL__INIT;
	Hwct__RectArgs ra = HWCT__RECT_ARGS__INIT;
	Hwct__Rect r = HWCT__RECT__INIT;
	Hwct__FRectArgs fa = HWCT__FRECT_ARGS__INIT;
	Hwct__FRect fr = HWCT__FRECT__INIT;
	Hwct__FloatArgs alpha = HWCT__FLOAT_ARGS__INIT;
	struct hwct_rect frame = layer_frame(g, i);
	uint32_t w, h;

	layer_size(g, i, &w, &h);
	value_call(g, HWC2_FUNCTION_SET_LAYER_Z_ORDER, (int64_t)layer_id(i), i + 1, t);
	value_call(g, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, (int64_t)layer_id(i), HWC2_COMPOSITION_DEVICE, t);
	value_call(g, HWC2_FUNCTION_SET_LAYER_BLEND_MODE, (int64_t)layer_id(i),
		i == 0 ? HWC2_BLEND_MODE_NONE : HWC2_BLEND_MODE_PREMULTIPLIED, t);
	r.has_left = r.has_top = r.has_right = r.has_bottom = true;
	r.left = frame.left;
	r.top = frame.top;
	r.right = frame.right;
	r.bottom = frame.bottom;
	ra.rect = &r;
	rc.args_case = HWCT__CALL__ARGS_RECT;
	rc.rect = &ra;
	call(g, &rc, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, (int64_t)layer_id(i), t);
	fr.has_left = fr.has_top = fr.has_right = fr.has_bottom = true;
	fr.right = (float)w;
	fr.bottom = (float)h;
	fa.rect = &fr;
	fc.args_case = HWCT__CALL__ARGS_FRECT;
	fc.frect = &fa;
	call(g, &fc, HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, (int64_t)layer_id(i), t);
	alpha.has_value = true;
	alpha.value = 1.0f;
	ac.args_case = HWCT__CALL__ARGS_FLOAT_VALUE;
	ac.float_value = &alpha;
	call(g, &ac, HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA, (int64_t)layer_id(i), t);
	if (i == 1 && g->o->rotate) {
		value_call(g, HWC2_FUNCTION_SET_LAYER_TRANSFORM, (int64_t)layer_id(i), g->o->rotate, t);
	}
}

/* validateDisplay and the stand-in device's changes: the lowest layers CLIENT past DEVICE_PLANES. */
static void validate(struct gen *g, uint64_t t)
{
	uint32_t n = g->o->layers, clients = n > DEVICE_PLANES ? n - (DEVICE_PLANES - 1) : 0;
	Hwct__Call v = HWCT__CALL__INIT, ct = HWCT__CALL__INIT;
	Hwct__ValidateArgs va = HWCT__VALIDATE_ARGS__INIT;
	Hwct__ChangedTypesArgs ca = HWCT__CHANGED_TYPES_ARGS__INIT;
	uint64_t layers[MAX_LAYERS];
	int32_t types[MAX_LAYERS];

	for (uint32_t i = 0; i < clients; i++) {
		layers[i] = layer_id(i);
		types[i] = HWC2_COMPOSITION_CLIENT;
	}
	va.has_num_types = va.has_num_requests = true;
	va.num_types = clients;
	v.args_case = HWCT__CALL__ARGS_VALIDATE;
	v.validate = &va;
	v.error = clients ? HWC2_ERROR_HAS_CHANGES : HWC2_ERROR_NONE;
	call(g, &v, HWC2_FUNCTION_VALIDATE_DISPLAY, -1, t);
	if (!clients) {
		return;
	}
	ca.n_layers = ca.n_types = clients;
	ca.layers = layers;
	ca.types = types;
	ct.args_case = HWCT__CALL__ARGS_CHANGED_TYPES;
	ct.changed_types = &ca;
	call(g, &ct, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, -1, t + 100);
	{
		Hwct__Call accept = HWCT__CALL__INIT;

		call(g, &accept, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, -1, t + 200);
	}
}

static void present(struct gen *g, uint32_t f, uint64_t t)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__PresentArgs p = HWCT__PRESENT_ARGS__INIT;
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;

	p.has_present_fence = true;
	p.present_fence = g->fence++;
	c.args_case = HWCT__CALL__ARGS_PRESENT;
	c.present = &p;
	call(g, &c, HWC2_FUNCTION_PRESENT_DISPLAY, -1, t);
	fe.has_frame = fe.has_display = fe.has_display_frame = fe.has_t_ns = fe.has_validated = true;
	fe.frame = f;
	fe.display = 0;
	fe.display_frame = f;
	fe.t_ns = t + 1000;
	fe.validated = true;
	rec.kind_case = HWCT__RECORD__KIND_FRAME_END;
	rec.frame_end = &fe;
	put(g, &rec);
}

int gen_write(const char *path, const struct gen_options *o)
{
	struct hwct_writer_options wo;
	struct gen g = { .o = o, .seq = 1, .fence = 1 };
	uint32_t tiles = o->layers > 1 ? o->layers - 1 : 0;
	int ret;

	if (o->layers == 0 || o->layers > MAX_LAYERS || o->width == 0 || o->height == 0 || o->tile == 0) {
		return -EINVAL;
	}
	hwct_writer_options_init(&wo);
	wo.writer_name = "replay-test generator";
	wo.pixels = true;
	wo.workers = 1;
	wo.record_level = 3;
	if (o->keyframe_interval) {
		wo.keyframe_interval = o->keyframe_interval;
	}
	g.pixels = malloc((size_t)(o->width > o->tile ? o->width : o->tile) *
		(o->height > o->tile ? o->height : o->tile) * 4);
	g.w = g.pixels ? hwct_writer_create(path, &wo) : NULL;
	if (!g.w) {
		free(g.pixels);
		return -errno;
	}
	write_header_records(&g);
	for (uint32_t i = 0; i < o->layers; i++) {
		value_call(&g, HWC2_FUNCTION_CREATE_LAYER, -1, (int64_t)layer_id(i), T0 - 1000000);
		store_content(&g, i, 0);
	}
	for (uint32_t f = 0; f < o->frames && !g.ret; f++) {
		uint64_t t = T0 + f * PERIOD;

		if (f == 0) {
			for (uint32_t i = 0; i < o->layers; i++) {
				set_geometry(&g, i, t);
				set_buffer(&g, i, t + 10);
			}
		} else {
			uint32_t clients = o->layers > DEVICE_PLANES ? o->layers - (DEVICE_PLANES - 1) : 0;

			/* SurfaceFlinger asks again for DEVICE where the device said CLIENT */
			for (uint32_t i = 0; i < clients; i++) {
				value_call(&g, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, (int64_t)layer_id(i),
					HWC2_COMPOSITION_DEVICE, t);
			}
			if (tiles) {
				uint32_t i = 1 + f % tiles;	/* one tile draws a new buffer each frame */

				store_content(&g, i, f);
				set_buffer(&g, i, t + 10);
			}
		}
		validate(&g, t + 2000);
		present(&g, f, t + 4000);
	}
	ret = hwct_writer_close(g.w);
	free(g.pixels);
	return g.ret ? g.ret : ret;
}
