/*
 * --hwc2 runs the module where its crash or hang cannot take hwc-replay
 * with it: the replay runs in a child process while this process
 * supervises it. The child shares one record with the supervisor
 * (struct replay_guard_state, anonymous shared memory): the frame and the
 * module call under way (backend_watch.h), and after every frame the
 * results writer's state, the totals and the comparison so far, with the
 * results file flushed. When the child dies of a signal, or a module call
 * takes longer than the time limit (the child is then killed), the
 * supervisor names the signal or the hang, the frame and the call, and
 * finishes the results file from the record: every frame replayed before
 * is kept, "complete" is false and "error" says what happened.
 */
#ifndef HWCT_REPLAY_GUARD_H
#define HWCT_REPLAY_GUARD_H

#include <stdint.h>

#include "replay.h"
#include "replay_results.h"

/* --hwc2-timeout's defaults, in seconds: on hardware, and under QEMU (slow emulation). */
#define REPLAY_GUARD_TIMEOUT_S 10
#define REPLAY_GUARD_TIMEOUT_QEMU_S 60

/*
 * Runs replay_run(opts) in a child process and supervises it as above.
 * Returns the child's exit status; after a crash or a hang
 * REPLAY_EXIT_REGRESSION with --expect (the module under test failed), else
 * REPLAY_EXIT_FAILED; REPLAY_EXIT_FAILED when no child can be started.
 */
int replay_guard_run(const struct replay_options *opts);

/*
 * In the child: the results state after a header or frame was written
 * (r's file is flushed). first_difference is the comparison's message
 * (o->first_difference may not be set yet). Does nothing unsupervised.
 */
void replay_guard_checkpoint(struct replay_results *r, const struct replay_totals *t,
	const struct replay_outcome *o, const char *first_difference);

/* In the child: the results file was closed (complete or not). */
void replay_guard_results_closed(void);

/* The time limit in seconds for opts (its --hwc2-timeout, else the default here). */
unsigned replay_guard_timeout(const struct replay_options *opts);

#endif
