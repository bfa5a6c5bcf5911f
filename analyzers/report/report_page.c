/*
 * Writing the report page (report.h): one HTML file holding the style, the
 * data as a JSON document in <script type="application/json"> and the
 * script that draws it. The Content-Security-Policy forbids every fetch:
 * the page works from disk, offline. The file goes in through its
 * directory's descriptor under a temporary name (safe_dir.h), so a failed
 * run leaves no half-written page.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwct/reader.h>

#include "cli.h"
#include "report.h"
#include "safe_dir.h"

struct page {
	const struct report_trace *trace;
	const struct report_options *opts;
	char msg[600];
};

static int write_page(FILE *f, void *ctx)
{
	struct page *p = ctx;
	int ret;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>hwc-trace report</title>\n<style>\n", f);
	fputs(report_asset_css, f);
	fputs("</style>\n</head>\n<body>\n<noscript>This report needs JavaScript.</noscript>\n"
		"<script type=\"application/json\" id=\"hwct-data\">\n{\"report_version\":1,\n", f);
	ret = report_write_trace(f, p->trace);
	if (ret == 0) {
		ret = report_write_results(f, p->opts, p->msg, sizeof(p->msg));
		if (ret < 0 && !p->msg[0]) {
			snprintf(p->msg, sizeof(p->msg), "%s", strerror(-ret));
		}
	}
	if (ret < 0) {
		return ret;
	}
	fputs("}\n</script>\n<script>\n", f);
	fputs(report_asset_js, f);
	fputs("</script>\n</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* Opens the directory of path; *name points into copy at the file name. Returns the fd or -errno. */
static int open_parent(const char *path, char **copy, char **dir_copy, const char **name)
{
	int fd;

	*copy = strdup(path);
	*dir_copy = strdup(path);
	if (!*copy || !*dir_copy) {
		return -ENOMEM;
	}
	*name = basename(*copy);
	fd = open(dirname(*dir_copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

int report_write_page(const char *trace_path, const struct report_options *opts)
{
	struct report_trace trace = { .path = trace_path };
	struct page p = { .trace = &trace, .opts = opts };
	struct hwct_reader *r;
	struct hwct_error err;
	char *copy = NULL, *dir_copy = NULL;
	const char *name = NULL;
	bool complete;
	int dirfd, ret;

	r = hwct_reader_open(trace_path, &err);
	if (!r) {
		cli_error("%s", err.message);
		return CLI_EXIT_FAILURE;
	}
	ret = report_collect_trace(r, &trace);
	if (ret == -ENOMEM) {
		cli_error("out of memory");
		report_trace_finish(&trace);
		hwct_reader_destroy(r);
		return CLI_EXIT_FAILURE;
	}
	if (!trace.complete) {
		cli_error("%s (the report shows the frames before it)", trace.error.message);
	}
	dirfd = open_parent(opts->output, &copy, &dir_copy, &name);
	if (dirfd < 0) {
		cli_error("%s: %s", opts->output, strerror(-dirfd));
		ret = dirfd;
	} else {
		ret = safe_dir_write(dirfd, name, write_page, &p);
		if (ret < 0) {
			cli_error("%s: %s", p.msg[0] ? p.msg : opts->output, p.msg[0] ? "no report written" :
				strerror(-ret));
		}
		close(dirfd);
	}
	free(copy);
	free(dir_copy);
	complete = trace.complete;
	report_trace_finish(&trace);
	hwct_reader_destroy(r);
	return ret < 0 || !complete ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}
