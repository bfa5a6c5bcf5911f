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

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct report_options opts = { .max_messages = 2000, .max_image_bytes = 8ull << 20 };
	struct cli_parser p;
	unsigned long long n;
	int key, ret = CLI_EXIT_USAGE;

	if (cli_parse_init(&p, cmd, options, argc, argv) < 0) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	while ((key = cli_parse_next(&p)) > 0 || key == CLI_KEY_HELP) {
		switch (key) {
		case CLI_KEY_HELP:
			cli_print_command_help(stdout, cmd);
			cli_parse_finish(&p);
			return CLI_EXIT_OK;
		case OPT_OUTPUT:
			opts.output = p.arg;
			break;
		case OPT_MAX_MESSAGES:
			if (!parse_size(p.arg, &n) || n > SIZE_MAX) {
				cli_usage_error(cmd, "bad --max-messages '%s' (a count)", p.arg);
				goto out;
			}
			opts.max_messages = (size_t)n;
			break;
		case OPT_MAX_IMAGE_BYTES:
			if (!parse_size(p.arg, &n)) {
				cli_usage_error(cmd, "bad --max-image-bytes '%s' (bytes, with K, M or G)", p.arg);
				goto out;
			}
			opts.max_image_bytes = n;
			break;
		default:
			break;
		}
	}
	if (key < 0) {
		goto out;
	}
	if (p.positional_count < 1) {
		cli_usage_error(cmd, "no trace file given");
		goto out;
	}
	if (!opts.output || !opts.output[0]) {
		cli_usage_error(cmd, "no output file given (-o OUT.html)");
		goto out;
	}
	opts.results = p.positional + 1;
	opts.result_count = p.positional_count - 1;
	ret = report_write_page(p.positional[0], &opts);
out:
	cli_parse_finish(&p);
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
