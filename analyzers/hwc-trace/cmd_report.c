/*
 * hwc-trace report: one self-contained HTML page with a trace and the
 * results of its replays — header, timeline, frame view, comparison
 * (report.h; the page's script is analyzers/report/report.js).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "cli.h"
#include "report.h"

enum {
	OPT_OUTPUT = 256,
	OPT_MAX_MESSAGES,
	OPT_MAX_IMAGE_BYTES,
};

static const struct cli_option options[] = {
	{ "output", 'o', true, OPT_OUTPUT },
	{ "max-messages", 0, true, OPT_MAX_MESSAGES },
	{ "max-image-bytes", 0, true, OPT_MAX_IMAGE_BYTES },
	{ NULL, 0, false, 0 },
};

/* A count with an optional K, M or G (powers of 1024). Returns false when malformed. */
static bool parse_size(const char *s, unsigned long long *out)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-') {
		return false;
	}
	for (const char *u = "KMG"; *end && *u; u++) {
		if (*end == *u) {
			if (n > UINT64_MAX >> (10 * (u - "KMG" + 1))) {
				return false;
			}
			n <<= 10 * (u - "KMG" + 1);
			end++;
			break;
		}
	}
	*out = n;
	return *end == '\0';
}

static int option(const struct cli_command *cmd, const struct cli_parser *p, int key, void *ctx)
{
	struct report_options *opts = ctx;
	unsigned long long n;

	switch (key) {
	case OPT_OUTPUT:
		opts->output = p->arg;
		break;
	case OPT_MAX_MESSAGES:
		if (!parse_size(p->arg, &n) || n > SIZE_MAX) {
			return cli_usage_error(cmd, "bad --max-messages '%s' (a count)", p->arg);
		}
		opts->max_messages = (size_t)n;
		break;
	case OPT_MAX_IMAGE_BYTES:
		if (!parse_size(p->arg, &n)) {
			return cli_usage_error(cmd, "bad --max-image-bytes '%s' (bytes, with K, M or G)", p->arg);
		}
		opts->max_image_bytes = n;
		break;
	}
	return 0;
}

/* A trace and any number of results (report_write_page() reads them all), and -o. */
static int check(const struct cli_command *cmd, const struct cli_parser *p, void *ctx)
{
	const struct report_options *opts = ctx;

	if (p->positional_count < 1) {
		return cli_usage_error(cmd, "no trace file given");
	}
	if (!opts->output || !opts->output[0]) {
		return cli_usage_error(cmd, "no output file given (-o OUT.html)");
	}
	return 0;
}

static const struct cli_run_args run_args = {
	.options = options,
	.option = option,
	.check = check,
};

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct report_options opts = { .max_messages = 2000, .max_image_bytes = 8ull << 20 };
	struct cli_run run;
	int ret = cli_run_begin(&run, cmd, &run_args, argc, argv, &opts);

	if (ret != CLI_CONTINUE) {
		return ret;
	}
	opts.results = run.p.positional + 1;
	opts.result_count = run.p.positional_count - 1;
	ret = report_write_page(run.p.positional[0], &opts);
	cli_run_end(&run);
	return ret;
}

const struct cli_command cmd_report = {
	.name = "report",
	.summary = "one self-contained HTML page of a trace and its replays",
	.synopsis = "TRACE [RESULTS.json ...] -o OUT.html [--max-messages N] [--max-image-bytes SIZE]",
	.options = "  TRACE and the hwc-replay results files of its replays; the page opens from disk\n"
		"  with no network: header, timeline of every frame, frame view (layers to scale,\n"
		"  coloured by plane), and with two or more results the comparison of the first\n"
		"  with each other one, as `hwc-trace diff A B` makes it.\n"
		"  -o, --output FILE     the HTML file to write (replaced atomically)\n"
		"  --max-messages N      difference lines kept per comparison (default 2000; every\n"
		"                        differing frame is marked whatever N)\n"
		"  --max-image-bytes SIZE  pictures of `hwc-replay --dump-images` runs embedded, the\n"
		"                        differing frames first, then sampled ones (default 8M, 0 none)\n",
	.run = run,
};
