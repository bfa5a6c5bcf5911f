/* The report commands' run(): `NAME FILE [--json] [--display ID]`, collect, print (cli.h). */
#include <stdlib.h>

#include <hwct/reader.h>

#include "cli.h"

static const struct cli_option report_options[] = {
	{ "json", 0, false, CLI_KEY_JSON },
	{ NULL, 0, false, 0 },
};

static const struct cli_option display_options[] = {
	{ "json", 0, false, CLI_KEY_JSON },
	{ "display", 0, true, CLI_KEY_DISPLAY },
	{ NULL, 0, false, 0 },
};

static const struct cli_run_args report_args = {
	.options = report_options,
	.files = 1,
};

static const struct cli_run_args display_args = {
	.options = display_options,
	.files = 1,
};

int cli_run_report(const struct cli_command *cmd, int argc, char **argv)
{
	const struct cli_report_impl *impl = cmd->report;
	const struct hwct_error *stopped;
	const char *path;
	struct cli_run run;
	bool unfinished;
	void *facts;
	int got, ret = cli_run_begin(&run, cmd, impl->displays ? &display_args : &report_args, argc, argv, NULL);

	if (ret != CLI_CONTINUE) {
		return ret;
	}
	facts = calloc(1, impl->facts_size);
	if (!facts) {
		cli_error("out of memory");
		cli_run_end(&run);
		return CLI_EXIT_FAILURE;
	}
	path = run.p.positional[0];
	got = impl->collect(run.reader, run.display, facts);
	stopped = impl->stopped(facts);
	/* an unfinished trace read to its cut end: everything complete was read (docs: EXIT STATUS) */
	unfinished = stopped && hwct_reader_error_at_cut_end(run.reader);
	ret = got < 0 && !unfinished ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	if (run.json && impl->print_json(stdout, path, facts) < 0) {
		cli_error("out of memory");
		ret = CLI_EXIT_FAILURE;
	}
	if (!run.json) {
		impl->print_text(stdout, path, facts);
		if (stopped) {
			fputs(unfinished ? "\n(unfinished: its writer did not finish; every complete frame was read)\n" :
				"\n(incomplete: reading stopped at the error below)\n", stdout);
		}
	}
	cli_read_stopped(run.reader, stopped);
	impl->finish(facts);
	free(facts);
	cli_run_end(&run);
	return ret;
}
