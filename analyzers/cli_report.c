/* The report commands' run(): `NAME FILE [--json]`, collect, print (cli.h). */
#include <hwct/reader.h>

#include "cli.h"

enum {
	OPT_JSON = 256,
};

static const struct cli_option report_options[] = {
	{ "json", 0, false, OPT_JSON },
	{ NULL, 0, false, 0 },
};

int cli_run_report(const struct cli_command *cmd, int argc, char **argv,
	const struct cli_report_impl *impl, void *facts)
{
	const struct hwct_error *stopped;
	bool unfinished;
	struct cli_parser p;
	struct hwct_reader *r;
	struct hwct_error err;
	bool json = false;
	int key, got, ret = CLI_EXIT_USAGE;

	if (cli_parse_init(&p, cmd, report_options, argc, argv) < 0) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	while ((key = cli_parse_next(&p)) > 0 || key == CLI_KEY_HELP) {
		if (key == CLI_KEY_HELP) {
			cli_print_command_help(stdout, cmd);
			cli_parse_finish(&p);
			return CLI_EXIT_OK;
		}
		json = key == OPT_JSON ? true : json;
	}
	if (key < 0) {
		goto out;
	}
	if (p.positional_count != 1) {
		cli_usage_error(cmd, p.positional_count ? "too many arguments" : "no trace file given");
		goto out;
	}
	if (json && !impl->print_json) {
		ret = cli_no_json(cmd);
		goto out;
	}
	r = hwct_reader_open(p.positional[0], &err);
	if (!r) {
		cli_error("%s", err.message);
		ret = CLI_EXIT_FAILURE;
		goto out;
	}
	got = impl->collect(r, facts);
	stopped = impl->stopped(facts);
	/* an unfinished trace read to its cut end: everything complete was read (docs: EXIT STATUS) */
	unfinished = stopped && hwct_reader_error_at_cut_end(r);
	ret = got < 0 && !unfinished ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	if (json && impl->print_json(stdout, p.positional[0], facts) < 0) {
		cli_error("out of memory");
		ret = CLI_EXIT_FAILURE;
	}
	if (!json) {
		impl->print_text(stdout, p.positional[0], facts);
		if (stopped) {
			fputs(unfinished ? "\n(unfinished: its writer did not finish; every complete frame was read)\n" :
				"\n(incomplete: reading stopped at the error below)\n", stdout);
		}
	}
	if (unfinished) {
		cli_warning("%s (the writer did not finish)", stopped->message);
	} else if (stopped) {
		cli_error("%s", stopped->message);
	}
	impl->finish(facts);
	hwct_reader_destroy(r);
out:
	cli_parse_finish(&p);
	return ret;
}
