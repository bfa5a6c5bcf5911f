/*
 * A private LTTng session daemon for the enabled-tracepoint baseline
 * (bench_recorder.h), set up the way tests/recorder/test_lttng.sh does: its
 * own LTTNG_HOME, a session writing to a directory under it, the event
 * hwct_bench:* enabled, as nobody when run as root.
 */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_recorder.h"

#define STOP_WAIT_MS 3000

/* Runs `lttng ARGS...` (or another LTTng program) in l's home; output to its log. */
static int run(struct bench_lttng *l, char *const argv[])
{
	char log[300];
	struct bench_env env = { "LTTNG_HOME", l->home };

	snprintf(log, sizeof(log), "%s/commands.log", l->home);
	return bench_spawn(argv, &env, 1, l->as_nobody, log);
}

static void say(char *why, size_t size, const char *what, int ret)
{
	snprintf(why, size, "%s %s", what,
		ret == -ENOENT ? "could not be run" : ret < 0 ? strerror(-ret) : "failed");
}

int bench_lttng_start(struct bench_lttng *l, const char *tmp_dir, char *why, size_t size)
{
	char output[300];
	char *daemon[] = { "lttng-sessiond", "--daemonize", NULL };
	char *create[] = { "lttng", "create", "hwct-bench", output, NULL };
	char *enable[] = { "lttng", "enable-event", "-u", "hwct_bench:*", NULL };
	char *start[] = { "lttng", "start", NULL };
	int ret;

	*l = (struct bench_lttng){ .as_nobody = geteuid() == 0 };
	snprintf(l->home, sizeof(l->home), "%s/lttng", tmp_dir);
	snprintf(output, sizeof(output), "--output=%s/trace", l->home);
	if (mkdir(l->home, 0755) < 0 || chmod(l->home, 0755) < 0) {
		say(why, size, "creating LTTNG_HOME", -errno);
		return -errno;
	}
	if (l->as_nobody) {
		struct passwd *pw = getpwnam("nobody");

		if (!pw || chown(l->home, pw->pw_uid, pw->pw_gid) < 0) {
			snprintf(why, size, "no user nobody to run the session daemon as");
			return -EPERM;
		}
	}
	ret = run(l, daemon);
	if (ret != 0) {
		say(why, size, "lttng-sessiond", ret);
		return ret < 0 ? ret : -EIO;
	}
	l->daemon_started = true;
	ret = run(l, create);
	l->session_created = ret == 0;
	if (ret == 0) {
		ret = run(l, enable);
	}
	if (ret == 0) {
		ret = run(l, start);
	}
	if (ret != 0) {
		say(why, size, "an lttng command", ret);
		return ret < 0 ? ret : -EIO;
	}
	return 0;
}

static pid_t daemon_pid(const struct bench_lttng *l)
{
	char path[300];
	FILE *f;
	long pid = 0;

	snprintf(path, sizeof(path), "%s/.lttng/lttng-sessiond.pid", l->home);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1) {
			pid = 0;
		}
		fclose(f);
	}
	return (pid_t)pid;
}

void bench_lttng_stop(struct bench_lttng *l)
{
	char *stop[] = { "lttng", "stop", NULL };
	char *destroy[] = { "lttng", "destroy", NULL };
	char *rm[] = { "rm", "-rf", l->home, NULL };
	pid_t pid = daemon_pid(l);

	if (l->session_created) {
		run(l, stop);
		run(l, destroy);
		l->session_created = false;
	}
	if (l->daemon_started && pid > 0 && kill(pid, SIGTERM) == 0) {
		struct timespec step = { 0, 10000000 };

		/* the daemon we started, by the pid it wrote; it is not our child */
		for (int i = 0; i < STOP_WAIT_MS / 10 && kill(pid, 0) == 0; i++) {
			nanosleep(&step, NULL);
		}
	}
	l->daemon_started = false;
	if (l->home[0]) {
		bench_spawn(rm, NULL, 0, false, NULL);
		l->home[0] = '\0';
	}
}
