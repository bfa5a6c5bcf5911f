/*
 * The output directory of `hwc-trace extract` (extract.h), opened without
 * following a symbolic link in its place; files then go in only through
 * its descriptor (safe_dir_write(), common/safe_dir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
