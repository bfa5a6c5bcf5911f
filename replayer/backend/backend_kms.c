/*
 * The KMS backend: the planner decides with TEST_ONLY commits on the real
 * device (or the previous plan is reused), client layers are composed into
 * a client-target framebuffer (or the caller brings one), the accepted
 * configuration is committed with the layers' acquire fences, and the
 * writeback connector reads the frame back for its checksum.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>

#include "backend_kms.h"
#include "backend_kms_reuse.h"
#include "commit.h"
#include "device.h"
#include "fb.h"
#include "fence_wait.h"
#include "fourcc.h"
#include "readback.h"

#define CLIENT_TARGETS 3	/* rotated, so that composing never writes the buffer on screen */
#define FB_CACHE_SIZE 64
/*
 * How long a frame's present fence and writeback may take before the replay
 * reports the driver hung. Generous: a guest under TCG on a loaded host took
 * over 2 s for one writeback (vm-kernels, "Timer expired"); a working device
 * takes a frame, so only a real hang ever waits this long.
 */
#define READBACK_TIMEOUT_MS 10000

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
	struct backend_kms_reuse reuse;	/* backend_kms_options.reuse_plans */
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
		const struct scene_layer *l = &scene->layers[i];

		/* without pixels (hwc-replay --no-pixels) a layer has no data: nothing to draw */
		if ((!plan || plan->layers[i].plane_id == 0) && (!l->image || l->image->data)) {
			k->client[count++] = l;
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

int backend_kms_plan(struct backend *b, const struct scene *scene, struct plan **out)
{
	struct kms_backend *k = kms_from_backend(b);
	struct board_tester tester;
	unsigned refused = 0;
	int ret;

	*out = NULL;
	if (!k || !scene) {
		return -EINVAL;
	}
	k->reuse.stats.plans++;
	kms_tester_set_scene(k->tester, scene);
	tester = kms_tester_board_tester(k->tester);
	ret = backend_kms_reuse_plan(&k->reuse, scene, &tester, out, &refused);
	if (ret < 0) {
		return ret;
	}
	if (*out) {
		/* same layer count: only the content hashes change, nothing to allocate */
		backend_kms_reuse_remember(&k->reuse, scene, k->reuse.plan);
		return 0;
	}
	ret = planner_run(k->planner, &k->opts, k->board, scene, &tester, out);
	if (ret < 0) {
		return ret;
	}
	(*out)->test_count += refused;
	if ((k->opts.flags & PLANNER_DRMHWC_NO_CLIENT_TARGET) && (*out)->needs_client_target) {
		/* from now on the display has a client target: plans made without one do not hold */
		k->opts.flags &= ~PLANNER_DRMHWC_NO_CLIENT_TARGET;
		backend_kms_reuse_forget(&k->reuse);
		return 0;
	}
	if (k->reuse.enabled && backend_kms_reuse_remember(&k->reuse, scene, *out) < 0) {
		backend_kms_reuse_forget(&k->reuse);	/* out of memory: no reuse next time */
	}
	return 0;
}

static int import_layers(struct kms_backend *k, const struct scene *scene, const struct plan_candidate *cand,
	struct backend_result *out)
{
	unsigned fallbacks = 0;
	int ret = grow((void **)&k->fbs, &k->fb_cap, cand->count + 1, sizeof(*k->fbs));

	if (ret < 0) {
		return ret;
	}
	if (backend_kms_reuse_take_fbs(&k->reuse, cand, k->fbs, &fallbacks)) {
		out->format_fallbacks += fallbacks;
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
	backend_kms_reuse_keep_fbs(&k->reuse, cand, k->fbs, fallbacks);
	return 0;
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
		backend_kms_reuse_forget(&k->reuse);	/* a refused configuration is not to be reused */
		return ret;
	}
	if (k->present_fence >= 0) {
		close(k->present_fence);
	}
	k->present_fence = fence;
	if (present_fence && fence >= 0) {
		*present_fence = fcntl(fence, F_DUPFD_CLOEXEC, 0);
	}
	if (frame->wait && fence >= 0 && hwct_fence_wait(fence, READBACK_TIMEOUT_MS) == 0) {
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
	backend_kms_reuse_forget(&k->reuse);
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
		hwct_fence_wait(k->present_fence, READBACK_TIMEOUT_MS);
		close(k->present_fence);
	}
	backend_kms_reuse_finish(&k->reuse);	/* framebuffers go before the device */
	for (size_t i = 0; i < CLIENT_TARGETS; i++) {
		kms_fb_unref(k->targets[i]);
	}
	kms_readback_destroy(k->readback);
	kms_tester_destroy(k->tester);
	kms_fb_cache_destroy(k->cache);
	kms_device_destroy(k->dev);
	free(k->fbs);
	free(k->client);
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
	k->reuse.enabled = o->reuse_plans;
	if (o->planner_opts) {
		k->opts = *o->planner_opts;
	} else {
		planner_options_init(&k->opts);
	}
	k->dev = o->output ? kms_device_open_output(o->path, o->output, err) : kms_device_open(o->path, err);
	if (!k->dev) {
		goto error;
	}
	if (o->width && o->height && kms_device_set_mode(k->dev, o->width, o->height, o->refresh_hz, err) < 0) {
		goto error;
	}
	if (k->compositor && !o->yuv_model_asked && strcmp(kms_device_driver(k->dev), "vkms") == 0) {
		compositor_set_yuv_model(k->compositor, COMP_YUV_VKMS);	/* -ENOTSUP for gl: kept */
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

uint64_t backend_kms_readback_kicks(struct backend *b)
{
	struct kms_backend *k = kms_from_backend(b);

	return k && k->readback ? kms_readback_kicks(k->readback) : 0;
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

	return k ? k->reuse.stats : none;
}
