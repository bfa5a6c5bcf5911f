/*
 * hwc2_client: an HWC2 module driven as SurfaceFlinger drives it
 * (hwc2_client.h). Usage:
 *
 *   hwc2_client --module PATH [--device NODE] [--vgem NODE] [--stack NAME]
 *       [--frames N] [--check-fds] [--expect-overlays N] [--log FILE] CASE...
 *
 * CASE is api, stack, refuse, frames, fences (the VM checks, for
 * hwcomposer.kms.so: they set its HWCT_KMS_* environment) or run (the frame
 * cycle alone, for any module: --stack, --frames, --check-fds) or record
 * (vgem acquire fences on every buffer, what was done logged to --log: the
 * recorder's VM test, tests/recorder-vm). --device is
 * where the client allocates its buffers (gbm; default /dev/dri/card0),
 * --vgem the vgem node for held fences (default /dev/dri/card1). Prints
 * "ok - CASE" or "not ok - CASE", failures as "FAIL:" lines on stderr;
 * exits 0 when every case passed, 1 otherwise, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwc2_client.h"

struct named_case {
	const char *name;
	bool (*run)(struct hc_module *m, const struct hc_options *o);
};

static const struct named_case cases[] = {
	{ "api", hc_case_api },
	{ "stack", hc_case_stack },
	{ "refuse", hc_case_refuse },
	{ "frames", hc_case_frames },
	{ "fences", hc_case_fences },
	{ "run", hc_case_run },
	{ "record", hc_case_record },
};

static const struct named_case *find_case(const char *name)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].name, name) == 0) {
			return &cases[i];
		}
	}
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: hwc2_client --module PATH [--device NODE] [--vgem NODE] "
		"[--stack NAME] [--frames N] [--check-fds] [--expect-overlays N] [--log FILE] "
		"api|stack|refuse|frames|fences|run|record...\n");
	return 2;
}

int main(int argc, char *argv[])
{
	struct hc_options o = { .device = "/dev/dri/card0", .vgem = "/dev/dri/card1",
		.expect_overlays = 8 };
	const struct named_case *run[16];
	size_t count = 0;
	struct hc_module m;
	bool ok = true;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		bool value = i + 1 < argc;

		if (strcmp(argv[i], "--module") == 0 && value) {
			o.module = argv[++i];
		} else if (strcmp(argv[i], "--device") == 0 && value) {
			o.device = argv[++i];
		} else if (strcmp(argv[i], "--vgem") == 0 && value) {
			o.vgem = argv[++i];
		} else if (strcmp(argv[i], "--stack") == 0 && value) {
			o.stack = argv[++i];
		} else if (strcmp(argv[i], "--frames") == 0 && value) {
			o.frames = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--expect-overlays") == 0 && value) {
			o.expect_overlays = strtoul(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--log") == 0 && value) {
			o.log = argv[++i];
		} else if (strcmp(argv[i], "--check-fds") == 0) {
			o.check_fds = true;
		} else if (find_case(argv[i]) && count < sizeof(run) / sizeof(run[0])) {
			run[count++] = find_case(argv[i]);
		} else {
			return usage();
		}
	}
	if (!o.module || count == 0) {
		return usage();
	}
	if (!hc_module_load(&m, o.module)) {
		return 1;
	}
	for (size_t i = 0; i < count; i++) {
		bool passed = run[i]->run(&m, &o);

		printf("%s - %s\n", passed ? "ok" : "not ok", run[i]->name);
		ok = ok && passed;
	}
	hc_module_unload(&m);
	printf("hwc2_client: %s (%d failed checks)\n", ok ? "all cases passed" : "FAILED",
		check_tally.failed);
	return ok ? 0 : 1;
}
