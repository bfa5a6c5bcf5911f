/*
 * hwc-replay: a trace's display frames shown again on a target (a board
 * profile now; an atomic-KMS device, an HWC2 module or a vkms VM when their
 * backends are built), with a results file and a comparison against known
 * good results. replay_main.c is the program; everything else is this
 * library, which the tests and the benchmark link too.
 */
#ifndef HWCT_REPLAY_H
#define HWCT_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compositor.h"
#include "results_version.h"

#define REPLAY_PROGRAM "hwc-replay"
#define REPLAY_RESULTS_VERSION HWCT_RESULTS_VERSION	/* results.json "results_version" (docs/results.md) */

/*
 * Exit statuses (docs/hwc-replay.1.scd). With --expect the ones that mean
 * "this trace cannot be tested here" become REPLAY_EXIT_UNTESTABLE, as
 * `git bisect run` wants.
 */
enum replay_exit {
	REPLAY_EXIT_OK = 0,
	REPLAY_EXIT_REGRESSION = 1,	/* --expect: a frame differs */
	REPLAY_EXIT_USAGE = 2,		/* bad option or argument, unreadable --expect file */
	REPLAY_EXIT_TRACE = 3,		/* the trace cannot be read: missing, corrupt, unknown version */
	REPLAY_EXIT_TARGET = 4,		/* the target cannot be used: not built, no device, bad board */
	REPLAY_EXIT_FAILED = 5,		/* a frame could not be replayed, or an output not written */
	REPLAY_EXIT_UNTESTABLE = 125,	/* --expect: 3, 4 or 5 */
};

enum replay_target_kind {
	REPLAY_TARGET_DEFAULT = 0,	/* --device when a usable /dev/dri/card* exists, else --vm */
	REPLAY_TARGET_PROFILE,		/* --profile BOARD.json */
	REPLAY_TARGET_DEVICE,		/* --device /dev/dri/cardN */
	REPLAY_TARGET_HWC2,		/* --hwc2 MODULE.so */
	REPLAY_TARGET_VM,		/* --vm */
};

enum replay_timing {
	REPLAY_TIMING_DEFAULT = 0,	/* the target's: fast for profiles, recorded otherwise */
	REPLAY_TIMING_RECORDED,		/* each frame at its recorded time after the first */
	REPLAY_TIMING_VSYNC,		/* one frame per vsync period */
	REPLAY_TIMING_FAST,		/* no waiting */
};

enum replay_compare {
	REPLAY_COMPARE_ALL = 0,
	REPLAY_COMPARE_PIXELS,
	REPLAY_COMPARE_PLANS,
};

enum replay_format_fallback {
	REPLAY_FALLBACK_NONE = 0,	/* a format no plane takes sends the layer to the client */
	REPLAY_FALLBACK_EQUIVALENT,	/* ... unless a plane takes its byte-order equivalent */
};

enum replay_mode_map {
	REPLAY_MAP_LETTERBOX = 0,	/* uniform scale, centred */
	REPLAY_MAP_SCALE,		/* stretched to the whole mode */
	REPLAY_MAP_NONE,		/* recorded coordinates as they are */
};

/* What to replay and how; strings are borrowed (argv). */
struct replay_options {
	const char *trace;
	enum replay_target_kind target;
	const char *target_arg;		/* board file, device node or module path; NULL for --vm */
	const char *profile_device;	/* --profile-device: a device of the profile paste; NULL default */
	const char *planner;		/* planner_find() name */
	const char *compositor;		/* compositor_create() name */
	bool has_yuv_model;		/* --yuv-model given */
	enum comp_yuv_model yuv_model;	/* with has_yuv_model */
	uint64_t first, last;		/* FrameEnd.frame range, inclusive; last UINT64_MAX = to the end */
	bool has_display;
	uint64_t display;		/* hwc2_display_t, with has_display */
	uint32_t loops;			/* plays of the range, at least 1 */
	enum replay_timing timing;
	const char *results;		/* results JSON path, NULL none ("-" stdout) */
	const char *expect;		/* known-good results, NULL none */
	enum replay_compare compare;
	const char *dump_images;	/* PNG directory, NULL none */
	enum replay_mode_map mode_map;
	enum replay_format_fallback format_fallback;
	uint32_t mode_width, mode_height;	/* --mode: the target's mode; 0 its own */
	uint32_t mode_refresh_hz;	/* --mode ...@HZ; 0 60 Hz */
	bool no_pixels;			/* plans only: nothing composed, no checksum */
	const char *vm_kernel;		/* --vm --kernel: a Debian line, version or "list"; NULL default */
	const char *vm_kernel_image;	/* --vm --kernel-image: a kernel image path, NULL none */
	const char *vm_kernel_modules;	/* --vm --kernel-modules: its modules folder, NULL none */
	const char *vm_userland;	/* --vm --userland: the guest's root folder, NULL the host's */
	const char *vm_board;		/* --vm --board: a drm_info dump vkms is shaped like; NULL vkms's own */
	const char *vm_arch;		/* --vm --arch: amd64 or arm64; NULL this program's own (replay_vm.c) */
	const char *vm_replay;		/* --vm --vm-replay: the hwc-replay the guest runs; NULL a default */
	bool quiet;			/* no notes on stderr, no progress */
	bool progress;			/* a progress bar on stderr (main: stderr is a TTY) */
	bool hwc2_end_close;		/* --hwc2-end close: tear down with close() instead of Android's end */
	const char *hwc2_call_log;	/* --hwc2-call-log FILE: the module calls made, NULL none */
	int hwc2_timeout;		/* --hwc2-timeout: seconds a module call may take; -1 default, 0 none */
};

/* Fills opts with the defaults (drmhwc, pixman, all frames, one loop, letterbox). */
void replay_options_init(struct replay_options *opts);

/*
 * Parses argv (argv[0] the program) into opts. Returns -1 after --help or
 * --version was printed on out (exit 0), 0 when opts is ready, or
 * REPLAY_EXIT_USAGE after a message on err.
 */
int replay_args_parse(struct replay_options *opts, int argc, char **argv, FILE *out, FILE *err);

/*
 * Runs the replay opts describes; messages go to stderr. Returns an enum
 * replay_exit.
 */
int replay_run(const struct replay_options *opts);

/* Prints "hwc-replay: error: ..." on stderr (stdout flushed first). */
void replay_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * --vm (replay_vm.c): runs this program inside the project's vkms VM with
 * --device /dev/dri/card0 and the same options, the results file carried
 * back on the guest's standard output. Returns the exit status.
 */
int replay_vm_exec(const struct replay_options *o, int argc, char **argv);

/* Prints "hwc-replay: ..." on stderr unless quiet. */
void replay_note(bool quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The status for code (a REPLAY_EXIT_*) when --expect is in effect or not. */
int replay_exit_status(int code, bool expect);

#endif
