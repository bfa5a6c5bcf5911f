/* The image directory, opened without following links (replay_dir.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay_dir.h"

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
			snprintf(msg, size, "%s: '%s' is a symbolic link (refused: images are never written "
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

int replay_dir_open(const char *path, bool create, char *msg, size_t size)
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

bool replay_dir_valid_name(const char *name)
{
	static const char prefix[] = "frame-";
	size_t len = strlen(name), digits;

	if (len < sizeof(prefix) - 1 + 1 + 4 || len > 64 || strncmp(name, prefix, sizeof(prefix) - 1) != 0 ||
		strcmp(name + len - 4, ".png") != 0) {
		return false;
	}
	digits = strspn(name + sizeof(prefix) - 1, "0123456789");
	if (digits == 0) {
		return false;
	}
	for (const char *q = name + sizeof(prefix) - 1 + digits; q < name + len - 4; q++) {
		if (!((*q >= 'a' && *q <= 'z') || *q == '-')) {
			return false;	/* only "-expected" style suffixes */
		}
	}
	return true;
}
