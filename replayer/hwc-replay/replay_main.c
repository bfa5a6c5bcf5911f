/*
 * hwc-replay TRACE [target] [options]: replays a trace's display frames
 * (replay.h; docs/hwc-replay.1.scd).
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <hwct/limits.h>

#include "replay.h"
#include "replay_guard.h"
#include "replay_target.h"

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };
	struct replay_options opts;
	struct hwct_limits limits;
	char msg[256];
	int ret = replay_args_parse(&opts, argc, argv, stdout, stderr);

	if (ret < 0) {
		return fflush(stdout) == 0 ? REPLAY_EXIT_OK : REPLAY_EXIT_FAILED;
	}
	if (ret) {
		return ret;
	}
	if (hwct_limits_from_env(&limits, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "hwc-replay: %s\n", msg);
		return REPLAY_EXIT_USAGE;
	}
	/* a closed pipe (--results - | head) shows as EPIPE on the results, not a signal */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	opts.progress = isatty(STDERR_FILENO) == 1;
	if (replay_target_default(opts.target, &opts.target_arg) == REPLAY_TARGET_VM) {
		return replay_vm_exec(&opts, argc, argv);
	}
	if (opts.target == REPLAY_TARGET_HWC2) {
		return replay_guard_run(&opts);	/* the module's crash or hang is a result */
	}
	return replay_run(&opts);
}
