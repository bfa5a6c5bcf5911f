/* One display frame of a session, in SurfaceFlinger's call order (session.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>

#include "session_private.h"

#define VALIDATE_NS 180000u
#define PRESENT_NS 420000u
#define SET_NS 2000u

static bool rect_equal(const struct hwct_rect *a, const struct hwct_rect *b)
{
	return a->left == b->left && a->top == b->top && a->right == b->right && a->bottom == b->bottom;
}

static bool frect_equal(const struct hwct_frect *a, const struct hwct_frect *b)
{
	return a->left == b->left && a->top == b->top && a->right == b->right && a->bottom == b->bottom;
}

static int rect_call(struct session *s, struct session_layer *l, struct hwct_rect r)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__RectArgs a = HWCT__RECT_ARGS__INIT;
	Hwct__Rect rect = HWCT__RECT__INIT;

	rect.has_left = rect.has_top = rect.has_right = rect.has_bottom = true;
	rect.left = r.left;
	rect.top = r.top;
	rect.right = r.right;
	rect.bottom = r.bottom;
	a.rect = &rect;
	c.args_case = HWCT__CALL__ARGS_RECT;
	c.rect = &a;
	return session_call(s, &c, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, l->id, HWC2_ERROR_NONE, SET_NS);
}

static int frect_call(struct session *s, struct session_layer *l, struct hwct_frect r)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__FRectArgs a = HWCT__FRECT_ARGS__INIT;
	Hwct__FRect rect = HWCT__FRECT__INIT;

	rect.has_left = rect.has_top = rect.has_right = rect.has_bottom = true;
	rect.left = r.left;
	rect.top = r.top;
	rect.right = r.right;
	rect.bottom = r.bottom;
	a.rect = &rect;
	c.args_case = HWCT__CALL__ARGS_FRECT;
	c.frect = &a;
	return session_call(s, &c, HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, l->id, HWC2_ERROR_NONE, SET_NS);
}

static int float_call(struct session *s, int32_t function, struct session_layer *l, float v)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__FloatArgs a = HWCT__FLOAT_ARGS__INIT;

	a.has_value = true;
	a.value = v;
	c.args_case = HWCT__CALL__ARGS_FLOAT_VALUE;
	c.float_value = &a;
	return session_call(s, &c, function, l->id, HWC2_ERROR_NONE, SET_NS);
}

static int region_call(struct session *s, int32_t function, struct session_layer *l,
	const struct hwct_rect *rects, size_t count)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__RegionArgs a = HWCT__REGION_ARGS__INIT;
	Hwct__Region region;
	Hwct__Rect *msgs = calloc(count ? count : 1, sizeof(*msgs));
	Hwct__Rect **ptrs = calloc(count ? count : 1, sizeof(*ptrs));
	int ret = -ENOMEM;

	if (msgs && ptrs) {
		session_region(&region, msgs, ptrs, rects, count);
		a.region = &region;
		c.args_case = HWCT__CALL__ARGS_REGION;
		c.region = &a;
		ret = session_call(s, &c, function, l->id, HWC2_ERROR_NONE, SET_NS);
	}
	free(msgs);
	free(ptrs);
	return ret < 0 ? session_fail(s, ret) : 0;
}

/*
 * setLayerSurfaceDamage semantics (hwcomposer2.h): no rects = the whole
 * buffer changed; one empty rect = nothing changed since the last frame.
 */
static int send_damage(struct session *s, struct session_layer *l)
{
	static const struct hwct_rect none = { 0, 0, 0, 0 };
	const struct hwct_rect *rects = l->queued ? l->damage : &none;
	size_t count = l->queued ? (l->full_damage ? 0 : l->damage_count) : 1;
	struct hwct_rect *copy;

	if (l->sent_damage_any && l->sent_damage_count == count &&
		(count == 0 || memcmp(l->sent_damage, rects, count * sizeof(*rects)) == 0)) {
		return 0;
	}
	copy = malloc((count ? count : 1) * sizeof(*copy));
	if (!copy) {
		return session_fail(s, -ENOMEM);
	}
	if (count) {
		memcpy(copy, rects, count * sizeof(*rects));
	}
	free(l->sent_damage);
	l->sent_damage = copy;
	l->sent_damage_count = count;
	l->sent_damage_any = true;
	return region_call(s, HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE, l, rects, count);
}

static int send_buffer(struct session *s, struct session_layer *l)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__LayerBufferArgs a = HWCT__LAYER_BUFFER_ARGS__INIT;
	uint8_t hash[HWCT_HASH_BYTES];
	struct hwct_hash content;
	bool partial = l->has_content && !l->full_damage;
	bool video = l->image->format == PATTERN_NV12;
	uint64_t created = s->now;
	int ret;

	content = (struct hwct_hash){ 0 };
	ret = s->cfg.no_pixels ? 0 : session_store(s, l->image, partial ? &l->content : NULL, l->damage,
		partial ? l->damage_count : 0, &content);
	if (ret < 0) {
		return ret;
	}
	l->released = l->has_buffer;
	l->slot = (l->slot + 1) % SESSION_QUEUE_DEPTH;
	l->has_buffer = l->has_content = true;
	l->content = content;
	if (!l->announced[l->slot]) {
		ret = session_buffer_record(s, l->buffers[l->slot], l->image, s->cfg.no_pixels ? NULL : &content);
		if (ret < 0) {
			return ret;
		}
		l->announced[l->slot] = true;
	}
	hwct_hash_to_bytes(&content, hash);
	a.has_buffer = a.has_fence = a.has_slot = a.has_capture = true;
	a.has_content = !s->cfg.no_pixels;
	a.buffer = l->buffers[l->slot];
	/* the producer's rendering (or decoding) ends 0.3 to 2.5 ms after the buffer is queued */
	a.fence = session_fence(s, HWCT_FENCE_ACQUIRE, l->id, created,
		created + 300000 + pattern_hash((uint32_t)l->id, (uint32_t)s->frame) % 2200000,
		video ? "video-decoder" : "gpu");
	a.content = (ProtobufCBinaryData){ HWCT_HASH_BYTES, hash };
	a.slot = l->slot;
	a.capture = HWCT_CAPTURE_SYNTHETIC;
	c.args_case = HWCT__CALL__ARGS_BUFFER;
	c.buffer = &a;
	return session_call(s, &c, HWC2_FUNCTION_SET_LAYER_BUFFER, l->id, HWC2_ERROR_NONE, 4000);
}

static int send_color(struct session *s, struct session_layer *l)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__ColorArgs a = HWCT__COLOR_ARGS__INIT;
	Hwct__Color color = HWCT__COLOR__INIT;

	color.has_rgba = true;
	color.rgba = l->props.color;
	a.color = &color;
	c.args_case = HWCT__CALL__ARGS_COLOR;
	c.color = &a;
	return session_call(s, &c, HWC2_FUNCTION_SET_LAYER_COLOR, l->id, HWC2_ERROR_NONE, SET_NS);
}

/* The per-layer calls of OutputLayer::writeStateToHWC, each only when changed. */
static int write_layer(struct session *s, struct session_layer *l)
{
	const struct session_layer_props *p = &l->props, *o = &l->sent;
	struct hwct_rect visible = p->display_frame;
	bool all = !l->sent_any;
	int ret = 0;

	if (visible.left < 0) {
		visible.left = 0;
	}
	if (visible.top < 0) {
		visible.top = 0;
	}
	if (visible.right > (int32_t)s->d.width) {
		visible.right = (int32_t)s->d.width;
	}
	if (visible.bottom > (int32_t)s->d.height) {
		visible.bottom = (int32_t)s->d.height;
	}
	if (all || !rect_equal(&p->display_frame, &o->display_frame)) {
		ret = ret ? ret : rect_call(s, l, p->display_frame);
	}
	if (all || !frect_equal(&p->source_crop, &o->source_crop)) {
		ret = ret ? ret : frect_call(s, l, p->source_crop);
	}
	if (all || p->z != o->z) {
		ret = ret ? ret : session_value_call(s, HWC2_FUNCTION_SET_LAYER_Z_ORDER, l->id, p->z);
	}
	if (all || p->transform != o->transform) {
		ret = ret ? ret : session_value_call(s, HWC2_FUNCTION_SET_LAYER_TRANSFORM, l->id, p->transform);
	}
	if (all || p->blend != o->blend) {
		ret = ret ? ret : session_value_call(s, HWC2_FUNCTION_SET_LAYER_BLEND_MODE, l->id, p->blend);
	}
	if (all || p->plane_alpha != o->plane_alpha) {
		ret = ret ? ret : float_call(s, HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA, l, p->plane_alpha);
	}
	if (!l->sent_visible_any || !rect_equal(&visible, &l->sent_visible)) {
		ret = ret ? ret : region_call(s, HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION, l, &visible, 1);
		l->sent_visible = visible;
		l->sent_visible_any = true;
	}
	if (all || p->dataspace != o->dataspace) {
		ret = ret ? ret : session_value_call(s, HWC2_FUNCTION_SET_LAYER_DATASPACE, l->id, p->dataspace);
	}
	if (l->image) {
		ret = ret ? ret : send_damage(s, l);
	}
	/* the device may have changed it last frame: the client asks again */
	if (p->composition != l->device_type) {
		ret = ret ? ret : session_value_call(s, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, l->id,
			p->composition);
	}
	if (l->image && l->queued) {
		ret = ret ? ret : send_buffer(s, l);
	} else if (!l->image && (all || p->color != o->color)) {
		ret = ret ? ret : send_color(s, l);
	}
	l->sent = *p;
	l->sent_any = true;
	return ret;
}

static int compare_layers(const void *a, const void *b)
{
	const struct session_layer *la = *(struct session_layer *const *)a, *lb = *(struct session_layer *const *)b;

	if (la->props.z != lb->props.z) {
		return la->props.z < lb->props.z ? -1 : 1;
	}
	return la->id < lb->id ? -1 : la->id > lb->id;
}

/* validateDisplay, getChangedCompositionTypes, getDisplayRequests, acceptDisplayChanges. */
static int validate(struct session *s, struct session_layer **sorted, size_t count)
{
	struct device_layer *dl = calloc(count ? count : 1, sizeof(*dl));
	int32_t *types = calloc(count ? count : 1, sizeof(*types));
	uint64_t *changed_layers = calloc(count ? count : 1, sizeof(*changed_layers));
	int32_t *changed_types = calloc(count ? count : 1, sizeof(*changed_types));
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__ValidateArgs va = HWCT__VALIDATE_ARGS__INIT;
	Hwct__ChangedTypesArgs ca = HWCT__CHANGED_TYPES_ARGS__INIT;
	Hwct__RequestsArgs ra = HWCT__REQUESTS_ARGS__INIT;
	size_t changed = 0;
	int ret = -ENOMEM;

	if (!dl || !types || !changed_layers || !changed_types) {
		goto out;
	}
	for (size_t i = 0; i < count; i++) {
		dl[i].requested = sorted[i]->props.composition;
		dl[i].yuv = sorted[i]->image && sorted[i]->image->format == PATTERN_NV12;
	}
	device_decide(&s->cfg.device, dl, count, types);
	for (size_t i = 0; i < count; i++) {
		if (sorted[i]->recorded_type != HWC2_COMPOSITION_INVALID) {
			types[i] = sorted[i]->recorded_type;
		}
		sorted[i]->final_type = types[i];
		if (types[i] != dl[i].requested) {
			changed_layers[changed] = sorted[i]->id;
			changed_types[changed++] = types[i];
		}
	}
	va.has_num_types = va.has_num_requests = true;
	va.num_types = (uint32_t)changed;
	va.num_requests = 0;
	c.args_case = HWCT__CALL__ARGS_VALIDATE;
	c.validate = &va;
	ret = session_call(s, &c, HWC2_FUNCTION_VALIDATE_DISPLAY, 0,
		changed ? HWC2_ERROR_HAS_CHANGES : HWC2_ERROR_NONE, VALIDATE_NS);
	if (ret < 0) {
		goto out;
	}
	/* the two-call pattern (count, then arrays) recorded as one call with its outputs */
	c = (Hwct__Call)HWCT__CALL__INIT;
	ca.n_layers = ca.n_types = changed;
	ca.layers = changed_layers;
	ca.types = changed_types;
	c.args_case = HWCT__CALL__ARGS_CHANGED_TYPES;
	c.changed_types = &ca;
	ret = session_call(s, &c, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, 0, HWC2_ERROR_NONE, 3000);
	if (ret < 0) {
		goto out;
	}
	c = (Hwct__Call)HWCT__CALL__INIT;
	ra.has_display_requests = true;
	ra.display_requests = 0;
	c.args_case = HWCT__CALL__ARGS_REQUESTS;
	c.requests = &ra;
	ret = session_call(s, &c, HWC2_FUNCTION_GET_DISPLAY_REQUESTS, 0, HWC2_ERROR_NONE, 3000);
	if (ret < 0) {
		goto out;
	}
	c = (Hwct__Call)HWCT__CALL__INIT;
	ret = session_call(s, &c, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, 0, HWC2_ERROR_NONE, 3000);
	for (size_t i = 0; i < count; i++) {
		sorted[i]->device_type = sorted[i]->final_type;
	}
out:
	free(dl);
	free(types);
	free(changed_layers);
	free(changed_types);
	return ret < 0 ? session_fail(s, ret) : 0;
}

/* presentDisplay, getReleaseFences, FrameEnd. */
static int present(struct session *s, struct session_layer **sorted, size_t count, uint64_t next_vsync)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__PresentArgs pa = HWCT__PRESENT_ARGS__INIT;
	Hwct__ReleaseFencesArgs ra = HWCT__RELEASE_FENCES_ARGS__INIT;
	uint64_t *layers = calloc(count ? count : 1, sizeof(*layers));
	uint64_t *fences = calloc(count ? count : 1, sizeof(*fences));
	uint64_t present_fence, t_present;
	size_t n = 0;
	int ret = -ENOMEM;

	if (!layers || !fences) {
		goto out;
	}
	/* the present fence signals when this frame starts scanning out */
	present_fence = session_fence(s, HWCT_FENCE_PRESENT, 0, s->now + PRESENT_NS, next_vsync, "display");
	pa.has_present_fence = true;
	pa.present_fence = present_fence;
	c.args_case = HWCT__CALL__ARGS_PRESENT;
	c.present = &pa;
	ret = session_call(s, &c, HWC2_FUNCTION_PRESENT_DISPLAY, 0, HWC2_ERROR_NONE, PRESENT_NS);
	if (ret < 0) {
		goto out;
	}
	t_present = c.t_exit_ns;
	/* a replaced buffer is released when its successor is on screen */
	for (size_t i = 0; i < count; i++) {
		if (sorted[i]->released) {
			layers[n] = sorted[i]->id;
			fences[n++] = session_fence(s, HWCT_FENCE_RELEASE, sorted[i]->id, s->now + 3000, next_vsync,
				"display");
		}
	}
	c = (Hwct__Call)HWCT__CALL__INIT;
	ra.n_layers = ra.n_fences = n;
	ra.layers = layers;
	ra.fences = fences;
	c.args_case = HWCT__CALL__ARGS_RELEASE_FENCES;
	c.release_fences = &ra;
	ret = session_call(s, &c, HWC2_FUNCTION_GET_RELEASE_FENCES, 0, HWC2_ERROR_NONE, 3000);
	if (ret < 0) {
		goto out;
	}
	fe.has_frame = fe.has_display = fe.has_display_frame = fe.has_t_ns = true;
	fe.has_present_fence = fe.has_validated = fe.has_flags = fe.has_vsync_ns = true;
	fe.frame = s->frame;
	fe.display = s->d.id;
	fe.display_frame = s->d.frames;
	fe.t_ns = t_present;
	fe.present_fence = present_fence;
	fe.validated = true;
	fe.flags = 0;
	fe.vsync_ns = next_vsync;
	rec.kind_case = HWCT__RECORD__KIND_FRAME_END;
	rec.frame_end = &fe;
	ret = session_put(s, &rec);
out:
	free(layers);
	free(fences);
	return ret < 0 ? session_fail(s, ret) : 0;
}

static int vsync_callback(struct session *s, uint64_t vsync)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Callback cb = HWCT__CALLBACK__INIT;

	cb.has_descriptor = cb.has_display = cb.has_t_ns = cb.has_timestamp_ns = cb.has_thread = true;
	cb.descriptor = HWC2_CALLBACK_VSYNC;
	cb.display = s->d.id;
	cb.t_ns = vsync + 40000;
	cb.timestamp_ns = (int64_t)vsync;
	cb.thread = SESSION_HWC_TID;
	rec.kind_case = HWCT__RECORD__KIND_CALLBACK;
	rec.callback = &cb;
	return session_put(s, &rec);
}

static int compose_frame(struct session *s, uint64_t vsync)
{
	struct session_layer **sorted;
	size_t count = s->d.layer_count;
	int ret;

	if (s->error) {
		return s->error;
	}
	sorted = malloc((count ? count : 1) * sizeof(*sorted));
	if (!sorted) {
		return session_fail(s, -ENOMEM);
	}
	if (count > 0) {	/* a display with no layer has no array (s->d.layers NULL) */
		memcpy(sorted, s->d.layers, count * sizeof(*sorted));
		qsort(sorted, count, sizeof(*sorted), compare_layers);
	}
	ret = vsync_callback(s, vsync);
	s->now = vsync + SESSION_WAKEUP_NS;
	ret = ret ? ret : session_write_fences(s, s->now, false);
	for (size_t i = 0; i < count && ret == 0; i++) {
		ret = write_layer(s, sorted[i]);
	}
	ret = ret ? ret : validate(s, sorted, count);
	ret = ret ? ret : session_client_target(s, sorted, count);
	ret = ret ? ret : present(s, sorted, count, vsync + s->cfg.vsync_period_ns);
	for (size_t i = 0; i < count; i++) {
		sorted[i]->queued = sorted[i]->released = sorted[i]->full_damage = false;
		sorted[i]->damage_count = 0;
	}
	free(sorted);
	s->frame++;
	s->d.frames++;
	return ret < 0 ? session_fail(s, ret) : 0;
}

int session_frame(struct session *s)
{
	return compose_frame(s, (s->frame + 1) * (uint64_t)s->cfg.vsync_period_ns);
}

int session_frame_at(struct session *s, uint64_t vsync_ns)
{
	return compose_frame(s, vsync_ns > s->now ? vsync_ns : s->now);
}
