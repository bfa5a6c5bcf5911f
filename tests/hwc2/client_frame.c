/*
 * One frame the way SurfaceFlinger makes it (§1.7): the setLayer* batch
 * (buffer + acquire fence every frame, the composition type when it differs
 * from what was last sent), validateDisplay, getChangedCompositionTypes and
 * getDisplayRequests (two calls each), acceptDisplayChanges, the CLIENT
 * layers composed into a client target (setClientTarget), presentDisplay,
 * getReleaseFences (two calls). Every fence the client receives is kept
 * until the buffer it guards is written again, or closed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "fence_wait.h"
#include "hwc2_client.h"

#define DISPLAY 0

static bool set_static(struct hc_session *s, struct hc_layer *l, size_t z)
{
	struct hc_module *m = s->m;
	const struct vs_layer *v = l->spec;
	hwc_rect_t frame = { v->frame.left, v->frame.top, v->frame.right, v->frame.bottom };
	hwc_frect_t crop = { 0, 0, (float)v->width, (float)v->height };
	hwc_color_t color = { (uint8_t)v->color, (uint8_t)(v->color >> 8), (uint8_t)(v->color >> 16),
		(uint8_t)(v->color >> 24) };
	int32_t r = HWC2_ERROR_NONE;

	r |= m->fn.set_layer_display_frame(m->dev, DISPLAY, l->id, frame);
	r |= m->fn.set_layer_blend_mode(m->dev, DISPLAY, l->id, v->blend);
	r |= m->fn.set_layer_plane_alpha(m->dev, DISPLAY, l->id, v->alpha);
	r |= m->fn.set_layer_z_order(m->dev, DISPLAY, l->id, (uint32_t)z);
	r |= m->fn.set_layer_dataspace(m->dev, DISPLAY, l->id, HAL_DATASPACE_V0_SRGB);
	if (v->composition == HWC2_COMPOSITION_SOLID_COLOR) {
		r |= m->fn.set_layer_color(m->dev, DISPLAY, l->id, color);
	} else {
		r |= m->fn.set_layer_source_crop(m->dev, DISPLAY, l->id, crop);
		r |= m->fn.set_layer_transform(m->dev, DISPLAY, l->id, v->transform);
	}
	return CHECK(r == HWC2_ERROR_NONE, "layer %zu: a setLayer* call failed", z);
}

bool hc_session_start(struct hc_session *s, struct hc_module *m, struct hc_alloc *a,
	const struct vs_stack *stack)
{
	int32_t w = 0, h = 0;

	memset(s, 0, sizeof(*s));
	/* every buffer empty (fds -1) first: SOLID_COLOR layers have none, and a failure stops early */
	for (size_t i = 0; i < VS_MAX_LAYERS; i++) {
		hc_buffer_init(&s->layers[i].bufs[0]);
		hc_buffer_init(&s->layers[i].bufs[1]);
	}
	for (size_t i = 0; i < HC_TARGETS; i++) {
		hc_buffer_init(&s->targets[i]);
	}
	s->m = m;
	s->alloc = a;
	s->stack = stack;
	s->present_fence = -1;
	s->target_last = -1;
	if (!CHECK(stack != NULL, "unknown stack")) {
		return false;
	}
	m->fn.get_display_attribute(m->dev, DISPLAY, 1, HWC2_ATTRIBUTE_WIDTH, &w);
	m->fn.get_display_attribute(m->dev, DISPLAY, 1, HWC2_ATTRIBUTE_HEIGHT, &h);
	s->width = (uint32_t)w;
	s->height = (uint32_t)h;
	s->pixman = compositor_create("pixman");
	if (!CHECK(s->pixman != NULL, "pixman compositor") ||
		!CHECK(w == VS_WIDTH && h == VS_HEIGHT, "display %dx%d, the stacks need %dx%d "
			"(HWCT_KMS_MODE)", w, h, VS_WIDTH, VS_HEIGHT)) {
		return false;
	}
	for (size_t i = 0; i < HC_TARGETS; i++) {
		if (!hc_buffer_create(a, DRM_FORMAT_ARGB8888, s->width, s->height, &s->targets[i])) {
			return false;
		}
	}
	for (size_t i = 0; i < stack->count; i++) {
		struct hc_layer *l = &s->layers[i];
		const struct vs_layer *v = &stack->layers[i];
		int32_t r = m->fn.create_layer(m->dev, DISPLAY, &l->id);

		l->spec = v;
		l->sf_type = HWC2_COMPOSITION_INVALID;
		if (!CHECK(r == HWC2_ERROR_NONE, "createLayer: %d", r)) {
			return false;
		}
		s->count++;
		for (size_t b = 0; v->composition != HWC2_COMPOSITION_SOLID_COLOR && b < 2; b++) {
			if (!hc_buffer_create(a, v->fourcc, v->width, v->height, &l->bufs[b])) {
				return false;
			}
		}
		if (!set_static(s, l, i)) {
			return false;
		}
	}
	return true;
}

void hc_session_finish(struct hc_session *s)
{
	if (!s->m) {
		return;	/* never started, or finished already */
	}
	for (size_t i = 0; i < s->count; i++) {
		if (s->m->dev) {
			s->m->fn.destroy_layer(s->m->dev, DISPLAY, s->layers[i].id);
		}
		hc_buffer_destroy(&s->layers[i].bufs[0]);
		hc_buffer_destroy(&s->layers[i].bufs[1]);
	}
	for (size_t i = 0; i < HC_TARGETS; i++) {
		hc_buffer_destroy(&s->targets[i]);
	}
	if (s->present_fence >= 0) {
		hwct_fence_wait(s->present_fence, HC_FENCE_MS);
		close(s->present_fence);
	}
	compositor_destroy(s->pixman);
	memset(s, 0, sizeof(*s));
	s->present_fence = -1;
}

/* Step 1: buffers, fences and composition types. */
static bool set_layers(struct hc_session *s, const int *acquire, struct hc_frame *out)
{
	struct hc_module *m = s->m;
	bool ok = true;

	for (size_t i = 0; i < s->count; i++) {
		struct hc_layer *l = &s->layers[i];
		struct hc_buffer *b = &l->bufs[s->frame % 2];
		hwc_region_t damage = { 0, NULL };
		int32_t r;

		if (l->spec->composition != HWC2_COMPOSITION_SOLID_COLOR) {
			ok = hc_buffer_fill(b, l->spec, s->frame) && ok;
			r = m->fn.set_layer_buffer(m->dev, DISPLAY, l->id, b->handle, acquire ? acquire[i] : -1);
			ok = CHECK(r == HWC2_ERROR_NONE, "setLayerBuffer: %d", r) && ok;
			m->fn.set_layer_surface_damage(m->dev, DISPLAY, l->id, damage);
			out->scene_layers[i] = vs_scene_layer(l->spec, i, &b->cpu, -1);
		} else {
			out->scene_layers[i] = vs_scene_layer(l->spec, i, NULL, -1);
		}
		if (l->sf_type != l->spec->composition) {
			r = m->fn.set_layer_composition_type(m->dev, DISPLAY, l->id, l->spec->composition);
			ok = CHECK(r == HWC2_ERROR_NONE, "setLayerCompositionType: %d", r) && ok;
			l->sf_type = l->spec->composition;
		}
		l->validated = l->sf_type;
		out->requested[i] = l->sf_type;
	}
	out->scene = (struct scene){ .width = s->width, .height = s->height, .layers = out->scene_layers,
		.layer_count = s->count };
	return ok;
}

static struct hc_layer *find(struct hc_session *s, hwc2_layer_t id)
{
	for (size_t i = 0; i < s->count; i++) {
		if (s->layers[i].id == id) {
			return &s->layers[i];
		}
	}
	return NULL;
}

/* Step 2: validate, read the changes, accept them. */
static bool validate(struct hc_session *s, struct hc_frame *out)
{
	struct hc_module *m = s->m;
	uint32_t types = 0, requests = 0, n = 0;
	hwc2_layer_t ids[VS_MAX_LAYERS];
	int32_t kinds[VS_MAX_LAYERS], display_requests = 0;
	int32_t r = m->fn.validate_display(m->dev, DISPLAY, &types, &requests);

	out->validate_ret = r;
	if (!CHECK(r == HWC2_ERROR_NONE || r == HWC2_ERROR_HAS_CHANGES, "validateDisplay: %d", r)) {
		return false;
	}
	r = m->fn.get_changed_composition_types(m->dev, DISPLAY, &n, NULL, NULL);
	if (!CHECK(r == HWC2_ERROR_NONE && n == types && n <= VS_MAX_LAYERS,
		"getChangedCompositionTypes: %d, %u types (validate said %u)", r, n, types)) {
		return false;
	}
	r = m->fn.get_changed_composition_types(m->dev, DISPLAY, &n, ids, kinds);
	for (uint32_t i = 0; r == HWC2_ERROR_NONE && i < n; i++) {
		struct hc_layer *l = find(s, ids[i]);

		if (!CHECK(l != NULL, "a changed type for unknown layer %llu", (unsigned long long)ids[i])) {
			return false;
		}
		l->validated = kinds[i];
		out->changed_layers[i] = ids[i];
		out->changed_types[i] = kinds[i];
	}
	out->changed = n;
	n = 0;
	r = m->fn.get_display_requests(m->dev, DISPLAY, &display_requests, &n, NULL, NULL);
	CHECK(r == HWC2_ERROR_NONE && n == requests, "getDisplayRequests: %d, %u (validate said %u)",
		r, n, requests);
	if (n > 0 && n <= VS_MAX_LAYERS) {
		m->fn.get_display_requests(m->dev, DISPLAY, &display_requests, &n, ids, kinds);
	}
	if (out->validate_ret == HWC2_ERROR_HAS_CHANGES) {
		r = m->fn.accept_display_changes(m->dev, DISPLAY);
		if (!CHECK(r == HWC2_ERROR_NONE, "acceptDisplayChanges: %d", r)) {
			return false;
		}
		/* as SurfaceFlinger: what was accepted is what was last sent */
		for (size_t i = 0; i < s->count; i++) {
			s->layers[i].sf_type = s->layers[i].validated;
		}
	}
	return true;
}

/* Step 3: the client composes its layers into the next target. */
static bool client_composition(struct hc_session *s, struct hc_frame *out)
{
	struct hc_module *m = s->m;
	const struct scene_layer *client[VS_MAX_LAYERS];
	struct hc_buffer *t;
	hwc_region_t damage = { 0, NULL };
	int32_t r;

	for (size_t i = 0; i < s->count; i++) {
		if (s->layers[i].validated == HWC2_COMPOSITION_CLIENT) {
			client[out->client++] = &out->scene_layers[i];
		}
	}
	if (out->client == 0) {
		return true;
	}
	t = &s->targets[s->next_target];
	if (!hc_buffer_compose(t, s->pixman, &out->scene, client, out->client)) {
		return false;
	}
	r = m->fn.set_client_target(m->dev, DISPLAY, t->handle, -1, HAL_DATASPACE_V0_SRGB, damage);
	out->client_target = true;
	return CHECK(r == HWC2_ERROR_NONE, "setClientTarget: %d", r);
}

/* Step 4: present, then the release fences of the buffers the last frame showed. */
static bool present(struct hc_session *s, struct hc_frame *out)
{
	struct hc_module *m = s->m;
	hwc2_layer_t ids[VS_MAX_LAYERS];
	int32_t fences[VS_MAX_LAYERS], fence = -1;
	uint32_t n = 0;
	int32_t r = m->fn.present_display(m->dev, DISPLAY, &fence);
	int prev = (int)((s->frame + 1) % 2);	/* the buffers of the previous frame */

	if (!CHECK(r == HWC2_ERROR_NONE, "presentDisplay: %d", r)) {
		return false;
	}
	CHECK(fence >= 0, "presentDisplay gave no present fence");
	/* the last target is off screen once this frame is */
	if (s->target_last >= 0 && fence >= 0) {
		hc_buffer_set_release(&s->targets[s->target_last], dup(fence));
	}
	s->target_last = out->client_target ? (int)s->next_target : -1;
	if (out->client_target) {
		s->next_target = (s->next_target + 1) % HC_TARGETS;
	}
	if (s->present_fence >= 0) {
		close(s->present_fence);
	}
	s->present_fence = fence;
	out->present_fence = fence >= 0 ? dup(fence) : -1;

	r = m->fn.get_release_fences(m->dev, DISPLAY, &n, NULL, NULL);
	if (!CHECK(r == HWC2_ERROR_NONE && n <= VS_MAX_LAYERS, "getReleaseFences: %d, %u", r, n)) {
		return false;
	}
	r = m->fn.get_release_fences(m->dev, DISPLAY, &n, ids, fences);
	for (uint32_t i = 0; r == HWC2_ERROR_NONE && i < n; i++) {
		struct hc_layer *l = find(s, ids[i]);

		out->releases++;
		if (!l || !l->shown_prev || l->spec->composition == HWC2_COMPOSITION_SOLID_COLOR) {
			out->release_unexpected++;
			if (fences[i] >= 0) {
				close(fences[i]);
			}
			continue;
		}
		if (out->release_fence < 0 && fences[i] >= 0) {
			out->release_fence = dup(fences[i]);
		}
		hc_buffer_set_release(&l->bufs[prev], fences[i]);
	}
	for (size_t i = 0; i < s->count; i++) {
		s->layers[i].shown_prev = s->layers[i].validated == HWC2_COMPOSITION_DEVICE;
	}
	return true;
}

bool hc_session_frame(struct hc_session *s, const int *acquire, struct hc_frame *out)
{
	bool ok;

	memset(out, 0, sizeof(*out));
	out->present_fence = -1;
	out->release_fence = -1;
	ok = set_layers(s, acquire, out) && validate(s, out);
	if (ok && s->after_validate) {
		s->after_validate(s, out, s->hook_data);
	}
	ok = ok && client_composition(s, out) && present(s, out);
	s->frame++;
	return ok;
}

void hc_frame_finish(struct hc_frame *out)
{
	if (out->present_fence >= 0) {
		close(out->present_fence);
	}
	if (out->release_fence >= 0) {
		close(out->release_fence);
	}
	out->present_fence = out->release_fence = -1;
}
