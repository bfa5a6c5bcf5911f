/* hwc-replay's command line (replay.h): options, --help, --version. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "frame_range.h"
#include "hwct_config.h"
#include "planner.h"
#include "replay.h"
#include "replay_target.h"

enum option_key {
	OPT_HELP = 1,
	OPT_VERSION,
	OPT_PROFILE,
	OPT_DEVICE,
	OPT_HWC2,
	OPT_VM,
	OPT_PLANNER,
	OPT_COMPOSITOR,
	OPT_FRAMES,
	OPT_DISPLAY,
	OPT_LOOP,
	OPT_TIMING,
	OPT_RESULTS,
	OPT_EXPECT,
	OPT_COMPARE,
	OPT_DUMP_IMAGES,
	OPT_MODE_MAP,
	OPT_FORMAT_FALLBACK,
	OPT_MODE,
	OPT_NO_PIXELS,
	OPT_PROFILE_DEVICE,
	OPT_QUIET,
	OPT_KERNEL,
	OPT_KERNEL_IMAGE,
	OPT_KERNEL_MODULES,
	OPT_HWC2_TIMEOUT,
	OPT_HWC2_END,
	OPT_HWC2_CALL_LOG,
	OPT_USERLAND,
	OPT_BOARD,
	OPT_YUV_MODEL,
	OPT_ARCH,
	OPT_VM_REPLAY,
};

struct option_def {
	const char *name;		/* long name without "--" */
	char short_name;		/* 0 none */
	bool has_arg;
	enum option_key key;
};

static const struct option_def options[] = {
	{ "help", 'h', false, OPT_HELP },
	{ "version", 0, false, OPT_VERSION },
	{ "profile", 0, true, OPT_PROFILE },
	{ "device", 0, true, OPT_DEVICE },
	{ "hwc2", 0, true, OPT_HWC2 },
	{ "vm", 0, false, OPT_VM },
	{ "planner", 0, true, OPT_PLANNER },
	{ "compositor", 0, true, OPT_COMPOSITOR },
	{ "yuv-model", 0, true, OPT_YUV_MODEL },
	{ "frames", 0, true, OPT_FRAMES },
	{ "display", 0, true, OPT_DISPLAY },
	{ "loop", 0, true, OPT_LOOP },
	{ "timing", 0, true, OPT_TIMING },
	{ "results", 0, true, OPT_RESULTS },
	{ "expect", 0, true, OPT_EXPECT },
	{ "compare", 0, true, OPT_COMPARE },
	{ "dump-images", 0, true, OPT_DUMP_IMAGES },
	{ "mode-map", 0, true, OPT_MODE_MAP },
	{ "format-fallback", 0, true, OPT_FORMAT_FALLBACK },
	{ "mode", 0, true, OPT_MODE },
	{ "no-pixels", 0, false, OPT_NO_PIXELS },
	{ "profile-device", 0, true, OPT_PROFILE_DEVICE },
	{ "quiet", 'q', false, OPT_QUIET },
	{ "kernel", 0, true, OPT_KERNEL },
	{ "kernel-image", 0, true, OPT_KERNEL_IMAGE },
	{ "kernel-modules", 0, true, OPT_KERNEL_MODULES },
	{ "hwc2-timeout", 0, true, OPT_HWC2_TIMEOUT },
	{ "hwc2-end", 0, true, OPT_HWC2_END },
	{ "hwc2-call-log", 0, true, OPT_HWC2_CALL_LOG },
	{ "userland", 0, true, OPT_USERLAND },
	{ "board", 0, true, OPT_BOARD },
	{ "arch", 0, true, OPT_ARCH },
	{ "vm-replay", 0, true, OPT_VM_REPLAY },
};

#define OPTION_COUNT (sizeof(options) / sizeof(options[0]))

static const char usage_line[] = "usage: " REPLAY_PROGRAM " TRACE [--profile BOARD | --device /dev/dri/cardN |"
	" --hwc2 MODULE.so | --vm] [options]\n";

static void print_help(FILE *f)
{
	fprintf(f, "%s\nReplays an hwctrace trace's display frames on a target and reports the plane\n"
		"plans, output checksums and timings of each frame.\n\n"
		"targets (one; default --device when a usable /dev/dri/card* exists, else --vm):\n"
		"  --profile BOARD          no device: a drm_info board profile (JSON or pasted text)\n"
		"  --device /dev/dri/cardN  an atomic-KMS device\n"
		"  --hwc2 MODULE.so         an HWC2 module\n"
		"  --vm                     vkms under qemu, on Debian's 6.1 unless one of:\n"
		"    --kernel LINE|VERSION|list  a Debian kernel: 6.1, 6.12 (the newest of the line), an\n"
		"                           exact version (6.12.117-1~deb12u1); list: what there is\n"
		"    --kernel-image IMAGE   a kernel of one's own (bzImage or vmlinux), with\n"
		"    --kernel-modules DIR   its modules (vkms.ko unless built in)\n"
		"    --userland DIR         run in the root folder DIR (another Debian's Mesa)\n"
		"    --board BOARD          on a vkms device shaped like the board's drm_info dump\n"
		"                           (its CRTCs, planes and their types; configfs: --kernel\n"
		"                           7.x, the newest line by default); hwc-trace board --vkms\n"
		"                           shows what is copied and what is not\n"
		"    --arch amd64|arm64     the guest's architecture (default this program's): arm64\n"
		"                           boots Debian's arm64 6.1 under qemu-system-aarch64\n"
		"    --vm-replay PATH       the hwc-replay the guest runs (default: this program when\n"
		"                           of the guest's architecture, else for arm64 the cross\n"
		"                           build beside this one's, ../build-aarch64/replayer/hwc-replay)\n\n"
		"options:\n"
		"  --planner drmhwc|search  plane planner (default drmhwc)\n"
		"  --compositor pixman|gl   compositor of the output (default pixman)\n"
		"  --yuv-model bilinear|vkms  how YUV buffers become RGB in composition: bilinear\n"
		"                           chroma (as GL), or vkms 7.x's own arithmetic (pixman only);\n"
		"                           default vkms on a vkms device, else bilinear\n"
		"  --frames A-B|A-|-B|N     frames to replay (FrameEnd.frame, inclusive)\n"
		"  --display ID             only frames of this display\n"
		"  --loop N                 play the range N times (default 1)\n"
		"  --timing recorded|vsync|fast  pacing (default fast for --profile, else recorded)\n"
		"  --mode-map letterbox|scale|none  fit the recorded mode to the target's (default letterbox)\n"
		"  --mode WxH[@HZ]          the target's display mode: set on a device (vkms takes any\n"
		"                           size), assumed of a --profile board (default: its own)\n"
		"  --format-fallback none|equivalent  a layer in a format no plane takes: to the client\n"
		"                           (none, default, as an HWC does), or onto a plane taking its\n"
		"                           byte-order equivalent, pixels converted (ABGR8888->ARGB8888)\n"
		"  --results FILE           write results JSON to FILE ('-': stdout)\n"
		"  --expect FILE            compare with known-good results\n"
		"  --compare pixels|plans|all  what --expect compares (default all)\n"
		"  --dump-images DIR        write each output frame as DIR/frame-NNNNNN.png (needs libpng)\n"
		"  --profile-device NODE|N  the device of a --profile dump holding several (default:\n"
		"                           the first with a connected desktop connector)\n"
		"  --no-pixels              plans only: compose nothing, no checksums\n"
		"  --hwc2-timeout SECONDS   --hwc2: a module call taking longer is a hang (default 10,\n"
		"                           60 under QEMU; 0 no limit)\n"
		"  --hwc2-end android|close --hwc2: end as Android does (callbacks unregistered, layers\n"
		"                           destroyed, one empty present, no close; default) or close()\n"
		"  --hwc2-call-log FILE     --hwc2: write the name of every module call made to FILE\n"
		"  -q, --quiet              no notes or progress on stderr\n"
		"  -h, --help, --version\n\n"
		"exit status: 0 ok (--expect: every frame matches), 1 regression (--expect),\n"
		"2 usage error, 3 trace unreadable or corrupt, 4 target unavailable,\n"
		"5 replay or output failed, or the --hwc2 module crashed or hung; with --expect\n"
		"3, 4 and 5 become 125 (cannot test), and a module that crashed or hung is 1.\n",
		usage_line);
}

static void print_version(FILE *f)
{
	fprintf(f, "%s %s (results version %d; targets:", REPLAY_PROGRAM, HWCT_VERSION, REPLAY_RESULTS_VERSION);
	for (size_t i = 0; replay_target_impl_at(i); i++) {
		const struct replay_target_impl *impl = replay_target_impl_at(i);

		if (impl->open || impl->kind == REPLAY_TARGET_VM) {	/* vm: replay_vm.c, no open function */
			fprintf(f, " %s", impl->name);
		}
	}
	fprintf(f, "; planners:");
	for (size_t i = 0; planner_at(i); i++) {
		fprintf(f, " %s", planner_at(i)->name);
	}
	fprintf(f, "; png: %s)\n", HWCT_HAVE_PNG ? "yes" : "no, built without libpng: no --dump-images");
}

static int usage_error(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(FILE *err, const char *fmt, ...)
{
	va_list args;

	fprintf(err, "%s: ", REPLAY_PROGRAM);
	va_start(args, fmt);
	vfprintf(err, fmt, args);
	va_end(args);
	fprintf(err, "\n%s(see '%s --help')\n", usage_line, REPLAY_PROGRAM);
	return REPLAY_EXIT_USAGE;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s[0] || s[0] == '-' || s[0] == '+' || s[0] == ' ') {
		return false;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end) {
		return false;
	}
	*out = v;
	return true;
}

/* The index of value in names (NULL-terminated), -1 when absent. */
/* "WxH" or "WxH@HZ" into opts' mode; -1 when malformed or out of range. */
static int parse_mode(const char *s, struct replay_options *opts)
{
	uint64_t w, h, hz = 0;
	char buf[64];
	char *x, *at;

	if (strlen(s) >= sizeof(buf)) {
		return -1;
	}
	strcpy(buf, s);
	x = strchr(buf, 'x');
	if (!x) {
		return -1;
	}
	*x = '\0';
	at = strchr(x + 1, '@');
	if (at) {
		*at = '\0';
		if (!parse_u64(at + 1, &hz) || hz == 0 || hz > 240) {
			return -1;
		}
	}
	if (!parse_u64(buf, &w) || !parse_u64(x + 1, &h) || w == 0 || h == 0 || w > 16384 || h > 16384) {
		return -1;
	}
	opts->mode_width = (uint32_t)w;
	opts->mode_height = (uint32_t)h;
	opts->mode_refresh_hz = (uint32_t)hz;
	return 0;
}

static int pick(const char *value, const char *const *names)
{
	for (int i = 0; names[i]; i++) {
		if (strcmp(value, names[i]) == 0) {
			return i;
		}
	}
	return -1;
}

static int set_target(struct replay_options *opts, enum replay_target_kind kind, const char *arg,
	const char *spelled, FILE *err)
{
	if (opts->target != REPLAY_TARGET_DEFAULT) {
		return usage_error(err, "%s: only one target may be given", spelled);
	}
	if (arg && !arg[0]) {
		return usage_error(err, "%s needs a non-empty path", spelled);
	}
	opts->target = kind;
	opts->target_arg = arg;
	return 0;
}

/* Applies one option with its value (NULL when it takes none). */
static int apply(struct replay_options *opts, const struct option_def *o, const char *v, FILE *out, FILE *err)
{
	static const char *const timings[] = { "recorded", "vsync", "fast", NULL };
	static const char *const compares[] = { "all", "pixels", "plans", NULL };
	static const char *const maps[] = { "letterbox", "scale", "none", NULL };
	static const char *const fallbacks[] = { "none", "equivalent", NULL };
	static const char *const compositors[] = { "pixman", "gl", NULL };
	struct frame_range range;
	uint64_t n;
	int i;

	switch (o->key) {
	case OPT_HELP:
		print_help(out);
		return -1;
	case OPT_VERSION:
		print_version(out);
		return -1;
	case OPT_PROFILE:
		return set_target(opts, REPLAY_TARGET_PROFILE, v, "--profile", err);
	case OPT_DEVICE:
		return set_target(opts, REPLAY_TARGET_DEVICE, v, "--device", err);
	case OPT_HWC2:
		return set_target(opts, REPLAY_TARGET_HWC2, v, "--hwc2", err);
	case OPT_VM:
		return set_target(opts, REPLAY_TARGET_VM, NULL, "--vm", err);
	case OPT_PLANNER:
		if (!planner_find(v)) {
			return usage_error(err, "--planner: unknown planner '%s' (drmhwc, search)", v);
		}
		opts->planner = v;
		return 0;
	case OPT_COMPOSITOR:
		if (pick(v, compositors) < 0) {
			return usage_error(err, "--compositor: unknown compositor '%s' (pixman, gl)", v);
		}
		opts->compositor = v;
		return 0;
	case OPT_YUV_MODEL:
		if (comp_yuv_model_parse(v, &opts->yuv_model) < 0) {
			return usage_error(err, "--yuv-model: unknown model '%s' (bilinear, vkms)", v);
		}
		opts->has_yuv_model = true;
		return 0;
	case OPT_FRAMES:
		if (!frame_range_parse(v, &range)) {
			return usage_error(err, "--frames: '%s' is not " FRAME_RANGE_SYNTAX, v);
		}
		opts->first = range.first;
		opts->last = range.last;
		return 0;
	case OPT_DISPLAY:
		if (!parse_u64(v, &opts->display)) {
			return usage_error(err, "--display: '%s' is not a display id", v);
		}
		opts->has_display = true;
		return 0;
	case OPT_LOOP:
		if (!parse_u64(v, &n) || n < 1 || n > 1000000) {
			return usage_error(err, "--loop: '%s' is not a count from 1 to 1000000", v);
		}
		opts->loops = (uint32_t)n;
		return 0;
	case OPT_TIMING:
		if ((i = pick(v, timings)) < 0) {
			return usage_error(err, "--timing: unknown pacing '%s' (recorded, vsync, fast)", v);
		}
		opts->timing = (enum replay_timing)(REPLAY_TIMING_RECORDED + i);
		return 0;
	case OPT_RESULTS:
		opts->results = v;
		return 0;
	case OPT_EXPECT:
		opts->expect = v;
		return 0;
	case OPT_COMPARE:
		if ((i = pick(v, compares)) < 0) {
			return usage_error(err, "--compare: unknown value '%s' (pixels, plans, all)", v);
		}
		opts->compare = (enum replay_compare)i;
		return 0;
	case OPT_DUMP_IMAGES:
		if (!v[0]) {
			return usage_error(err, "--dump-images needs a directory");
		}
		if (!HWCT_HAVE_PNG) {
			return usage_error(err, "--dump-images writes PNG files: this %s was built without libpng "
				"(-Dpng=disabled)", REPLAY_PROGRAM);
		}
		opts->dump_images = v;
		return 0;
	case OPT_MODE_MAP:
		if ((i = pick(v, maps)) < 0) {
			return usage_error(err, "--mode-map: unknown mapping '%s' (letterbox, scale, none)", v);
		}
		opts->mode_map = (enum replay_mode_map)i;
		return 0;
	case OPT_MODE:
		if (parse_mode(v, opts) < 0) {
			return usage_error(err, "--mode: '%s' is not WxH or WxH@HZ (1..16384 pixels, 1..240 Hz)", v);
		}
		return 0;
	case OPT_FORMAT_FALLBACK:
		if ((i = pick(v, fallbacks)) < 0) {
			return usage_error(err, "--format-fallback: unknown choice '%s' (none, equivalent)", v);
		}
		opts->format_fallback = (enum replay_format_fallback)i;
		return 0;
	case OPT_PROFILE_DEVICE:
		opts->profile_device = v;
		return 0;
	case OPT_NO_PIXELS:
		opts->no_pixels = true;
		return 0;
	case OPT_QUIET:
		opts->quiet = true;
		return 0;
	case OPT_ARCH:
		if (strcmp(v, "amd64") != 0 && strcmp(v, "arm64") != 0) {
			return usage_error(err, "--arch: '%s' is not amd64 or arm64", v);
		}
		opts->vm_arch = v;
		return 0;
	case OPT_VM_REPLAY:
		if (!v[0]) {
			return usage_error(err, "--vm-replay needs a value");
		}
		opts->vm_replay = v;
		return 0;
	case OPT_KERNEL:
	case OPT_KERNEL_IMAGE:
	case OPT_KERNEL_MODULES:
	case OPT_USERLAND:
	case OPT_BOARD:
		if (!v[0]) {
			return usage_error(err, "--%s needs a value", o->name);
		}
		*(o->key == OPT_KERNEL ? &opts->vm_kernel : o->key == OPT_KERNEL_IMAGE ? &opts->vm_kernel_image :
			o->key == OPT_KERNEL_MODULES ? &opts->vm_kernel_modules :
			o->key == OPT_BOARD ? &opts->vm_board : &opts->vm_userland) = v;
		return 0;
	case OPT_HWC2_TIMEOUT:
		if (!parse_u64(v, &n) || n > 86400) {
			return usage_error(err, "--hwc2-timeout: '%s' is not a number of seconds from 0 to 86400", v);
		}
		opts->hwc2_timeout = (int)n;
		return 0;
	case OPT_HWC2_END:
		if (strcmp(v, "android") != 0 && strcmp(v, "close") != 0) {
			return usage_error(err, "--hwc2-end: unknown end '%s' (android, close)", v);
		}
		opts->hwc2_end_close = strcmp(v, "close") == 0;
		return 0;
	case OPT_HWC2_CALL_LOG:
		if (!v[0]) {
			return usage_error(err, "--hwc2-call-log needs a file");
		}
		opts->hwc2_call_log = v;
		return 0;
	}
	return 0;
}

static const struct option_def *find_option(const char *name, size_t len, char short_name)
{
	for (size_t i = 0; i < OPTION_COUNT; i++) {
		if (short_name ? options[i].short_name == short_name :
			strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0) {
			return &options[i];
		}
	}
	return NULL;
}

/* Parses argv[*index], an option; advances *index past its value. */
static int parse_option(struct replay_options *opts, int argc, char **argv, int *index, FILE *out, FILE *err)
{
	const char *a = argv[(*index)++], *value = NULL;
	const struct option_def *o;

	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);

		o = find_option(name, len, 0);
		if (!o) {
			return usage_error(err, "unknown option --%.*s", (int)len, name);
		}
		value = eq ? eq + 1 : NULL;
		if (value && !o->has_arg) {
			return usage_error(err, "option --%s takes no value", o->name);
		}
	} else {
		o = a[2] ? NULL : find_option(NULL, 0, a[1]);
		if (!o) {
			return usage_error(err, "unknown option %s", a);
		}
	}
	if (o->has_arg && !value) {
		if (*index >= argc) {
			return usage_error(err, "option --%s needs a value", o->name);
		}
		value = argv[(*index)++];
	}
	return apply(opts, o, value, out, err);
}

int replay_args_parse(struct replay_options *opts, int argc, char **argv, FILE *out, FILE *err)
{
	bool only_positional = false;
	int index = 1;

	replay_options_init(opts);
	while (index < argc) {
		const char *a = argv[index];
		int ret;

		if (only_positional || a[0] != '-' || a[1] == '\0') {
			if (opts->trace) {
				return usage_error(err, "too many arguments ('%s' after the trace '%s')", a,
					opts->trace);
			}
			opts->trace = a;
			index++;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_positional = true;
			index++;
			continue;
		}
		ret = parse_option(opts, argc, argv, &index, out, err);
		if (ret) {
			return ret;
		}
	}
	if (opts->vm_board && opts->target == REPLAY_TARGET_DEVICE) {
		/* inside the VM: the device is vkms shaped like the board (replay_board.h) */
	} else if (opts->vm_kernel || opts->vm_kernel_image || opts->vm_kernel_modules || opts->vm_userland ||
		opts->vm_board || opts->vm_arch || opts->vm_replay) {
		if (opts->target != REPLAY_TARGET_DEFAULT && opts->target != REPLAY_TARGET_VM) {
			return usage_error(err, "--kernel, --kernel-image, --kernel-modules, --userland, --board, --arch "
				"and --vm-replay choose the kernel, userland and device of --vm, and the guest's program");
		}
		if (opts->vm_arch && strcmp(opts->vm_arch, "arm64") == 0 && (opts->vm_kernel || opts->vm_board)) {
			return usage_error(err, "--arch arm64 boots Debian's arm64 6.1 or a --kernel-image: "
				"--kernel and --board (a 7.x kernel) are amd64's only");
		}
		if (opts->vm_kernel && opts->vm_kernel_image) {
			return usage_error(err, "--kernel and --kernel-image exclude each other");
		}
		if (opts->vm_kernel_modules && !opts->vm_kernel_image) {
			return usage_error(err, "--kernel-modules needs --kernel-image");
		}
		opts->target = REPLAY_TARGET_VM;
	}
	if (!opts->trace && opts->vm_kernel && strcmp(opts->vm_kernel, "list") == 0) {
		return 0;	/* --vm --kernel list: no trace */
	}
	if (!opts->trace) {
		return usage_error(err, "no trace file given");
	}
	if (opts->no_pixels && opts->compare == REPLAY_COMPARE_PIXELS) {
		return usage_error(err, "--compare pixels needs pixels: drop --no-pixels");
	}
	if (opts->format_fallback != REPLAY_FALLBACK_NONE && opts->target == REPLAY_TARGET_HWC2) {
		return usage_error(err, "--format-fallback: with --hwc2 the module decides which formats it takes");
	}
	if (opts->mode_width && opts->target == REPLAY_TARGET_HWC2) {
		return usage_error(err, "--mode: with --hwc2 the module's display configs decide "
			"(hwcomposer.kms.so reads HWCT_KMS_MODE)");
	}
	if (opts->no_pixels && opts->dump_images) {
		return usage_error(err, "--dump-images needs pixels: drop --no-pixels");
	}
	return 0;
}

void replay_options_init(struct replay_options *opts)
{
	*opts = (struct replay_options){
		.planner = "drmhwc",
		.compositor = "pixman",
		.last = UINT64_MAX,
		.loops = 1,
		.hwc2_timeout = -1,
	};
}
