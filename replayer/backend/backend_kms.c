/*
 * The KMS backend: the planner decides with TEST_ONLY commits on the real
 * device (or the previous plan is reused), client layers are composed into
 * a client-target framebuffer (or the caller brings one), the accepted
 * configuration is committed with the layers' acquire fences, and the
 * writeback connector reads the frame back for its checksum.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <hardware/hwcomposer2.h>

#include "backend_kms.h"
#include "commit.h"
#include "device.h"
#include "fb.h"
#include "readback.h"

#define CLIENT_TARGETS 3	/* rotated, so that composing never writes the buffer on screen */
#define FB_CACHE_SIZE 64
#define READBACK_TIMEOUT_MS 2000

struct kms_backend {
	struct backend base;
	struct kms_device *dev;		/* owned */
	const struct board *board;	/* the device's */
	const struct planner_impl *planner;
	struct planner_options opts;
	struct compositor *compositor;	/* borrowed */
	struct kms_fb_cache *cache;	/* owned */
	struct kms_tester *tester;	/* owned */
	struct kms_readback *readback;	/* owned, NULL without writeback */
	struct kms_fb *targets[CLIENT_TARGETS];	/* owned references */
	unsigned next_target;
	int present_fence;		/* owned, -1 none */
	struct kms_fb **fbs;		/* per candidate plane, this frame */
	size_t fb_cap;
	const struct scene_layer **client;	/* layers to compose, this frame */
	size_t client_cap;
	/* plan reuse (backend_kms_options.reuse_plans) */
	bool reuse;
	struct plan *last_plan;		/* owned copy of the last plan made or reused; NULL none */
	struct layer_sig *last_sig;	/* the scene it was made for, one per layer */
	size_t last_count, sig_cap;
	uint32_t last_width, last_height;
	bool same_frame;		/* the last plan was reused because nothing changed */
	struct kms_fb **kept;		/* references: the last frame's layer framebuffers */
	uint64_t *kept_keys;		/* their plane id << 32 | layer index */
	size_t kept_count, kept_cap;
	unsigned kept_fallbacks;
	struct backend_kms_stats stats;
};

/* What a plan depends on, per layer: everything but the buffer's content. */
struct layer_sig {
	int32_t composition;
	bool has_image;
	uint32_t fourcc, width, height, plane_count;
	uint64_t modifier;
	struct hwct_hash hash;		/* the content: equal means nothing to re-test */
	struct hwct_frect crop;
	struct hwct_rect frame;
	int32_t transform, blend;
	float alpha;
	uint32_t color;
};

static const struct backend_impl kms_impl;

static struct kms_backend *kms_from_backend(struct backend *b)
{
	return b->impl == &kms_impl ? (struct kms_backend *)b : NULL;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int grow(void **array, size_t *cap, size_t need, size_t size)
{
	void *p;

	if (need <= *cap) {
		return 0;
	}
	p = realloc(*array, need * size);
	if (!p) {
		return -ENOMEM;
	}
	*array = p;
	*cap = need;
	return 0;
}

/* Composes the client layers into the next client-target framebuffer. */
static int compose_target(struct kms_backend *k, const struct scene *scene, const struct plan *plan,
	const struct plan_plane_state *state, struct kms_fb **out)
{
	struct kms_fb **slot = &k->targets[k->next_target++ % CLIENT_TARGETS];
	struct kms_fb_map map;
	struct comp_target target;
	size_t count = 0;
	int ret;

	if (*slot && ((*slot)->fourcc != state->fourcc || (*slot)->width != scene->width ||
		(*slot)->height != scene->height)) {
		kms_fb_unref(*slot);
		*slot = NULL;
	}
	if (!*slot && (ret = kms_fb_create(k->dev, scene->width, scene->height, state->fourcc, slot)) < 0) {
		return ret;
	}
	ret = grow((void **)&k->client, &k->client_cap, scene->layer_count + 1, sizeof(*k->client));
	if (ret < 0) {
		return ret;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		if (!plan || plan->layers[i].plane_id == 0) {
			k->client[count++] = &scene->layers[i];
		}
	}
	ret = kms_fb_map(*slot, &map);
	if (ret < 0) {
		return ret;
	}
	target = (struct comp_target){ .fourcc = state->fourcc, .width = scene->width,
		.height = scene->height, .stride = map.stride[0], .data = map.data[0] };
	ret = compositor_compose(k->compositor, scene, k->client, count, 0, &target);
	kms_fb_unmap(*slot, &map);
	*out = *slot;
	return ret;
}

static struct layer_sig make_sig(const struct scene_layer *l)
{
	struct layer_sig sig = { .composition = l->composition, .has_image = l->image != NULL,
		.crop = l->crop, .frame = l->frame, .transform = l->transform, .blend = l->blend,
		.alpha = l->alpha, .color = l->color };

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

static bool sig_same_layout(const struct layer_sig *a, const struct layer_sig *b)
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
static bool same_scene(const struct kms_backend *k, const struct scene *scene, bool *same_content)
{
	*same_content = true;
	if (!k->last_plan || scene->layer_count != k->last_count ||
		scene->width != k->last_width || scene->height != k->last_height) {
		return false;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		struct layer_sig sig = make_sig(&scene->layers[i]);

		if (!sig_same_layout(&sig, &k->last_sig[i])) {
			return false;
		}
		*same_content = *same_content && hwct_hash_equal(&sig.hash, &k->last_sig[i].hash);
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

/* Keeps scene's layers (and a copy of plan, unless it is the kept one) for the next frame. */
static int remember(struct kms_backend *k, const struct scene *scene, const struct plan *plan)
{
	int ret = grow((void **)&k->last_sig, &k->sig_cap, scene->layer_count + 1, sizeof(*k->last_sig));

	if (ret < 0) {
		return ret;
	}
	if (plan != k->last_plan) {
		struct plan *copy = plan_copy(plan);

		if (!copy) {
			return -ENOMEM;
		}
		plan_destroy(k->last_plan);
		k->last_plan = copy;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		k->last_sig[i] = make_sig(&scene->layers[i]);
	}
	k->last_count = scene->layer_count;
	k->last_width = scene->width;
	k->last_height = scene->height;
	return 0;
}

static void drop_kept(struct kms_backend *k)
{
	for (size_t i = 0; i < k->kept_count; i++) {
		kms_fb_unref(k->kept[i]);
	}
	k->kept_count = 0;
}

static void forget(struct kms_backend *k)
{
	plan_destroy(k->last_plan);
	k->last_plan = NULL;
	k->last_count = 0;
	k->same_frame = false;
	drop_kept(k);
}

/*
 * The previous plan for scene when it still holds: *out set (or left NULL
 * when planning afresh is needed). *retests counts a refused re-check.
 * Returns 0 or a hard tester error.
 */
static int reuse_plan(struct kms_backend *k, const struct scene *scene, struct plan **out,
	unsigned *retests)
{
	struct board_tester tester = kms_tester_board_tester(k->tester);
	struct plan_candidate cand;
	bool same_content;
	struct plan *plan;
	int ret;

	*out = NULL;
	if (!k->reuse || !same_scene(k, scene, &same_content)) {
		return 0;
	}
	plan = plan_copy(k->last_plan);
	if (!plan) {
		return -ENOMEM;
	}
	plan->test_count = 0;
	plan->timed_out = false;
	if (same_content || !plan_get_candidate(plan, &cand)) {
		/* the configuration the driver took, or all client as before: nothing to ask */
		k->stats.reused_untested++;
		k->same_frame = same_content;
	} else {
		plan->test_count = 1;
		ret = tester.impl->test(tester.ctx, &cand);
		if (ret != 0) {
			plan_destroy(plan);
			if (!board_tester_refused(ret)) {
				return ret;
			}
			k->stats.retests_refused++;
			(*retests)++;
			return 0;
		}
		k->stats.reused_retested++;
	}
	*out = plan;
	return 0;
}

int backend_kms_plan(struct backend *b, const struct scene *scene, struct plan **out)
{
	struct kms_backend *k = kms_from_backend(b);
	struct board_tester tester;
	unsigned retests = 0;
	int ret;

	*out = NULL;
	if (!k || !scene) {
		return -EINVAL;
	}
	k->stats.plans++;
	k->same_frame = false;
	kms_tester_set_scene(k->tester, scene);
	ret = reuse_plan(k, scene, out, &retests);
	if (ret < 0) {
		return ret;
	}
	if (*out) {
		/* same layer count: only the content hashes change, nothing to allocate */
		remember(k, scene, k->last_plan);
		return 0;
	}
	tester = kms_tester_board_tester(k->tester);
	ret = planner_run(k->planner, &k->opts, k->board, scene, &tester, out);
	if (ret < 0) {
		return ret;
	}
	(*out)->test_count += retests;
	if (k->reuse && remember(k, scene, *out) < 0) {
		forget(k);	/* out of memory: no reuse next time, the plan is still good */
	}
	return 0;
}

static uint64_t kept_key(const struct plan_plane_state *s)
{
	return (uint64_t)s->plane_id << 32 | (uint32_t)s->layer;
}

/* Under plan reuse, when nothing changed: the last frame's framebuffers, as new references. */
static bool take_kept(struct kms_backend *k, const struct plan_candidate *cand, struct backend_result *out)
{
	if (!k->same_frame || k->kept_count != cand->count) {
		return false;
	}
	for (size_t i = 0; i < cand->count; i++) {
		if (k->kept_keys[i] != kept_key(&cand->planes[i])) {
			return false;
		}
	}
	for (size_t i = 0; i < cand->count; i++) {
		k->fbs[i] = k->kept[i] ? kms_fb_ref(k->kept[i]) : NULL;
	}
	out->format_fallbacks += k->kept_fallbacks;
	return true;
}

/* Under plan reuse: keeps this frame's framebuffers for the next one. */
static void keep(struct kms_backend *k, const struct plan_candidate *cand, unsigned fallbacks)
{
	drop_kept(k);
	if (grow((void **)&k->kept, &k->kept_cap, cand->count + 1, sizeof(*k->kept)) < 0) {
		return;
	}
	/* kept_keys grows with kept: same count */
	{
		uint64_t *keys = realloc(k->kept_keys, k->kept_cap * sizeof(*keys));

		if (!keys) {
			return;
		}
		k->kept_keys = keys;
	}
	for (size_t i = 0; i < cand->count; i++) {
		k->kept[i] = k->fbs[i] ? kms_fb_ref(k->fbs[i]) : NULL;
		k->kept_keys[i] = kept_key(&cand->planes[i]);
	}
	k->kept_count = cand->count;
	k->kept_fallbacks = fallbacks;
}

static int import_layers(struct kms_backend *k, const struct scene *scene, const struct plan_candidate *cand,
	struct backend_result *out)
{
	unsigned fallbacks = 0;
	int ret = grow((void **)&k->fbs, &k->fb_cap, cand->count + 1, sizeof(*k->fbs));

	if (ret < 0) {
		return ret;
	}
	if (k->reuse && take_kept(k, cand, out)) {
		return 0;
	}
	for (size_t i = 0; i < cand->count; i++) {
		const struct plan_plane_state *s = &cand->planes[i];
		const struct scene_layer *l = &scene->layers[s->layer];
		struct kms_import imp;
		bool opaque = l->blend == HWC2_BLEND_MODE_NONE;

		k->fbs[i] = NULL;
		if (!l->image) {
			continue;	/* a solid fill: the commit refuses it, reported below */
		}
		ret = kms_fb_import(k->dev, k->cache, l->image, board_find_plane(k->board, s->plane_id), opaque, &imp);
		if (ret < 0) {
			for (size_t j = 0; j < i; j++) {
				kms_fb_unref(k->fbs[j]);
			}
			return ret;
		}
		k->fbs[i] = imp.fb;
		fallbacks += imp.converted;
	}
	out->format_fallbacks += fallbacks;
	if (k->reuse) {
		keep(k, cand, fallbacks);
	}
	return 0;
}

static int wait_fence(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret;

	do {
		ret = poll(&p, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	return ret > 0 ? 0 : ret == 0 ? -ETIME : -errno;
}

int backend_kms_show(struct backend *b, const struct scene *scene,
	const struct backend_kms_frame *frame, bool want_image, struct backend_result *out,
	int *present_fence)
{
	struct kms_backend *k = kms_from_backend(b);
	struct plan_plane_state client_only;
	struct plan_candidate cand;
	struct kms_commit_args args = { .scene = scene, .client_target_fence = -1 };
	struct kms_readback_result rb;
	int64_t t1 = now_ns();
	int fence = -1, ret;

	if (present_fence) {
		*present_fence = -1;
	}
	if (!k || !scene || !frame || !frame->plan) {
		return -EINVAL;
	}
	args.readback = k->readback;
	if (!plan_get_candidate(frame->plan, &cand)) {
		ret = plan_client_only_candidate(k->board, scene, &k->opts, &client_only);
		if (ret < 0) {
			return ret;
		}
		cand = (struct plan_candidate){ .has_client_target = true, .client_target = client_only };
	}
	out->efficiency = backend_efficiency(scene, frame->plan);
	ret = import_layers(k, scene, &cand, out);
	if (ret < 0) {
		return ret;
	}
	args.cand = &cand;
	args.fbs = k->fbs;
	if (cand.has_client_target && frame->client_target) {
		args.client_target = frame->client_target;
		args.client_target_fence = frame->client_target_fence;
	} else if (cand.has_client_target) {
		t1 = now_ns();
		ret = compose_target(k, scene, frame->plan, &cand.client_target, &args.client_target);
		out->compose_ns = now_ns() - t1;
	}
	if (ret == 0) {
		t1 = now_ns();
		ret = kms_commit_present(k->dev, &args, &fence);
		out->commit_ns = now_ns() - t1;
	}
	for (size_t i = 0; i < cand.count; i++) {
		kms_fb_unref(k->fbs[i]);	/* the device holds what is on screen */
	}
	if (ret < 0) {
		forget(k);	/* a refused configuration is not to be reused untested */
		return ret;
	}
	if (k->present_fence >= 0) {
		close(k->present_fence);
	}
	k->present_fence = fence;
	if (present_fence && fence >= 0) {
		*present_fence = fcntl(fence, F_DUPFD_CLOEXEC, 0);
	}
	if (frame->wait && fence >= 0 && wait_fence(fence, READBACK_TIMEOUT_MS) == 0) {
		out->present_ns = now_ns() - t1;
	}
	if (!k->readback) {
		return 0;
	}
	ret = kms_readback_finish(k->readback, READBACK_TIMEOUT_MS, want_image, &rb);
	if (ret < 0) {
		return ret;
	}
	out->has_checksum = true;
	out->checksum = rb.checksum;
	out->checksum_source = "writeback";
	if (want_image && rb.pixels) {
		out->image = (struct comp_target){ .fourcc = rb.fourcc, .width = rb.width, .height = rb.height,
			.stride = rb.stride, .data = rb.pixels };
		rb.pixels = NULL;
	}
	kms_readback_result_finish(&rb);
	return 0;
}

static int kms_present(struct backend *b, const struct scene *scene, bool want_image,
	struct backend_result *out)
{
	int64_t t0 = now_ns();
	struct backend_kms_frame frame = { .client_target_fence = -1, .wait = true };
	int ret = backend_kms_plan(b, scene, &out->plan);

	out->plan_ns = now_ns() - t0;
	if (ret < 0) {
		return ret;
	}
	frame.plan = out->plan;
	return backend_kms_show(b, scene, &frame, want_image, out, NULL);
}

int backend_kms_disable(struct backend *b)
{
	struct kms_backend *k = kms_from_backend(b);
	int ret;

	if (!k) {
		return -EINVAL;
	}
	forget(k);
	ret = kms_commit_disable(k->dev);
	if (ret == 0 && k->present_fence >= 0) {
		close(k->present_fence);
		k->present_fence = -1;
	}
	return ret;
}

static void kms_destroy(struct backend *b)
{
	struct kms_backend *k = kms_from_backend(b);

	if (k->present_fence >= 0) {
		wait_fence(k->present_fence, READBACK_TIMEOUT_MS);
		close(k->present_fence);
	}
	forget(k);	/* framebuffers go before the device */
	for (size_t i = 0; i < CLIENT_TARGETS; i++) {
		kms_fb_unref(k->targets[i]);
	}
	kms_readback_destroy(k->readback);
	kms_tester_destroy(k->tester);
	kms_fb_cache_destroy(k->cache);
	kms_device_destroy(k->dev);
	free(k->fbs);
	free(k->client);
	free(k->last_sig);
	free(k->kept);
	free(k->kept_keys);
	free(k);
}

static const struct backend_impl kms_impl = {
	.name = "kms",
	.present = kms_present,
	.destroy = kms_destroy,
};

struct backend *backend_kms_create(const struct backend_kms_options *o, struct hwct_error *err)
{
	struct kms_backend *k = calloc(1, sizeof(*k));
	struct hwct_error rb_err;

	if (!k) {
		hwct_error_set(err, -ENOMEM, "kms", UINT64_MAX, "out of memory");
		return NULL;
	}
	k->base.impl = &kms_impl;
	k->present_fence = -1;
	k->planner = o->planner;
	k->compositor = o->compositor;
	k->reuse = o->reuse_plans;
	if (o->planner_opts) {
		k->opts = *o->planner_opts;
	} else {
		planner_options_init(&k->opts);
	}
	k->dev = kms_device_open(o->path, err);
	if (!k->dev) {
		goto error;
	}
	if (o->width && o->height && kms_device_set_mode(k->dev, o->width, o->height, o->refresh_hz, err) < 0) {
		goto error;
	}
	k->board = kms_device_board(k->dev);
	k->cache = kms_fb_cache_create(FB_CACHE_SIZE);
	k->tester = k->cache ? kms_tester_create(k->dev, k->cache) : NULL;
	if (!k->tester) {
		hwct_error_set(err, -ENOMEM, kms_device_path(k->dev), UINT64_MAX, "out of memory");
		goto error;
	}
	if (o->readback) {
		k->readback = kms_readback_create(k->dev, &rb_err);	/* none: no checksum, said in the results */
	}
	return &k->base;

error:
	kms_destroy(&k->base);
	return NULL;
}

const struct board *backend_kms_board(struct backend *b)
{
	struct kms_backend *k = kms_from_backend(b);

	return k ? k->board : NULL;
}

struct kms_device *backend_kms_device(struct backend *b)
{
	struct kms_backend *k = kms_from_backend(b);

	return k ? k->dev : NULL;
}

struct kms_fb_cache *backend_kms_fb_cache(struct backend *b)
{
	struct kms_backend *k = kms_from_backend(b);

	return k ? k->cache : NULL;
}

struct backend_kms_stats backend_kms_get_stats(struct backend *b)
{
	struct kms_backend *k = kms_from_backend(b);
	struct backend_kms_stats none = { 0 };

	return k ? k->stats : none;
}
