/* Trace file creation (output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "output.h"

#define MAX_TRIES 10000

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Splits path into its directory (into dir) and its last component. */
static const char *split(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, size, ".");
		return path;
	}
	if (slash == path) {
		snprintf(dir, size, "/");
	} else {
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
	}
	return slash + 1;
}

/*
 * Opens an explicit file path without ever blocking the calling thread (the
 * client's, at device open): open() of a FIFO for writing waits for a
 * reader, so it is tried O_NONBLOCK, and a FIFO without a reader (ENXIO) is
 * opened O_RDWR, which Linux never blocks on: a reader may come later, and
 * until one reads, only the writer's own threads wait in write(). The writer
 * writes with blocking writes: O_NONBLOCK is cleared again.
 */
static int open_file(const char *path)
{
	struct stat st;
	int fd, flags;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	if (fd < 0 && errno == ENXIO) {
		fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))) {
			close(fd);
			return -ENXIO;
		}
	}
	if (fd < 0) {
		return -errno;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

/* Creates "<prefix>-<n>.zst" in dirfd, the first n >= *n that is free. */
static int create_numbered(int dirfd, const char *dir, const char *prefix, unsigned *n,
	char *path, size_t size)
{
	for (unsigned k = *n; k < *n + MAX_TRIES; k++) {
		char name[512];
		int fd;

		if ((size_t)snprintf(name, sizeof(name), "%s-%u.zst", prefix, k) >= sizeof(name)) {
			return -ENAMETOOLONG;
		}
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0) {
			*n = k + 1;
			snprintf(path, size, "%s/%s", dir, name);
			return fd;
		}
		if (errno != EEXIST) {
			return -errno;
		}
	}
	return -EEXIST;
}

int rec_output_open(const struct rec_config *cfg, unsigned *n, char *path, size_t size)
{
	const char *out = cfg->output;
	char dir[4096], prefix[512];
	const char *base;
	int dirfd, fd;

	if (is_dir(out)) {
		snprintf(dir, sizeof(dir), "%s", out);
		snprintf(prefix, sizeof(prefix), "hwctrace-%ld", (long)getpid());
	} else {
		size_t len = strlen(out);

		if (len && out[len - 1] == '/') {
			return -ENOENT;	/* meant as a directory that is not there */
		}
		base = split(out, dir, sizeof(dir));
		if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
			return -EINVAL;
		}
		if (*n == 0) {
			fd = open_file(out);
			if (fd < 0) {
				return fd;
			}
			*n = 1;
			snprintf(path, size, "%s", out);
			return fd;
		}
		len = strlen(base);
		if (len > 4 && strcmp(base + len - 4, ".zst") == 0) {
			len -= 4;
		}
		snprintf(prefix, sizeof(prefix), "%.*s", (int)len, base);
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		return -errno;
	}
	fd = create_numbered(dirfd, dir, prefix, n, path, size);
	close(dirfd);
	return fd;
}

int rec_output_check(const struct rec_config *cfg)
{
	char dir[4096];
	const char *base;

	if (is_dir(cfg->output)) {
		snprintf(dir, sizeof(dir), "%s", cfg->output);
	} else {
		base = split(cfg->output, dir, sizeof(dir));
		if (!*base) {
			return -ENOENT;
		}
		if (!is_dir(dir)) {
			return -ENOENT;
		}
	}
	return access(dir, W_OK | X_OK) == 0 ? 0 : -errno;
}
