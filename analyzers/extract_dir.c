/*
 * The output directory of `hwc-trace extract` (extract.h): every file goes
 * in through the directory's descriptor under a fresh temporary name and
 * is renamed over its real name, so nothing is written through a symbolic
 * link planted in the directory and nothing lands outside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract.h"

int extract_dir_open(const char *path, char *msg, size_t size)
{
	struct stat st;
	int fd, code;

	if (!path[0]) {
		snprintf(msg, size, "empty directory name");
		return -EINVAL;
	}
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		code = -errno;
		snprintf(msg, size, "%s: cannot create it: %s", path, strerror(errno));
		return code;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		return fd;
	}
	code = -errno;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		snprintf(msg, size, "%s: is a symbolic link (refused: files are never written through links)", path);
		return -ELOOP;
	}
	snprintf(msg, size, "%s: %s", path, code == -ENOTDIR ? "not a directory" : strerror(-code));
	return code;
}

int extract_dir_write(int dirfd, const char *name, int (*write)(FILE *f, void *ctx), void *ctx)
{
	static unsigned counter;
	char tmp[160];
	FILE *f;
	int fd = -1, ret;

	if (!name[0] || strchr(name, '/') || strlen(name) > 100 || name[0] == '.') {
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
