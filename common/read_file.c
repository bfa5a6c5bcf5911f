/* A whole file under a size limit (read_file.h). */
#include "read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK (1u << 20)

static int fail(int fd, uint8_t *data, int code, struct hwct_error *err, const char *path, uint64_t offset,
	const char *what, uint64_t limit)
{
	free(data);
	close(fd);
	if (code == -EFBIG) {
		return hwct_error_set(err, code, path, offset, "larger than the limit of %" PRIu64 " bytes", limit);
	}
	return hwct_error_set(err, code, path, offset, "%s", what);
}

int hwct_read_file(const char *path, uint64_t limit, uint8_t **out, size_t *size, struct hwct_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint8_t *data = NULL;
	size_t len = 0, cap = 0;
	struct stat st;

	if (fd < 0) {
		return hwct_error_set(err, -errno, path, UINT64_MAX, "cannot open: %s", strerror(errno));
	}
	if (fstat(fd, &st) != 0) {
		st.st_mode = 0;	/* read as a stream */
	}
	if (S_ISDIR(st.st_mode)) {
		return fail(fd, NULL, -EISDIR, err, path, UINT64_MAX, "is a directory", limit);
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size <= limit) {
		cap = (size_t)st.st_size + 1;	/* one read past the end sees it end: no copies as it grows */
		data = malloc(cap);
		if (!data) {
			return fail(fd, NULL, -ENOMEM, err, path, UINT64_MAX, "out of memory", limit);
		}
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *p;

			if (cap > limit) {
				return fail(fd, data, -EFBIG, err, path, UINT64_MAX, NULL, limit);
			}
			p = realloc(data, cap + READ_CHUNK);
			if (!p) {
				return fail(fd, data, -ENOMEM, err, path, UINT64_MAX, "out of memory", limit);
			}
			data = p;
			cap += READ_CHUNK;
		}
		n = read(fd, data + len, cap - len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			int e = errno;

			free(data);
			close(fd);
			return hwct_error_set(err, -e, path, len, "read error: %s", strerror(e));
		}
		if (n == 0) {
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (len > limit) {
		free(data);
		return hwct_error_set(err, -EFBIG, path, UINT64_MAX, "larger than the limit of %" PRIu64 " bytes", limit);
	}
	*out = data;
	*size = len;
	return 0;
}
