/*
 * validateDisplay and its follow-ups (§1.7 step 3): the layers become a
 * scene (ascending z), the backend plans it with TEST_ONLY commits on the
 * device (or reuses the last plan), and the plan's verdict becomes the
 * composition types, as drm_hwcomposer's ValidateDisplay does (§2.2):
 * a layer on a plane is DEVICE (CURSOR on a plane too becomes DEVICE), any
 * other is CLIENT (SOLID_COLOR included: no plane fills colour). A
 * non-identity color transform (display or layer) leaves the layers it
 * touches to the client. No display or layer requests are made (the
 * client target is always composed onto transparent black).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/log.h>

#include "fence_wait.h"
#include "hwc2_private.h"

void hwc2_kms_invalidate(struct hwc2_kms_device *d)
{
	d->validated = false;
}

static int grow_scene(struct hwc2_kms_device *d, size_t n)
{
	struct scene_layer *layers;
	struct scene_image *images;
	struct hwc2_kms_layer **src;

	if (n <= d->scene_cap) {
		return 0;
	}
	layers = realloc(d->scene_layers, n * sizeof(*layers));
	if (layers) {
		d->scene_layers = layers;
	}
	images = realloc(d->scene_images, n * sizeof(*images));
	if (images) {
		d->scene_images = images;
	}
	src = realloc(d->scene_src, n * sizeof(*src));
	if (src) {
		d->scene_src = src;
	}
	if (!layers || !images || !src) {
		return -ENOMEM;
	}
	d->scene_cap = n;
	return 0;
}

static int by_z(const void *a, const void *b)
{
	const struct hwc2_kms_layer *x = *(struct hwc2_kms_layer *const *)a;
	const struct hwc2_kms_layer *y = *(struct hwc2_kms_layer *const *)b;

	if (x->z != y->z) {
		return x->z < y->z ? -1 : 1;
	}
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The layers as a scene, ascending z; the client composes what a color transform touches. */
static int build_scene(struct hwc2_kms_device *d)
{
	int ret = grow_scene(d, d->layer_count + 1);

	if (ret < 0) {
		return ret;
	}
	if (d->layer_count > 0) {	/* before the first createLayer, d->layers is NULL */
		memcpy(d->scene_src, d->layers, d->layer_count * sizeof(*d->scene_src));
		qsort(d->scene_src, d->layer_count, sizeof(*d->scene_src), by_z);
	}
	for (size_t i = 0; i < d->layer_count; i++) {
		struct hwc2_kms_layer *l = d->scene_src[i];
		struct scene_image *img = &d->scene_images[i];
		int32_t type = l->requested;

		if (!d->ctm_identity || l->color_transform) {
			type = HWC2_COMPOSITION_CLIENT;
		}
		if (l->buffer) {
			*img = l->buffer->image;
			hwc2_kms_buffer_register(d, l->buffer);
		}
		d->scene_layers[i] = (struct scene_layer){ .id = l->id, .z = (int32_t)l->z,
			.composition = type, .image = l->buffer ? img : NULL, .crop = l->crop,
			.frame = l->frame, .transform = l->transform, .blend = l->blend,
			.alpha = l->alpha, .color = l->color, .acquire_fence = l->acquire_fence };
	}
	d->scene = (struct scene){ .width = d->width, .height = d->height,
		.layers = d->scene_layers, .layer_count = d->layer_count };
	return 0;
}

/*
 * Waits for the acquire fences of the layers whose pixels the CPU may read
 * (format conversions), then starts (begin) or ends the reads.
 */
static void cpu_access(struct hwc2_kms_device *d, bool begin)
{
	for (size_t i = 0; i < d->scene.layer_count; i++) {
		struct hwc2_kms_layer *l = d->scene_src[i];

		if (!l->buffer || !hwc2_kms_buffer_needs_cpu(d, l->buffer, l->blend)) {
			continue;
		}
		if (begin) {
			if (hwct_fence_wait(l->acquire_fence, HWC2_KMS_FENCE_WAIT_MS) < 0) {
				hwct_log(HWCT_LOG_WARNING, "hwcomposer.kms: layer %llu: acquire fence "
					"not signalled after %d ms; reading anyway",
					(unsigned long long)l->id, HWC2_KMS_FENCE_WAIT_MS);
			}
			hwc2_kms_buffer_begin_cpu(l->buffer);
		} else {
			hwc2_kms_buffer_end_cpu(l->buffer);
		}
	}
}

/* All layers to the client: what a failed plan leaves. Returns NULL when out of memory. */
static struct plan *all_client_plan(size_t count)
{
	struct plan *p = calloc(1, sizeof(*p));

	if (!p) {
		return NULL;
	}
	p->planner = "none";
	p->layer_count = count;
	p->layers = calloc(count ? count : 1, sizeof(*p->layers));
	if (!p->layers) {
		free(p);
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		p->layers[i].reasons = PLAN_REASON_TEST_FAILED;
	}
	p->needs_client_target = count > 0;
	return p;
}

static int32_t validate_display(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_num_types, uint32_t *out_num_requests)
{
	struct hwc2_kms_device *d;
	uint32_t changes = 0;
	int32_t ret = hwc2_kms_enter(device, display, &d);
	int err;

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_num_types || !out_num_requests) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	d->validated = false;
	plan_destroy(d->plan);
	d->plan = NULL;
	if (build_scene(d) < 0) {
		return hwc2_kms_leave(d, HWC2_ERROR_NO_RESOURCES);
	}
	d->stats.validates++;
	cpu_access(d, true);
	err = backend_kms_plan(d->backend, &d->scene, &d->plan);
	cpu_access(d, false);
	if (err < 0) {
		hwct_log(HWCT_LOG_WARNING, "hwcomposer.kms: planning failed (%s): all layers to the client",
			strerror(-err));
		d->plan = all_client_plan(d->scene.layer_count);
		if (!d->plan) {
			return hwc2_kms_leave(d, HWC2_ERROR_NO_RESOURCES);
		}
	}
	d->stats.test_commits += d->plan->test_count;
	for (size_t i = 0; i < d->scene.layer_count; i++) {
		struct hwc2_kms_layer *l = d->scene_src[i];

		l->validated = d->plan->layers[i].plane_id ? HWC2_COMPOSITION_DEVICE : HWC2_COMPOSITION_CLIENT;
		changes += l->validated != l->requested;
	}
	d->validated = true;
	*out_num_types = changes;
	*out_num_requests = 0;
	return hwc2_kms_leave(d, changes ? HWC2_ERROR_HAS_CHANGES : HWC2_ERROR_NONE);
}

static int32_t get_changed_composition_types(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_count, hwc2_layer_t *out_layers, int32_t *out_types)
{
	struct hwc2_kms_device *d;
	uint32_t n = 0;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_count) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (!d->validated) {
		return hwc2_kms_leave(d, HWC2_ERROR_NOT_VALIDATED);
	}
	for (size_t i = 0; i < d->scene.layer_count; i++) {
		const struct hwc2_kms_layer *l = d->scene_src[i];

		if (l->validated == l->requested) {
			continue;
		}
		if (out_layers && out_types) {
			if (n == *out_count) {
				break;
			}
			out_layers[n] = l->id;
			out_types[n] = l->validated;
		}
		n++;
	}
	*out_count = n;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_display_requests(hwc2_device_t *device, hwc2_display_t display,
	int32_t *out_display_requests, uint32_t *out_count, hwc2_layer_t *out_layers,
	int32_t *out_layer_requests)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_display_requests || !out_count) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (!d->validated) {
		return hwc2_kms_leave(d, HWC2_ERROR_NOT_VALIDATED);
	}
	*out_display_requests = 0;
	*out_count = 0;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t accept_display_changes(hwc2_device_t *device, hwc2_display_t display)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!d->validated) {
		return hwc2_kms_leave(d, HWC2_ERROR_NOT_VALIDATED);
	}
	/* as drm_hwcomposer: the accepted type is what the client asks for from now on */
	for (size_t i = 0; i < d->scene.layer_count; i++) {
		d->scene_src[i]->requested = d->scene_src[i]->validated;
	}
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

const struct hwc2_kms_fn hwc2_kms_validate_fns[] = {
	HWC2_KMS_FN(HWC2_FUNCTION_VALIDATE_DISPLAY, HWC2_PFN_VALIDATE_DISPLAY, validate_display),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, HWC2_PFN_GET_CHANGED_COMPOSITION_TYPES,
		get_changed_composition_types),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_DISPLAY_REQUESTS, HWC2_PFN_GET_DISPLAY_REQUESTS,
		get_display_requests),
	HWC2_KMS_FN(HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, HWC2_PFN_ACCEPT_DISPLAY_CHANGES,
		accept_display_changes),
	{ 0, NULL },
};
