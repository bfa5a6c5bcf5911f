/*
 * The recorder under ASan+UBSan. scripts/test.sh runs the unit suite again
 * in build-asan (clang, -Db_sanitize=address,undefined): every target is
 * instrumented there, the recorder, the fake module and the test client,
 * and the client carries the sanitizer runtime, so the recorder it loads as
 * an HWC2 module or has preloaded runs checked (a preloaded instrumented
 * library in a client without the runtime would need the runtime preloaded
 * before it). This case makes sure it happens; HWCT_TEST_SANITIZE is
 * meson's b_sanitize, the case is skipped when it is "none":
 *  - the recorder library is instrumented (references the runtime's entries);
 *  - a leak planted in the client is reported: the leak checker is live in
 *    this process setup, at the exit the recorder's destructor runs in;
 *  - the client runs through the recorder, as an HWC2 module and under
 *    LD_PRELOAD, pixels on, the module failing calls and lacking functions,
 *    with leak detection on and every report fatal: exit 0, stderr empty.
 * The other recorder cases run in that pass too (FIFO output, 10 000 frames).
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "robust.h"
#include "testlib.h"

#define ASAN_RUN "ASAN_OPTIONS=detect_leaks=1:halt_on_error=1"
/* the recorder and the fake both define HMI; a shared runtime comes after the preload */
#define ASAN_PRELOAD ASAN_RUN ":verify_asan_link_order=0:detect_odr_violation=0"
#define UBSAN_RUN "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"

static bool file_has(const char *path, const char *what)
{
	size_t size;
	char *data = test_read_file(path, &size);
	bool found = data && memmem(data, size, what, strlen(what)) != NULL;

	free(data);
	return found;
}

static void run(enum test_via via, const char *name)
{
	char out[600];
	const char *env[] = { out, via == TEST_PRELOAD ? ASAN_PRELOAD : ASAN_RUN, UBSAN_RUN,
		"FAKE_HWC2_MODE=errors,null-functions", NULL };
	const char *args[] = { "--small", "--frames", "30", "--probe-functions", NULL };
	struct test_client c;
	struct test_trace t;

	mkdir(test_path(name), 0755);
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", test_path(name));
	test_client_run(&c, via, test_path("log"), env, args);
	CHECK(c.status == 0, "%s: client exit %d: %s", name, c.status, c.err);
	CHECK(c.err[0] == '\0', "%s: a sanitizer (or the recorder) reported: %s", name, c.err);
	fprintf(stderr, "%s: client exit %d, %zu bytes on stderr\n", name, c.status, strlen(c.err));
	if (test_trace_scan(test_trace_path(&c, 0, test_path(name)), &t, NULL, NULL)) {
		CHECK(t.closed && t.frame_ends == 30 && t.captures_ok > 0,
			"%s: %llu frames, %llu captures, closed %d", name, (unsigned long long)t.frame_ends,
			(unsigned long long)t.captures_ok, t.closed);
	}
	test_client_finish(&c);
}

int case_sanitized(void)
{
	const char *sanitize = test_env("HWCT_TEST_SANITIZE");
	const char *recorder = test_env("HWCT_TEST_RECORDER");
	bool asan = strstr(sanitize, "address") != NULL, ubsan = strstr(sanitize, "undefined") != NULL;

	if (!asan && !ubsan) {
		fprintf(stderr, "not a sanitizer build (b_sanitize=%s): skipped\n", sanitize);
		return TEST_SKIP;
	}
	CHECK(!asan || file_has(recorder, "__asan_report_"), "%s is not built with ASan", recorder);
	CHECK(!ubsan || file_has(recorder, "__ubsan_handle_"), "%s is not built with UBSan", recorder);

	if (asan) {
		char out[600];
		const char *env[] = { out, ASAN_RUN, NULL };
		const char *args[] = { "--small", "--frames", "2", "--leak-on-purpose", NULL };
		struct test_client c;

		mkdir(test_path("control"), 0755);
		snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", test_path("control"));
		test_client_run(&c, TEST_HAL, test_path("control.log"), env, args);
		CHECK(c.status != 0 && strstr(c.err, "LeakSanitizer: detected memory leaks"),
			"a planted leak went unreported (exit %d): %s", c.status, c.err);
		fprintf(stderr, "control: the planted leak made the client exit %d\n", c.status);
		test_client_finish(&c);
	}
	run(TEST_HAL, "hal");
	run(TEST_PRELOAD, "preload");
	return 0;
}
