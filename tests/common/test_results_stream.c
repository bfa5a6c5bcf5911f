/*
 * The streaming results reader (common/results_load.h) on a results file of
 * 100 000 frames, read in a child whose address space is limited to 3x the
 * largest frame plus 64 MiB: the reader must get through every frame and the
 * members after them. The same limit on the whole-file parse (json-c's
 * json_object_from_file, how the readers worked before) must fail, or the
 * limit would prove nothing. Malformed lines give an error naming the line.
 *	test-results-stream DIR		(DIR: where the files are written)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "check.h"
#include "files.h"
#include "results_gen.h"
#include "results_load.h"

#define FRAMES 100000u

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* In the child: every frame, in order, then the totals after them. Exit status 0 when all held. */
static int read_all(const char *path, uint32_t big_frame, uint32_t big_layers)
{
	struct results_file rf;
	struct hwct_error err;
	struct json_object *frame;
	uint64_t next = 0, n;
	int got;

	if (results_file_open(&rf, path, &err) < 0) {
		fprintf(stderr, "%s\n", err.message);
		return 2;
	}
	while ((got = results_file_next(&rf, &frame)) > 0) {
		if (results_get_u64(&rf, results_member(frame, "frame"), "frame", UINT64_MAX, false, &n, NULL) ||
			n != next) {
			fprintf(stderr, "frame %" PRIu64 " where %" PRIu64 " was due\n", n, next);
			return 3;
		}
		if (n == big_frame && json_object_array_length(results_member(frame, "plan")) != big_layers) {
			fprintf(stderr, "the big frame lost layers\n");
			return 4;
		}
		json_object_put(frame);
		next++;
	}
	if (got < 0 || next != FRAMES || !results_member(rf.root, "totals") ||
		!json_object_get_boolean(results_member(rf.root, "complete"))) {
		fprintf(stderr, "%s: %" PRIu64 " frames, totals %s\n", got < 0 ? err.message : "ended", next,
			results_member(rf.root, "totals") ? "read" : "missing");
		return 5;
	}
	results_file_finish(&rf);
	return 0;
}

/* The whole file as one json-c tree. */
static int read_whole(const char *path)
{
	struct json_object *root = json_object_from_file(path);

	return root ? 0 : 6;
}

/* Runs the reader in a child limited to limit bytes of address space; its exit status, or 128 + signal. */
static int limited(size_t limit, int (*fn)(const char *, uint32_t, uint32_t), const char *path, uint32_t a,
	uint32_t b)
{
	pid_t pid = fork();
	int status;

	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct rlimit rl = { .rlim_cur = limit, .rlim_max = limit };

		if (setrlimit(RLIMIT_AS, &rl) != 0) {
			_exit(7);
		}
		_exit(fn(path, a, b));
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Allocates twice the limit (a and b: its low and high 32 bits, halved): 0 when that works. */
static int beyond(const char *path, uint32_t a, uint32_t b)
{
	size_t want = (((size_t)b << 16) << 16 | a) * 2;
	char *p = malloc(want);

	(void)path;
	if (!p) {
		return 1;
	}
	memset(p, 1, want);
	free(p);
	return 0;
}

static int whole(const char *path, uint32_t a, uint32_t b)
{
	(void)a;
	(void)b;
	return read_whole(path);
}

static void check_malformed(const char *dir)
{
	static const struct {
		int line;		/* the line to break */
		const char *text;	/* what it becomes */
		const char *err;
	} cases[] = {
		/* frames[0] is on line 15 */
		{ 17, "{\"frame\": 2,}", "line 17: frames[2]: JSON:" },
		{ 18, "{\"frame\": 3 \"display\": 0}", "line 18: frames[3]: JSON:" },
		{ 19, "{\"frame\": 4}}", "line 19: frames: expected ',' or ']' after frames[4]" },
		{ 16, "{\"frame\": 1, \"plan\": [{\"layer\": 1,", "frames[1] (from line 16): truncated" },
		/* a cut last frame that swallows the members after the array */
		{ 22, "{\"frame\": 7, \"plan\": [", "truncated: the frames array does not end" },
	};
	struct results_gen g = { .frames = 8, .layers = 2 };
	char path[512], bad[512];

	snprintf(path, sizeof(path), "%s/results-stream-small.json", dir);
	snprintf(bad, sizeof(bad), "%s/results-stream-bad.json", dir);
	test_results_write(path, &g, NULL, NULL);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t size, at = 0, end;
		char *text = (char *)test_read_file(path, &size), *out;
		struct results_file rf;
		struct hwct_error err;
		struct json_object *frame;
		int got, line = 1;

		while (line < cases[c].line && at < size) {
			line += text[at++] == '\n';
		}
		end = at;
		while (end < size && text[end] != '\n') {
			end++;
		}
		end -= end > at && text[end - 1] == ',';	/* keep the separator */
		CHECK(line == cases[c].line, "case %zu: the file has %d lines", c, line);
		out = malloc(size + strlen(cases[c].text) + 1);
		CHECK(out);
		memcpy(out, text, at);
		strcpy(out + at, cases[c].text);
		memcpy(out + at + strlen(cases[c].text), text + end, size - end);
		test_write_file(bad, out, at + strlen(cases[c].text) + size - end);
		got = results_file_open(&rf, bad, &err);
		while (got >= 0 && (got = results_file_next(&rf, &frame)) > 0) {
			json_object_put(frame);
		}
		CHECK(got < 0, "case %zu: read without an error", c);
		CHECK(strstr(err.message, cases[c].err), "case %zu: '%s' lacks '%s'", c, err.message, cases[c].err);
		CHECK(strstr(err.message, bad), "case %zu: '%s' does not name the file", c, err.message);
		results_file_finish(&rf);
		free(out);
		free(text);
	}
}

int main(int argc, char **argv)
{
	struct results_gen g = { .frames = FRAMES, .layers = 6, .big_frame = FRAMES / 2, .big_layers = 3000 };
	size_t largest, size, limit;
	char path[512];
	int status;

	if (argc != 2) {
		fprintf(stderr, "usage: test-results-stream DIR\n");
		return 2;
	}
	check_malformed(argv[1]);
#ifdef UNDER_ASAN
	fprintf(stderr, "an address-space limit cannot be set under ASan (its shadow maps terabytes): skipped\n");
	return 77;
#endif
	snprintf(path, sizeof(path), "%s/results-stream-100k.json", argv[1]);
	test_results_write(path, &g, &largest, &size);
	limit = 3 * largest + (64u << 20);
	printf("%u frames, %zu bytes, largest frame %zu bytes: address space limited to %zu bytes\n", FRAMES, size,
		largest, limit);
	CHECK(size > limit, "the file (%zu bytes) fits in the limit (%zu): the test would prove nothing", size, limit);
	/* qemu-user (the cross builds' tests) takes RLIMIT_AS for itself and does not apply it to
	 * the program: an allocation of twice the limit then succeeds, and nothing can be shown */
	if (limited(limit, beyond, path, (uint32_t)limit, (uint32_t)((uint64_t)limit >> 32)) == 0) {
		fprintf(stderr, "the address-space limit is not enforced here (qemu-user?): skipped\n");
		unlink(path);
		return 77;
	}
	status = limited(limit, read_all, path, g.big_frame, g.big_layers);
	CHECK(status == 0, "the streaming reader under the limit: status %d", status);
	status = limited(limit, whole, path, 0, 0);
	CHECK(status != 0, "the whole-file parse fits under the limit: the limit proves nothing");
	printf("streaming reader: read; whole-file parse: failed (status %d), as it should\n", status);
	unlink(path);
	return 0;
}
