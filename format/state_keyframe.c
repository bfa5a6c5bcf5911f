/* Keyframes: the state to and from a Keyframe message (docs/format.md section 3.7). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto_util.h"
#include "state_private.h"

static Hwct__Rect *rect_msg(struct arena *a, const struct hwct_rect *r)
{
	Hwct__Rect *m = arena_alloc(a, sizeof(*m));

	if (m) {
		hwct__rect__init(m);
		m->has_left = m->has_top = m->has_right = m->has_bottom = true;
		m->left = r->left;
		m->top = r->top;
		m->right = r->right;
		m->bottom = r->bottom;
	}
	return m;
}

static Hwct__Region *region_msg(struct arena *a, const struct hwct_rect *rects, size_t count)
{
	Hwct__Region *m = arena_alloc(a, sizeof(*m));

	if (!m) {
		return NULL;
	}
	hwct__region__init(m);
	m->n_rects = count;
	m->rects = arena_alloc(a, (count ? count : 1) * sizeof(*m->rects));
	if (!m->rects) {
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		m->rects[i] = rect_msg(a, &rects[i]);
		if (!m->rects[i]) {
			return NULL;
		}
	}
	return m;
}

static bool hash_field(struct arena *a, ProtobufCBinaryData *out, const struct hwct_hash *h)
{
	out->data = arena_alloc(a, HWCT_HASH_BYTES);
	if (!out->data) {
		return false;
	}
	hwct_hash_to_bytes(h, out->data);
	out->len = HWCT_HASH_BYTES;
	return true;
}

static Hwct__LayerBufferArgs *buffer_ref_msg(struct arena *a, const struct hwct_buffer_ref *ref)
{
	Hwct__LayerBufferArgs *m = arena_alloc(a, sizeof(*m));

	if (!m) {
		return NULL;
	}
	hwct__layer_buffer_args__init(m);
	m->has_buffer = true;
	m->buffer = ref->buffer;
	m->has_capture = true;
	m->capture = ref->capture;
	if (ref->has_content) {
		m->has_content = hash_field(a, &m->content, &ref->content);
		if (!m->has_content) {
			return NULL;
		}
	}
	return m;
}

static Hwct__LayerState *layer_msg(struct arena *a, const struct hwct_layer *l)
{
	Hwct__LayerState *m = arena_alloc(a, sizeof(*m));
	Hwct__FRect *crop = arena_alloc(a, sizeof(*crop));
	Hwct__Color *color = arena_alloc(a, sizeof(*color));

	if (!m || !crop || !color) {
		return NULL;
	}
	hwct__layer_state__init(m);
	m->has_id = m->has_z = m->has_composition = m->has_buffer = true;
	m->id = l->id;
	m->z = l->z;
	m->composition = l->requested;
	m->buffer = l->buffer.buffer;
	if (l->buffer.has_content && !(m->has_content = hash_field(a, &m->content, &l->buffer.content))) {
		return NULL;
	}
	m->display_frame = rect_msg(a, &l->display_frame);
	hwct__frect__init(crop);
	crop->has_left = crop->has_top = crop->has_right = crop->has_bottom = true;
	crop->left = l->source_crop.left;
	crop->top = l->source_crop.top;
	crop->right = l->source_crop.right;
	crop->bottom = l->source_crop.bottom;
	m->source_crop = crop;
	m->has_transform = m->has_blend = m->has_plane_alpha = m->has_dataspace = true;
	m->transform = l->transform;
	m->blend = l->blend;
	m->plane_alpha = l->plane_alpha;
	m->dataspace = l->dataspace;
	hwct__color__init(color);
	color->has_rgba = true;
	color->rgba = l->color;
	m->color = color;
	if (l->has_float_color) {
		Hwct__FloatColor *fc = arena_alloc(a, sizeof(*fc));

		if (!fc) {
			return NULL;
		}
		hwct__float_color__init(fc);
		fc->has_r = fc->has_g = fc->has_b = fc->has_a = true;
		fc->r = l->float_color[0];
		fc->g = l->float_color[1];
		fc->b = l->float_color[2];
		fc->a = l->float_color[3];
		m->float_color = fc;
	}
	m->damage = region_msg(a, l->damage.rects, l->damage.count);
	m->visible_region = region_msg(a, l->visible_region.rects, l->visible_region.count);
	if (l->has_color_transform) {
		m->n_color_transform = 16;
		m->color_transform = arena_dup(a, l->color_transform, sizeof(l->color_transform));
	}
	if (l->sideband) {
		m->has_sideband = true;
		m->sideband = l->sideband;
	}
	if (!m->display_frame || !m->damage || !m->visible_region ||
		(l->has_color_transform && !m->color_transform)) {
		return NULL;
	}
	return m;
}

static Hwct__DisplayState *display_msg(struct arena *a, const struct state_display *d)
{
	Hwct__DisplayState *m = arena_alloc(a, sizeof(*m));

	if (!m) {
		return NULL;
	}
	hwct__display_state__init(m);
	m->has_id = true;
	m->id = d->id;
	m->has_active_config = d->has_active_config;
	m->active_config = d->active_config;
	m->has_power_mode = m->has_vsync_enabled = m->has_color_mode = m->has_render_intent = true;
	m->power_mode = d->power_mode;
	m->vsync_enabled = d->vsync_enabled;
	m->color_mode = d->color_mode;
	m->render_intent = d->render_intent;
	m->has_content_type = m->has_auto_low_latency = m->has_frames = true;
	m->content_type = d->content_type;
	m->auto_low_latency = d->auto_low_latency;
	m->frames = d->frames;
	if (d->has_color_transform) {
		m->n_color_transform = 16;
		m->color_transform = arena_dup(a, d->color_transform, sizeof(d->color_transform));
		m->has_color_transform_hint = true;
		m->color_transform_hint = d->color_transform_hint;
		if (!m->color_transform) {
			return NULL;
		}
	}
	if (d->brightness >= 0.0f) {
		m->has_brightness = true;
		m->brightness = d->brightness;
	}
	if (d->has_client_target) {
		m->client_target = buffer_ref_msg(a, &d->client_target);
		if (!m->client_target) {
			return NULL;
		}
		m->client_target->has_dataspace = true;
		m->client_target->dataspace = d->client_target_dataspace;
		m->client_target->damage = region_msg(a, d->client_target_damage,
			d->client_target_damage_count);
	}
	if (d->has_output && !(m->output_buffer = buffer_ref_msg(a, &d->output))) {
		return NULL;
	}
	m->n_layers = d->layer_count;
	m->layers = arena_alloc(a, (d->layer_count ? d->layer_count : 1) * sizeof(*m->layers));
	if (!m->layers) {
		return NULL;
	}
	for (size_t i = 0; i < d->layer_count; i++) {
		m->layers[i] = layer_msg(a, &d->layers[i].pub);
		if (!m->layers[i]) {
			return NULL;
		}
	}
	return m;
}

/* Adds buffer `id` to the keyframe's list once. */
static int add_buffer(const struct state *s, struct hmap *seen, Hwct__Keyframe *kf, size_t cap, uint64_t id)
{
	struct hwct_hash key = hmap_id(id);
	const Hwct__Buffer *b;

	if (!id || hmap_get(seen, &key, NULL)) {
		return 0;
	}
	b = state_buffer(s, id);
	if (!b || kf->n_buffers == cap) {
		return 0;
	}
	kf->buffers[kf->n_buffers++] = (Hwct__Buffer *)b;
	return hmap_put(seen, &key, 1);
}

static int collect_buffers(const struct state *s, Hwct__Keyframe *kf, struct arena *a)
{
	struct hmap seen = { 0 };
	size_t cap = 0;
	int ret = 0;

	for (size_t i = 0; i < s->display_count; i++) {
		cap += (s->displays[i].layer_count + 1) * (STATE_RECENT_BUFFERS + 1) + 1;
	}
	kf->buffers = arena_alloc(a, (cap ? cap : 1) * sizeof(*kf->buffers));
	if (!kf->buffers) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->display_count && ret == 0; i++) {
		const struct state_display *d = &s->displays[i];

		for (size_t j = 0; j < d->layer_count && ret == 0; j++) {
			ret = add_buffer(s, &seen, kf, cap, d->layers[j].pub.buffer.buffer);
		}
		if (ret == 0 && d->has_client_target) {
			ret = add_buffer(s, &seen, kf, cap, d->client_target.buffer);
		}
		if (ret == 0 && d->has_output) {
			ret = add_buffer(s, &seen, kf, cap, d->output.buffer);
		}
	}
	/*
	 * then the other buffers each layer and client target used lately (its
	 * BufferQueue): they come back without a new Buffer record, and a
	 * reader starting here must know them
	 */
	for (size_t i = 0; i < s->display_count && ret == 0; i++) {
		const struct state_display *d = &s->displays[i];

		for (size_t j = 0; j < d->layer_count && ret == 0; j++) {
			const struct state_recent *r = &d->layers[j].recent;

			for (size_t k = r->count; k > 0 && ret == 0; k--) {
				ret = add_buffer(s, &seen, kf, cap, r->ids[k - 1]);
			}
		}
		for (size_t k = d->client_target_recent.count; k > 0 && ret == 0; k--) {
			ret = add_buffer(s, &seen, kf, cap, d->client_target_recent.ids[k - 1]);
		}
	}
	hmap_finish(&seen);
	return ret;
}

Hwct__Keyframe *state_keyframe(struct state *s, struct arena *a)
{
	Hwct__Keyframe *kf = arena_alloc(a, sizeof(*kf));
	size_t n = s->display_count ? s->display_count : 1;

	if (!kf) {
		return NULL;
	}
	hwct__keyframe__init(kf);
	kf->has_frame = kf->has_next_call_seq = kf->has_next_fence_id = true;
	kf->frame = s->next_frame;
	kf->next_call_seq = s->next_call_seq;
	kf->next_fence_id = s->next_fence_id;
	kf->displays = arena_alloc(a, n * sizeof(*kf->displays));
	kf->states = arena_alloc(a, n * sizeof(*kf->states));
	if (!kf->displays || !kf->states) {
		return NULL;
	}
	for (size_t i = 0; i < s->display_count; i++) {
		const struct state_display *d = &s->displays[i];

		if (d->info) {
			kf->displays[kf->n_displays++] = d->info;
		}
		kf->states[kf->n_states] = display_msg(a, d);
		if (!kf->states[kf->n_states++]) {
			return NULL;
		}
	}
	if (collect_buffers(s, kf, a) < 0) {
		return NULL;
	}
	return kf;
}

static void load_buffer_ref(struct state *s, struct hwct_buffer_ref *ref, const Hwct__LayerBufferArgs *m)
{
	*ref = (struct hwct_buffer_ref){ .acquire = { .created_ns = -1, .signal_ns = -1 } };
	if (!m) {
		return;
	}
	ref->buffer = m->buffer;
	ref->capture = m->capture;
	ref->has_content = m->has_content && hwct_hash_from_bytes(&ref->content, m->content.data, m->content.len);
	ref->info = state_buffer(s, ref->buffer);
}

static int load_layer(struct state *s, struct state_display *d, const Hwct__LayerState *m)
{
	struct state_layer *sl = state_add_layer(d, m->id);
	struct hwct_layer *l;
	int ret;

	if (!sl) {
		return -ENOMEM;
	}
	l = &sl->pub;
	l->z = m->z;
	l->requested = l->final = sl->validate_requested = m->composition;
	load_buffer_ref(s, &l->buffer, NULL);
	l->buffer.buffer = m->buffer;
	l->buffer.info = state_buffer(s, m->buffer);
	l->buffer.has_content = m->has_content &&
		hwct_hash_from_bytes(&l->buffer.content, m->content.data, m->content.len);
	if (m->display_frame) {
		l->display_frame = proto_rect(m->display_frame);
	}
	if (m->source_crop) {
		l->source_crop = (struct hwct_frect){ m->source_crop->left, m->source_crop->top,
			m->source_crop->right, m->source_crop->bottom };
	}
	l->transform = m->transform;
	l->blend = m->blend;
	l->plane_alpha = m->has_plane_alpha ? m->plane_alpha : 1.0f;
	l->dataspace = m->dataspace;
	l->color = m->color ? m->color->rgba : 0;
	l->has_float_color = m->float_color != NULL;
	if (m->float_color) {
		l->float_color[0] = m->float_color->r;
		l->float_color[1] = m->float_color->g;
		l->float_color[2] = m->float_color->b;
		l->float_color[3] = m->float_color->a;
	}
	l->has_color_transform = m->n_color_transform == 16;
	if (l->has_color_transform) {
		memcpy(l->color_transform, m->color_transform, sizeof(l->color_transform));
	}
	l->sideband = m->sideband;
	l->release = (struct hwct_fence_time){ .created_ns = -1, .signal_ns = -1 };
	ret = state_copy_region(&sl->damage, &l->damage.count, m->damage);
	l->damage.rects = sl->damage;
	if (ret == 0) {
		ret = state_copy_region(&sl->visible, &l->visible_region.count, m->visible_region);
		l->visible_region.rects = sl->visible;
	}
	return ret;
}

static int load_display(struct state *s, const Hwct__DisplayState *m)
{
	struct state_display *d = state_get_display(s, m->id);
	int ret = 0;

	if (!d) {
		return -ENOMEM;
	}
	d->has_active_config = m->has_active_config;
	d->active_config = m->active_config;
	d->power_mode = m->power_mode;
	d->vsync_enabled = m->vsync_enabled;
	d->color_mode = m->color_mode;
	d->render_intent = m->render_intent;
	d->content_type = m->content_type;
	d->auto_low_latency = m->auto_low_latency;
	d->frames = m->frames;
	d->has_color_transform = m->n_color_transform == 16;
	if (d->has_color_transform) {
		memcpy(d->color_transform, m->color_transform, sizeof(d->color_transform));
		d->color_transform_hint = m->color_transform_hint;
	}
	d->brightness = m->has_brightness ? m->brightness : -1.0f;
	d->has_client_target = m->client_target != NULL;
	load_buffer_ref(s, &d->client_target, m->client_target);
	if (m->client_target) {
		d->client_target_dataspace = m->client_target->dataspace;
		ret = state_copy_region(&d->client_target_damage, &d->client_target_damage_count,
			m->client_target->damage);
	}
	d->has_output = m->output_buffer != NULL;
	load_buffer_ref(s, &d->output, m->output_buffer);
	for (size_t i = 0; i < m->n_layers && ret == 0; i++) {
		ret = load_layer(s, d, m->layers[i]);
	}
	return ret;
}

int state_load_keyframe(struct state *s, const Hwct__Keyframe *kf)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	int ret = 0;

	state_drop_composition(s);
	s->next_frame = kf->frame;
	s->next_call_seq = kf->next_call_seq;
	if (kf->next_fence_id > s->next_fence_id) {
		s->next_fence_id = kf->next_fence_id;
	}
	for (size_t i = 0; i < kf->n_buffers && ret == 0; i++) {
		rec.kind_case = HWCT__RECORD__KIND_BUFFER;
		rec.buffer = kf->buffers[i];
		ret = state_apply(s, &rec);
	}
	for (size_t i = 0; i < kf->n_displays && ret == 0; i++) {
		rec.kind_case = HWCT__RECORD__KIND_DISPLAY;
		rec.display = kf->displays[i];
		ret = state_apply(s, &rec);
	}
	for (size_t i = 0; i < kf->n_states && ret == 0; i++) {
		ret = load_display(s, kf->states[i]);
	}
	return ret;
}
