/*
 * --hwc2 PATH.so: the hwc2 backend (backend_hwc2.h) driving an HWC2
 * module as SurfaceFlinger does. Client layers are composed by the chosen
 * compositor; with --no-pixels there is none, buffers are handed over
 * unwritten and frames have no checksum. hwcomposer.kms.so is asked to read
 * frames back through the writeback connector, so its checksums are the
 * device's. The planner options do not apply: the module decides. A
 * trace's later displays (replay_displays.c: crtc_slot N, the first
 * display's target in first) are driven on the module's (N+1)-th display.
 */
#include <errno.h>
#include <string.h>

#include "backend_hwc2.h"
#include "backend_watch.h"
#include "replay_target.h"

/* t drives backend (NULL: its creation failed, err says why): the module's mode, at its vsync. */
static int target_take(struct replay_target *t, struct backend *backend, struct hwct_error *err)
{
	t->backend = backend;
	if (!t->backend) {
		return err && err->code ? err->code : -ENODEV;
	}
	backend_hwc2_mode(t->backend, &t->width, &t->height, &t->vsync_period_ns);
	t->default_timing = REPLAY_TIMING_VSYNC;
	t->module_decides = true;
	return 0;
}

int replay_target_hwc2_open(struct replay_target *t, const char *arg, const struct replay_target_config *cfg,
	struct hwct_error *err)
{
	struct backend_hwc2_options ho = {
		.module = arg,
		.compositor = cfg->compositor,
		.readback = cfg->compositor != NULL,
		.yuv_model_asked = cfg->yuv_model_asked,
		.end_close = cfg->hwc2_end_close,
	};
	int ret;

	if (!arg) {
		return hwct_error_set(err, -EINVAL, "--hwc2", UINT64_MAX, "needs the path of an HWC2 module");
	}
	if (cfg->first && cfg->crtc_slot > 0) {	/* a later display of the trace: the module's next display */
		return target_take(t, backend_hwc2_create_display(cfg->first->backend, cfg->crtc_slot, arg, err), err);
	}
	if (cfg->hwc2_call_log) {
		ret = backend_watch_log_open(cfg->hwc2_call_log);
		if (ret < 0) {
			return hwct_error_set(err, ret, cfg->hwc2_call_log, UINT64_MAX, "--hwc2-call-log: %s",
				strerror(-ret));
		}
	}
	return target_take(t, backend_hwc2_create(&ho, err), err);
}
