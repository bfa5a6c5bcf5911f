/*
 * Child processes of the recorder benchmark (bench_recorder.h). As root,
 * `as_nobody` runs the child through setpriv as nobody, the way
 * tests/recorder/test_lttng.sh keeps its LTTng session daemon private (a
 * root daemon would be the system-wide one).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_recorder.h"

#define MAX_ARGS 64

static const char *const nobody[] = {
	"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
	/* keeps the right to take SCHED_FIFO (bench_recorder_sched.c), nothing else */
	"--inh-caps=+sys_nice", "--ambient-caps=+sys_nice",
};
#define NOBODY_ARGS (sizeof(nobody) / sizeof(nobody[0]))

/* In the child: never returns. */
static void exec_child(char *const argv[], const struct bench_env *env, size_t env_count, bool as_nobody,
	const char *out_path)
{
	char *args[MAX_ARGS];
	size_t n = 0;

	for (size_t i = 0; i < env_count; i++) {
		if (env[i].value ? setenv(env[i].name, env[i].value, 1) : unsetenv(env[i].name)) {
			_exit(127);
		}
	}
	if (out_path) {
		int fd = open(out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0) {
			_exit(127);
		}
	}
	if (as_nobody) {
		for (size_t i = 0; i < NOBODY_ARGS; i++) {
			args[n++] = (char *)nobody[i];
		}
	}
	for (size_t i = 0; argv[i] && n < MAX_ARGS - 1; i++) {
		args[n++] = argv[i];
	}
	args[n] = NULL;
	execvp(args[0], args);
	fprintf(stderr, "bench-recorder: cannot run %s: %s\n", args[0], strerror(errno));
	_exit(127);
}

int bench_spawn(char *const argv[], const struct bench_env *env, size_t env_count, bool as_nobody,
	const char *out_path)
{
	pid_t pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		return -errno;
	}
	if (pid == 0) {
		exec_child(argv, env, env_count, as_nobody, out_path);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			return -errno;
		}
	}
	if (WIFEXITED(status)) {
		return WEXITSTATUS(status) == 127 ? -ENOENT : WEXITSTATUS(status);
	}
	return -EINTR;
}
