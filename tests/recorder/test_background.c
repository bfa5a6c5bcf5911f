/*
 * The recorder's threads run behind the host's (recorder/README.md, "Hot
 * path and worker"; background.c): while a session records, the client's
 * own thread keeps its policy and nice value; the recorder's worker and
 * fence watcher are SCHED_BATCH at the client's nice value; the writer's
 * threads SCHED_BATCH 10 nice steps lower (19 at most). The fake module's
 * threads (fence signaller) are the client's and stay SCHED_OTHER.
 */
#define _GNU_SOURCE	/* SCHED_BATCH */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "robust.h"
#include "testlib.h"

int case_background(void)
{
	char out[600];
	const char *env[] = { out, NULL };
	const char *args[] = { "--small", "--frames", "8", "--sched-check", "4", NULL };
	struct test_client c;
	struct test_log log;
	const char *fact;
	int main_policy = -1, main_nice = 0, batch_same = 0, batch_lower = 0, other = 0, writer_nice;
	char others[4096];

	test_output_env(out, sizeof(out));
	if (!test_client_run_log(&c, &log, env, args, false)) {
		return 0;
	}
	fact = test_log_fact(&log, "sched");
	CHECK(fact && sscanf(fact, "%d/%d %4095s", &main_policy, &main_nice, others) == 3,
		"no scheduling line in the log");
	fprintf(stderr, "client thread %d/%d, others %s\n", main_policy, main_nice, fact ? others : "?");
	writer_nice = main_nice + 10 > 19 ? 19 : main_nice + 10;
	for (char *t = fact ? strtok(others, ",") : NULL; t; t = strtok(NULL, ",")) {
		int policy, nice;

		if (sscanf(t, "%d/%d", &policy, &nice) != 2) {
			continue;
		}
		if (policy == SCHED_BATCH && nice == main_nice) {
			batch_same++;
		} else if (policy == SCHED_BATCH && nice == writer_nice) {
			batch_lower++;
		} else {
			other++;
		}
	}
	CHECK(main_policy == SCHED_OTHER, "the client's thread has policy %d, not SCHED_OTHER", main_policy);
	if (writer_nice == main_nice) {
		/* a client at nice 19 already: the writer cannot go lower, all three kinds share it */
		CHECK(batch_same >= 3, "%d SCHED_BATCH threads at the client's nice %d (the worker, the fence "
			"watcher and the writer's)", batch_same, main_nice);
	} else {
		/* the worker and the fence watcher */
		CHECK(batch_same >= 2, "%d SCHED_BATCH threads at the client's nice %d (the worker and the fence "
			"watcher)", batch_same, main_nice);
		/* the writer's compressing threads */
		CHECK(batch_lower >= 1, "%d SCHED_BATCH threads at nice %d (the writer's)", batch_lower, writer_nice);
	}
	fprintf(stderr, "%d SCHED_BATCH at nice %d, %d at nice %d, %d others\n", batch_same, main_nice, batch_lower,
		writer_nice, other);
	test_log_finish(&log);
	test_client_finish(&c);
	return 0;
}
