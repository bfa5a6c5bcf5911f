/* Plan reuse of the KMS backend (backend_kms_reuse.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend_kms_reuse.h"

/* What a plan depends on, per layer: everything but the buffer's content (hash). */
struct backend_kms_layer_sig {
	int32_t composition;
	bool has_image;
	uint32_t fourcc, width, height, plane_count;
	uint64_t modifier;
	struct hwct_hash hash;		/* the content: equal means nothing to re-check */
	struct hwct_frect crop;
	struct hwct_rect frame;
	int32_t transform, blend;
	float alpha;
	uint32_t color;
};

static struct backend_kms_layer_sig make_sig(const struct scene_layer *l)
{
	struct backend_kms_layer_sig sig = { .composition = l->composition,
		.has_image = l->image != NULL, .crop = l->crop, .frame = l->frame,
		.transform = l->transform, .blend = l->blend, .alpha = l->alpha, .color = l->color };

	if (l->image) {
		sig.fourcc = l->image->fourcc;
		sig.width = l->image->width;
		sig.height = l->image->height;
		sig.plane_count = l->image->plane_count;
		sig.modifier = l->image->modifier;
		sig.hash = l->image->hash;
	}
	return sig;
}

/*
 * Equal but for the content. Exact: a plan's plane states carry the crop,
 * frame and alpha as they were (libliftoff only reallocates when alpha
 * crosses 0 or opaque, but then rewrites the property; here the states are
 * committed as planned).
 */
static bool same_layout(const struct backend_kms_layer_sig *a, const struct backend_kms_layer_sig *b)
{
	return a->composition == b->composition && a->has_image == b->has_image &&
		a->fourcc == b->fourcc && a->width == b->width && a->height == b->height &&
		a->plane_count == b->plane_count && a->modifier == b->modifier &&
		a->crop.left == b->crop.left && a->crop.top == b->crop.top &&
		a->crop.right == b->crop.right && a->crop.bottom == b->crop.bottom &&
		a->frame.left == b->frame.left && a->frame.top == b->frame.top &&
		a->frame.right == b->frame.right && a->frame.bottom == b->frame.bottom &&
		a->transform == b->transform && a->blend == b->blend && a->alpha == b->alpha &&
		a->color == b->color;
}

/* Whether scene has the layers of the last plan; *same_content: and the same buffers. */
static bool same_scene(const struct backend_kms_reuse *r, const struct scene *scene, bool *same_content)
{
	*same_content = true;
	if (!r->plan || scene->layer_count != r->count || scene->width != r->width ||
		scene->height != r->height) {
		return false;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		struct backend_kms_layer_sig sig = make_sig(&scene->layers[i]);

		if (!same_layout(&sig, &r->sig[i])) {
			return false;
		}
		*same_content = *same_content && hwct_hash_equal(&sig.hash, &r->sig[i].hash);
	}
	return true;
}

static struct plan *plan_copy(const struct plan *p)
{
	struct plan *c = calloc(1, sizeof(*c));

	if (!c) {
		return NULL;
	}
	*c = *p;
	c->states = NULL;
	c->layers = calloc(p->layer_count ? p->layer_count : 1, sizeof(*c->layers));
	if (p->state_count) {
		c->states = malloc(p->state_count * sizeof(*c->states));
	}
	if (!c->layers || (p->state_count && !c->states)) {
		plan_destroy(c);
		return NULL;
	}
	memcpy(c->layers, p->layers, p->layer_count * sizeof(*c->layers));
	if (p->state_count) {
		memcpy(c->states, p->states, p->state_count * sizeof(*c->states));
	}
	return c;
}

int backend_kms_reuse_plan(struct backend_kms_reuse *r, const struct scene *scene,
	const struct board_tester *tester, struct plan **out, unsigned *refused)
{
	struct plan_candidate cand;
	bool same_content;
	struct plan *plan;
	int ret;

	*out = NULL;
	r->same_frame = false;
	if (!r->enabled || !r->plan || r->plan->timed_out || !same_scene(r, scene, &same_content)) {
		return 0;	/* a plan the budget cut short is planned again, not kept for the run */
	}
	plan = plan_copy(r->plan);
	if (!plan) {
		return -ENOMEM;
	}
	plan->test_count = 0;
	plan->timed_out = false;
	if (same_content || !plan_get_candidate(plan, &cand)) {
		/* the configuration the driver took, or all client as before: nothing to ask */
		r->stats.reused_untested++;
		r->same_frame = same_content;
	} else {
		plan->test_count = 1;
		ret = tester->impl->test(tester->ctx, &cand);
		if (ret != 0) {
			plan_destroy(plan);
			if (!board_tester_refused(ret)) {
				return ret;
			}
			r->stats.retests_refused++;
			(*refused)++;
			return 0;
		}
		r->stats.reused_retested++;
	}
	*out = plan;
	return 0;
}

int backend_kms_reuse_remember(struct backend_kms_reuse *r, const struct scene *scene,
	const struct plan *plan)
{
	if (scene->layer_count + 1 > r->sig_cap) {
		struct backend_kms_layer_sig *sig = realloc(r->sig, (scene->layer_count + 1) * sizeof(*sig));

		if (!sig) {
			return -ENOMEM;
		}
		r->sig = sig;
		r->sig_cap = scene->layer_count + 1;
	}
	if (plan != r->plan) {
		struct plan *copy = plan_copy(plan);

		if (!copy) {
			return -ENOMEM;
		}
		plan_destroy(r->plan);
		r->plan = copy;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		r->sig[i] = make_sig(&scene->layers[i]);
	}
	r->count = scene->layer_count;
	r->width = scene->width;
	r->height = scene->height;
	return 0;
}

static uint64_t kept_key(const struct plan_plane_state *s)
{
	return (uint64_t)s->plane_id << 32 | (uint32_t)s->layer;
}

static void drop_kept(struct backend_kms_reuse *r)
{
	for (size_t i = 0; i < r->kept_count; i++) {
		kms_fb_unref(r->kept[i]);
	}
	r->kept_count = 0;
}

bool backend_kms_reuse_take_fbs(struct backend_kms_reuse *r, const struct plan_candidate *cand,
	struct kms_fb **fbs, unsigned *fallbacks)
{
	if (!r->enabled || !r->same_frame || r->kept_count != cand->count) {
		return false;
	}
	for (size_t i = 0; i < cand->count; i++) {
		if (r->kept_keys[i] != kept_key(&cand->planes[i])) {
			return false;
		}
	}
	for (size_t i = 0; i < cand->count; i++) {
		fbs[i] = r->kept[i] ? kms_fb_ref(r->kept[i]) : NULL;
	}
	*fallbacks = r->kept_fallbacks;
	return true;
}

void backend_kms_reuse_keep_fbs(struct backend_kms_reuse *r, const struct plan_candidate *cand,
	struct kms_fb *const *fbs, unsigned fallbacks)
{
	drop_kept(r);
	if (!r->enabled) {
		return;
	}
	if (cand->count > r->kept_cap) {
		struct kms_fb **kept = realloc(r->kept, cand->count * sizeof(*kept));
		uint64_t *keys = kept ? realloc(r->kept_keys, cand->count * sizeof(*keys)) : NULL;

		if (kept) {
			r->kept = kept;
		}
		if (!keys) {
			return;		/* no shortcut next frame, that is all */
		}
		r->kept_keys = keys;
		r->kept_cap = cand->count;
	}
	for (size_t i = 0; i < cand->count; i++) {
		r->kept[i] = fbs[i] ? kms_fb_ref(fbs[i]) : NULL;
		r->kept_keys[i] = kept_key(&cand->planes[i]);
	}
	r->kept_count = cand->count;
	r->kept_fallbacks = fallbacks;
}

void backend_kms_reuse_forget(struct backend_kms_reuse *r)
{
	plan_destroy(r->plan);
	r->plan = NULL;
	r->count = 0;
	r->same_frame = false;
	drop_kept(r);
}

void backend_kms_reuse_finish(struct backend_kms_reuse *r)
{
	backend_kms_reuse_forget(r);
	free(r->sig);
	free(r->kept);
	free(r->kept_keys);
	*r = (struct backend_kms_reuse){ 0 };
}
