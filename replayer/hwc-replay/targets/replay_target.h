/*
 * Replay targets: where hwc-replay shows frames. One table entry per
 * target kind; an entry whose open is NULL is not available in this build
 * (its backend is not written yet, or its dependencies were not found), and
 * choosing it ends the run with "target X is not available in this build".
 *
 * Wiring a backend: write its open function (it fills a replay_target with
 * the backend, the board the planner sees, the mode and the vsync period,
 * and a finish function for what it opened) and put it in the table in
 * replay_target.c. Nothing else in hwc-replay changes.
 */
#ifndef HWCT_REPLAY_TARGET_H
#define HWCT_REPLAY_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/error.h>

#include "hwct_config.h"
#include "backend.h"
#include "replay.h"

/* What every backend is built from; borrowed for the target's lifetime. */
struct replay_board;

struct replay_target_config {
	const struct planner_impl *planner;
	const struct planner_options *planner_options;
	struct compositor *compositor;	/* NULL with --no-pixels: compose nothing */
	const char *profile_device;	/* --profile-device, NULL default */
	uint32_t mode_width, mode_height;	/* --mode; 0: the target's own mode */
	uint32_t mode_refresh_hz;	/* 0: 60 Hz */
	bool hwc2_end_close;		/* --hwc2-end close */
	const char *hwc2_call_log;	/* --hwc2-call-log, NULL none */
	/*
	 * A trace's display after the first (--profile, --device): plan on the
	 * board's crtc_slot-th other CRTC (0: the board's own), and leave the
	 * planes that CRTCs in crtc_taken (bits by CRTC index) can use to
	 * those. --device drives the first connected connector not in
	 * connectors_taken (bits by connector index) on a free CRTC, through the
	 * node first has open (first: the first display's target, borrowed).
	 */
	uint32_t crtc_slot;
	uint32_t crtc_taken;
	uint32_t connectors_taken;
	const struct replay_target *first;
	struct replay_board *emulated;	/* --device --board: the device is shaped like it; NULL none */
	bool yuv_model_asked;		/* --yuv-model set the compositor's: a vkms device keeps it */
};

/* What results name as the planner when an HWC2 module decides. */
#define REPLAY_MODULE_PLANNER "module"

struct replay_target {
	const char *name;		/* "profile", "kms", "hwc2", "vm"; static */
	char *arg;			/* the option's value (board file, node, module); owned, may be NULL */
	struct backend *backend;	/* owned */
	const struct board *board;	/* the board the planner plans on; owned by priv; may be NULL */
	uint32_t width, height;		/* the target's mode, pixels; 0 unknown (no mapping) */
	int64_t vsync_period_ns;	/* 0 unknown: the recorded display's is used */
	enum replay_timing default_timing;
	bool module_decides;		/* an HWC2 module plans, not the --planner */
	uint32_t planes_ceded;		/* planes left to other displays' CRTCs (crtc_taken) */
	uint32_t connectors_used;	/* kms: the bit (drmModeRes index) of the connector it drives; 0 others */
	void *priv;			/* the open function's state */
	void (*finish)(struct replay_target *t);	/* frees priv; may be NULL */
	void (*report)(struct replay_target *t);	/* notes at close, before the backend goes; may be NULL */
};

struct replay_target_impl {
	enum replay_target_kind kind;
	const char *name;		/* "profile" */
	const char *option;		/* "--profile" */
	/*
	 * Opens the target named by arg into t (zeroed, name and arg set).
	 * Returns 0, or -errno with err filled ("PATH: what"). NULL: not
	 * available in this build.
	 */
	int (*open)(struct replay_target *t, const char *arg, const struct replay_target_config *cfg,
		struct hwct_error *err);
};

/* The i-th table entry, NULL past the last. */
const struct replay_target_impl *replay_target_impl_at(size_t i);

/* The entry of kind, never NULL for a kind other than DEFAULT. */
const struct replay_target_impl *replay_target_impl_find(enum replay_target_kind kind);

/*
 * Resolves REPLAY_TARGET_DEFAULT: DEVICE with the first /dev/dri/card*
 * that opens read-write (*arg set to its path, static storage), else VM.
 * Other kinds come back unchanged.
 */
enum replay_target_kind replay_target_default(enum replay_target_kind kind, const char **arg);

/*
 * Opens kind with arg into t. Returns 0; -ENOTSUP when the target is not
 * available in this build (err says so); or the open function's error.
 */
int replay_target_open(struct replay_target *t, enum replay_target_kind kind, const char *arg,
	const struct replay_target_config *cfg, struct hwct_error *err);

/* The --device target's open function (replay_target_kms.c); only with HWCT_HAVE_KMS. */
int replay_target_kms_open(struct replay_target *t, const char *arg, const struct replay_target_config *cfg,
	struct hwct_error *err);

/* The --hwc2 target's open function (replay_target_hwc2.c). */
int replay_target_hwc2_open(struct replay_target *t, const char *arg, const struct replay_target_config *cfg,
	struct hwct_error *err);

/* Destroys the backend and what the target opened. t may be zeroed. */
void replay_target_close(struct replay_target *t);

#endif
