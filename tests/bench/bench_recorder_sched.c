/*
 * The calling thread's scheduling in bench-recorder's children.
 *
 * An HWC2 module's functions are called by the composer service's threads,
 * which run SCHED_FIFO at priority 2, as SurfaceFlinger's main thread does
 * (the composer service's main() sets it "same as SF main thread"; binder
 * calls carry the caller's priority). So every child (direct, wrapper,
 * tracepoint, dup, UI session) sets that policy on its calling thread before
 * it loads anything: threads the module or the recorder start from it
 * inherit it unless they choose otherwise, as on a device. The recorder's
 * own threads leave it (recorder/background.c).
 *
 * HWCT_BENCH_SCHED=other (bench-recorder --sched-other) keeps SCHED_OTHER:
 * what a desktop client without real-time rights sees. A child as nobody
 * (the enabled tracepoint's) keeps CAP_SYS_NICE for it (bench_recorder_spawn.c).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_recorder.h"

#define COMPOSER_FIFO_PRIORITY 2

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

static bool sched_other(void)
{
	const char *v = getenv("HWCT_BENCH_SCHED");

	return v && strcmp(v, "other") == 0;
}

void bench_sched_parent(bool other)
{
	if (other) {
		setenv("HWCT_BENCH_SCHED", "other", 1);
	} else {
		unsetenv("HWCT_BENCH_SCHED");
	}
}

const char *bench_sched_describe(void)
{
	return sched_other() ? "calling thread SCHED_OTHER (--sched-other)" :
		"calling thread SCHED_FIFO 2, as the composer service's";
}

void bench_sched_child(void)
{
	struct sched_param p = { .sched_priority = COMPOSER_FIFO_PRIORITY };

	if (sched_other()) {
		return;
	}
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &p) < 0) {
		fprintf(stderr, "bench-recorder: pid %d runs SCHED_OTHER, not SCHED_FIFO %d: %s "
			"(figures are not those of a composer thread)\n", (int)getpid(), COMPOSER_FIFO_PRIORITY,
			strerror(errno));
	}
}
