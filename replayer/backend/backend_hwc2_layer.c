/*
 * The module's layers (backend_hwc2_private.h), kept in step with the
 * scene as SurfaceFlinger keeps its HWC layers: createLayer for a layer
 * that appears, destroyLayer for one that goes, and each setLayer* only when
 * its value differs from what was last sent, in SurfaceFlinger's order
 * (geometry, z, transform, blend, alpha, visible region, dataspace,
 * composition type, then surface damage with the buffer, or the colour).
 * The composition type is sent again whenever it differs from the module's
 * last decision, as the client asks for its type every frame.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwct/frame.h>

#include "backend_hwc2_private.h"

#define REGION_STACK_RECTS 16

struct hwc2_layer *hwc2_layers_find(struct hwc2_backend *h, uint64_t scene_id)
{
	for (size_t i = 0; i < h->layer_count; i++) {
		if (h->layers[i].scene_id == scene_id) {
			return &h->layers[i];
		}
	}
	return NULL;
}

static void hold(struct hwc2_layer *l, struct hwc2_buffer *b)
{
	if (l->buffer == b) {
		return;
	}
	if (l->buffer) {
		l->buffer->holders--;
	}
	l->previous = l->buffer;
	l->buffer = b;
	if (b) {
		b->holders++;
	}
}

static void destroy_at(struct hwc2_backend *h, size_t i)
{
	struct hwc2_layer *l = &h->layers[i];
	struct hwc2_module *m = &h->module;

	hwc2_checked(h, HWC2_FN(m, destroy_layer)(m->dev, m->display, l->id), "destroyLayer", l->scene_id);
	hold(l, NULL);
	h->layers[i] = h->layers[--h->layer_count];
}

void hwc2_layers_clear(struct hwc2_backend *h)
{
	while (h->layer_count) {
		destroy_at(h, h->layer_count - 1);
	}
}

/* Creates module layers for new scene layers and destroys the module layers of gone ones. */
static int match_layers(struct hwc2_backend *h, const struct scene *scene)
{
	struct hwc2_module *m = &h->module;

	for (size_t i = 0; i < h->layer_count; i++) {
		h->layers[i].seen = false;
		h->layers[i].previous = NULL;
		h->layers[i].buffer_sent = false;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		struct hwc2_layer *l = hwc2_layers_find(h, scene->layers[i].id);
		hwc2_layer_t id;

		if (l) {
			l->seen = true;
			continue;
		}
		if (h->layer_count == h->layer_cap) {
			size_t cap = h->layer_cap ? h->layer_cap * 2 : 16;
			struct hwc2_layer *grown = realloc(h->layers, cap * sizeof(*grown));

			if (!grown) {
				return -ENOMEM;
			}
			h->layers = grown;
			h->layer_cap = cap;
		}
		if (hwc2_checked(h, HWC2_FN(m, create_layer)(m->dev, m->display, &id), "createLayer", scene->layers[i].id) !=
			HWC2_ERROR_NONE) {
			continue;	/* shown nowhere; the note says why */
		}
		h->layers[h->layer_count++] = (struct hwc2_layer){
			.scene_id = scene->layers[i].id,
			.id = id,
			.seen = true,
			.device_type = HWC2_COMPOSITION_INVALID,
		};
	}
	for (size_t i = 0; i < h->layer_count;) {
		if (!h->layers[i].seen) {
			destroy_at(h, i);
		} else {
			i++;
		}
	}
	return 0;
}

static bool rect_equal(struct hwct_rect a, struct hwct_rect b)
{
	return a.left == b.left && a.top == b.top && a.right == b.right && a.bottom == b.bottom;
}

static bool frect_equal(struct hwct_frect a, struct hwct_frect b)
{
	return a.left == b.left && a.top == b.top && a.right == b.right && a.bottom == b.bottom;
}

/*
 * Calls set(display, layer, region) with rects converted to hwc_rect_t.
 * Returns the call's result, or -ENOMEM.
 */
static int32_t send_region(struct hwc2_backend *h, struct hwc2_layer *l,
	int32_t (*set)(hwc2_device_t *, hwc2_display_t, hwc2_layer_t, hwc_region_t),
	const struct hwct_rect *rects, size_t count)
{
	hwc_rect_t stack[REGION_STACK_RECTS], *r = stack;
	int32_t ret;

	if (count > REGION_STACK_RECTS) {
		r = malloc(count * sizeof(*r));
		if (!r) {
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < count; i++) {
		r[i] = (hwc_rect_t){ rects[i].left, rects[i].top, rects[i].right, rects[i].bottom };
	}
	ret = set(h->module.dev, h->module.display, l->id, (hwc_region_t){ .numRects = count, .rects = r });
	if (r != stack) {
		free(r);
	}
	return ret;
}

/*
 * The visible region: the recorded one while the display frame is the
 * recorded one (no mode mapping; none when the recording set none), else
 * the frame clipped to the display. Returns false when there is none to send.
 */
static bool visible_region(const struct scene *scene, const struct scene_layer *s, struct hwct_rect *clip,
	const struct hwct_rect **rects, size_t *count)
{
	const struct hwct_layer *rec = s->recorded;

	if (rec && rect_equal(rec->display_frame, s->frame)) {
		*rects = rec->visible_region.rects;
		*count = rec->visible_region.count;
		return *count > 0;
	}
	*clip = s->frame;
	clip->left = clip->left < 0 ? 0 : clip->left;
	clip->top = clip->top < 0 ? 0 : clip->top;
	clip->right = clip->right > (int32_t)scene->width ? (int32_t)scene->width : clip->right;
	clip->bottom = clip->bottom > (int32_t)scene->height ? (int32_t)scene->height : clip->bottom;
	*rects = clip;
	*count = 1;
	return true;
}

/* Sends what changed of the geometry and blending of l. */
static void send_properties(struct hwc2_backend *h, const struct scene *scene, const struct scene_layer *s,
	struct hwc2_layer *l)
{
	struct hwc2_module *m = &h->module;
	const struct scene_layer *o = &l->sent;
	int32_t dataspace = s->recorded ? s->recorded->dataspace : 0;
	bool all = !l->sent_any;
	const struct hwct_rect *rects;
	struct hwct_rect clip;
	struct hwct_hash vh;
	size_t count;

	if (all || !rect_equal(s->frame, o->frame)) {
		hwc_rect_t f = { s->frame.left, s->frame.top, s->frame.right, s->frame.bottom };

		hwc2_checked(h, HWC2_FN(m, set_layer_display_frame)(m->dev, m->display, l->id, f), "setLayerDisplayFrame",
			s->id);
	}
	if (all || !frect_equal(s->crop, o->crop)) {
		hwc_frect_t c = { s->crop.left, s->crop.top, s->crop.right, s->crop.bottom };

		hwc2_checked(h, HWC2_FN(m, set_layer_source_crop)(m->dev, m->display, l->id, c), "setLayerSourceCrop", s->id);
	}
	if (all || s->z != o->z) {
		hwc2_checked(h, HWC2_FN(m, set_layer_z_order)(m->dev, m->display, l->id, (uint32_t)s->z), "setLayerZOrder",
			s->id);
	}
	if (all || s->transform != o->transform) {
		hwc2_checked(h, HWC2_FN(m, set_layer_transform)(m->dev, m->display, l->id, s->transform),
			"setLayerTransform", s->id);
	}
	if (all || s->blend != o->blend) {
		hwc2_checked(h, HWC2_FN(m, set_layer_blend_mode)(m->dev, m->display, l->id, s->blend), "setLayerBlendMode",
			s->id);
	}
	if (all || s->alpha != o->alpha) {
		hwc2_checked(h, HWC2_FN(m, set_layer_plane_alpha)(m->dev, m->display, l->id, s->alpha),
			"setLayerPlaneAlpha", s->id);
	}
	if (!visible_region(scene, s, &clip, &rects, &count)) {
		rects = NULL;
		count = 0;
	}
	vh = hwct_hash_compute(rects, count * sizeof(*rects));
	if (count && (!l->sent_visible_any || !hwct_hash_equal(&vh, &l->sent_visible))) {
		hwc2_checked(h, send_region(h, l, HWC2_FN(m, set_layer_visible_region), rects, count),
			"setLayerVisibleRegion", s->id);
		l->sent_visible = vh;
		l->sent_visible_any = true;
	}
	if (all || dataspace != l->sent_dataspace) {
		hwc2_checked(h, HWC2_FN(m, set_layer_dataspace)(m->dev, m->display, l->id, dataspace), "setLayerDataspace",
			s->id);
		l->sent_dataspace = dataspace;
	}
}

/* The composition type, again whenever the module's last decision was another. */
static void send_composition(struct hwc2_backend *h, const struct scene_layer *s, struct hwc2_layer *l)
{
	struct hwc2_module *m = &h->module;

	if (s->composition != l->device_type) {
		hwc2_checked(h, HWC2_FN(m, set_layer_composition_type)(m->dev, m->display, l->id, s->composition),
			"setLayerCompositionType", s->id);
	}
}

/*
 * The surface damage as SurfaceFlinger sends it: the recorded region, else
 * the whole buffer (no rects) for new content and one empty rect for
 * unchanged content; like SurfaceFlinger's HWC2::Layer, only when it
 * differs from the region last sent.
 */
static void send_damage(struct hwc2_backend *h, const struct scene_layer *s, struct hwc2_layer *l, bool fresh)
{
	static const struct hwct_rect unchanged = { 0, 0, 0, 0 };
	struct hwc2_module *m = &h->module;
	const struct hwct_rect *rects = fresh ? NULL : &unchanged;
	size_t count = fresh ? 0 : 1;

	struct hwct_hash sent;

	if (s->recorded) {
		rects = s->recorded->damage.rects;
		count = s->recorded->damage.count;
	}
	sent = hwct_hash_compute(rects, count * sizeof(*rects));
	if (l->sent_damage_any && hwct_hash_equal(&sent, &l->sent_damage)) {
		return;
	}
	hwc2_checked(h, send_region(h, l, HWC2_FN(m, set_layer_surface_damage), rects, count), "setLayerSurfaceDamage",
		s->id);
	l->sent_damage = sent;
	l->sent_damage_any = true;
}

/* The pool key of s's buffer: the recorded buffer id, else the content. */
static uint64_t buffer_key(const struct scene_layer *s)
{
	if (s->recorded && s->recorded->buffer.buffer) {
		return s->recorded->buffer.buffer;
	}
	return s->image->hash.low;
}

/*
 * Sends s's surface damage, its composition type, and its buffer when it
 * is another buffer or new content. Returns 0 or -errno.
 */
static int send_buffer(struct hwc2_backend *h, const struct scene_layer *s, struct hwc2_layer *l)
{
	struct hwc2_module *m = &h->module;
	struct hwc2_buffer *b = hwc2_pool_get(&h->pool, &h->alloc, buffer_key(s), s->image);
	bool fresh;
	int fence, ret;

	if (!b) {
		hwc2_note(h, "layer %llu: no %ux%u buffer of %.4s: %s", (unsigned long long)s->id, s->image->width,
			s->image->height, (const char *)&s->image->fourcc, strerror(errno));
		send_composition(h, s, l);
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	b->last_frame = h->frames;
	fresh = !b->has_content || !hwct_hash_equal(&b->content, &s->image->hash);
	send_damage(h, s, l, fresh || b != l->buffer);
	send_composition(h, s, l);
	if (b == l->buffer && !fresh) {
		return 0;
	}
	if (fresh) {
		ret = hwc2_buffer_write(b, s->image);
		if (ret < 0) {
			hwc2_note(h, "layer %llu: writing its buffer: %s", (unsigned long long)s->id, strerror(-ret));
			return ret == -ENOMEM ? ret : 0;
		}
	}
	fence = s->acquire_fence >= 0 ? dup(s->acquire_fence) : -1;
	hwc2_checked(h, HWC2_FN(m, set_layer_buffer)(m->dev, m->display, l->id, b->handle, fence), "setLayerBuffer",
		s->id);
	hold(l, b);
	l->buffer_sent = true;
	return 0;
}

int hwc2_layers_sync(struct hwc2_backend *h, const struct scene *scene)
{
	struct hwc2_module *m = &h->module;
	int ret = match_layers(h, scene);

	for (size_t i = 0; i < scene->layer_count && ret == 0; i++) {
		const struct scene_layer *s = &scene->layers[i];
		struct hwc2_layer *l = hwc2_layers_find(h, s->id);

		if (!l) {
			continue;
		}
		send_properties(h, scene, s, l);
		if (s->image && s->composition != HWC2_COMPOSITION_SOLID_COLOR) {
			ret = send_buffer(h, s, l);
		} else {
			send_composition(h, s, l);
			if (!m->fn.set_layer_color) {
				hwc2_note(h, "layer %llu: the module has no setLayerColor; its colour is not sent",
					(unsigned long long)s->id);
			} else if (!l->sent_any || s->color != l->sent.color || l->sent.image) {
				hwc_color_t c = { (uint8_t)s->color, (uint8_t)(s->color >> 8), (uint8_t)(s->color >> 16),
					(uint8_t)(s->color >> 24) };

				hwc2_checked(h, HWC2_FN(m, set_layer_color)(m->dev, m->display, l->id, c), "setLayerColor",
					s->id);
			}
		}
		l->sent = *s;
		l->sent_any = true;
	}
	return ret;
}
