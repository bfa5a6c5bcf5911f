/*
 * fd-at-exit.so: preloaded into a program (LD_PRELOAD), it writes the file
 * descriptors the program still holds when it exits to the file named by
 * HWCT_FD_AT_EXIT, one "FD TARGET" line each (TARGET as readlink gives it),
 * so a test can check that a process ends with no descriptor left over.
 * Only the process that loaded it writes: a fork()ed child (hwc-replay
 * --hwc2's supervised replay) shares the mapping but not the pid, and a
 * child killed or crashed runs no exit code anyway. Nothing is written when
 * HWCT_FD_AT_EXIT is unset.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pid_t loader_pid;

/* __attribute__ is a GNU extension: the one way to run at load and at exit without the program's help. */
__attribute__((constructor)) static void remember_pid(void)
{
	loader_pid = getpid();
}

__attribute__((destructor)) static void list_fds(void)
{
	const char *path = getenv("HWCT_FD_AT_EXIT");
	struct dirent *e;
	FILE *out;
	DIR *dir;

	if (!path || !*path || getpid() != loader_pid) {
		return;
	}
	dir = opendir("/proc/self/fd");
	if (!dir) {
		return;
	}
	/* opened after the directory: both are left out of the list below */
	out = fopen(path, "w");
	if (!out) {
		closedir(dir);
		return;
	}
	while ((e = readdir(dir)) != NULL) {
		char link[64], target[PATH_MAX];
		ssize_t n;
		int fd;

		if (e->d_name[0] == '.') {
			continue;
		}
		fd = atoi(e->d_name);
		if (fd == dirfd(dir) || fd == fileno(out)) {
			continue;
		}
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		fprintf(out, "%d %s\n", fd, target);
	}
	closedir(dir);
	fclose(out);
}
