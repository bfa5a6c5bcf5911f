/*
 * winscope_import_file() (winscope.h): reads the input whole, writes the
 * trace to a temporary file in the output's directory and renames it over
 * the output once it is complete, so nothing is written anywhere else and
 * a failed import leaves no partial trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwct_config.h"
#include "winscope.h"

#define READ_CHUNK (1u << 20)

static int read_all(const char *path, uint64_t limit, uint8_t **out, size_t *size, struct hwct_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint8_t *data = NULL;
	size_t len = 0, cap = 0;
	struct stat st;

	if (fd < 0) {
		return hwct_error_set(err, -errno, path, UINT64_MAX, "cannot open: %s", strerror(errno));
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return hwct_error_set(err, -EISDIR, path, UINT64_MAX, "is a directory");
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			size_t grow = cap ? cap : READ_CHUNK;
			uint8_t *p;

			if (cap >= limit) {
				free(data);
				close(fd);
				return hwct_error_set(err, -EFBIG, path, UINT64_MAX,
					"larger than the limit of %" PRIu64 " bytes", limit);
			}
			p = realloc(data, cap + grow);
			if (!p) {
				free(data);
				close(fd);
				return hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
			}
			data = p;
			cap += grow;
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
		return hwct_error_set(err, -EFBIG, path, UINT64_MAX, "larger than the limit of %" PRIu64 " bytes",
			limit);
	}
	*out = data;
	*size = len;
	return 0;
}

/* "DIR/.NAME.XXXXXX" for out = "DIR/NAME". */
static char *temp_template(const char *out)
{
	const char *slash = strrchr(out, '/');
	size_t dir = slash ? (size_t)(slash - out) + 1 : 0;
	size_t len = strlen(out) + 16;
	char *t = malloc(len);

	if (t) {
		snprintf(t, len, "%.*s.%s.XXXXXX", (int)dir, out, out + dir);
	}
	return t;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int write_trace(const uint8_t *data, size_t size, const char *in_path, const char *out_path,
	const struct winscope_options *opts, struct winscope_report *rep, struct hwct_error *err)
{
	struct hwct_writer_options wo;
	struct hwct_writer *w;
	char *tmp = temp_template(out_path);
	mode_t mask;
	int fd, ret, closed;

	if (!tmp) {
		return hwct_error_set(err, -ENOMEM, out_path, UINT64_MAX, "out of memory");
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = hwct_error_set(err, -errno, out_path, UINT64_MAX, "cannot create a file in its directory: %s",
			strerror(errno));
		free(tmp);
		return ret;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	hwct_writer_options_init(&wo);
	wo.writer_name = "hwc-trace import-winscope " HWCT_VERSION;
	wo.pixel_level = 3;
	wo.pixels = !opts || !opts->no_pixels;
	w = hwct_writer_create_fd(fd, &wo);
	if (!w) {
		ret = hwct_error_set(err, -errno, out_path, UINT64_MAX, "cannot start the trace: %s", strerror(errno));
		close(fd);
		goto fail;
	}
	ret = winscope_import(data, size, in_path, w, opts, rep, err);
	closed = hwct_writer_close(w);
	if (ret == 0 && closed < 0) {
		ret = hwct_error_set(err, closed, out_path, UINT64_MAX, "writing: %s", strerror(-closed));
	}
	if (ret == 0 && rename(tmp, out_path) < 0) {
		ret = hwct_error_set(err, -errno, out_path, UINT64_MAX, "cannot rename %s to it: %s", tmp,
			strerror(errno));
	}
	if (ret == 0) {
		free(tmp);
		return 0;
	}
fail:
	unlink(tmp);
	free(tmp);
	return ret;
}

int winscope_import_file(const char *in_path, const char *out_path, const struct winscope_options *opts,
	struct winscope_report *rep, struct hwct_error *err)
{
	struct winscope_options defaults;
	uint8_t *data = NULL;
	size_t size = 0;
	int ret;

	hwct_error_clear(err);
	if (!opts) {
		winscope_options_init(&defaults);
		opts = &defaults;
	}
	if (same_file(in_path, out_path)) {
		return hwct_error_set(err, -EEXIST, out_path, UINT64_MAX, "is the input itself");
	}
	ret = read_all(in_path, opts->max_input, &data, &size, err);
	if (ret < 0) {
		return ret;
	}
	ret = write_trace(data, size, in_path, out_path, opts, rep, err);
	free(data);
	return ret;
}
