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

#include "read_file.h"
#include "hwct_config.h"
#include "winscope.h"

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

int winscope_import_data_file(const uint8_t *data, size_t size, const char *in_path, const char *out_path,
	const struct winscope_options *opts, struct winscope_report *rep, struct hwct_error *err)
{
	struct winscope_options defaults;
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
	if (!opts) {
		winscope_options_init(&defaults);
		opts = &defaults;
	}
	wo.pixels = !opts->no_pixels;
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
	ret = hwct_read_file(in_path, opts->max_input, &data, &size, err);
	if (ret < 0) {
		return ret;
	}
	ret = winscope_import_data_file(data, size, in_path, out_path, opts, rep, err);
	free(data);
	return ret;
}
