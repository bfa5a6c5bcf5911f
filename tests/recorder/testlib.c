/* The robustness tests' checks, scratch directory and main (testlib.h). */
#define _GNU_SOURCE	/* mkdtemp(), nftw() */
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

struct check_tally check_tally;
static char workdir[256];

const char *test_env(const char *name)
{
	const char *v = getenv(name);

	if (!v) {
		fprintf(stderr, "%s is not set (run through meson test)\n", name);
		exit(2);
	}
	return v;
}

const char *test_path(const char *name)
{
	static char buf[8][512];
	static unsigned next;
	char *p = buf[next++ % 8];

	snprintf(p, sizeof(buf[0]), "%s/%s", workdir, name);
	return p;
}

char *test_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		return NULL;
	}
	for (;;) {
		size_t got;

		if (cap - n < 65536) {
			char *more = realloc(buf, cap ? cap * 2 : 65536);

			if (!more) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = more;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0) {
			break;
		}
	}
	fclose(f);
	buf[n] = '\0';
	if (size) {
		*size = n;
	}
	return buf;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int test_main(int argc, char **argv, const struct test_case *cases, size_t count)
{
	const struct test_case *tc = NULL;
	int ret;

	for (size_t i = 0; argc == 2 && i < count; i++) {
		if (strcmp(argv[1], cases[i].name) == 0) {
			tc = &cases[i];
		}
	}
	if (!tc) {
		fprintf(stderr, "usage: %s CASE (no case %s)\n", argv[0], argc > 1 ? argv[1] : "given");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(workdir, sizeof(workdir), "/tmp/hwct-robust-XXXXXX");
	if (!mkdtemp(workdir)) {
		perror("mkdtemp");
		return 2;
	}
	ret = tc->run();
	if (getenv("HWCT_TEST_KEEP")) {
		fprintf(stderr, "kept %s\n", workdir);
	} else {
		nftw(workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	if (ret != 0) {
		return ret;	/* skipped, or could not run */
	}
	return check_status();
}
