/*
 * Errors and missing functions pass through unchanged. The fake module
 * misbehaves (FAKE_HWC2_MODE, fake_hwc2.c): "errors" fails some calls,
 * "null-functions" has getFunction return NULL for some descriptors. The
 * client probes every descriptor (--probe-functions) and runs its frames on
 * the module itself, then through the recorder as an HWC2 module and under
 * LD_PRELOAD: each run must see exactly the same return codes and the same
 * NULLs (its logs are equal, buffer inodes aside), and each trace must hold
 * every call with its error, and no call of a function that was NULL.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwc2_names.h>

#include "fake_hwc2.h"
#include "robust.h"
#include "testlib.h"

#define FRAMES 12	/* every 3rd validate, 5th setLayerBuffer, 4th setCursorPosition fails */
#define STR(x) STR_(x)
#define STR_(x) #x
#define LINE 8192

/* line with every "buf=<inode>" as "buf=N" (inodes differ between runs). */
static const char *normalized(const char *line, char *out)
{
	char *p = out;

	snprintf(out, LINE, "%s", line);
	while ((p = strstr(p, "buf="))) {
		char *q = p + 4;

		while (*q >= '0' && *q <= '9') {
			q++;
		}
		memmove(p + 5, q, strlen(q) + 1);
		p[4] = 'N';
		p += 5;
	}
	return out;
}

/* The call lines and "# function" facts of got equal those of want. */
static void check_same(const char *what, const struct test_log *want, const struct test_log *got)
{
	static char a[LINE], b[LINE];
	size_t fa = 0, fb = 0;

	CHECK(want->call_count == got->call_count, "%s: %zu calls, %zu on the module itself", what,
		got->call_count, want->call_count);
	for (size_t i = 0; i < want->call_count && i < got->call_count; i++) {
		if (strcmp(normalized(want->calls[i], a), normalized(got->calls[i], b)) != 0) {
			CHECK(0, "%s: call %zu differs from the module itself:\n  %s\n  %s", what, i + 1, a, b);
			break;
		}
	}
	for (;;) {
		while (fa < want->fact_count && strncmp(want->facts[fa], "# function ", 11) != 0) {
			fa++;
		}
		while (fb < got->fact_count && strncmp(got->facts[fb], "# function ", 11) != 0) {
			fb++;
		}
		if (fa == want->fact_count || fb == got->fact_count) {
			CHECK(fa == want->fact_count && fb == got->fact_count, "%s: fewer functions probed", what);
			break;
		}
		if (strcmp(want->facts[fa], got->facts[fb]) != 0) {
			CHECK(0, "%s: getFunction differs: %s, on the module itself %s", what, got->facts[fb],
				want->facts[fa]);
		}
		fa++;
		fb++;
	}
}

/* Call lines of function with error e. */
static size_t count_calls(const struct test_log *log, int32_t function, int32_t e)
{
	const char *known = hwct_hwc2_function_name(function);
	char name[64], err[32];
	size_t n = 0, len;

	if (known && function > 0) {
		snprintf(name, sizeof(name), "%s", known);
	} else {
		snprintf(name, sizeof(name), "FUNCTION_%d", function);
	}
	len = strlen(name);
	snprintf(err, sizeof(err), " e=%d ", e);
	for (size_t i = 0; i < log->call_count; i++) {
		n += strncmp(log->calls[i], name, len) == 0 && log->calls[i][len] == ' ' &&
			strstr(log->calls[i], err) != NULL;
	}
	return n;
}

/* Whether getFunction(descriptor) was probed as returning a pointer (1) or NULL (0); -1 unknown. */
static int probed(const struct test_log *log, int32_t descriptor)
{
	for (size_t i = 0; i < log->fact_count; i++) {
		int d, set;

		if (sscanf(log->facts[i], "# function %d %d", &d, &set) == 2 && d == descriptor) {
			return set;
		}
	}
	return -1;
}

/* The module itself misbehaved the way the mode says (the test is not vacuous). */
static void check_mode(const char *mode, const struct test_log *direct)
{
	if (strcmp(mode, "errors") == 0) {
		CHECK(count_calls(direct, HWC2_FUNCTION_VALIDATE_DISPLAY, HWC2_ERROR_BAD_DISPLAY) == FRAMES / 3,
			"validateDisplay did not fail every 3rd time");
		CHECK(count_calls(direct, HWC2_FUNCTION_PRESENT_DISPLAY, HWC2_ERROR_NOT_VALIDATED) == FRAMES / 3,
			"presentDisplay did not fail after a failed validate");
		CHECK(count_calls(direct, HWC2_FUNCTION_SET_LAYER_BUFFER, HWC2_ERROR_BAD_PARAMETER) > 0,
			"setLayerBuffer never failed");
		CHECK(count_calls(direct, HWC2_FUNCTION_SET_CURSOR_POSITION, HWC2_ERROR_BAD_LAYER) == FRAMES / 4,
			"setCursorPosition did not fail every 4th time");
	} else {
		static const int32_t none[] = FAKE_NULL_FUNCTIONS;

		for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
			if (none[i] <= HWCT_HWC2_FUNCTION_MAX) {
				CHECK(probed(direct, none[i]) == 0, "getFunction(%d) was not NULL", none[i]);
			}
		}
		CHECK(probed(direct, HWC2_FUNCTION_PRESENT_DISPLAY) == 1, "no presentDisplay");
		CHECK(probed(direct, 0) == 0 && probed(direct, HWCT_HWC2_FUNCTION_MAX + 1) == 0,
			"getFunction of an invalid descriptor was not NULL");
		CHECK(count_calls(direct, FAKE_VENDOR_DESCRIPTOR, 0) == 0, "the vendor function was there");
	}
}

static void run_recorded(const char *mode_env, enum test_via via, const struct test_log *direct)
{
	const char *what = via == TEST_HAL ? "as an HWC2 module" : "under LD_PRELOAD";
	char dir[512], log_path[512], out[600];
	const char *env[] = { mode_env, out, NULL };
	const char *args[] = { "--small", "--probe-functions", "--frames", STR(FRAMES), NULL };
	struct test_client c;
	struct test_log log;
	struct test_trace t;

	snprintf(dir, sizeof(dir), "%s", test_path(via == TEST_HAL ? "out-hal" : "out-preload"));
	snprintf(log_path, sizeof(log_path), "%s", test_path(via == TEST_HAL ? "hal.log" : "preload.log"));
	mkdir(dir, 0755);
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", dir);
	test_client_run(&c, via, log_path, env, args);
	CHECK(c.status == 0, "%s: client exit %d: %s", what, c.status, c.err);
	CHECK(c.err[0] == '\0', "%s: the client or the recorder printed: %s", what, c.err);
	if (test_log_load(&log, log_path)) {
		check_same(what, direct, &log);
		test_check_calls(test_trace_path(&c, 0, dir), &log, &t);
		CHECK(t.closed && t.frame_ends == FRAMES, "%s: %llu FrameEnds, closed %d", what,
			(unsigned long long)t.frame_ends, t.closed);
		fprintf(stderr, "%s: %llu calls recorded, %llu of them with an error\n", what,
			(unsigned long long)t.calls, (unsigned long long)t.call_errors);
		test_log_finish(&log);
	}
	test_client_finish(&c);
}

static int run_mode(const char *mode)
{
	char mode_env[64];
	const char *env[] = { mode_env, NULL };
	const char *args[] = { "--small", "--probe-functions", "--frames", STR(FRAMES), NULL };
	struct test_client c;
	struct test_log direct;

	snprintf(mode_env, sizeof(mode_env), "FAKE_HWC2_MODE=%s", mode);
	test_client_run(&c, TEST_DIRECT, test_path("direct.log"), env, args);
	CHECK(c.status == 0 && c.err[0] == '\0', "client exit %d on the module itself: %s", c.status, c.err);
	test_client_finish(&c);
	if (!test_log_load(&direct, test_path("direct.log"))) {
		return 0;
	}
	check_mode(mode, &direct);
	run_recorded(mode_env, TEST_HAL, &direct);
	run_recorded(mode_env, TEST_PRELOAD, &direct);
	test_log_finish(&direct);
	return 0;
}

int case_passthrough_errors(void)
{
	return run_mode("errors");
}

int case_passthrough_null(void)
{
	return run_mode("null-functions");
}
