/* Scratch files and program runs of the analyzer tests (testutil.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

uint8_t *test_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long n;

	CHECK_MSG(f, "%s: %s", path, strerror(errno));
	CHECK(fseek(f, 0, SEEK_END) == 0);
	n = ftell(f);
	CHECK(n >= 0 && fseek(f, 0, SEEK_SET) == 0);
	data = malloc((size_t)n + 1);
	CHECK(data);
	CHECK(fread(data, 1, (size_t)n, f) == (size_t)n);
	data[n] = 0;
	fclose(f);
	*size = (size_t)n;
	return data;
}

void test_write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	CHECK_MSG(f, "%s: %s", path, strerror(errno));
	CHECK(fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
}

bool test_file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

void test_run(struct test_run *run, const char *const *argv)
{
	const char *out_path = test_path(".run-out"), *err_path = test_path(".run-err");
	int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int status;
	size_t err_size;
	pid_t pid;

	CHECK(out >= 0 && err >= 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(out);
	close(err);
	CHECK(waitpid(pid, &status, 0) == pid);
	run->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	run->out = (char *)test_read_file(out_path, &run->out_size);
	run->err = (char *)test_read_file(err_path, &err_size);
	unlink(out_path);
	unlink(err_path);
}

void test_run_finish(struct test_run *run)
{
	free(run->out);
	free(run->err);
	*run = (struct test_run){ 0 };
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
