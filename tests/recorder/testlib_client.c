/* Running the test client for the robustness tests (testlib.h). */
#define _GNU_SOURCE	/* environ */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define MAX_ENV 512

/* Puts entry (NAME=VALUE) into env, replacing an entry of the same name. */
static void env_put(char **env, size_t *n, const char *entry)
{
	size_t len = (size_t)(strchr(entry, '=') - entry) + 1;

	for (size_t i = 0; i < *n; i++) {
		if (strncmp(env[i], entry, len) == 0) {
			env[i] = (char *)entry;
			return;
		}
	}
	if (*n + 1 < MAX_ENV) {
		env[(*n)++] = (char *)entry;
	}
}

void test_client_start(struct test_client *c, enum test_via via, const char *log,
	const char *const *env, const char *const *args)
{
	extern char **environ;
	static char real[600], preload[600], asan[1024];
	const char *argv[32];
	char *envp[MAX_ENV];
	size_t n = 0;
	int argc = 0;

	*c = (struct test_client){ .status = -1 };
	snprintf(c->err_path, sizeof(c->err_path), "%s", test_path("client.stderr"));
	for (char **e = environ; *e && n + 1 < MAX_ENV; e++) {
		if (strncmp(*e, "HWCT_", 5) != 0 && strncmp(*e, "LD_PRELOAD=", 11) != 0) {
			envp[n++] = *e;
		}
	}
	argv[argc++] = test_env("HWCT_TEST_CLIENT");
	argv[argc++] = "--module";
	if (via == TEST_HAL) {
		snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", test_env("HWCT_TEST_FAKE"));
		env_put(envp, &n, real);
		argv[argc++] = test_env("HWCT_TEST_RECORDER");
	} else {
		argv[argc++] = test_env("HWCT_TEST_FAKE");
	}
	if (via == TEST_PRELOAD) {
		const char *outer = getenv("ASAN_OPTIONS");

		snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", test_env("HWCT_TEST_RECORDER"));
		env_put(envp, &n, preload);
		/*
		 * Sanitizer builds: the recorder and the fake both define HMI
		 * (on purpose), and with a shared runtime the preloaded
		 * recorder comes before it. Leak checks stay as they were.
		 */
		snprintf(asan, sizeof(asan), "ASAN_OPTIONS=%s%sverify_asan_link_order=0:detect_odr_violation=0",
			outer ? outer : "", outer && *outer ? ":" : "");
		env_put(envp, &n, asan);
	}
	for (size_t i = 0; env && env[i]; i++) {
		env_put(envp, &n, env[i]);
	}
	envp[n] = NULL;
	argv[argc++] = "--log";
	argv[argc++] = log;
	for (size_t i = 0; args && args[i] && argc < 31; i++) {
		argv[argc++] = args[i];
	}
	argv[argc] = NULL;

	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		perror("fork");
		exit(2);
	}
	if (c->pid == 0) {
		int fd = open(c->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0 || dup2(fd, 2) < 0) {
			_exit(127);
		}
		execve(argv[0], (char *const *)argv, envp);
		perror("exec");
		_exit(127);
	}
}

static void set_status(struct test_client *c, int status)
{
	if (WIFEXITED(status)) {
		c->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		c->status = 128 + WTERMSIG(status);
	}
}

bool test_client_done(struct test_client *c)
{
	int status;

	if (c->status >= 0) {
		return true;
	}
	if (waitpid(c->pid, &status, WNOHANG) != c->pid) {
		return false;
	}
	set_status(c, status);
	return true;
}

void test_client_wait(struct test_client *c)
{
	int status;

	if (c->status < 0) {
		while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
		}
		set_status(c, status);
	}
	if (!c->err) {
		c->err = test_read_file(c->err_path, NULL);
		c->err = c->err ? c->err : strdup("");
		unlink(c->err_path);
	}
}

void test_client_run(struct test_client *c, enum test_via via, const char *log,
	const char *const *env, const char *const *args)
{
	test_client_start(c, via, log, env, args);
	test_client_wait(c);
}

void test_client_finish(struct test_client *c)
{
	free(c->err);
	c->err = NULL;
}

const char *test_output_env(char *buf, size_t size)
{
	mkdir(test_path("out"), 0755);
	snprintf(buf, size, "HWCT_OUTPUT=%s", test_path("out"));
	return buf;
}

bool test_client_ok(struct test_client *c, bool quiet)
{
	CHECK(c->status == 0, "client exit %d: %s", c->status, c->err);
	if (quiet) {
		CHECK(c->err[0] == '\0', "the client or the recorder printed: %s", c->err);
	}
	return c->status == 0;
}

bool test_client_log(struct test_client *c, struct test_log *log)
{
	if (test_log_load(log, test_path("log"))) {
		return true;
	}
	test_client_finish(c);
	return false;
}

bool test_client_run_log(struct test_client *c, struct test_log *log, const char *const *env,
	const char *const *args, bool quiet)
{
	test_client_run(c, TEST_HAL, test_path("log"), env, args);
	test_client_ok(c, quiet);
	return test_client_log(c, log);
}

long test_fifo_drain(int fd, const char *out_path, struct test_client *c, int timeout_ms)
{
	FILE *out = fopen(out_path, "wb");
	long total = 0;
	char buf[65536];
	int waited = 0;

	if (!out) {
		return -1;
	}
	while (waited < timeout_ms) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 100) == 0) {
			waited += 100;
			test_client_done(c);
			continue;
		}
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			if (fwrite(buf, 1, (size_t)n, out) != (size_t)n) {
				break;
			}
			total += n;
		} else if (n == 0) {
			fclose(out);
			return total;	/* no writer left */
		} else if (errno != EAGAIN && errno != EINTR) {
			break;
		}
	}
	fclose(out);
	return -1;
}

const char *test_trace_path(const struct test_client *c, unsigned n, const char *dir)
{
	static char buf[600];

	snprintf(buf, sizeof(buf), "%s/hwctrace-%d-%u.zst", dir, (int)c->pid, n);
	return buf;
}
