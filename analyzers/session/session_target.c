/* The client target: what the client composes for the CLIENT layers (session_private.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <system/graphics.h>

#include "compose.h"
#include "session_private.h"

#define MAX_RECTS 16
#define RENDER_NS 1200000u	/* RenderEngine's CPU time before setClientTarget */
#define GPU_NS 2500000u		/* then the GPU's until the acquire fence signals */

struct target_damage {
	struct hwct_rect rects[MAX_RECTS];
	size_t count;
	bool full;
};

static void add_rect(struct target_damage *d, struct hwct_rect r)
{
	if (r.left >= r.right || r.top >= r.bottom) {
		return;
	}
	if (d->count == MAX_RECTS) {
		/* too many: their bounding box */
		struct hwct_rect *b = &d->rects[0];

		for (size_t i = 1; i < d->count; i++) {
			b->left = b->left < d->rects[i].left ? b->left : d->rects[i].left;
			b->top = b->top < d->rects[i].top ? b->top : d->rects[i].top;
			b->right = b->right > d->rects[i].right ? b->right : d->rects[i].right;
			b->bottom = b->bottom > d->rects[i].bottom ? b->bottom : d->rects[i].bottom;
		}
		d->count = 1;
	}
	d->rects[d->count++] = r;
}

static struct compose_layer compose_of(const struct session_layer *l)
{
	return (struct compose_layer){
		.image = l->image,
		.color = l->props.color,
		.display_frame = l->props.display_frame,
		.source_crop = l->props.source_crop,
		.transform = l->props.transform,
		.blend = l->props.blend,
		.plane_alpha = l->props.plane_alpha,
	};
}

static bool props_equal(const struct session_layer_props *a, const struct session_layer_props *b)
{
	return a->z == b->z && a->display_frame.left == b->display_frame.left &&
		a->display_frame.top == b->display_frame.top && a->display_frame.right == b->display_frame.right &&
		a->display_frame.bottom == b->display_frame.bottom && a->source_crop.left == b->source_crop.left &&
		a->source_crop.top == b->source_crop.top && a->source_crop.right == b->source_crop.right &&
		a->source_crop.bottom == b->source_crop.bottom && a->transform == b->transform &&
		a->blend == b->blend && a->plane_alpha == b->plane_alpha && a->color == b->color;
}

static int set_client_target(struct session *s, bool new_buffer, const struct target_damage *d)
{
	static const struct hwct_rect none = { 0, 0, 0, 0 };
	Hwct__Call c = HWCT__CALL__INIT;
	Hwct__LayerBufferArgs a = HWCT__LAYER_BUFFER_ARGS__INIT;
	Hwct__Region region;
	Hwct__Rect msgs[MAX_RECTS];
	Hwct__Rect *ptrs[MAX_RECTS];
	uint8_t hash[HWCT_HASH_BYTES];

	if (new_buffer) {
		session_region(&region, msgs, ptrs, d->rects, d->full ? 0 : d->count);
		a.has_fence = true;
		a.fence = session_fence(s, HWCT_FENCE_CLIENT_TARGET, 0, s->now, s->now + GPU_NS, "gpu");
	} else {
		/* nothing was recomposed: the same buffer, already signalled, nothing damaged */
		session_region(&region, msgs, ptrs, &none, 1);
	}
	hwct_hash_to_bytes(&s->d.target_content, hash);
	a.has_buffer = a.has_slot = a.has_capture = a.has_dataspace = true;
	a.has_content = !s->cfg.no_pixels;
	a.buffer = s->d.target_buffers[s->d.target_slot];
	a.content = (ProtobufCBinaryData){ HWCT_HASH_BYTES, hash };
	a.slot = s->d.target_slot;
	a.capture = HWCT_CAPTURE_SYNTHETIC;
	a.dataspace = HAL_DATASPACE_V0_SRGB;
	a.damage = &region;
	c.args_case = HWCT__CALL__ARGS_BUFFER;
	c.buffer = &a;
	return session_call(s, &c, HWC2_FUNCTION_SET_CLIENT_TARGET, 0, HWC2_ERROR_NONE, 6000);
}

int session_client_target(struct session *s, struct session_layer **sorted, size_t count)
{
	struct compose_layer *layers = calloc(count ? count : 1, sizeof(*layers));
	struct target_damage d = { .full = !s->d.target_has_content || s->d.target_stale };
	struct hwct_hash content;
	size_t n = 0;
	int ret = 0;

	if (!layers) {
		return session_fail(s, -ENOMEM);
	}
	for (size_t i = 0; i < count; i++) {
		struct session_layer *l = sorted[i];
		bool client = l->final_type == HWC2_COMPOSITION_CLIENT;

		if (client != l->in_target || (client && !props_equal(&l->props, &l->target_props))) {
			d.full = true;
		}
		if (!client) {
			continue;
		}
		layers[n] = compose_of(l);
		if (l->queued && l->full_damage) {
			d.full = true;
		}
		for (size_t k = 0; l->queued && k < l->damage_count; k++) {
			add_rect(&d, compose_map_rect(&layers[n], l->damage[k]));
		}
		n++;
	}
	for (size_t i = 0; i < count; i++) {
		sorted[i]->in_target = n && sorted[i]->final_type == HWC2_COMPOSITION_CLIENT;
		sorted[i]->target_props = sorted[i]->props;
	}
	if (!n) {
		goto out;	/* no client composition: no setClientTarget */
	}
	s->now += RENDER_NS;
	if (!d.full && !d.count) {
		ret = set_client_target(s, false, &d);
		goto out;
	}
	if (d.full && !s->cfg.no_pixels) {
		compose_layers(s->d.target, layers, n, (struct hwct_rect){ 0, 0, (int32_t)s->d.width,
			(int32_t)s->d.height });
	}
	for (size_t i = 0; !d.full && !s->cfg.no_pixels && i < d.count; i++) {
		compose_layers(s->d.target, layers, n, d.rects[i]);
	}
	content = (struct hwct_hash){ 0 };
	ret = s->cfg.no_pixels ? 0 : session_store(s, s->d.target, d.full ? NULL : &s->d.target_content, d.rects,
		d.full ? 0 : d.count, &content);
	if (ret < 0) {
		goto out;
	}
	s->d.target_slot = (s->d.target_slot + 1) % SESSION_QUEUE_DEPTH;
	s->d.target_content = content;
	s->d.target_has_content = true;
	s->d.target_stale = false;
	if (!s->d.target_announced[s->d.target_slot]) {
		ret = session_buffer_record(s, s->d.target_buffers[s->d.target_slot], s->d.target,
			s->cfg.no_pixels ? NULL : &content);
		if (ret < 0) {
			goto out;
		}
		s->d.target_announced[s->d.target_slot] = true;
	}
	ret = set_client_target(s, true, &d);
out:
	free(layers);
	return ret < 0 ? session_fail(s, ret) : 0;
}
