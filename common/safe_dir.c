/* Files written into a directory only through its descriptor (safe_dir.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
