/* Scratch files, program runs and results reading of the replay tests (testlib.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay_gen.h"
#include "testlib.h"

static char dir[512];
static char **paths;		/* test_path's strings, freed at exit */
static size_t path_count;

/* Removes everything under directory fd (not following links), then closes fd. */
static void remove_tree(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;

	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
			continue;
		}
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0) {
				remove_tree(sub);
			}
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		} else {
			unlinkat(dirfd(d), e->d_name, 0);
		}
	}
	closedir(d);
}

static void cleanup(void)
{
	int fd;

	for (size_t i = 0; i < path_count; i++) {
		free(paths[i]);
	}
	free(paths);
	if (!dir[0] || getenv("HWCT_KEEP_TEST_DIR")) {
		return;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		remove_tree(fd);
	}
	rmdir(dir);
}

const char *test_dir(void)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/hwct-replay-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		CHECK(mkdtemp(dir));
		atexit(cleanup);
	}
	return dir;
}

const char *test_path(const char *name)
{
	size_t size = strlen(test_dir()) + strlen(name) + 2;
	char *p = malloc(size);

	paths = realloc(paths, (path_count + 1) * sizeof(*paths));
	CHECK(p && paths);
	snprintf(p, size, "%s/%s", test_dir(), name);
	paths[path_count++] = p;
	return p;
}

bool test_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

const char *test_generated_trace(const char *name, uint32_t layers, uint32_t frames, uint32_t uncaptured)
{
	static char generated[8][1024];
	static unsigned next;
	char *path = generated[next++ % 8];
	struct gen_options o;
	int ret;

	snprintf(path, sizeof(generated[0]), "%s", test_path(name));
	gen_options_init(&o);
	o.layers = layers;
	o.frames = frames;
	o.uncaptured = uncaptured;
	ret = gen_write(path, &o);
	CHECK_MSG(ret == 0, "%s: %s", path, strerror(-ret));
	return path;
}

const char *test_reference_trace(const struct fixture *fx, const char *name)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/traces/%s.zst", fx->source_root, name);
	if (test_exists(path)) {
		return path;
	}
	fprintf(stderr, "note: %s is missing: replaying a generated stand-in\n", path);
	return test_generated_trace(name, 5, 120, GEN_NONE);
}

/* The whole file, NUL-terminated (files.h). Caller frees. */
static char *read_all(const char *path)
{
	size_t size;

	return (char *)test_read_file(path, &size);
}

void test_replay(const struct fixture *fx, struct test_run *run, const char *const *args)
{
	const char *argv[64];
	size_t n = 0;

	argv[n++] = fx->replay;
	for (size_t i = 0; args[i]; i++) {
		CHECK(n < 63);
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	test_run(run, argv);
	fprintf(stderr, "$ hwc-replay");
	for (size_t i = 1; i < n; i++) {
		fprintf(stderr, " %s", argv[i]);
	}
	fprintf(stderr, "\n  -> %d%s%s", run->status, run->err[0] ? "\n" : "", run->err);
	if (run->err[0] && run->err[strlen(run->err) - 1] != '\n') {
		fputc('\n', stderr);
	} else if (!run->err[0]) {
		fputc('\n', stderr);
	}
}

size_t test_line_count(const char *text)
{
	size_t n = 0;

	for (const char *p = text; *p; p++) {
		n += *p == '\n';
	}
	return n + (text[0] && text[strlen(text) - 1] != '\n');
}

bool test_contains(const char *haystack, const char *needle)
{
	return strstr(haystack, needle) != NULL;
}

struct json_object *test_results(const char *path)
{
	char *data = read_all(path);
	struct json_object *o = json_tokener_parse(data);

	CHECK_MSG(o && json_object_is_type(o, json_type_object), "%s: not a JSON object", path);
	free(data);
	return o;
}

struct json_object *test_get(struct json_object *o, ...)
{
	va_list args;
	const char *key;

	va_start(args, o);
	while (o && (key = va_arg(args, const char *))) {
		struct json_object *v = NULL;

		o = json_object_object_get_ex(o, key, &v) ? v : NULL;
	}
	va_end(args);
	return o;
}

struct json_object *test_frames(struct json_object *results)
{
	struct json_object *frames = test_get(results, "frames", NULL);

	CHECK(frames && json_object_is_type(frames, json_type_array));
	return frames;
}

static bool same_member(struct json_object *a, struct json_object *b, const char *key)
{
	struct json_object *x = test_get(a, key, NULL), *y = test_get(b, key, NULL);

	return json_object_equal(x, y) != 0;
}

bool test_same_frame(struct json_object *a, struct json_object *b)
{
	return same_member(a, b, "frame") && same_member(a, b, "plan") && same_member(a, b, "client_target_plane") &&
		same_member(a, b, "checksum") && same_member(a, b, "missing_content") &&
		same_member(a, b, "efficiency");
}

void test_write_json(const char *path, struct json_object *o)
{
	CHECK(json_object_to_file_ext(path, o, JSON_C_TO_STRING_PRETTY) == 0);
}

size_t test_dir_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = 0;

	CHECK_MSG(d, "%s: %s", path, strerror(errno));
	while ((e = readdir(d))) {
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	}
	closedir(d);
	return n;
}

struct json_object *test_replay_ok(const struct fixture *fx, const char *results, const char *const *args)
{
	const char *argv[40];
	struct test_run run;
	size_t n = 0;

	for (; args[n]; n++) {
		CHECK(n < 36);
		argv[n] = args[n];
	}
	argv[n++] = "--results";
	argv[n++] = results;
	argv[n] = NULL;
	test_replay(fx, &run, argv);
	CHECK_MSG(run.status == 0, "exit %d: %s", run.status, run.err);
	test_run_finish(&run);
	return test_results(results);
}

size_t test_frame_count(struct json_object *results)
{
	return json_object_array_length(test_frames(results));
}

struct json_object *test_frame_at(struct json_object *results, size_t i)
{
	return json_object_array_get_idx(test_frames(results), i);
}
