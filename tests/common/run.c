/* Running a program with its output captured (run.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

static void die(const char *what)
{
	fprintf(stderr, "test_run: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* A new empty file under $TMPDIR, already unlinked: its fd. */
static int scratch_file(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/hwct-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		die(path);
	}
	unlink(path);
	return fd;
}

/* The whole of fd from its start, NUL-terminated; its length in *size. Closes fd. */
static char *slurp(int fd, size_t *size)
{
	size_t len = 0, cap = 4096;
	char *data = malloc(cap + 1);
	ssize_t n;

	if (!data || lseek(fd, 0, SEEK_SET) < 0) {
		die("reading the output");
	}
	while ((n = read(fd, data + len, cap - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			die("reading the output");
		}
		len += (size_t)n;
		if (len == cap) {
			cap *= 2;
			data = realloc(data, cap + 1);
			if (!data) {
				die("reading the output");
			}
		}
	}
	close(fd);
	data[len] = '\0';
	*size = len;
	return data;
}

void test_run(struct test_run *run, const char *const *argv)
{
	int out = scratch_file(), err = scratch_file(), status;
	size_t err_size;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		die("fork");
	}
	if (pid == 0) {
		if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0) {
			_exit(126);
		}
		close(out);
		close(err);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) != pid) {
		if (errno != EINTR) {
			die("waitpid");
		}
	}
	run->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	run->out = slurp(out, &run->out_size);
	run->err = slurp(err, &err_size);
}

void test_run_finish(struct test_run *run)
{
	free(run->out);
	free(run->err);
	*run = (struct test_run){ 0 };
}
