/*
 * hwc-trace report: one self-contained HTML page with a trace and the
 * results of its replays — header, timeline, frame view, comparison
 * (report.h; the page's script is analyzers/report/report.js).
 */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"
#include "report.h"

enum {
	OPT_OUTPUT = 256,
	OPT_MAX_MESSAGES,
};

static const struct cli_option options[] = {
	{ "output", 'o', true, OPT_OUTPUT },
	{ "max-messages", 0, true, OPT_MAX_MESSAGES },
	{ NULL, 0, false, 0 },
};

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct report_options opts = { .max_messages = 2000 };
	struct cli_parser p;
	unsigned long long n;
	char *end;
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
			errno = 0;
			n = strtoull(p.arg, &end, 10);
			if (errno || end == p.arg || *end || p.arg[0] == '-') {
				cli_usage_error(cmd, "bad --max-messages '%s' (a count)", p.arg);
				goto out;
			}
			opts.max_messages = (size_t)n;
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
	.synopsis = "TRACE [RESULTS.json ...] -o OUT.html [--max-messages N]",
	.options = "  TRACE and the hwc-replay results files of its replays; the page opens from disk\n"
		"  with no network: header, timeline of every frame, frame view (layers to scale,\n"
		"  coloured by plane), and with two or more results the comparison of the first\n"
		"  with each other one, as `hwc-trace diff A B` makes it.\n"
		"  -o, --output FILE     the HTML file to write (replaced atomically)\n"
		"  --max-messages N      difference lines kept per comparison (default 2000; every\n"
		"                        differing frame is marked whatever N)\n",
	.run = run,
};
