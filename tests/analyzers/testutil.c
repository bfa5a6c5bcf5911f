/* Scratch files of the analyzer tests (testutil.h). */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static char dir[512];

const char *test_dir(void)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/hwct-analyzers-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		CHECK(mkdtemp(dir));
	}
	return dir;
}

static char **paths;
static size_t path_count;

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

void test_cleanup(void)
{
	DIR *d;
	struct dirent *e;

	if (!dir[0] || !(d = opendir(dir))) {
		return;
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			unlink(test_path(e->d_name));
		}
	}
	closedir(d);
	rmdir(dir);
	dir[0] = 0;
	for (size_t i = 0; i < path_count; i++) {
		free(paths[i]);
	}
	free(paths);
	paths = NULL;
	path_count = 0;
}

bool test_file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

size_t test_lines(char *text, char ***lines)
{
	size_t count = 0, cap = 64;
	char **v = malloc(cap * sizeof(*v));

	CHECK(v);
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		if (count == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
			CHECK(v);
		}
		v[count++] = p;
		if (!nl) {
			break;
		}
		*nl = 0;
		p = nl + 1;
	}
	*lines = v;
	return count;
}

bool test_contains(const char *haystack, const char *needle)
{
	return strstr(haystack, needle) != NULL;
}
