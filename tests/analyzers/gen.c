/* The writer of the analyzer tests' traces: what both scenarios write alike (gen.h). */
#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/writer.h>

#include "gen.h"
#include "testutil.h"

void gen_writer_open(struct gen_writer *g, const char *path, const struct hwct_writer_options *opts)
{
	g->seq = g->fence = 1;
	g->w = hwct_writer_create(path, opts);
	CHECK(g->w);
}

void gen_writer_close(struct gen_writer *g)
{
	CHECK(hwct_writer_close(g->w) == 0);
	g->w = NULL;
}

void gen_put(struct gen_writer *g, const Hwct__Record *rec)
{
	CHECK(hwct_writer_write(g->w, rec) == 0);
	if (g->written) {
		g->written(g->ctx, rec);
	}
}

Hwct__Call *gen_call_begin(struct gen_writer *g, Hwct__Call *c, int32_t function, uint64_t display, int64_t layer,
	uint64_t t)
{
	hwct__call__init(c);
	c->has_seq = c->has_thread = c->has_t_enter_ns = c->has_t_exit_ns = true;
	c->has_function = c->has_display = c->has_error = true;
	c->seq = g->seq++;
	c->thread = g->thread;
	c->t_enter_ns = t;
	c->t_exit_ns = t + GEN_CALL_NS;
	c->function = function;
	c->display = display;
	c->error = HWC2_ERROR_NONE;
	if (layer >= 0) {
		c->has_layer = true;
		c->layer = (uint64_t)layer;
	}
	return c;
}

void gen_call_end(struct gen_writer *g, Hwct__Call *c)
{
	Hwct__Record rec = HWCT__RECORD__INIT;

	rec.kind_case = HWCT__RECORD__KIND_CALL;
	rec.call = c;
	gen_put(g, &rec);
}

void gen_value_call(struct gen_writer *g, int32_t function, uint64_t display, int64_t layer, int64_t value,
	uint64_t t)
{
	Hwct__Call c;
	Hwct__ValueArgs v = HWCT__VALUE_ARGS__INIT;

	gen_call_begin(g, &c, function, display, layer, t);
	v.has_value = true;
	v.value = value;
	c.args_case = HWCT__CALL__ARGS_VALUE;
	c.value = &v;
	gen_call_end(g, &c);
}

void gen_rect_call(struct gen_writer *g, uint64_t display, uint64_t layer, int32_t left, int32_t top, int32_t right,
	int32_t bottom, uint64_t t)
{
	Hwct__Call c;
	Hwct__RectArgs a = HWCT__RECT_ARGS__INIT;
	Hwct__Rect rect = HWCT__RECT__INIT;

	gen_call_begin(g, &c, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, display, (int64_t)layer, t);
	rect.has_left = rect.has_top = rect.has_right = rect.has_bottom = true;
	rect.left = left;
	rect.top = top;
	rect.right = right;
	rect.bottom = bottom;
	a.rect = &rect;
	c.args_case = HWCT__CALL__ARGS_RECT;
	c.rect = &a;
	gen_call_end(g, &c);
}

void gen_buffer_call(struct gen_writer *g, int32_t function, uint64_t display, int64_t layer, uint64_t buffer,
	uint64_t fence, const struct hwct_hash *content, uint64_t t)
{
	Hwct__Call c;
	Hwct__LayerBufferArgs a = HWCT__LAYER_BUFFER_ARGS__INIT;
	uint8_t bytes[HWCT_HASH_BYTES];

	gen_call_begin(g, &c, function, display, layer, t);
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
	gen_call_end(g, &c);
}

void gen_validate(struct gen_writer *g, uint64_t display, const uint64_t *changed, size_t n, uint64_t t)
{
	Hwct__Call c, ct;
	Hwct__ValidateArgs v = HWCT__VALIDATE_ARGS__INIT;
	Hwct__ChangedTypesArgs a = HWCT__CHANGED_TYPES_ARGS__INIT;
	int32_t types[4] = { HWC2_COMPOSITION_CLIENT, HWC2_COMPOSITION_CLIENT, HWC2_COMPOSITION_CLIENT,
		HWC2_COMPOSITION_CLIENT };

	CHECK(n <= sizeof(types) / sizeof(types[0]));
	gen_call_begin(g, &c, HWC2_FUNCTION_VALIDATE_DISPLAY, display, -1, t);
	v.has_num_types = v.has_num_requests = true;
	v.num_types = (uint32_t)n;
	c.error = n ? HWC2_ERROR_HAS_CHANGES : HWC2_ERROR_NONE;
	c.args_case = HWCT__CALL__ARGS_VALIDATE;
	c.validate = &v;
	gen_call_end(g, &c);
	if (!n) {
		return;
	}
	gen_call_begin(g, &ct, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, display, -1, t + 2000);
	a.n_layers = a.n_types = n;
	a.layers = (uint64_t *)changed;
	a.types = types;
	ct.args_case = HWCT__CALL__ARGS_CHANGED_TYPES;
	ct.changed_types = &a;
	gen_call_end(g, &ct);
	gen_call_begin(g, &c, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, display, -1, t + 4000);
	gen_call_end(g, &c);
}

void gen_present(struct gen_writer *g, uint64_t display, uint64_t present_fence, uint64_t release_layer,
	uint64_t release_fence, uint64_t t, uint64_t t_release)
{
	Hwct__Call c, rel;
	Hwct__PresentArgs p = HWCT__PRESENT_ARGS__INIT;
	Hwct__ReleaseFencesArgs r = HWCT__RELEASE_FENCES_ARGS__INIT;

	gen_call_begin(g, &c, HWC2_FUNCTION_PRESENT_DISPLAY, display, -1, t);
	p.has_present_fence = true;
	p.present_fence = present_fence;
	c.args_case = HWCT__CALL__ARGS_PRESENT;
	c.present = &p;
	gen_call_end(g, &c);
	gen_call_begin(g, &rel, HWC2_FUNCTION_GET_RELEASE_FENCES, display, -1, t_release);
	r.n_layers = r.n_fences = 1;
	r.layers = &release_layer;
	r.fences = &release_fence;
	rel.args_case = HWCT__CALL__ARGS_RELEASE_FENCES;
	rel.release_fences = &r;
	gen_call_end(g, &rel);
}

void gen_frame_end(struct gen_writer *g, uint64_t display, uint64_t display_frame, uint64_t present_fence,
	uint32_t flags, uint64_t t)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;

	fe.has_frame = fe.has_display = fe.has_display_frame = fe.has_t_ns = true;
	fe.has_present_fence = fe.has_validated = fe.has_flags = true;
	fe.frame = g->frame++;
	fe.display = display;
	fe.display_frame = display_frame;
	fe.t_ns = t;
	fe.present_fence = present_fence;
	fe.validated = true;
	fe.flags = flags;
	rec.kind_case = HWCT__RECORD__KIND_FRAME_END;
	rec.frame_end = &fe;
	gen_put(g, &rec);
}

void gen_callback(struct gen_writer *g, uint64_t display, uint64_t t)
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
	gen_put(g, &rec);
}

void gen_buffer(struct gen_writer *g, const struct gen_buffer_desc *desc)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Buffer b = HWCT__BUFFER__INIT;
	Hwct__BufferPlane p0 = HWCT__BUFFER_PLANE__INIT, p1 = HWCT__BUFFER_PLANE__INIT, *planes[] = { &p0, &p1 };

	b.has_id = b.has_width = b.has_height = b.has_hal_format = true;
	b.id = desc->id;
	b.width = desc->width;
	b.height = desc->height;
	b.hal_format = desc->hal_format;
	b.has_drm_format = desc->drm_format != 0;
	b.drm_format = desc->drm_format;
	b.has_modifier = desc->modifier != 0;
	b.modifier = desc->modifier;
	p0.has_offset = p0.has_stride = p1.has_offset = p1.has_stride = true;
	p0.stride = desc->stride;
	p1.offset = desc->uv_offset;
	p1.stride = desc->stride;
	b.n_planes = desc->uv_offset ? 2 : 1;
	b.planes = planes;
	b.allocator = (char *)desc->allocator;
	rec.kind_case = HWCT__RECORD__KIND_BUFFER;
	rec.buffer = &b;
	gen_put(g, &rec);
}

void gen_fence_init(Hwct__Fence *f, uint64_t id, int32_t kind, uint64_t display, uint64_t frame, uint64_t created,
	int64_t wait)
{
	hwct__fence__init(f);
	f->has_id = f->has_kind = f->has_display = f->has_created_ns = f->has_status = f->has_frame = true;
	f->id = id;
	f->kind = kind;
	f->display = display;
	f->created_ns = created;
	f->frame = frame;
	f->status = wait < 0 ? HWCT_FENCE_PENDING : HWCT_FENCE_SIGNALLED;
	if (wait >= 0) {
		f->has_signal_ns = true;
		f->signal_ns = created + (uint64_t)wait;
	}
}

void gen_fence(struct gen_writer *g, Hwct__Fence *f)
{
	Hwct__Record rec = HWCT__RECORD__INIT;

	rec.kind_case = HWCT__RECORD__KIND_FENCE;
	rec.fence = f;
	gen_put(g, &rec);
}

bool gen_blob(struct gen_writer *g, const struct hwct_blob_desc *desc, struct hwct_hash *hash)
{
	int ret = hwct_writer_add_blob(g->w, desc, HWCT_BLOB_WAIT, hash);

	CHECK(ret == 0 || ret == 1);
	return ret == 0;
}
