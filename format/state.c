/* Composition state rebuilt from records (state.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>

#include "hmap.h"
#include "proto_util.h"
#include "state.h"
#include "state_private.h"

struct state *state_create(bool track_fences)
{
	struct state *s = calloc(1, sizeof(*s));

	if (s) {
		s->track_fences = track_fences;
	}
	return s;
}

static void layer_finish(struct state_layer *l)
{
	free(l->damage);
	free(l->visible);
}

static void display_finish(struct state_display *d)
{
	for (size_t i = 0; i < d->layer_count; i++) {
		layer_finish(&d->layers[i]);
	}
	free(d->layers);
	free(d->client_target_damage);
	proto_free(d->info);
}

void state_drop_composition(struct state *s)
{
	for (size_t i = 0; i < s->display_count; i++) {
		display_finish(&s->displays[i]);
	}
	free(s->displays);
	s->displays = NULL;
	s->display_count = s->display_cap = 0;
	for (size_t i = 0; i < s->buffers.cap; i++) {
		if (s->buffers.slots[i].used) {
			proto_free((void *)s->buffers.slots[i].value);
		}
	}
	hmap_finish(&s->buffers);
}

void state_reset(struct state *s)
{
	bool track = s->track_fences;

	state_drop_composition(s);
	for (size_t i = 0; i < s->fences.cap; i++) {
		if (s->fences.slots[i].used) {
			free((void *)s->fences.slots[i].value);
		}
	}
	hmap_finish(&s->fences);
	proto_free(s->environment);
	*s = (struct state){ .track_fences = track };
}

void state_destroy(struct state *s)
{
	if (!s) {
		return;
	}
	state_reset(s);
	free(s);
}

struct state_display *state_find_display(const struct state *s, uint64_t id)
{
	for (size_t i = 0; i < s->display_count; i++) {
		if (s->displays[i].id == id) {
			return &s->displays[i];
		}
	}
	return NULL;
}

struct state_display *state_get_display(struct state *s, uint64_t id)
{
	struct state_display *d = state_find_display(s, id);

	if (d) {
		return d;
	}
	if (s->display_count == s->display_cap) {
		size_t cap = s->display_cap ? s->display_cap * 2 : 4;
		struct state_display *displays = realloc(s->displays, cap * sizeof(*displays));

		if (!displays) {
			return NULL;
		}
		s->displays = displays;
		s->display_cap = cap;
	}
	d = &s->displays[s->display_count++];
	*d = (struct state_display){ .id = id, .brightness = -1.0f };
	return d;
}

static void layer_defaults(struct hwct_layer *l, uint64_t id)
{
	*l = (struct hwct_layer){
		.id = id,
		.plane_alpha = 1.0f,
	};
}

static struct state_layer *find_layer(struct state_display *d, uint64_t id)
{
	for (size_t i = 0; i < d->layer_count; i++) {
		if (d->layers[i].pub.id == id) {
			return &d->layers[i];
		}
	}
	return NULL;
}

struct state_layer *state_add_layer(struct state_display *d, uint64_t id)
{
	struct state_layer *l = find_layer(d, id);

	if (l) {
		return l;
	}
	if (d->layer_count == d->layer_cap) {
		size_t cap = d->layer_cap ? d->layer_cap * 2 : 8;
		struct state_layer *layers = realloc(d->layers, cap * sizeof(*layers));

		if (!layers) {
			return NULL;
		}
		d->layers = layers;
		d->layer_cap = cap;
	}
	l = &d->layers[d->layer_count++];
	*l = (struct state_layer){ 0 };
	layer_defaults(&l->pub, id);
	return l;
}

static void remove_layer(struct state_display *d, uint64_t id)
{
	struct state_layer *l = find_layer(d, id);
	size_t i;

	if (!l) {
		return;
	}
	i = (size_t)(l - d->layers);
	layer_finish(l);
	memmove(&d->layers[i], &d->layers[i + 1], (d->layer_count - i - 1) * sizeof(*l));
	d->layer_count--;
}

/* Copies a protobuf Region into an owned rect array. Returns 0 or -ENOMEM. */
int state_copy_region(struct hwct_rect **rects, size_t *count, const Hwct__Region *region)
{
	size_t n = region ? region->n_rects : 0;
	struct hwct_rect *copy = NULL;

	if (n) {
		copy = calloc(n, sizeof(*copy));
		if (!copy) {
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			copy[i] = proto_rect(region->rects[i]);
		}
	}
	free(*rects);
	*rects = copy;
	*count = n;
	return 0;
}

void state_recent_add(struct state_recent *r, uint64_t id)
{
	size_t i = 0;

	if (!id) {
		return;
	}
	while (i < r->count && r->ids[i] != id) {
		i++;
	}
	if (i == r->count && r->count < STATE_RECENT_BUFFERS) {
		r->count++;
	}
	if (i == r->count) {
		i = 0;	/* full: the oldest goes */
	}
	memmove(&r->ids[i], &r->ids[i + 1], (r->count - i - 1) * sizeof(r->ids[0]));
	r->ids[r->count - 1] = id;
}

static void set_buffer_ref(struct state *s, struct hwct_buffer_ref *ref, const Hwct__LayerBufferArgs *a,
	int32_t fence_kind, uint64_t t_ns)
{
	*ref = (struct hwct_buffer_ref){ 0 };
	if (!a) {
		return;
	}
	ref->buffer = a->buffer;
	ref->capture = a->has_capture ? a->capture : HWCT_CAPTURE_OK;
	ref->has_content = a->has_content &&
		hwct_hash_from_bytes(&ref->content, a->content.data, a->content.len);
	ref->acquire = (struct hwct_fence_time){ .id = a->fence, .created_ns = (int64_t)t_ns,
		.signal_ns = -1 };
	(void)s;
	(void)fence_kind;
}

static void begin_frame(struct state_display *d)
{
	if (!d->frame_done) {
		return;
	}
	d->frame_done = false;
	d->validated = false;
	d->validate_error = 0;
	d->present_error = 0;
	d->display_requests = 0;
	d->present_fence = 0;
	d->first_call = 0;
	d->last_call = 0;
	for (size_t i = 0; i < d->layer_count; i++) {
		struct hwct_layer *l = &d->layers[i].pub;

		l->updated = false;
		l->request = 0;
		l->release = (struct hwct_fence_time){ .signal_ns = -1, .created_ns = -1 };
	}
}

static int apply_layer_call(struct state *s, struct state_display *d, const Hwct__Call *c)
{
	struct state_layer *sl = find_layer(d, c->layer);
	struct hwct_layer *l;

	if (!sl) {
		return 0;
	}
	l = &sl->pub;
	l->updated = true;
	switch (c->function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
		if (c->args_case == HWCT__CALL__ARGS_BUFFER) {
			set_buffer_ref(s, &l->buffer, c->buffer, HWCT_FENCE_ACQUIRE, c->t_enter_ns);
			l->buffer.info = state_buffer(s, l->buffer.buffer);
			state_recent_add(&sl->recent, l->buffer.buffer);
		}
		return 0;
	case HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME:
		if (c->args_case == HWCT__CALL__ARGS_RECT && c->rect->rect) {
			l->display_frame = proto_rect(c->rect->rect);
		}
		return 0;
	case HWC2_FUNCTION_SET_LAYER_SOURCE_CROP:
		if (c->args_case == HWCT__CALL__ARGS_FRECT && c->frect->rect) {
			const Hwct__FRect *r = c->frect->rect;

			l->source_crop = (struct hwct_frect){ r->left, r->top, r->right, r->bottom };
		}
		return 0;
	case HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE:
		if (c->args_case == HWCT__CALL__ARGS_REGION) {
			int ret = state_copy_region(&sl->damage, &l->damage.count, c->region->region);

			l->damage.rects = sl->damage;
			return ret;
		}
		return 0;
	case HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION:
		if (c->args_case == HWCT__CALL__ARGS_REGION) {
			int ret = state_copy_region(&sl->visible, &l->visible_region.count, c->region->region);

			l->visible_region.rects = sl->visible;
			return ret;
		}
		return 0;
	case HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA:
		if (c->args_case == HWCT__CALL__ARGS_FLOAT_VALUE) {
			l->plane_alpha = c->float_value->value;
		}
		return 0;
	case HWC2_FUNCTION_SET_LAYER_COLOR:
	case HWC2_FUNCTION_SET_LAYER_FLOAT_COLOR:
		if (c->args_case == HWCT__CALL__ARGS_COLOR) {
			const Hwct__ColorArgs *a = c->color;

			if (a->color) {
				l->color = a->color->rgba;
			}
			if (a->float_color) {
				l->has_float_color = true;
				l->float_color[0] = a->float_color->r;
				l->float_color[1] = a->float_color->g;
				l->float_color[2] = a->float_color->b;
				l->float_color[3] = a->float_color->a;
			}
		}
		return 0;
	case HWC2_FUNCTION_SET_LAYER_COLOR_TRANSFORM:
		if (c->args_case == HWCT__CALL__ARGS_MATRIX && c->matrix->n_matrix == 16) {
			l->has_color_transform = true;
			memcpy(l->color_transform, c->matrix->matrix, sizeof(l->color_transform));
		}
		return 0;
	default:
		break;
	}
	if (c->args_case != HWCT__CALL__ARGS_VALUE) {
		return 0;
	}
	switch (c->function) {
	case HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE:
		l->requested = (int32_t)c->value->value;
		l->final = l->requested;
		break;
	case HWC2_FUNCTION_SET_LAYER_BLEND_MODE:
		l->blend = (int32_t)c->value->value;
		break;
	case HWC2_FUNCTION_SET_LAYER_TRANSFORM:
		l->transform = (int32_t)c->value->value;
		break;
	case HWC2_FUNCTION_SET_LAYER_DATASPACE:
		l->dataspace = (int32_t)c->value->value;
		break;
	case HWC2_FUNCTION_SET_LAYER_Z_ORDER:
		l->z = (int32_t)c->value->value;
		break;
	case HWC2_FUNCTION_SET_LAYER_SIDEBAND_STREAM:
		l->sideband = (uint64_t)c->value->value;
		break;
	default:
		break;
	}
	return 0;
}

static void apply_validate_outputs(struct state_display *d, const Hwct__Call *c)
{
	switch (c->function) {
	case HWC2_FUNCTION_VALIDATE_DISPLAY:
		d->validated = true;
		d->validate_error = c->error;
		for (size_t i = 0; i < d->layer_count; i++) {
			d->layers[i].validate_requested = d->layers[i].pub.requested;
			d->layers[i].pub.final = d->layers[i].pub.requested;
		}
		return;
	case HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES:
		if (c->args_case == HWCT__CALL__ARGS_CHANGED_TYPES) {
			const Hwct__ChangedTypesArgs *a = c->changed_types;

			for (size_t i = 0; i < a->n_layers && i < a->n_types; i++) {
				struct state_layer *l = find_layer(d, a->layers[i]);

				if (l) {
					l->pub.final = a->types[i];
				}
			}
		}
		return;
	case HWC2_FUNCTION_GET_DISPLAY_REQUESTS:
		if (c->args_case == HWCT__CALL__ARGS_REQUESTS) {
			const Hwct__RequestsArgs *a = c->requests;

			d->display_requests = a->display_requests;
			for (size_t i = 0; i < a->n_layers && i < a->n_layer_requests; i++) {
				struct state_layer *l = find_layer(d, a->layers[i]);

				if (l) {
					l->pub.request = a->layer_requests[i];
				}
			}
		}
		return;
	case HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES:
		/* the device now holds the changed types (section 3.7) */
		for (size_t i = 0; i < d->layer_count; i++) {
			d->layers[i].pub.requested = d->layers[i].pub.final;
		}
		return;
	case HWC2_FUNCTION_PRESENT_DISPLAY:
		d->present_error = c->error;
		if (c->args_case == HWCT__CALL__ARGS_PRESENT) {
			d->present_fence = c->present->present_fence;
		}
		return;
	case HWC2_FUNCTION_GET_RELEASE_FENCES:
		if (c->args_case == HWCT__CALL__ARGS_RELEASE_FENCES) {
			const Hwct__ReleaseFencesArgs *a = c->release_fences;

			for (size_t i = 0; i < a->n_layers && i < a->n_fences; i++) {
				struct state_layer *l = find_layer(d, a->layers[i]);

				if (l) {
					l->pub.release = (struct hwct_fence_time){ .id = a->fences[i],
						.created_ns = (int64_t)c->t_exit_ns, .signal_ns = -1 };
				}
			}
		}
		return;
	default:
		return;
	}
}

static int apply_display_call(struct state *s, struct state_display *d, const Hwct__Call *c)
{
	int64_t v = c->args_case == HWCT__CALL__ARGS_VALUE ? c->value->value : 0;
	bool has_value = c->args_case == HWCT__CALL__ARGS_VALUE;

	switch (c->function) {
	case HWC2_FUNCTION_CREATE_LAYER:
		if (has_value && c->error == HWC2_ERROR_NONE) {
			return state_add_layer(d, (uint64_t)v) ? 0 : -ENOMEM;
		}
		return 0;
	case HWC2_FUNCTION_DESTROY_LAYER:
		if (c->error == HWC2_ERROR_NONE) {
			remove_layer(d, c->layer);
		}
		return 0;
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		if (c->args_case == HWCT__CALL__ARGS_BUFFER) {
			d->has_client_target = true;
			set_buffer_ref(s, &d->client_target, c->buffer, HWCT_FENCE_CLIENT_TARGET, c->t_enter_ns);
			d->client_target.info = state_buffer(s, d->client_target.buffer);
			state_recent_add(&d->client_target_recent, d->client_target.buffer);
			d->client_target_dataspace = c->buffer->dataspace;
			return state_copy_region(&d->client_target_damage, &d->client_target_damage_count,
				c->buffer->damage);
		}
		return 0;
	case HWC2_FUNCTION_SET_OUTPUT_BUFFER:
		if (c->args_case == HWCT__CALL__ARGS_BUFFER) {
			d->has_output = true;
			set_buffer_ref(s, &d->output, c->buffer, HWCT_FENCE_OUTPUT, c->t_enter_ns);
		}
		return 0;
	case HWC2_FUNCTION_SET_ACTIVE_CONFIG:
		if (has_value && c->error == HWC2_ERROR_NONE) {
			d->has_active_config = true;
			d->active_config = (uint32_t)v;
		}
		return 0;
	case HWC2_FUNCTION_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS:
		if (c->args_case == HWCT__CALL__ARGS_ACTIVE_CONFIG && c->error == HWC2_ERROR_NONE) {
			d->has_active_config = true;
			d->active_config = c->active_config->config;
		}
		return 0;
	case HWC2_FUNCTION_GET_ACTIVE_CONFIG:
		if (has_value && c->error == HWC2_ERROR_NONE && !d->has_active_config) {
			d->has_active_config = true;
			d->active_config = (uint32_t)v;
		}
		return 0;
	case HWC2_FUNCTION_SET_POWER_MODE:
		d->power_mode = has_value ? (int32_t)v : d->power_mode;
		return 0;
	case HWC2_FUNCTION_SET_VSYNC_ENABLED:
		d->vsync_enabled = has_value ? (int32_t)v : d->vsync_enabled;
		return 0;
	case HWC2_FUNCTION_SET_CONTENT_TYPE:
		d->content_type = has_value ? (int32_t)v : d->content_type;
		return 0;
	case HWC2_FUNCTION_SET_AUTO_LOW_LATENCY_MODE:
		d->auto_low_latency = has_value ? v != 0 : d->auto_low_latency;
		return 0;
	case HWC2_FUNCTION_SET_COLOR_MODE:
	case HWC2_FUNCTION_SET_COLOR_MODE_WITH_RENDER_INTENT:
		if (c->args_case == HWCT__CALL__ARGS_COLOR_MODE) {
			d->color_mode = c->color_mode->mode;
			d->render_intent = c->color_mode->intent;
		}
		return 0;
	case HWC2_FUNCTION_SET_COLOR_TRANSFORM:
		if (c->args_case == HWCT__CALL__ARGS_MATRIX && c->matrix->n_matrix == 16) {
			d->has_color_transform = true;
			memcpy(d->color_transform, c->matrix->matrix, sizeof(d->color_transform));
			d->color_transform_hint = c->matrix->hint;
		}
		return 0;
	case HWC2_FUNCTION_SET_DISPLAY_BRIGHTNESS:
		if (c->args_case == HWCT__CALL__ARGS_FLOAT_VALUE) {
			d->brightness = c->float_value->value;
		}
		return 0;
	default:
		apply_validate_outputs(d, c);
		return 0;
	}
}

static int apply_call(struct state *s, const Hwct__Call *c)
{
	struct state_display *d;

	if (c->seq >= s->next_call_seq) {
		s->next_call_seq = c->seq + 1;
	}
	if (!c->has_display) {
		return 0;
	}
	d = state_find_display(s, c->display);
	if (!d) {
		/* a display the trace never announced: track it from here */
		d = state_get_display(s, c->display);
		if (!d) {
			return -ENOMEM;
		}
	}
	begin_frame(d);
	if (!d->first_call) {
		d->first_call = c->seq;
	}
	d->last_call = c->seq;
	if (c->has_layer && c->function != HWC2_FUNCTION_DESTROY_LAYER &&
		c->function != HWC2_FUNCTION_CREATE_LAYER) {
		return apply_layer_call(s, d, c);
	}
	return apply_display_call(s, d, c);
}

static int apply_buffer(struct state *s, const Hwct__Buffer *b)
{
	struct hwct_hash key = hmap_id(b->id);
	uintptr_t old = 0;
	Hwct__Buffer *copy = proto_clone(&hwct__buffer__descriptor, b);
	int ret;

	if (!copy) {
		return -ENOMEM;
	}
	hmap_get(&s->buffers, &key, &old);
	ret = hmap_put(&s->buffers, &key, (uintptr_t)copy);
	if (ret < 0) {
		proto_free(copy);
		return ret;
	}
	proto_free((void *)old);
	/* refresh the layout pointers held by layers and targets */
	for (size_t i = 0; i < s->display_count; i++) {
		struct state_display *d = &s->displays[i];

		for (size_t j = 0; j < d->layer_count; j++) {
			if (d->layers[j].pub.buffer.buffer == b->id) {
				d->layers[j].pub.buffer.info = copy;
			}
		}
		if (d->client_target.buffer == b->id) {
			d->client_target.info = copy;
		}
		if (d->output.buffer == b->id) {
			d->output.info = copy;
		}
	}
	return 0;
}

static int apply_fence(struct state *s, const Hwct__Fence *f)
{
	struct hwct_hash key = hmap_id(f->id);
	struct hwct_fence_time *t;
	uintptr_t old;
	int ret;

	if (f->id >= s->next_fence_id) {
		s->next_fence_id = f->id + 1;
	}
	if (!s->track_fences) {
		return 0;
	}
	if (hmap_get(&s->fences, &key, &old)) {
		t = (struct hwct_fence_time *)old;
	} else {
		t = calloc(1, sizeof(*t));
		if (!t) {
			return -ENOMEM;
		}
		ret = hmap_put(&s->fences, &key, (uintptr_t)t);
		if (ret < 0) {
			free(t);
			return ret;
		}
	}
	*t = (struct hwct_fence_time){
		.id = f->id,
		.created_ns = f->has_created_ns ? (int64_t)f->created_ns : -1,
		.signal_ns = f->has_signal_ns ? (int64_t)f->signal_ns : -1,
		.status = f->status,
	};
	return 0;
}

static int apply_display_record(struct state *s, const Hwct__Display *info)
{
	struct state_display *d = state_get_display(s, info->id);
	Hwct__Display *copy;

	if (!d) {
		return -ENOMEM;
	}
	copy = proto_clone(&hwct__display__descriptor, info);
	if (!copy) {
		return -ENOMEM;
	}
	proto_free(d->info);
	d->info = copy;
	if (info->has_active_config) {
		d->has_active_config = true;
		d->active_config = info->active_config;
	}
	return 0;
}

static int apply_frame_end(struct state *s, const Hwct__FrameEnd *fe)
{
	struct state_display *d = state_find_display(s, fe->display);

	if (fe->frame >= s->next_frame) {
		s->next_frame = fe->frame + 1;
	}
	if (d) {
		d->frames = fe->display_frame + 1;
		d->frame_done = true;
	}
	return 0;
}

int state_apply(struct state *s, const Hwct__Record *rec)
{
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		return apply_call(s, rec->call);
	case HWCT__RECORD__KIND_BUFFER:
		return apply_buffer(s, rec->buffer);
	case HWCT__RECORD__KIND_FENCE:
		return apply_fence(s, rec->fence);
	case HWCT__RECORD__KIND_DISPLAY:
		return apply_display_record(s, rec->display);
	case HWCT__RECORD__KIND_FRAME_END:
		return apply_frame_end(s, rec->frame_end);
	case HWCT__RECORD__KIND_KEYFRAME:
		return state_load_keyframe(s, rec->keyframe);
	case HWCT__RECORD__KIND_ENVIRONMENT: {
		Hwct__Environment *copy = proto_clone(&hwct__environment__descriptor, rec->environment);

		if (!copy) {
			return -ENOMEM;
		}
		proto_free(s->environment);
		s->environment = copy;
		return 0;
	}
	default:
		return 0;
	}
}

uint64_t state_next_frame(const struct state *s)
{
	return s->next_frame;
}

void state_restart_frames(struct state *s)
{
	s->next_frame = 0;
	for (size_t i = 0; i < s->display_count; i++) {
		s->displays[i].frames = 0;
	}
}

const Hwct__Buffer *state_buffer(const struct state *s, uint64_t id)
{
	struct hwct_hash key = hmap_id(id);
	uintptr_t v;

	return hmap_get(&s->buffers, &key, &v) ? (const Hwct__Buffer *)v : NULL;
}

bool state_fence(const struct state *s, uint64_t id, struct hwct_fence_time *out)
{
	struct hwct_hash key = hmap_id(id);
	uintptr_t v;

	if (!hmap_get(&s->fences, &key, &v)) {
		return false;
	}
	*out = *(const struct hwct_fence_time *)v;
	return true;
}

const Hwct__Display *state_display_info(const struct state *s, uint64_t display)
{
	const struct state_display *d = state_find_display(s, display);

	return d ? d->info : NULL;
}

const Hwct__Environment *state_environment(const struct state *s)
{
	return s->environment;
}

static void fill_fence(const struct state *s, struct hwct_fence_time *t)
{
	struct hwct_fence_time known;

	if (t->id && state_fence(s, t->id, &known)) {
		t->signal_ns = known.signal_ns;
		t->status = known.status;
		if (known.created_ns >= 0) {
			t->created_ns = known.created_ns;
		}
	}
}

static int compare_z(const void *a, const void *b)
{
	const struct hwct_layer *la = a, *lb = b;

	if (la->z != lb->z) {
		return la->z < lb->z ? -1 : 1;
	}
	return la->id < lb->id ? -1 : la->id > lb->id;
}

static void active_mode(const struct state_display *d, struct hwct_frame *f)
{
	if (!d->info) {
		return;
	}
	for (size_t i = 0; i < d->info->n_configs; i++) {
		const Hwct__DisplayConfig *cfg = d->info->configs[i];

		if (!d->has_active_config || cfg->id == d->active_config) {
			f->width = cfg->width;
			f->height = cfg->height;
			f->vsync_period_ns = cfg->vsync_period_ns;
			if (d->has_active_config) {
				return;
			}
		}
	}
}

int state_frame(struct state *s, const Hwct__FrameEnd *fe, struct hwct_frame *f,
	struct hwct_layer **layers_buf, size_t *layers_cap)
{
	struct state_display *d = state_find_display(s, fe->display);
	struct hwct_layer *layers;

	if (!d) {
		return -ENOENT;
	}
	if (d->layer_count > *layers_cap) {
		layers = realloc(*layers_buf, d->layer_count * sizeof(*layers));
		if (!layers) {
			return -ENOMEM;
		}
		*layers_buf = layers;
		*layers_cap = d->layer_count;
	}
	layers = *layers_buf;
	for (size_t i = 0; i < d->layer_count; i++) {
		const struct state_layer *sl = &d->layers[i];

		layers[i] = sl->pub;
		/* after acceptDisplayChanges `requested` holds the device's type */
		layers[i].requested = d->validated ? sl->validate_requested : sl->pub.requested;
		fill_fence(s, &layers[i].buffer.acquire);
		fill_fence(s, &layers[i].release);
	}
	if (d->layer_count > 0) {	/* no layer yet: *layers_buf may still be NULL */
		qsort(layers, d->layer_count, sizeof(*layers), compare_z);
	}

	*f = (struct hwct_frame){
		.frame = fe->frame,
		.display = fe->display,
		.display_frame = fe->display_frame,
		.t_ns = fe->t_ns,
		.flags = fe->flags,
		.validated = d->validated,
		.validate_error = d->validate_error,
		.present_error = d->present_error,
		.display_requests = d->display_requests,
		.color_mode = d->color_mode,
		.brightness = d->brightness,
		.layer_count = d->layer_count,
		.layers = layers,
		.has_client_target = d->has_client_target,
		.client_target = d->client_target,
		.client_target_dataspace = d->client_target_dataspace,
		.client_target_damage = { d->client_target_damage_count, d->client_target_damage },
		.present = { .id = fe->present_fence ? fe->present_fence : d->present_fence,
			.created_ns = (int64_t)fe->t_ns, .signal_ns = -1 },
		.first_call = d->first_call,
		.last_call = d->last_call,
	};
	fill_fence(s, &f->client_target.acquire);
	fill_fence(s, &f->present);
	active_mode(d, f);
	return 0;
}
