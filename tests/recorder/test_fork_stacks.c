/*
 * The recorder's threads in a forked child (recorder/background.c,
 * REC_THREAD_STACK): the client records as the forked child of a process
 * with 6 more threads (client_fork.h), whose stacks glibc hands the child
 * as cached, free stacks. None of the recorder's threads (the SCHED_BATCH
 * ones) may run on one of them: with default-sized stacks the worker and
 * the fence watcher did (2 of 3 checked), over what the parent's threads
 * left there. Run twice: with the RLIMIT_STACK the test inherits (8 MiB
 * thread stacks by default) and, where the hard limit allows, unlimited
 * (glibc then makes 2 MiB thread stacks; a 512 KiB stack was handed those).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "robust.h"
#include "testlib.h"

/* One run of the client; returns whether the check could run (else: skip). */
static bool run_once(const char *what)
{
	char out[600], asan[512];
	const char *opts = getenv("ASAN_OPTIONS");
	/* LeakSanitizer's exit-time tracer in a forked child with LTTng-UST's threads: see test_lttng.sh */
	const char *env[] = { out, asan, NULL };
	const char *args[] = { "--small", "--frames", "8", "--fork-check", NULL };
	struct test_client c;
	struct test_log log;
	const char *fact;
	int in = -1, checked = -1, readable = -1;

	test_output_env(out, sizeof(out));
	snprintf(asan, sizeof(asan), "ASAN_OPTIONS=%s%sdetect_leaks=0", opts ? opts : "", opts && *opts ? ":" : "");
	if (!test_client_run_log(&c, &log, env, args, false)) {
		return true;
	}
	fact = test_log_fact(&log, "fork-stacks");
	CHECK(fact && sscanf(fact, "%d %d %d", &in, &checked, &readable) == 3, "no fork-stacks line in the log");
	if (readable == 0) {
		fprintf(stderr, "/proc/self/task/TID/syscall cannot be read here: skipped\n");
		test_log_finish(&log);
		test_client_finish(&c);
		return false;
	}
	fprintf(stderr, "%s: %d of the recorder's %d threads checked run on a stack of the parent's threads\n", what,
		in, checked);
	CHECK(checked >= 2, "%s: only %d of the recorder's threads could be checked (the worker and the fence "
		"watcher at least)", what, checked);
	CHECK(in == 0, "%s: %d of the recorder's threads run on a stack of a thread of the parent process", what, in);
	test_log_finish(&log);
	test_client_finish(&c);
	return true;
}

int case_fork_stacks(void)
{
	struct rlimit rl;

	if (!run_once("RLIMIT_STACK as inherited")) {
		return TEST_SKIP;
	}
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_max == RLIM_INFINITY) {
		rl.rlim_cur = RLIM_INFINITY;
		if (setrlimit(RLIMIT_STACK, &rl) == 0) {
			run_once("RLIMIT_STACK unlimited");
		}
	}
	return 0;
}
