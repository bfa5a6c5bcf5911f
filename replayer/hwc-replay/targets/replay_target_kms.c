/*
 * --device /dev/dri/cardN: the kms backend on a real atomic-KMS device
 * (backend_kms.h). The planner tests with TEST_ONLY commits, client layers
 * are composed by the chosen compositor (pixman when --no-pixels asked for
 * none: a device shows every frame), frames are read back through the
 * writeback connector when the driver has one and pixels are wanted
 * (--no-pixels replays without readback or checksums). A trace's display
 * after the first gets a connector and CRTC of its own on the same node,
 * without readback (the writeback connector serves the first display).
 */
#include <errno.h>
#include <stdlib.h>

#include "backend_kms.h"
#include "compositor.h"
#include "device.h"
#include "replay.h"
#include "replay_board.h"
#include "replay_target.h"

/* Budget of the search planner per frame: TEST_ONLY commits are slow under emulation. */
#define KMS_SEARCH_BUDGET_NS 200000000

static void kms_report(struct replay_target *t)
{
	uint64_t kicks = t->backend ? backend_kms_readback_kicks(t->backend) : 0;

	if (kicks) {
		replay_note(false, "%s: %llu writeback(s) the driver left pending were completed by a second "
			"writeback commit (vkms clears its composer flag in the previous job's cleanup; "
			"docs/vm-tests.md)", t->arg ? t->arg : "kms", (unsigned long long)kicks);
	}
}

static void kms_finish(struct replay_target *t)
{
	compositor_destroy(t->priv);
}

int replay_target_kms_open(struct replay_target *t, const char *arg, const struct replay_target_config *cfg,
	struct hwct_error *err)
{
	struct planner_options opts = *cfg->planner_options;
	struct backend_kms_options ko = {
		.path = arg,
		.planner = cfg->planner,
		.planner_opts = &opts,
		.compositor = cfg->compositor,
		.readback = cfg->compositor != NULL,	/* --no-pixels: no checksum wanted, no readback */
		.yuv_model_asked = cfg->yuv_model_asked,
		.reuse_plans = true,
		.width = cfg->mode_width,
		.height = cfg->mode_height,
		.refresh_hz = cfg->mode_refresh_hz,
	};
	/* A display after the first leaves the writeback connector to the first, but takes one
	 * that serves its own CRTC alone (a board-shaped vkms has one per CRTC). */
	struct kms_output_request output = { .fd = -1, .no_writeback = true, .own_writeback = true };
	uint32_t w, h, index;

	if (cfg->crtc_slot) {	/* a display after the first: a connector and CRTC of its own on the same node */
		struct kms_device *first = cfg->first ? backend_kms_device(cfg->first->backend) : NULL;

		if (!first) {
			return hwct_error_set(err, -EINVAL, arg, UINT64_MAX, "no device open for the first display");
		}
		output.fd = kms_device_fd(first);
		output.connectors_taken = cfg->connectors_taken;
		output.crtcs_taken = cfg->crtc_taken;
		ko.path = kms_device_path(first);
		ko.output = &output;
		/* without a writeback connector of its own: no readback (backend_kms_create) */
	}
	if (!ko.compositor) {
		t->priv = compositor_create("pixman");
		if (!t->priv) {
			return hwct_error_set(err, -errno, "pixman", UINT64_MAX, "cannot create the compositor");
		}
		t->finish = kms_finish;
		ko.compositor = t->priv;
	}
	t->report = kms_report;
	opts.flags |= PLANNER_DRMHWC_NO_CLIENT_TARGET;	/* a display given no client target yet */
	if (opts.budget_ns == 0 || opts.budget_ns == PLANNER_DEFAULT_BUDGET_NS) {
		opts.budget_ns = KMS_SEARCH_BUDGET_NS;	/* no option sets it: the default is replaced */
	}
	t->backend = backend_kms_create(&ko, err);
	if (!t->backend) {
		return err && err->code ? err->code : -ENODEV;
	}
	if (cfg->emulated) {
		replay_board_bind(cfg->emulated, kms_device_board_edit(backend_kms_device(t->backend)));
	}
	t->board = backend_kms_board(t->backend);
	t->planes_ceded = kms_device_planes_ceded(backend_kms_device(t->backend));
	index = kms_device_connector_index(backend_kms_device(t->backend));
	t->connectors_used = index < 32 ? 1u << index : 0;
	w = t->board->width;
	h = t->board->height;
	t->width = w;
	t->height = h;
	t->default_timing = REPLAY_TIMING_VSYNC;
	return 0;
}
