/* Files written into a directory only through its descriptor (safe_dir.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_dir.h"

int safe_dir_write(int dirfd, const char *name, int (*write)(FILE *f, void *ctx), void *ctx)
{
	static unsigned counter;
	char tmp[SAFE_DIR_NAME_MAX + 60];	/* "." name "." pid "." counter ".tmp" */
	FILE *f;
	int fd = -1, ret;

	if (!name[0] || strchr(name, '/') || strlen(name) > SAFE_DIR_NAME_MAX || name[0] == '.') {
		return -EINVAL;
	}
	for (unsigned tries = 0; tries < 100 && fd < 0; tries++) {
		snprintf(tmp, sizeof(tmp), ".%s.%ld.%u.tmp", name, (long)getpid(), counter++);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST) {
			return -errno;
		}
	}
	if (fd < 0) {
		return -EEXIST;
	}
	f = fdopen(fd, "wb");
	if (!f) {
		ret = -errno;
		close(fd);
		unlinkat(dirfd, tmp, 0);
		return ret;
	}
	ret = write(f, ctx);
	if (fflush(f) != 0 && ret == 0) {
		ret = -errno;
	}
	if (ferror(f) && ret == 0) {
		ret = -EIO;
	}
	if (fclose(f) != 0 && ret == 0) {
		ret = -errno;
	}
	if (ret == 0 && renameat(dirfd, tmp, dirfd, name) != 0) {
		ret = -errno;
	}
	if (ret < 0) {
		unlinkat(dirfd, tmp, 0);
	}
	return ret;
}

#define COMPONENT_MAX 256

/* Opens component c of path under fd; creates it when asked. Returns the fd or -errno (msg set). */
static int open_component(int fd, const char *c, bool create, const char *path, char *msg, size_t size)
{
	int nfd = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int code = nfd < 0 ? -errno : 0;
	struct stat st;

	if (nfd < 0 && code == -ENOENT && create) {
		if (mkdirat(fd, c, 0777) != 0 && errno != EEXIST) {
			code = -errno;
			snprintf(msg, size, "%s: cannot create it: %s", path, strerror(-code));
			return code;
		}
		nfd = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		code = nfd < 0 ? -errno : 0;
	}
	if (nfd >= 0) {
		return nfd;
	}
	if (code != -ENOENT && fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(msg, size, "%s: '%s' is a symbolic link (refused: files are never written "
				"through links)", path, c);
			return -ELOOP;
		}
		if (!S_ISDIR(st.st_mode)) {
			snprintf(msg, size, "%s: '%s' is not a directory", path, c);
			return -ENOTDIR;
		}
	}
	snprintf(msg, size, "%s: '%s': %s", path, c, strerror(-code));
	return code;
}

int safe_dir_open(const char *path, bool create, char *msg, size_t size)
{
	const char *p = path;
	int fd;

	if (!path[0]) {
		snprintf(msg, size, "empty directory name");
		return -EINVAL;
	}
	fd = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int code = -errno;

		snprintf(msg, size, "%s: %s", path, strerror(-code));
		return code;
	}
	while (*p) {
		char c[COMPONENT_MAX];
		size_t len = strcspn(p, "/");
		int nfd;

		if (len == 0) {
			p++;
			continue;
		}
		if (len >= sizeof(c)) {
			close(fd);
			snprintf(msg, size, "%s: a path component is too long", path);
			return -ENAMETOOLONG;
		}
		memcpy(c, p, len);
		c[len] = '\0';
		p += len;
		nfd = open_component(fd, c, create && p[strspn(p, "/")] == '\0', path, msg, size);
		close(fd);
		if (nfd < 0) {
			return nfd;
		}
		fd = nfd;
	}
	return fd;
}
