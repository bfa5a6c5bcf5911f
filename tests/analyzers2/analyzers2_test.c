/*
 * analyzers2-test HWC_TRACE SOURCE_ROOT CASE [HWC_REPLAY]: runs one named
 * case of hwc-trace stats, diff, export, extract or trim against traces the
 * case writes itself (gen2.c). Without HWC_REPLAY the replay case skips.
 */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests2.h"

static const struct {
	const char *name;
	int (*run)(const struct env2 *env);
} cases[] = {
	{ "stats-text", test_stats_text },
	{ "stats-json", test_stats_json },
	{ "diff-equal", test_diff_equal },
	{ "diff-traces", test_diff_traces },
	{ "diff-errors", test_diff_errors },
	{ "diff-results", test_diff_results },
	{ "diff-agreement", test_diff_agreement },
	{ "export-chrome", test_export_chrome },
	{ "extract-files", test_extract_files },
	{ "extract-symlinks", test_extract_symlinks },
	{ "extract-errors", test_extract_errors },
	{ "trim-middle", test_trim_middle },
	{ "trim-start", test_trim_start },
	{ "trim-errors", test_trim_errors },
	{ "trim-replay", test_trim_replay },
};

void run_tool(const struct env2 *env, struct test_run *run, const char *const *args)
{
	const char *argv[32] = { env->tool };
	size_t n = 1;

	for (size_t i = 0; args[i]; i++) {
		CHECK(n + 1 < sizeof(argv) / sizeof(argv[0]));
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	test_run(run, argv);
}

struct json_object *parse_json(const char *text, const char *what)
{
	enum json_tokener_error e;
	struct json_object *o = json_tokener_parse_verbose(text, &e);

	CHECK_MSG(o, "%s is not JSON (%s):\n%.400s", what, json_tokener_error_desc(e), text);
	return o;
}

struct json_object *json_at(struct json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t len = strcspn(path, ".");

		CHECK(len < sizeof(key));
		memcpy(key, path, len);
		key[len] = '\0';
		if (!json_object_object_get_ex(o, key, &o)) {
			return NULL;
		}
		path += len + (path[len] == '.');
	}
	return o;
}

int64_t json_int_at(struct json_object *o, const char *path)
{
	struct json_object *v = json_at(o, path);

	CHECK_MSG(json_object_is_type(v, json_type_int), "%s: not an integer", path);
	return json_object_get_int64(v);
}

double json_double_at(struct json_object *o, const char *path)
{
	struct json_object *v = json_at(o, path);

	CHECK_MSG(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int),
		"%s: not a number", path);
	return json_object_get_double(v);
}

const char *std_trace(const char *name, bool variant, struct gen2_info *info)
{
	struct gen2_options o = { .frames = STD_FRAMES, .displays = 1, .keyframe_interval = 4, .variant = variant };
	const char *path = test_path(name);

	gen2_write(path, &o, info);
	return path;
}

/* Removes what path holds, directories included, never following links; then path if a directory. */
static void remove_tree(const char *path)
{
	struct dirent *e;
	struct stat st;
	char child[1024];
	DIR *d;

	if (lstat(path, &st) != 0) {
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
			remove_tree(child);
		}
	}
	if (d) {
		closedir(d);
	}
	rmdir(path);
}

int main(int argc, char **argv)
{
	struct env2 env;
	int ret;

	if (argc < 4) {
		fprintf(stderr, "usage: %s HWC_TRACE SOURCE_ROOT CASE [HWC_REPLAY]\n", argv[0]);
		return 2;
	}
	env = (struct env2){ argv[1], argc > 4 ? argv[4] : NULL, argv[2] };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].name, argv[3]) == 0) {
			ret = cases[i].run(&env);
			remove_tree(test_dir());
			test_cleanup();
			return ret;
		}
	}
	fprintf(stderr, "unknown case '%s'\n", argv[3]);
	return 2;
}
