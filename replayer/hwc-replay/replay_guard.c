/*
 * The --hwc2 supervisor (replay_guard.h): fork, watch, report, finish the
 * results.
 */
#define _DEFAULT_SOURCE	/* MAP_ANONYMOUS (Linux, every BSD; POSIX 2024) */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend_watch.h"
#include "replay_guard.h"
#include "replay_session.h"

#define TICK_MS 100
/*
 * A hung child is asked to end (SIGTERM) this long before it is killed:
 * long enough for libhwc-record.so around the module to finish its trace
 * (recorder/crash.h, at most 3 s).
 */
#define STOP_GRACE_MS 4000

struct replay_guard_state {
	struct backend_watch watch;
	bool results_resumable;		/* a header was written and the file not closed */
	struct rjson json;		/* the writer's state at the last checkpoint (f not used) */
	struct replay_totals totals;
	uint64_t compared, differing;
	bool has_first_difference;
	uint64_t first_difference_frame;
	char first_difference[REPLAY_MESSAGE_MAX];
};

static struct replay_guard_state *child_state;	/* set in the child only */

void replay_guard_checkpoint(struct replay_results *r, const struct replay_totals *t,
	const struct replay_outcome *o, const char *first_difference)
{
	struct replay_guard_state *g = child_state;

	if (!g || !r->f || !r->header_done) {
		return;
	}
	fflush(r->f);
	g->json = r->j;
	g->json.f = NULL;
	g->totals = *t;
	g->compared = o->compared;
	g->differing = o->differing;
	g->has_first_difference = o->has_first_difference;
	g->first_difference_frame = o->first_difference_frame;
	snprintf(g->first_difference, sizeof(g->first_difference), "%s", first_difference ? first_difference : "");
	g->results_resumable = true;
}

void replay_guard_results_closed(void)
{
	if (child_state) {
		child_state->results_resumable = false;
	}
}

/* Whether this runs under QEMU (its DMI vendor), where everything is slower. */
static bool under_qemu(void)
{
	char vendor[64] = "";
	FILE *f = fopen("/sys/class/dmi/id/sys_vendor", "r");

	if (f) {
		if (!fgets(vendor, sizeof(vendor), f)) {
			vendor[0] = '\0';
		}
		fclose(f);
	}
	return strncmp(vendor, "QEMU", 4) == 0;
}

unsigned replay_guard_timeout(const struct replay_options *opts)
{
	if (opts->hwc2_timeout >= 0) {
		return (unsigned)opts->hwc2_timeout;
	}
	return under_qemu() ? REPLAY_GUARD_TIMEOUT_QEMU_S : REPLAY_GUARD_TIMEOUT_S;
}

/* "presentDisplay in frame 12", "open (before the first frame)", "between calls (last: X) in frame 3". */
static void where(struct replay_guard_state *g, char *buf, size_t size)
{
	char call[BACKEND_WATCH_NAME_MAX], frame[48];
	uint64_t f;
	int64_t start;

	backend_watch_read(&g->watch, call, sizeof(call), &f, &start);
	if (f == UINT64_MAX) {
		snprintf(frame, sizeof(frame), "before the first frame");
	} else if (f == BACKEND_WATCH_END) {
		snprintf(frame, sizeof(frame), "after the last frame");
	} else {
		snprintf(frame, sizeof(frame), "in frame %" PRIu64, f);
	}
	if (!call[0]) {
		snprintf(buf, size, "%s, no module call under way", frame);
	} else if (start == 0) {
		snprintf(buf, size, "%s, between module calls (the last: %s)", frame, call);
	} else {
		snprintf(buf, size, "%s, in %s", frame, call);
	}
}

/* Ends the results file the child left open, with error as the reason. */
static void finish_results(const struct replay_options *opts, struct replay_guard_state *g, const char *error)
{
	struct replay_results r;
	struct replay_outcome o = {
		.complete = false,
		.error = error,
		.expect = opts->expect,
		.compared = g->compared,
		.differing = g->differing,
		.has_first_difference = g->has_first_difference,
		.first_difference_frame = g->first_difference_frame,
		.first_difference = g->first_difference,
	};
	int ret;

	if (!opts->results || !g->results_resumable) {
		return;
	}
	ret = replay_results_resume(&r, opts->results, &g->json);
	if (ret == 0) {
		ret = replay_results_close(&r, &g->totals, &o);
	}
	if (ret < 0) {
		replay_error("--results: %s: %s", opts->results, strerror(-ret));
	}
}

/* The child: the replay, with the shared record attached. Never returns. */
static void run_child(const struct replay_options *opts, struct replay_guard_state *g, int alive)
{
	int code;

	(void)alive;	/* held open until exit: its end tells the supervisor */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	child_state = g;
	backend_watch_attach(&g->watch);
	code = replay_run(opts);
	exit(code);	/* exit handlers run: a recorder around the module finishes its trace there */
}

/* The supervisor's verdict on a child that died of sig or hung (sig 0). */
static int report(const struct replay_options *opts, struct replay_guard_state *g, int sig, unsigned timeout)
{
	char place[160], error[REPLAY_MESSAGE_MAX];

	where(g, place, sizeof(place));
	if (sig) {
		snprintf(error, sizeof(error), "the HWC2 module crashed (signal %d, %s) %s", sig, strsignal(sig), place);
	} else {
		snprintf(error, sizeof(error), "the HWC2 module hung: no answer within %u s %s (killed)", timeout,
			place);
	}
	replay_error("%s", error);
	finish_results(opts, g, error);
	return opts->expect ? REPLAY_EXIT_REGRESSION : REPLAY_EXIT_FAILED;
}

/* Ends a hung child: SIGTERM, and SIGKILL when it is still there STOP_GRACE_MS later; reaps it. */
static void stop_child(pid_t pid, int *status)
{
	kill(pid, SIGTERM);
	for (int i = 0; i < STOP_GRACE_MS / 10; i++) {
		struct timespec tick = { .tv_nsec = 10 * 1000000 };

		if (waitpid(pid, status, WNOHANG) == pid) {
			return;
		}
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
}

int replay_guard_run(const struct replay_options *opts)
{
	unsigned timeout = replay_guard_timeout(opts);
	struct replay_guard_state *g;
	int alive[2], status, ret;
	pid_t pid;

	g = mmap(NULL, sizeof(*g), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g == MAP_FAILED) {
		replay_error("cannot share memory with the module's process: %s", strerror(errno));
		return replay_exit_status(REPLAY_EXIT_FAILED, opts->expect != NULL);
	}
	memset(g, 0, sizeof(*g));
	backend_watch_init(&g->watch);
	if (pipe(alive) != 0) {
		replay_error("cannot start the module's process: %s", strerror(errno));
		munmap(g, sizeof(*g));
		return replay_exit_status(REPLAY_EXIT_FAILED, opts->expect != NULL);
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		replay_error("cannot start the module's process: %s", strerror(errno));
		close(alive[0]);
		close(alive[1]);
		munmap(g, sizeof(*g));
		return replay_exit_status(REPLAY_EXIT_FAILED, opts->expect != NULL);
	}
	if (pid == 0) {
		close(alive[0]);
		run_child(opts, g, alive[1]);
	}
	close(alive[1]);
	for (int watched = alive[0];;) {
		struct pollfd p = { .fd = watched, .events = POLLIN };
		char call[BACKEND_WATCH_NAME_MAX];
		uint64_t frame;
		int64_t start;

		ret = waitpid(pid, &status, WNOHANG);
		if (ret == pid) {
			break;
		}
		backend_watch_read(&g->watch, call, sizeof(call), &frame, &start);
		if (timeout && start && backend_watch_now_ns() - start > (int64_t)timeout * 1000000000) {
			stop_child(pid, &status);
			ret = report(opts, g, 0, timeout);
			goto done;
		}
		if (poll(&p, 1, TICK_MS) > 0 && (p.revents & (POLLHUP | POLLERR))) {
			watched = -1;	/* the child is ending: from now on poll only sleeps a tick */
		}
	}
	if (WIFSIGNALED(status)) {
		ret = report(opts, g, WTERMSIG(status), timeout);
	} else {
		ret = WIFEXITED(status) ? WEXITSTATUS(status) : REPLAY_EXIT_FAILED;
	}
done:
	close(alive[0]);
	munmap(g, sizeof(*g));
	return ret;
}
