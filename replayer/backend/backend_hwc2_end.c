/*
 * The end of a session (docs/hwc2-sequence.md). By default as Android ends
 * a composer client: the callbacks unregistered first (registerCallback
 * with a NULL function for hotplug, refresh and vsync), every layer
 * destroyed, then for the display one validate (its changed types and
 * requests read), accept and present of the empty stack, whose fences are
 * closed; the device is never closed and the module stays loaded, as in
 * the composer service, which lives on. With end_close, the old way:
 * layers destroyed, vsync off, close(), dlclose.
 */
#include <stdlib.h>
#include <unistd.h>

#include "backend_hwc2_private.h"
#include "fence_wait.h"

/* A two-call query's arrays read and dropped, as the passthrough HAL reads them. */
static void read_changes(struct hwc2_module *m)
{
	uint32_t n = 0;
	int32_t requests = 0;
	hwc2_layer_t *ids;
	int32_t *values;

	if (HWC2_FN(m, get_changed_composition_types)(m->dev, m->display, &n, NULL, NULL) == HWC2_ERROR_NONE) {
		ids = calloc(n ? n : 1, sizeof(*ids));
		values = calloc(n ? n : 1, sizeof(*values));
		if (ids && values) {
			HWC2_FN(m, get_changed_composition_types)(m->dev, m->display, &n, ids, values);
		}
		free(ids);
		free(values);
	}
	n = 0;
	if (HWC2_FN(m, get_display_requests)(m->dev, m->display, &requests, &n, NULL, NULL) == HWC2_ERROR_NONE) {
		ids = calloc(n ? n : 1, sizeof(*ids));
		values = calloc(n ? n : 1, sizeof(*values));
		if (ids && values) {
			HWC2_FN(m, get_display_requests)(m->dev, m->display, &requests, &n, ids, values);
		}
		free(ids);
		free(values);
	}
}

/* The release fences of the last present, closed. */
static void drop_release_fences(struct hwc2_module *m)
{
	uint32_t n = 0;
	hwc2_layer_t *ids;
	int32_t *fences;

	if (HWC2_FN(m, get_release_fences)(m->dev, m->display, &n, NULL, NULL) != HWC2_ERROR_NONE) {
		return;
	}
	ids = calloc(n ? n : 1, sizeof(*ids));
	fences = calloc(n ? n : 1, sizeof(*fences));
	if (ids && fences && HWC2_FN(m, get_release_fences)(m->dev, m->display, &n, ids, fences) == HWC2_ERROR_NONE) {
		for (uint32_t i = 0; i < n; i++) {
			if (fences[i] >= 0) {
				close(fences[i]);
			}
		}
	}
	free(ids);
	free(fences);
}

void hwc2_end_android(struct hwc2_backend *h)
{
	struct hwc2_module *m = &h->module;
	struct hwc2_module *cb = m->owner ? m->owner : m;	/* the callbacks' data */
	uint32_t types = 0, requests = 0;
	int32_t ret, fence = -1;

	if (!cb->callbacks_off) {	/* by the first display ended: the later ones', before the first's */
		cb->callbacks_off = true;
		HWC2_FN(m, register_callback)(m->dev, HWC2_CALLBACK_HOTPLUG, cb, NULL);
		HWC2_FN(m, register_callback)(m->dev, HWC2_CALLBACK_REFRESH, cb, NULL);
		HWC2_FN(m, register_callback)(m->dev, HWC2_CALLBACK_VSYNC, cb, NULL);
		backend_watch_leave();
	}
	hwc2_layers_clear(h);
	ret = HWC2_FN(m, validate_display)(m->dev, m->display, &types, &requests);
	if (ret == HWC2_ERROR_NONE || ret == HWC2_ERROR_HAS_CHANGES) {
		read_changes(m);
		HWC2_FN(m, accept_display_changes)(m->dev, m->display);
	}
	if (HWC2_FN(m, present_display)(m->dev, m->display, &fence) == HWC2_ERROR_NONE) {
		drop_release_fences(m);
		hwc2_pool_presented(&h->pool);	/* the last frame's buffers leave the screen */
		for (size_t i = 0; i < sizeof(h->targets) / sizeof(h->targets[0]); i++) {
			hwc2_buffer_presented(&h->targets[i]);
		}
	}
	backend_watch_leave();
	/*
	 * The empty frame on screen: the module has let go of every buffer.
	 * A module whose present fences signal at its next present (defer_present)
	 * signals the empty frame's only at a present that never comes; the last
	 * frame's, still pending, signals now that the empty frame replaces it.
	 */
	if (h->defer_present) {
		if (h->pending_present >= 0) {
			hwct_fence_wait(h->pending_present, HWC2_FENCE_WAIT_MS);
		}
	} else if (fence >= 0) {
		hwct_fence_wait(fence, HWC2_FENCE_WAIT_MS);
	}
	if (fence >= 0) {
		close(fence);
	}
}
