/* Session lifecycle, records and fences (session.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <system/graphics.h>

#include "session_private.h"

#define BOOT_NS 100000u		/* the boot-time calls start here */

int session_fail(struct session *s, int err)
{
	if (!s->error) {
		s->error = err;
	}
	return s->error;
}

int session_put(struct session *s, Hwct__Record *rec)
{
	int ret;

	if (s->error) {
		return s->error;
	}
	ret = hwct_writer_write(s->w, rec);
	return ret < 0 ? session_fail(s, ret) : 0;
}

int session_call(struct session *s, Hwct__Call *c, int32_t function, uint64_t layer, int32_t error,
	uint64_t duration_ns)
{
	Hwct__Record rec = HWCT__RECORD__INIT;

	c->has_seq = c->has_thread = c->has_t_enter_ns = c->has_t_exit_ns = true;
	c->has_function = c->has_error = true;
	c->seq = ++s->seq;
	c->thread = SESSION_SF_TID;
	c->t_enter_ns = s->now;
	c->t_exit_ns = s->now + duration_ns;
	c->function = function;
	c->error = error;
	if (function != HWC2_FUNCTION_REGISTER_CALLBACK) {
		c->has_display = true;
		c->display = s->d.id;
	}
	if (layer) {
		c->has_layer = true;
		c->layer = layer;
	}
	s->now = c->t_exit_ns + 1000;	/* 1 us between calls */
	rec.kind_case = HWCT__RECORD__KIND_CALL;
	rec.call = c;
	return session_put(s, &rec);
}

int session_value_call(struct session *s, int32_t function, uint64_t layer, int64_t value)
{
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__ValueArgs a = HWCT__VALUE_ARGS__INIT;

	a.has_value = true;
	a.value = value;
	c.args_case = HWCT__CALL__ARGS_VALUE;
	c.value = &a;
	return session_call(s, &c, function, layer, HWC2_ERROR_NONE, 2000);
}

uint64_t session_fence(struct session *s, int32_t kind, uint64_t layer, uint64_t created_ns, uint64_t signal_ns,
	const char *timeline)
{
	struct session_fence *f;

	if (s->fence_count == s->fence_cap) {
		size_t cap = s->fence_cap ? s->fence_cap * 2 : 32;
		struct session_fence *fences = realloc(s->fences, cap * sizeof(*fences));

		if (!fences) {
			session_fail(s, -ENOMEM);
			return 0;
		}
		s->fences = fences;
		s->fence_cap = cap;
	}
	f = &s->fences[s->fence_count++];
	*f = (struct session_fence){ .id = s->next_fence++, .kind = kind, .layer = layer, .created_ns = created_ns,
		.signal_ns = signal_ns, .frame = s->frame, .display = s->d.id, .timeline = timeline };
	return f->id;
}

static int write_fence(struct session *s, const struct session_fence *f, bool signalled)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Fence fence = HWCT__FENCE__INIT;

	fence.has_id = fence.has_kind = fence.has_display = fence.has_created_ns = true;
	fence.has_status = fence.has_frame = true;
	fence.id = f->id;
	fence.kind = f->kind;
	fence.display = f->display;
	if (f->layer) {
		fence.has_layer = true;
		fence.layer = f->layer;
	}
	fence.created_ns = f->created_ns;
	fence.has_signal_ns = signalled;
	fence.signal_ns = signalled ? f->signal_ns : 0;
	fence.status = signalled ? HWCT_FENCE_SIGNALLED : HWCT_FENCE_PENDING;
	fence.driver = "scenario";
	fence.timeline = (char *)f->timeline;
	fence.frame = f->frame;
	rec.kind_case = HWCT__RECORD__KIND_FENCE;
	rec.fence = &fence;
	return session_put(s, &rec);
}

int session_write_fences(struct session *s, uint64_t until, bool final)
{
	size_t kept = 0;
	int ret = 0;

	for (size_t i = 0; i < s->fence_count; i++) {
		const struct session_fence *f = &s->fences[i];

		if (f->signal_ns <= until || final) {
			ret = ret ? ret : write_fence(s, f, f->signal_ns <= until);
		} else {
			s->fences[kept++] = *f;
		}
	}
	s->fence_count = kept;
	return ret;
}

int session_store(struct session *s, const struct pattern_image *img, const struct hwct_hash *base,
	const struct hwct_rect *rects, size_t count, struct hwct_hash *out)
{
	struct hwct_blob_desc d = {
		.data = img->data,
		.size = img->size,
		.kind = HWCT_BLOB_PIXELS,
		.width = img->width,
		.height = img->height,
		.stride = img->stride,
		.bpp = img->bpp,
	};
	int ret;

	if (base && count && img->format == PATTERN_RGBA8888) {
		d.base = base;
		d.damage = rects;
		d.damage_count = count;
	}
	if (s->error) {
		return s->error;
	}
	ret = hwct_writer_add_blob(s->w, &d, HWCT_BLOB_WAIT, out);
	return ret < 0 ? session_fail(s, ret) : 0;
}

int session_buffer_record(struct session *s, uint64_t id, const struct pattern_image *img,
	const struct hwct_hash *content)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Buffer b = HWCT__BUFFER__INIT;
	Hwct__BufferPlane planes[2] = { HWCT__BUFFER_PLANE__INIT, HWCT__BUFFER_PLANE__INIT };
	Hwct__BufferPlane *plane_ptrs[2] = { &planes[0], &planes[1] };
	uint8_t hash[HWCT_HASH_BYTES];
	bool nv12 = img->format == PATTERN_NV12;

	b.has_id = b.has_width = b.has_height = b.has_hal_format = b.has_drm_format = true;
	b.has_modifier = b.has_usage = b.has_layer_count = true;
	b.id = id;
	b.width = img->width;
	b.height = img->height;
	/* DRM fourccs (drm_fourcc.h): NV12 'NV12', RGBA8888 bytes R,G,B,A = 'AB24' */
	b.hal_format = nv12 ? HAL_PIXEL_FORMAT_YCBCR_420_888 : HAL_PIXEL_FORMAT_RGBA_8888;
	b.drm_format = nv12 ? 0x3231564Eu : 0x34324241u;
	b.modifier = 0;		/* DRM_FORMAT_MOD_LINEAR */
	/* GRALLOC_USAGE_HW_TEXTURE | HW_COMPOSER, and HW_RENDER or HW_VIDEO_ENCODER's decoder twin */
	b.usage = nv12 ? 0x10900u : 0xB00u;
	b.layer_count = 1;
	for (unsigned i = 0; i < 2; i++) {
		planes[i].has_offset = planes[i].has_stride = true;
		planes[i].stride = img->stride;
	}
	planes[1].offset = img->uv_offset;
	b.n_planes = nv12 ? 2 : 1;
	b.planes = plane_ptrs;
	b.allocator = "synthetic";
	if (content) {
		hwct_hash_to_bytes(content, hash);
		b.has_content = true;
		b.content = (ProtobufCBinaryData){ HWCT_HASH_BYTES, hash };
	}
	rec.kind_case = HWCT__RECORD__KIND_BUFFER;
	rec.buffer = &b;
	return session_put(s, &rec);
}

void session_region(Hwct__Region *region, Hwct__Rect *rect_msgs, Hwct__Rect **ptrs,
	const struct hwct_rect *rects, size_t count)
{
	hwct__region__init(region);
	for (size_t i = 0; i < count; i++) {
		hwct__rect__init(&rect_msgs[i]);
		rect_msgs[i].has_left = rect_msgs[i].has_top = rect_msgs[i].has_right = rect_msgs[i].has_bottom = true;
		rect_msgs[i].left = rects[i].left;
		rect_msgs[i].top = rects[i].top;
		rect_msgs[i].right = rects[i].right;
		rect_msgs[i].bottom = rects[i].bottom;
		ptrs[i] = &rect_msgs[i];
	}
	region->n_rects = count;
	region->rects = count ? ptrs : NULL;
}

/* Fills sc for a display of cfg's size; false when out of memory. */
static bool screen_init(struct session *s, struct session_screen *sc, const struct session_display_config *cfg)
{
	*sc = (struct session_screen){ .id = cfg->id, .width = cfg->width, .height = cfg->height, .dpi = cfg->dpi,
		.name = cfg->name ? cfg->name : "scenario-panel", .is_virtual = cfg->is_virtual,
		.external = cfg->external };
	sc->target = s->cfg.no_pixels ? pattern_image_create_shell(PATTERN_RGBA8888, cfg->width, cfg->height) :
		pattern_image_create(PATTERN_RGBA8888, cfg->width, cfg->height);
	if (!sc->target) {
		return false;
	}
	for (unsigned i = 0; i < SESSION_QUEUE_DEPTH; i++) {
		sc->target_buffers[i] = s->next_buffer++;
	}
	sc->target_slot = SESSION_QUEUE_DEPTH - 1;
	return true;
}

static void layer_free(struct session_layer *l);

static void screen_finish(struct session_screen *sc)
{
	for (size_t i = 0; i < sc->layer_count; i++) {
		layer_free(sc->layers[i]);
	}
	free(sc->layers);
	pattern_image_destroy(sc->target);
}

struct session *session_create(struct hwct_writer *w, const struct session_config *cfg)
{
	struct session *s = calloc(1, sizeof(*s));
	struct session_display_config first = { .width = cfg->width, .height = cfg->height, .dpi = cfg->dpi,
		.name = cfg->display_name };
	int ret;

	if (!s) {
		return NULL;
	}
	s->w = w;
	s->cfg = *cfg;
	s->now = cfg->start_ns ? cfg->start_ns : BOOT_NS;
	s->next_fence = 1;
	s->next_layer = 1;
	s->next_buffer = 1001;
	if (!screen_init(s, &s->d, &first)) {
		free(s);
		return NULL;
	}
	s->screen_count = 1;
	ret = session_boot(s);
	if (ret < 0) {
		pattern_image_destroy(s->d.target);
		free(s);
		errno = -ret;
		return NULL;
	}
	return s;
}

int session_display_add(struct session *s, const struct session_display_config *cfg)
{
	size_t index = s->screen_count, was = s->current;
	int ret;

	if (s->error) {
		return s->error;
	}
	if (index == SESSION_MAX_DISPLAYS) {
		return -ENOSPC;
	}
	for (size_t i = 0; i < s->screen_count; i++) {
		if ((i == s->current ? s->d.id : s->screens[i].id) == cfg->id) {
			return -EEXIST;
		}
	}
	s->screens[s->current] = s->d;
	if (!screen_init(s, &s->d, cfg)) {
		s->d = s->screens[was];
		return -ENOMEM;
	}
	s->screen_count++;
	s->current = index;
	ret = session_boot_display(s);
	return ret < 0 ? ret : (int)index;
}

int session_display_unplug(struct session *s)
{
	if (s->error) {
		return s->error;
	}
	return session_hotplug(s, HWC2_CONNECTION_DISCONNECTED);
}

int session_display_replug(struct session *s)
{
	if (s->error) {
		return s->error;
	}
	return session_boot_display(s);
}

int session_display_use(struct session *s, size_t index)
{
	if (index >= s->screen_count) {
		return -EINVAL;
	}
	if (index != s->current) {
		s->screens[s->current] = s->d;
		s->d = s->screens[index];
		s->current = index;
	}
	return 0;
}

static void layer_free(struct session_layer *l)
{
	pattern_image_destroy(l->image);
	free(l->damage);
	free(l->sent_damage);
	free(l);
}

int session_destroy(struct session *s)
{
	int ret;

	if (!s) {
		return 0;
	}
	session_write_fences(s, s->now, true);
	ret = s->error;
	s->screens[s->current] = s->d;
	for (size_t i = 0; i < s->screen_count; i++) {
		screen_finish(&s->screens[i]);
	}
	free(s->fences);
	free(s);
	return ret;
}

struct session_layer *session_layer_create(struct session *s, const char *name,
	const struct session_layer_props *props, struct pattern_image *image)
{
	struct session_layer *l;
	int ret;

	if (s->d.layer_count == s->d.layer_cap) {
		size_t cap = s->d.layer_cap ? s->d.layer_cap * 2 : 8;
		struct session_layer **layers = realloc(s->d.layers, cap * sizeof(*layers));

		if (!layers) {
			return NULL;
		}
		s->d.layers = layers;
		s->d.layer_cap = cap;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		return NULL;
	}
	l->props = *props;
	l->image = image;
	l->name = name;
	l->id = s->next_layer++;
	l->device_type = HWC2_COMPOSITION_INVALID;
	for (unsigned i = 0; i < SESSION_QUEUE_DEPTH && image; i++) {
		l->buffers[i] = s->next_buffer++;
	}
	l->slot = SESSION_QUEUE_DEPTH - 1;
	s->d.layers[s->d.layer_count++] = l;
	ret = session_value_call(s, HWC2_FUNCTION_CREATE_LAYER, 0, (int64_t)l->id);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	return l;
}

void session_layer_destroy(struct session *s, struct session_layer *l)
{
	Hwct__Call c = HWCT__CALL__INIT;

	for (size_t i = 0; i < s->d.layer_count; i++) {
		if (s->d.layers[i] == l) {
			memmove(&s->d.layers[i], &s->d.layers[i + 1], (s->d.layer_count - i - 1) * sizeof(*s->d.layers));
			s->d.layer_count--;
			break;
		}
	}
	if (l->in_target) {
		s->d.target_stale = true;
	}
	session_call(s, &c, HWC2_FUNCTION_DESTROY_LAYER, l->id, HWC2_ERROR_NONE, 8000);
	layer_free(l);
}

void session_layer_set_image(struct session_layer *l, struct pattern_image *image)
{
	pattern_image_destroy(l->image);
	l->image = image;
	for (unsigned i = 0; i < SESSION_QUEUE_DEPTH; i++) {
		l->announced[i] = false;
	}
	l->has_content = false;	/* the next buffer is stored whole */
}

int session_layer_queue(struct session_layer *l, const struct hwct_rect *rects, size_t count)
{
	if (!l->image) {
		return -EINVAL;
	}
	if (l->damage_count + count > l->damage_cap) {
		size_t cap = l->damage_count + count + 8;
		struct hwct_rect *damage = realloc(l->damage, cap * sizeof(*damage));

		if (!damage) {
			return -ENOMEM;
		}
		l->damage = damage;
		l->damage_cap = cap;
	}
	/* two updates in one frame add up; a whole-buffer update covers all */
	l->full_damage = l->full_damage || count == 0;
	if (count) {
		memcpy(l->damage + l->damage_count, rects, count * sizeof(*rects));
	}
	l->damage_count += count;
	l->queued = true;
	return 0;
}

uint64_t session_frame_count(const struct session *s)
{
	return s->frame;
}
