/*
 * kms_vm_test: the KMS backend (replayer/kms) on a real driver, run in the
 * vkms VM by tests/kms/meson.build. Usage:
 *
 *   kms_vm_test [--device PATH] [--vgem PATH] [--drm-info FILE]
 *       [--expect-overlays N] [--expect-writeback 0|1] CASE...
 *
 * CASE is snapshot, blend, fallback, test-only, in-fence, or present (the
 * last four in one run: each boot costs seconds), or a backend case:
 * backend-stack, backend-refuse, backend-reference, backend-gl (each opens
 * its own backend; the shared device is closed first). Prints "ok - CASE" or
 * "not ok - CASE" per case, failures as "FAIL:" lines on stderr; exits 0
 * when every case passed, 1 otherwise, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm_cases.h"

struct options {
	const char *device;		/* NULL: the first card with a connected connector */
	const char *vgem;
	const char *drm_info;		/* NULL: no comparison */
	size_t expect_overlays;
	bool expect_writeback;
};

static const char *const present_cases[] = { "blend", "in-fence", "test-only", "fallback" };
static const char *const backend_cases[] = { "backend-stack", "backend-refuse", "backend-reference",
	"backend-gl" };

static bool is_backend_case(const char *name)
{
	for (size_t i = 0; i < sizeof(backend_cases) / sizeof(backend_cases[0]); i++) {
		if (strcmp(name, backend_cases[i]) == 0) {
			return true;
		}
	}
	return false;
}

static bool run_backend_case(const struct options *o, const char *name)
{
	if (strcmp(name, "backend-stack") == 0) {
		return vt_case_backend_stack(o->expect_overlays);
	}
	if (strcmp(name, "backend-refuse") == 0) {
		return vt_case_backend_refuse();
	}
	if (strcmp(name, "backend-reference") == 0) {
		return vt_case_backend_reference();
	}
	return vt_case_backend_gl();
}

static bool run_device_case(struct vt_ctx *ctx, const struct options *o, const char *name)
{
	if (strcmp(name, "blend") == 0) {
		return vt_case_blend(ctx);
	}
	if (strcmp(name, "fallback") == 0) {
		return vt_case_fallback(ctx);
	}
	if (strcmp(name, "test-only") == 0) {
		return vt_case_test_only(ctx);
	}
	return vt_case_in_fence(ctx, o->vgem);
}

static bool known(const char *name)
{
	for (size_t i = 0; i < sizeof(present_cases) / sizeof(present_cases[0]); i++) {
		if (strcmp(name, present_cases[i]) == 0) {
			return true;
		}
	}
	return strcmp(name, "snapshot") == 0 || strcmp(name, "present") == 0 || is_backend_case(name);
}

/* Runs one named case; device cases share ctx, set up on first use. */
static bool run(struct vt_ctx *ctx, bool *ready, const struct options *o, const char *name)
{
	bool ok;

	if (strcmp(name, "snapshot") == 0) {
		ok = vt_case_snapshot(o->device, o->drm_info, o->expect_overlays,
			o->expect_writeback);
	} else if (is_backend_case(name)) {
		if (*ready) {
			vt_teardown(ctx);	/* the backend must be the DRM master */
			*ready = false;
		}
		ok = run_backend_case(o, name);
	} else {
		if (!*ready) {
			*ready = vt_setup(ctx, o->device);
		}
		ok = *ready && run_device_case(ctx, o, name);
	}
	printf("%s - %s\n", ok ? "ok" : "not ok", name);
	return ok;
}

int main(int argc, char *argv[])
{
	struct options o = { .vgem = "/dev/dri/card1", .expect_overlays = 8,
		.expect_writeback = true };
	struct vt_ctx ctx;
	bool ready = false, ok = true;
	int first = argc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		bool value = i + 1 < argc;

		if (strcmp(argv[i], "--device") == 0 && value) {
			o.device = argv[++i];
		} else if (strcmp(argv[i], "--vgem") == 0 && value) {
			o.vgem = argv[++i];
		} else if (strcmp(argv[i], "--drm-info") == 0 && value) {
			o.drm_info = argv[++i];
		} else if (strcmp(argv[i], "--expect-overlays") == 0 && value) {
			o.expect_overlays = strtoul(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--expect-writeback") == 0 && value) {
			o.expect_writeback = strcmp(argv[++i], "0") != 0;
		} else if (known(argv[i])) {
			first = first < i ? first : i;
		} else {
			fprintf(stderr, "usage: kms_vm_test [--device PATH] [--vgem PATH] "
				"[--drm-info FILE] [--expect-overlays N] [--expect-writeback 0|1] "
				"CASE...\n");
			return 2;
		}
	}
	for (int i = first; i < argc; i++) {
		if (!known(argv[i])) {
			continue;
		}
		if (strcmp(argv[i], "present") != 0) {
			ok = run(&ctx, &ready, &o, argv[i]) && ok;
			continue;
		}
		for (size_t j = 0; j < sizeof(present_cases) / sizeof(present_cases[0]); j++) {
			ok = run(&ctx, &ready, &o, present_cases[j]) && ok;
		}
	}
	if (ready) {
		vt_teardown(&ctx);
	}
	printf("kms_vm_test: %s (%d failed checks)\n", ok ? "all cases passed" : "FAILED",
		check_tally.failed);
	return ok ? 0 : 1;
}
