/* Scratch files (testlib.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

static char dir[256];

static void remove_dir(void)
{
	char cmd[300];

	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0) {
			fprintf(stderr, "could not remove %s\n", dir);
		}
	}
}

const char *test_dir(void)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/hwct-winscope-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		CHECK_MSG(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
		atexit(remove_dir);
	}
	return dir;
}

char *test_path(const char *name)
{
	size_t n = strlen(test_dir()) + strlen(name) + 2;
	char *p = malloc(n);

	CHECK(p);
	snprintf(p, n, "%s/%s", test_dir(), name);
	return p;	/* small and few: the test's lifetime */
}

bool test_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}
