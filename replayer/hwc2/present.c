/*
 * setClientTarget, presentDisplay and getReleaseFences (§1.7 steps 4-5,
 * §2.3): the validated plan is committed with every layer's acquire fence
 * as its plane's IN_FENCE_FD and the client target (imported like a layer
 * buffer) on the plan's client-target plane with its own acquire fence;
 * OUT_FENCE_PTR gives the present fence, a dup of which goes to the caller.
 * Release fences follow drm_hwcomposer: every layer that was on a plane in
 * the previous frame gets a dup of the new present fence (its old buffer is
 * off screen once this frame is).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/log.h>

#include "fb.h"
#include "fence_wait.h"
#include "hwc2_private.h"

static int32_t set_client_target(hwc2_device_t *device, hwc2_display_t display,
	buffer_handle_t target, int32_t acquire_fence, int32_t dataspace, hwc_region_t damage)
{
	struct hwc2_kms_device *d;
	struct hwc2_kms_buffer *b = NULL;
	int fence = -1;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (target && hwc2_kms_buffer_get(d, target, &b) < 0) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	if (acquire_fence >= 0 && (fence = fcntl(acquire_fence, F_DUPFD_CLOEXEC, 0)) < 0) {
		hwc2_kms_buffer_put(d, b);
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	hwc2_kms_buffer_put(d, d->target);
	d->target = b;
	hwc2_kms_fence_close(&d->target_fence);
	d->target_fence = fence;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int append(hwc2_layer_t **list, size_t *count, size_t *cap, hwc2_layer_t id)
{
	if (*count == *cap) {
		size_t n = *cap ? *cap * 2 : 16;
		hwc2_layer_t *p = realloc(*list, n * sizeof(*p));

		if (!p) {
			return -ENOMEM;
		}
		*list = p;
		*cap = n;
	}
	(*list)[(*count)++] = id;
	return 0;
}

/* After a present: release = layers on planes last frame that still exist; shown = this frame's. */
static void rotate_shown(struct hwc2_kms_device *d, bool presented)
{
	d->release_count = 0;
	for (size_t i = 0; presented && i < d->shown_count; i++) {
		if (hwc2_kms_layer_find(d, d->shown[i])) {
			append(&d->release, &d->release_count, &d->release_cap, d->shown[i]);
		}
	}
	d->shown_count = 0;
	for (size_t i = 0; presented && i < d->scene.layer_count && d->plan; i++) {
		if (d->plan->layers[i].plane_id) {
			append(&d->shown, &d->shown_count, &d->shown_cap, d->scene_layers[i].id);
		}
	}
}

/*
 * The client target to commit: the caller's (*fb, a reference) when the
 * plan needs one and it fits, else NULL (the backend then composes).
 */
static void client_target(struct hwc2_kms_device *d, struct kms_fb **fb)
{
	struct plan_candidate cand;
	struct plan_plane_state only;
	const struct plan_plane_state *state;
	int ret;

	*fb = NULL;
	if (!d->plan->needs_client_target && d->scene.layer_count) {
		snprintf(d->last_target, sizeof(d->last_target), "none");
		return;
	}
	if (plan_get_candidate(d->plan, &cand) && cand.has_client_target) {
		state = &cand.client_target;
	} else if (plan_client_only_candidate(d->board, &d->scene, NULL, &only) == 0) {
		state = &only;
	} else {
		return;
	}
	d->stats.client_frames++;
	if (d->target) {
		if (hwc2_kms_buffer_needs_cpu(d, d->target, HWC2_BLEND_MODE_PREMULTIPLIED)) {
			hwct_fence_wait(d->target_fence, HWC2_KMS_FENCE_WAIT_MS);
		}
		ret = hwc2_kms_buffer_target_fb(d, d->target, state, fb);
		if (ret == 0) {
			snprintf(d->last_target, sizeof(d->last_target), "caller");
			return;
		}
		hwct_log(HWCT_LOG_WARNING, "hwcomposer.kms: client target %ux%u unusable (%s): "
			"composing here", d->target->layout.width, d->target->layout.height,
			strerror(-ret));
	}
	/* no usable client target: the backend composes the CLIENT layers itself */
	snprintf(d->last_target, sizeof(d->last_target), "module");
	d->stats.module_composed++;
	for (size_t i = 0; i < d->scene.layer_count; i++) {
		hwct_fence_wait(d->scene_layers[i].acquire_fence, HWC2_KMS_FENCE_WAIT_MS);
	}
}

/* The acquire fences were used (or given up): the next frame starts without them. */
static void consume_fences(struct hwc2_kms_device *d)
{
	for (size_t i = 0; i < d->layer_count; i++) {
		hwc2_kms_fence_close(&d->layers[i]->acquire_fence);
	}
	hwc2_kms_fence_close(&d->target_fence);
}

static void keep_result(struct hwc2_kms_device *d, struct backend_result *r)
{
	d->has_checksum = r->has_checksum;
	d->checksum = r->checksum;
	free(d->image.data);
	d->image = r->image;
	r->image.data = NULL;
}

static int32_t present_display(hwc2_device_t *device, hwc2_display_t display,
	int32_t *out_present_fence)
{
	struct hwc2_kms_device *d;
	struct backend_kms_frame frame = { .client_target_fence = -1 };
	struct backend_result result = { .plan_ns = -1, .compose_ns = -1, .commit_ns = -1,
		.present_ns = -1 };
	struct kms_fb *target = NULL;
	int fence = -1, err;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (!out_present_fence) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	*out_present_fence = -1;
	if (!d->validated || !d->plan) {
		return hwc2_kms_leave(d, HWC2_ERROR_NOT_VALIDATED);
	}
	if (!d->power_on) {
		/* nothing is shown while the display is off */
		consume_fences(d);
		rotate_shown(d, false);
		d->validated = false;
		return hwc2_kms_leave(d, HWC2_ERROR_NONE);
	}
	client_target(d, &target);
	frame.plan = d->plan;
	frame.client_target = target;
	frame.client_target_fence = target ? d->target_fence : -1;
	err = backend_kms_show(d->backend, &d->scene, &frame, d->readback, &result, &fence);
	kms_fb_unref(target);
	consume_fences(d);
	d->validated = false;
	if (err < 0) {
		hwct_log(HWCT_LOG_WARNING, "hwcomposer.kms: present failed: %s", strerror(-err));
		d->stats.present_errors++;
		rotate_shown(d, false);
		backend_result_finish(&result);
		return hwc2_kms_leave(d, HWC2_ERROR_NO_RESOURCES);
	}
	d->frame++;
	d->stats.presents++;
	d->crtc_on = true;
	keep_result(d, &result);
	backend_result_finish(&result);
	hwc2_kms_fence_close(&d->present_fence);
	d->present_fence = fence;
	rotate_shown(d, true);
	*out_present_fence = fence >= 0 ? fcntl(fence, F_DUPFD_CLOEXEC, 0) : -1;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

static int32_t get_release_fences(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_count, hwc2_layer_t *out_layers, int32_t *out_fences)
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
	for (size_t i = 0; i < d->release_count; i++) {
		if (out_layers && out_fences) {
			if (n == *out_count) {
				break;
			}
			out_layers[n] = d->release[i];
			out_fences[n] = d->present_fence >= 0 ?
				fcntl(d->present_fence, F_DUPFD_CLOEXEC, 0) : -1;
		}
		n++;
	}
	*out_count = n;
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

const struct hwc2_kms_fn hwc2_kms_present_fns[] = {
	HWC2_KMS_FN(HWC2_FUNCTION_SET_CLIENT_TARGET, HWC2_PFN_SET_CLIENT_TARGET, set_client_target),
	HWC2_KMS_FN(HWC2_FUNCTION_PRESENT_DISPLAY, HWC2_PFN_PRESENT_DISPLAY, present_display),
	HWC2_KMS_FN(HWC2_FUNCTION_GET_RELEASE_FENCES, HWC2_PFN_GET_RELEASE_FENCES, get_release_fences),
	{ 0, NULL },
};
