/* One replay of hwc-bisect (bisect.h): hwc-replay --expect on one build. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bisect.h"

#define MAX_ARGS 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The last non-empty line of the file at path into buf. */
static void last_line(const char *path, char *buf, size_t size)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f) {
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0]) {
			size_t len = strlen(line);

			len = len < size - 1 ? len : size - 1;
			memcpy(buf, line, len);
			buf[len] = '\0';
		}
	}
	fclose(f);
}

/* Fills r's comparison fields from the results file; a file that cannot be read leaves them 0. */
static void read_comparison(const char *path, struct bisect_run *r)
{
	struct json_object *root = json_object_from_file(path), *cmp, *v;

	if (!root) {
		return;
	}
	if (json_object_object_get_ex(root, "comparison", &cmp) && json_object_is_type(cmp, json_type_object)) {
		if (json_object_object_get_ex(cmp, "compared", &v)) {
			r->compared = (uint64_t)json_object_get_int64(v);
		}
		if (json_object_object_get_ex(cmp, "differing", &v)) {
			r->differing = (uint64_t)json_object_get_int64(v);
		}
		if (json_object_object_get_ex(cmp, "first_difference_frame", &v) && json_object_is_type(v, json_type_int)) {
			r->has_first = true;
			r->first_frame = (uint64_t)json_object_get_int64(v);
		}
		if (json_object_object_get_ex(cmp, "first_difference", &v) && json_object_is_type(v, json_type_string)) {
			snprintf(r->first, sizeof(r->first), "%s", json_object_get_string(v));
		}
	}
	json_object_put(root);
}

int bisect_run_build(const char *replay, const char *trace, const char *good, const struct bisect_build *b,
	const char *const *extra, size_t extra_count, const char *results, const char *log, struct bisect_run *r)
{
	const char *argv[MAX_ARGS];
	size_t n = 0;
	int status, fd;
	double start = now();
	pid_t pid;

	*r = (struct bisect_run){ .status = -1, .state = BISECT_SKIPPED };
	if (extra_count > MAX_ARGS - 16) {
		return -E2BIG;
	}
	argv[n++] = replay;
	argv[n++] = trace;
	bisect_build_args(b, argv, &n);
	argv[n++] = "--expect";
	argv[n++] = good;
	argv[n++] = "--results";
	argv[n++] = results;
	argv[n++] = "--quiet";
	for (size_t i = 0; i < extra_count; i++) {
		argv[n++] = extra[i];
	}
	argv[n] = NULL;
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		return -errno;
	}
	unlink(results);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (pid == 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (b->kind == BISECT_BUILD_LIBS) {
			setenv("LD_LIBRARY_PATH", b->path, 1);
		}
		execvp(replay, (char *const *)argv);
		fprintf(stderr, "hwc-bisect: cannot run %s: %s\n", replay, strerror(errno));
		_exit(127);
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			return -errno;
		}
	}
	r->seconds = now() - start;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (r->status == 0) {
		r->state = BISECT_SAME;
	} else if (r->status == 1) {
		r->state = BISECT_DIFFERS;
	}
	read_comparison(results, r);
	if (r->state == BISECT_SKIPPED) {
		last_line(log, r->why, sizeof(r->why));
	}
	return 0;
}
