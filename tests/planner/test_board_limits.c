/*
 * Board profiles against the JSON limits (docs/format.md, "Limits"): each
 * hostile profile is built here and read in a child process with a time
 * limit and an address-space limit; the error must name the file, the
 * offset and the limit that was passed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hwct/limits.h>

#include "testlib.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* CPU seconds, not wall-clock: a loaded host must not fail a child that works */
#define CHILD_SECONDS 20
#define CHILD_MEMORY (512ull << 20)

struct hostile {
	const char *what;
	const char *path;		/* a file to read, or NULL for data */
	const char *data;
	size_t size;
	const char *env;		/* HWCT_LIMIT_* value to set, NAME=VALUE, or NULL */
	const char *want[3];		/* substrings of the error, NULL-terminated */
};

/* The child: exit 0 when the profile is refused with every wanted substring. */
static int child(const struct hostile *h)
{
	struct hwct_error err;
	struct board *board;
	int failed = 0;

	if (h->env) {
		char name[64];
		const char *eq = strchr(h->env, '=');
		struct hwct_limits lim;
		char msg[256];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - h->env), h->env);
		setenv(name, eq + 1, 1);
		if (hwct_limits_from_env(&lim, msg, sizeof(msg)) < 0) {
			fprintf(stderr, "%s\n", msg);
			return 1;
		}
		hwct_limits_set(&lim);
	}
	board = h->path ? board_from_drm_info_json(h->path, NULL, &err)
		: board_from_drm_info_buffer(h->data, h->size, "hostile.json", NULL, &err);
	if (board) {
		fprintf(stderr, "%s: read as a board\n", h->what);
		board_destroy(board);
		return 1;
	}
	printf("%s: %s\n", h->what, err.message);
	for (size_t i = 0; i < 3 && h->want[i]; i++) {
		if (!strstr(err.message, h->want[i])) {
			fprintf(stderr, "%s: no \"%s\" in the error\n", h->what, h->want[i]);
			failed = 1;
		}
	}
	return failed;
}

/* Runs h in a bounded child (no memory limit under ASan, which reserves terabytes). */
static void bounded(const struct hostile *h)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		FAIL("fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
#ifndef UNDER_ASAN
		struct rlimit rl = { CHILD_MEMORY, CHILD_MEMORY };

		setrlimit(RLIMIT_AS, &rl);
#endif
		struct rlimit cpu = { CHILD_SECONDS, CHILD_SECONDS };

		setrlimit(RLIMIT_CPU, &cpu);
		status = child(h);
		fflush(stdout);
		_exit(status);
	}
	if (waitpid(pid, &status, 0) != pid) {
		FAIL("waitpid: %s", strerror(errno));
		return;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child %s %d", h->what,
		WIFSIGNALED(status) ? "killed by signal" : "exited with",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/* head, count copies of item separated by sep, tail. Caller frees. */
static char *repeat(const char *head, const char *item, const char *sep, size_t count, const char *tail,
	size_t *size)
{
	size_t hl = strlen(head), il = strlen(item), sl = strlen(sep), tl = strlen(tail);
	char *s = malloc(hl + count * (il + sl) + tl + 1), *p = s;

	if (!s) {
		abort();
	}
	memcpy(p, head, hl);
	p += hl;
	for (size_t i = 0; i < count; i++) {
		if (i) {
			memcpy(p, sep, sl);
			p += sl;
		}
		memcpy(p, item, il);
		p += il;
	}
	memcpy(p, tail, tl + 1);
	*size = (size_t)(p - s) + tl;
	return s;
}

/*
 * 63 MB of empty objects (21 million of them) once took 17 GB to parse.
 * Through the file reader, as --profile reads it.
 */
static void case_empty_objects(const char *dir)
{
	char path[] = "/tmp/hwct-board-limits-XXXXXX";
	size_t size;
	char *json = repeat("{\"n\": [", "{}", ",", 21u << 20, "]}", &size);
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	(void)dir;
	if (!CHECK(f && fwrite(json, 1, size, f) == size && fclose(f) == 0, "%s", path)) {
		free(json);
		return;
	}
	printf("%zu bytes\n", size);
	bounded(&(struct hostile){ "empty objects", path, NULL, 0, NULL,
		{ path, "more values than the limit of 200000", "HWCT_LIMIT_JSON_VALUES" } });
	/*
	 * the offset is where the count passes the limit: the root, member "n"
	 * and the first {} are 3 values, each "," (every 3 bytes from offset 9)
	 * one more, so value 200001 is the comma at 9 + 3 * 199997
	 */
	bounded(&(struct hostile){ "empty objects", path, NULL, 0, NULL, { "offset 600000:", NULL } });
	unlink(path);
	free(json);
}

/* Nesting one level past the depth limit (and a raised limit lets it through to the parser). */
static void case_depth(const char *dir)
{
	size_t size;
	char *json = repeat("{\"n\": ", "[", "", 64, "", &size);

	(void)dir;
	bounded(&(struct hostile){ "65 levels", NULL, json, size, NULL,
		{ "hostile.json: offset 69:", "nesting deeper than the limit of 64 levels",
			"HWCT_LIMIT_JSON_DEPTH" } });
	bounded(&(struct hostile){ "65 levels, limit 100", NULL, json, size, "HWCT_LIMIT_JSON_DEPTH=100",
		{ "truncated JSON", NULL } });
	free(json);
}

/* The size limit, lowered: the real vkms profile is 77 KB. */
static void case_size(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, VKMS_OVERLAYS);
	bounded(&(struct hostile){ "size", path, NULL, 0, "HWCT_LIMIT_JSON_BYTES=64K",
		{ VKMS_OVERLAYS, "exceed the limit of 65536", "HWCT_LIMIT_JSON_BYTES" } });
}

/* The values limit raised: a profile of 300 000 values gets through to the planner's own checks. */
static void case_raised(const char *dir)
{
	size_t size;
	char *json = repeat("{\"n\": {\"crtcs\": [{\"id\": 1}], \"planes\": [", "1", ",", 300000, "]}}",
		&size);

	(void)dir;
	bounded(&(struct hostile){ "300000 values", NULL, json, size, NULL,
		{ "more values than the limit", NULL } });
	bounded(&(struct hostile){ "300000 values, limit 1M", NULL, json, size, "HWCT_LIMIT_JSON_VALUES=1M",
		{ "planes: 300000 entries, at most", NULL } });
	free(json);
}

static const struct tl_case cases[] = {
	{ "empty-objects", case_empty_objects },
	{ "depth", case_depth },
	{ "size", case_size },
	{ "raised", case_raised },
};

int main(int argc, char **argv)
{
	return tl_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
