/* The hwc2 backend's frame (backend_hwc2.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hwct/hwc2_names.h>

#include "backend_hwc2_private.h"
#include "compositor.h"
#include "fence_wait.h"
#include "fourcc.h"

#define POOL_AGE_FRAMES 120	/* an unused buffer is freed after this many presents */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void hwc2_note(struct hwc2_backend *h, const char *fmt, ...)
{
	va_list args;

	if (h->note[0]) {
		return;
	}
	va_start(args, fmt);
	vsnprintf(h->note, sizeof(h->note), fmt, args);
	va_end(args);
}

int32_t hwc2_checked(struct hwc2_backend *h, int32_t ret, const char *what, uint64_t layer)
{
	const char *name;

	backend_watch_leave();
	if (ret == HWC2_ERROR_NONE) {
		return ret;
	}
	h->counters.call_errors++;
	name = ret < 0 ? strerror(-ret) : hwct_hwc2_error_name(ret);
	if (layer == UINT64_MAX) {
		hwc2_note(h, "%s returned %s", what, name ? name : "an unknown error");
	} else {
		hwc2_note(h, "%s(layer %" PRIu64 ") returned %s", what, layer, name ? name : "an unknown error");
	}
	return ret;
}

static struct hwc2_backend *from_base(struct backend *b)
{
	return (struct hwc2_backend *)(void *)b;
}

/* (Re)allocates img at width x height of fourcc. Returns 0 or -ENOMEM. */
static int cpu_image(struct comp_target *img, uint32_t fourcc, uint32_t width, uint32_t height)
{
	if (img->data && img->width == width && img->height == height && img->fourcc == fourcc) {
		return 0;
	}
	free(img->data);
	*img = (struct comp_target){ .fourcc = fourcc, .width = width, .height = height, .stride = width * 4 };
	img->data = malloc((size_t)img->stride * height);
	return img->data ? 0 : -ENOMEM;
}

/*
 * A two-call query as the HIDL passthrough HAL makes it: the count, then
 * (always, even for none) the arrays. Returns the count filled, 0 on an
 * error; *ids and *values are malloc'd (free) or NULL.
 */
static uint32_t two_call(struct hwc2_backend *h,
	int32_t (*query)(struct hwc2_backend *h, uint32_t *n, hwc2_layer_t *ids, int32_t *values),
	hwc2_layer_t **ids, int32_t **values)
{
	uint32_t n = 0;

	*ids = NULL;
	*values = NULL;
	if (query(h, &n, NULL, NULL) != HWC2_ERROR_NONE) {
		return 0;
	}
	*ids = calloc(n ? n : 1, sizeof(**ids));
	*values = calloc(n ? n : 1, sizeof(**values));
	if (!*ids || !*values || query(h, &n, *ids, *values) != HWC2_ERROR_NONE) {
		return 0;
	}
	return n;
}

static int32_t changed_types(struct hwc2_backend *h, uint32_t *n, hwc2_layer_t *ids, int32_t *values)
{
	return HWC2_FN(&h->module, get_changed_composition_types)(h->module.dev, h->module.display, n, ids, values);
}

static int32_t layer_requests(struct hwc2_backend *h, uint32_t *n, hwc2_layer_t *ids, int32_t *values)
{
	return HWC2_FN(&h->module, get_display_requests)(h->module.dev, h->module.display, &h->display_requests, n, ids,
		values);
}

static int32_t release_fences(struct hwc2_backend *h, uint32_t *n, hwc2_layer_t *ids, int32_t *values)
{
	return HWC2_FN(&h->module, get_release_fences)(h->module.dev, h->module.display, n, ids, values);
}

/* The module layer of id, or NULL. */
static struct hwc2_layer *by_module_id(struct hwc2_backend *h, hwc2_layer_t id)
{
	for (size_t k = 0; k < h->layer_count; k++) {
		if (h->layers[k].id == id) {
			return &h->layers[k];
		}
	}
	return NULL;
}

/*
 * validateDisplay, then the changed types and the requests (two-call
 * pattern), then acceptDisplayChanges. Sets every layer's final type.
 */
static void validate(struct hwc2_backend *h, const struct scene *scene)
{
	struct hwc2_module *m = &h->module;
	uint32_t types = 0, requests = 0, n;
	hwc2_layer_t *ids;
	int32_t *values;
	int32_t ret;

	for (size_t i = 0; i < scene->layer_count; i++) {
		struct hwc2_layer *l = hwc2_layers_find(h, scene->layers[i].id);

		if (l) {
			l->final = scene->layers[i].composition;
			l->request = 0;
		}
	}
	ret = HWC2_FN(m, validate_display)(m->dev, m->display, &types, &requests);
	if (ret != HWC2_ERROR_HAS_CHANGES) {
		hwc2_checked(h, ret, "validateDisplay", UINT64_MAX);
	}
	h->display_requests = 0;
	if (ret != HWC2_ERROR_NONE && ret != HWC2_ERROR_HAS_CHANGES) {
		return;	/* nothing validated: the layers keep the types sent */
	}
	n = two_call(h, changed_types, &ids, &values);
	for (uint32_t i = 0; i < n; i++) {
		struct hwc2_layer *l = by_module_id(h, ids[i]);

		if (l) {
			l->final = values[i];
			h->counters.changed_types++;
		}
	}
	free(ids);
	free(values);
	n = two_call(h, layer_requests, &ids, &values);
	for (uint32_t i = 0; i < n; i++) {
		struct hwc2_layer *l = by_module_id(h, ids[i]);

		if (l) {
			l->request = values[i];
		}
	}
	free(ids);
	free(values);
	hwc2_checked(h, HWC2_FN(m, accept_display_changes)(m->dev, m->display), "acceptDisplayChanges", UINT64_MAX);
	for (size_t k = 0; k < h->layer_count; k++) {
		h->layers[k].device_type = h->layers[k].final;
	}
}

/* The plan: the module's type per layer, reasons for CLIENT ones, differences from the recording. */
static struct plan *make_plan(struct hwc2_backend *h, const struct scene *scene, uint32_t *differ)
{
	struct plan *p = calloc(1, sizeof(*p));

	*differ = 0;
	if (!p || !(p->layers = calloc(scene->layer_count ? scene->layer_count : 1, sizeof(*p->layers)))) {
		free(p);
		return NULL;
	}
	p->planner = "hwc2";
	p->layer_count = scene->layer_count;
	for (size_t i = 0; i < scene->layer_count; i++) {
		const struct scene_layer *s = &scene->layers[i];
		const struct hwc2_layer *l = hwc2_layers_find(h, s->id);
		struct plan_layer *pl = &p->layers[i];

		pl->composition = l ? l->final : HWC2_COMPOSITION_CLIENT;
		if (pl->composition == HWC2_COMPOSITION_CLIENT) {
			p->needs_client_target = true;
			pl->reasons = s->composition == HWC2_COMPOSITION_CLIENT ? PLAN_REASON_CLIENT_REQUESTED :
				PLAN_REASON_MODULE;
		}
		if (s->recorded && s->recorded->final != HWC2_COMPOSITION_INVALID && s->recorded->final != pl->composition) {
			const char *was = hwct_hwc2_composition_name(s->recorded->final);
			const char *now = hwct_hwc2_composition_name(pl->composition);

			if (!*differ) {
				hwc2_note(h, "layer %" PRIu64 ": the module chose %s, the recording %s", s->id,
					now ? now : "?", was ? was : "?");
			}
			(*differ)++;
		}
	}
	return p;
}

/* setClientTarget(t) with damage (NULL or no rects: all of it). Returns 0 or -ENOMEM. */
static int set_client_target(struct hwc2_backend *h, struct hwc2_buffer *t, int32_t dataspace,
	const struct hwct_region *damage)
{
	struct hwc2_module *m = &h->module;
	size_t n = damage ? damage->count : 0;
	hwc_rect_t *rects = calloc(n ? n : 1, sizeof(*rects));

	if (!rects) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct hwct_rect *r = &damage->rects[i];

		rects[i] = (hwc_rect_t){ r->left, r->top, r->right, r->bottom };
	}
	hwc2_checked(h, HWC2_FN(m, set_client_target)(m->dev, m->display, t->handle, -1, dataspace,
		(hwc_region_t){ .numRects = n, .rects = rects }), "setClientTarget", UINT64_MAX);
	free(rects);
	return 0;
}

/*
 * Composes the CLIENT layers into the next client target and sets it with
 * the recorded dataspace and damage (sRGB and all of it when none was
 * recorded). Returns 0 or -errno.
 */
static int client_target(struct hwc2_backend *h, const struct scene *scene, const struct plan *plan,
	int64_t *compose_ns)
{
	const struct hwct_frame *f = scene->recorded;
	int32_t dataspace = f && f->has_client_target ? f->client_target_dataspace : HAL_DATASPACE_V0_SRGB;
	struct hwc2_module *m = &h->module;
	const struct scene_layer **layers;
	struct hwc2_buffer *t = &h->targets[h->next_target];
	size_t n = 0;
	int64_t start = now_ns();
	int ret = 0;

	if (!t->handle) {
		ret = hwc2_buffer_create(&h->alloc, h->target_fourcc, m->width, m->height, t);
		if (ret < 0) {
			return ret;
		}
	}
	layers = malloc((scene->layer_count ? scene->layer_count : 1) * sizeof(*layers));
	if (!layers) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		if (plan_layer_is_client(&plan->layers[i])) {
			layers[n++] = &scene->layers[i];
		}
	}
	if (h->compositor) {
		ret = cpu_image(&h->client, h->target_fourcc, m->width, m->height);
		ret = ret ? ret : compositor_compose(h->compositor, scene, layers, n, 0, &h->client);
		ret = ret ? ret : hwc2_buffer_write_target(t, &h->client);
	} else {
		hwc2_buffer_wait_release(t);
	}
	free(layers);
	*compose_ns = now_ns() - start;
	if (ret < 0) {
		return ret;
	}
	ret = set_client_target(h, t, dataspace, f && f->has_client_target ? &f->client_target_damage : NULL);
	if (ret < 0) {
		return ret;
	}
	t->last_frame = h->frames;
	h->next_target = (h->next_target + 1) % (sizeof(h->targets) / sizeof(h->targets[0]));
	return 0;
}

/* Gives each layer's release fence to the buffer it releases. */
static void take_release_fences(struct hwc2_backend *h)
{
	hwc2_layer_t *ids;
	int32_t *fences;
	uint32_t n = two_call(h, release_fences, &ids, &fences);

	for (uint32_t i = 0; i < n; i++) {
		struct hwc2_layer *l = by_module_id(h, ids[i]);
		struct hwc2_buffer *b = l ? (l->previous ? l->previous : l->buffer) : NULL;

		if (b) {
			hwc2_buffer_set_release(b, fences[i]);
		} else if (fences[i] >= 0) {
			close(fences[i]);
		}
	}
	free(ids);
	free(fences);
}

/* The output's checksum (and image) as backend_hwc2.h says. Returns 0 or -errno. */
static int checksum(struct hwc2_backend *h, const struct scene *scene, const struct plan *plan, bool want_image,
	struct backend_result *out)
{
	bool all_client = true;
	int ret;

	if (h->readback) {
		struct hwct_hwc2_kms_frame f = { 0 };

		if (h->module.last_frame(h->module.dev, want_image, &f) == 0) {
			out->has_checksum = true;
			out->checksum.high = 0;
			out->checksum.low = 0;
			for (int i = 0; i < 8; i++) {
				out->checksum.high = out->checksum.high << 8 | f.checksum[i];
				out->checksum.low = out->checksum.low << 8 | f.checksum[8 + i];
			}
			out->checksum_source = "writeback";
			if (f.pixels) {
				out->image = (struct comp_target){ .fourcc = f.fourcc, .width = f.width, .height = f.height,
					.stride = f.stride, .data = f.pixels };
			}
			return 0;
		}
	}
	if (!h->compositor) {
		return 0;
	}
	for (size_t i = 0; i < plan->layer_count; i++) {
		all_client = all_client && plan_layer_is_client(&plan->layers[i]);
	}
	if (all_client && h->client.data && plan->needs_client_target) {
		out->checksum = scene_frame_checksum(DRM_FORMAT_XRGB8888, h->client.width, h->client.height,
			h->client.stride, h->client.data);
		out->checksum_source = "client-target";
	} else {
		const struct scene_layer **layers = malloc((scene->layer_count ? scene->layer_count : 1) * sizeof(*layers));

		if (!layers) {
			return -ENOMEM;
		}
		for (size_t i = 0; i < scene->layer_count; i++) {
			layers[i] = &scene->layers[i];
		}
		ret = cpu_image(&h->reference, DRM_FORMAT_XRGB8888, scene->width, scene->height);
		ret = ret ? ret : compositor_compose(h->compositor, scene, layers, scene->layer_count, 0, &h->reference);
		free(layers);
		if (ret < 0) {
			return ret;
		}
		out->checksum = backend_checksum(&h->reference);
		out->checksum_source = "reference";
	}
	out->has_checksum = true;
	if (want_image) {
		const struct comp_target *src = strcmp(out->checksum_source, "reference") ? &h->client : &h->reference;

		out->image = *src;
		out->image.fourcc = DRM_FORMAT_XRGB8888;
		out->image.data = malloc((size_t)src->stride * src->height);
		if (!out->image.data) {
			return -ENOMEM;
		}
		memcpy(out->image.data, src->data, (size_t)src->stride * src->height);
	}
	return 0;
}

/*
 * Waits for the previous frame's present fence when its wait was deferred,
 * once this frame is presented (SurfaceFlinger too lets one frame be in
 * flight); not after a present that failed, which replaced nothing on
 * screen.
 */
static void wait_pending_present(struct hwc2_backend *h)
{
	if (h->pending_present < 0) {
		return;
	}
	if (hwct_fence_wait(h->pending_present, HWC2_FENCE_WAIT_MS) != 0) {
		hwc2_note(h, "the previous present fence did not signal in %d ms", HWC2_FENCE_WAIT_MS);
	}
	close(h->pending_present);
	h->pending_present = -1;
}

/*
 * Takes fence (the present fence of the present started at t): waited for
 * now (two vsync periods at most), else from now on before the next
 * present. Returns the present time, or -1 unknown.
 */
static int64_t wait_present(struct hwc2_backend *h, int fence, int64_t t)
{
	int64_t period = h->module.vsync_period_ns > 0 ? h->module.vsync_period_ns : 16666667;
	int64_t done = -1;

	if (fence < 0) {
		return -1;
	}
	if (!h->defer_present) {
		if (hwct_fence_wait(fence, (int)(2 * period / 1000000) + 1) == 0) {
			done = now_ns() - t;
			close(fence);
			return done;
		}
		h->defer_present = true;
		hwc2_note(h, "present fences signal later than two vsync periods (at the next present?): "
			"each is waited for after the next present from now on");
	}
	h->pending_present = fence;
	return done;
}

static int hwc2_present(struct backend *base, const struct scene *scene, bool want_image,
	struct backend_result *out)
{
	struct hwc2_backend *h = from_base(base);
	struct hwc2_module *m = &h->module;
	struct hwc2_counters before = h->counters;
	int32_t fence = -1;
	int64_t start = now_ns(), t;
	bool presented;
	struct plan *plan;
	int ret;

	out->plan_ns = out->compose_ns = out->commit_ns = out->present_ns = -1;
	ret = hwc2_layers_sync(h, scene);
	if (ret < 0) {
		return ret;
	}
	validate(h, scene);
	backend_watch_leave();
	plan = make_plan(h, scene, &out->decisions_differ);
	if (!plan) {
		return -ENOMEM;
	}
	out->plan = plan;
	out->plan_ns = now_ns() - start;
	out->efficiency = backend_efficiency(scene, plan);
	if (plan->needs_client_target) {
		ret = client_target(h, scene, plan, &out->compose_ns);
		if (ret < 0) {
			return ret;
		}
	}
	t = now_ns();
	presented = hwc2_checked(h, HWC2_FN(m, present_display)(m->dev, m->display, &fence), "presentDisplay",
		UINT64_MAX) == HWC2_ERROR_NONE;
	if (presented) {
		/* before this present's fences are taken: the earlier ones can signal now */
		hwc2_pool_presented(&h->pool);
		for (size_t i = 0; i < sizeof(h->targets) / sizeof(h->targets[0]); i++) {
			hwc2_buffer_presented(&h->targets[i]);
		}
	}
	out->commit_ns = now_ns() - t;
	take_release_fences(h);
	backend_watch_leave();
	if (presented) {
		wait_pending_present(h);	/* else it signals at the next present that succeeds */
	} else if (fence >= 0) {
		close(fence);	/* no fence comes with an error (a module may set one all the same) */
		fence = -1;
	}
	out->present_ns = wait_present(h, fence, t);
	h->frames++;
	hwc2_pool_trim(&h->pool, h->frames, POOL_AGE_FRAMES);
	ret = checksum(h, scene, plan, want_image, out);
	out->call_errors = (uint32_t)(h->counters.call_errors - before.call_errors);
	h->counters.decisions_differ += out->decisions_differ;
	snprintf(out->note, sizeof(out->note), "%s", h->note);
	h->note[0] = '\0';
	return ret;
}

/* Ended sessions whose device Android would leave open (hwc2_destroy). */
static struct hwc2_backend *left_open;

static void hwc2_destroy(struct backend *base)
{
	struct hwc2_backend *h = from_base(base);

	bool android = h->module.ready && !h->end_close;	/* a module that failed to open is closed */

	if (android) {
		hwc2_end_android(h);	/* may wait for pending_present */
	} else if (h->module.dev) {
		hwc2_layers_clear(h);
	}
	if (h->pending_present >= 0) {
		close(h->pending_present);
	}
	for (size_t i = 0; i < sizeof(h->targets) / sizeof(h->targets[0]); i++) {
		if (h->targets[i].handle) {
			hwc2_buffer_destroy(&h->targets[i]);
		}
	}
	hwc2_pool_finish(&h->pool);
	hwc2_alloc_close(&h->alloc);
	free(h->layers);
	free(h->client.data);
	free(h->reference.data);
	if (android) {
		/*
		 * The device stays open and its module loaded, as Android leaves
		 * them; a callback already under way may still touch the module
		 * record, so h is kept (reachable: no leak) until the process ends.
		 */
		h->left_open = left_open;
		left_open = h;
		return;
	}
	hwc2_module_close(&h->module);
	free(h);
}

static const struct backend_impl hwc2_impl = {
	.name = "hwc2",
	.present = hwc2_present,
	.destroy = hwc2_destroy,
};

/* The client target's format: SurfaceFlinger's RGBA_8888 unless the module wants BGRA_8888. */
static void choose_target_format(struct hwc2_backend *h)
{
	struct hwc2_module *m = &h->module;

	h->target_fourcc = DRM_FORMAT_ABGR8888;
	h->target_hal_format = HAL_PIXEL_FORMAT_RGBA_8888;
	if (m->fn.get_client_target_support &&
		HWC2_FN(m, get_client_target_support)(m->dev, m->display, m->width, m->height, HAL_PIXEL_FORMAT_BGRA_8888,
			HAL_DATASPACE_UNKNOWN) == HWC2_ERROR_NONE) {
		h->target_fourcc = DRM_FORMAT_ARGB8888;	/* scans out on more planes (vkms has no ABGR) */
		h->target_hal_format = HAL_PIXEL_FORMAT_BGRA_8888;
	}
}

struct backend *backend_hwc2_create(const struct backend_hwc2_options *opts, struct hwct_error *err)
{
	struct hwc2_backend *h = calloc(1, sizeof(*h));
	int ret;

	if (!h) {
		hwct_error_set(err, -ENOMEM, opts->module, UINT64_MAX, "out of memory");
		return NULL;
	}
	h->base.impl = &hwc2_impl;
	h->compositor = opts->compositor;
	h->pending_present = -1;
	for (size_t i = 0; i < sizeof(h->targets) / sizeof(h->targets[0]); i++) {
		h->targets[i] = (struct hwc2_buffer){ .fd = -1, .release_fence = -1 };
	}
	hwc2_alloc_open(&h->alloc, opts->alloc_node);
	if (h->compositor && !opts->yuv_model_asked && hwc2_alloc_is_vkms(&h->alloc)) {
		compositor_set_yuv_model(h->compositor, COMP_YUV_VKMS);	/* -ENOTSUP for gl: kept */
	}
	if (opts->readback && !getenv("HWCT_KMS_READBACK")) {
		setenv("HWCT_KMS_READBACK", "1", 0);	/* read by hwcomposer.kms.so's open */
	}
	ret = hwc2_module_open(&h->module, opts->module, err);
	if (ret < 0) {
		hwc2_destroy(&h->base);
		return NULL;
	}
	h->readback = opts->readback && h->module.last_frame;
	h->end_close = opts->end_close;
	choose_target_format(h);
	hwc2_module_power_on(&h->module);
	return &h->base;
}

struct backend *backend_hwc2_create_display(struct backend *first, size_t index, const char *path,
	struct hwct_error *err)
{
	struct hwc2_backend *owner = from_base(first);
	struct hwc2_backend *h = calloc(1, sizeof(*h));
	int ret;

	if (!h) {
		hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
		return NULL;
	}
	h->base.impl = &hwc2_impl;
	h->compositor = owner->compositor;
	h->pending_present = -1;
	for (size_t i = 0; i < sizeof(h->targets) / sizeof(h->targets[0]); i++) {
		h->targets[i] = (struct hwc2_buffer){ .fd = -1, .release_fence = -1 };
	}
	hwc2_alloc_open(&h->alloc, NULL);
	ret = hwc2_module_open_display(&h->module, &owner->module, index, path, err);
	if (ret < 0) {
		hwc2_destroy(&h->base);
		return NULL;
	}
	h->end_close = owner->end_close;
	choose_target_format(h);
	hwc2_module_power_on(&h->module);
	return &h->base;
}

void backend_hwc2_mode(const struct backend *b, uint32_t *width, uint32_t *height, int64_t *vsync_period_ns)
{
	const struct hwc2_backend *h = (const struct hwc2_backend *)(const void *)b;

	*width = h->module.width;
	*height = h->module.height;
	*vsync_period_ns = h->module.vsync_period_ns;
}

const char *backend_hwc2_allocator(const struct backend *b)
{
	return hwc2_alloc_name(&((const struct hwc2_backend *)(const void *)b)->alloc);
}
