/*
 * The KMS device as a board_tester (commit.h): each candidate the planners
 * ask about becomes a TEST_ONLY commit with the layers' buffers imported
 * for their planes and blank client targets.
 */
#include <errno.h>
#include <stdlib.h>

#include <hwct/log.h>

#include "commit.h"
#include "kms_private.h"

#define MAX_TARGETS 4		/* blank client targets kept, by size and format */

struct kms_tester {
	struct kms_device *dev;		/* borrowed */
	struct kms_fb_cache *cache;	/* borrowed; may be NULL */
	const struct scene *scene;	/* borrowed */
	struct kms_fb *targets[MAX_TARGETS];	/* owned references */
	size_t next_target;		/* round-robin slot to replace */
	unsigned count;
};

struct kms_tester *kms_tester_create(struct kms_device *dev, struct kms_fb_cache *cache)
{
	struct kms_tester *t = calloc(1, sizeof(*t));

	if (t) {
		t->dev = dev;
		t->cache = cache;
	}
	return t;
}

void kms_tester_destroy(struct kms_tester *t)
{
	if (!t) {
		return;
	}
	for (size_t i = 0; i < MAX_TARGETS; i++) {
		kms_fb_unref(t->targets[i]);
	}
	free(t);
}

void kms_tester_set_scene(struct kms_tester *t, const struct scene *scene)
{
	t->scene = scene;
}

unsigned kms_tester_count(const struct kms_tester *t)
{
	return t->count;
}

/* A blank framebuffer for the client target state s (borrowed from t). */
static int client_target(struct kms_tester *t, const struct plan_plane_state *s, struct kms_fb **out)
{
	struct kms_fb *fb;
	int ret;

	for (size_t i = 0; i < MAX_TARGETS; i++) {
		fb = t->targets[i];
		if (fb && fb->width == s->fb_width && fb->height == s->fb_height &&
			fb->fourcc == s->fourcc) {
			*out = fb;
			return 0;
		}
	}
	if ((ret = kms_fb_create(t->dev, s->fb_width, s->fb_height, s->fourcc, &fb))) {
		return ret;
	}
	kms_fb_unref(t->targets[t->next_target]);
	t->targets[t->next_target] = fb;
	t->next_target = (t->next_target + 1) % MAX_TARGETS;
	*out = fb;
	return 0;
}

/* Imports the layer state s shows for its plane. */
static int import_layer(struct kms_tester *t, const struct plan_plane_state *s, struct kms_fb **out)
{
	const struct scene_layer *layer;
	struct kms_import imp;
	int ret;

	if (s->solid_fill || !t->scene || s->layer >= t->scene->layer_count) {
		return -EINVAL;
	}
	layer = &t->scene->layers[s->layer];
	if (!layer->image) {
		return -EINVAL;
	}
	/* HWC2_BLEND_MODE_INVALID (0) counts as NONE (1): the alpha is not shown. */
	ret = kms_fb_import(t->dev, t->cache, layer->image,
		board_find_plane(t->dev->board, s->plane_id), layer->blend <= 1, &imp);
	if (ret) {
		hwct_log(HWCT_LOG_DEBUG, "kms tester: layer %zu on plane %u: import: %d", s->layer,
			s->plane_id, ret);
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	*out = imp.fb;
	return 0;
}

static int tester_test(void *ctx, const struct plan_candidate *cand)
{
	struct kms_tester *t = ctx;
	struct kms_commit_args args = { .cand = cand, .scene = t->scene, .client_target_fence = -1 };
	struct kms_fb **fbs;
	size_t imported = 0;
	int ret = 0;

	t->count++;
	fbs = calloc(cand->count + 1, sizeof(*fbs));
	if (!fbs) {
		return -ENOMEM;
	}
	for (; imported < cand->count && !ret; imported++) {
		ret = import_layer(t, &cand->planes[imported], &fbs[imported]);
	}
	if (!ret && cand->has_client_target) {
		ret = client_target(t, &cand->client_target, &args.client_target);
		ret = ret == -ENOMEM || ret == 0 ? ret : -EINVAL;
	}
	if (!ret) {
		args.fbs = fbs;
		ret = kms_commit_test(t->dev, &args);
	}
	for (size_t i = 0; i < imported; i++) {
		kms_fb_unref(fbs[i]);
	}
	free(fbs);
	return ret;
}

static const struct board_tester_impl kms_tester_impl = {
	.test = tester_test,
};

struct board_tester kms_tester_board_tester(struct kms_tester *t)
{
	struct board_tester tester = { .impl = &kms_tester_impl, .ctx = t };

	return tester;
}
