/* The start of every command: options, arguments, the trace opened (cli.h). */
#include <errno.h>
#include <stdlib.h>

#include <hwct/reader.h>

#include "cli.h"

/* --display ID: a hwc2_display_t, decimal or 0x hex; UINT64_MAX stands for "not given". */
static int parse_display(struct cli_run *run)
{
	const char *arg = run->p.arg;
	char *end;

	errno = 0;
	run->display = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-' || run->display == UINT64_MAX) {
		return cli_usage_error(run->cmd, "bad --display '%s' (a display id, hwc2_display_t)", arg);
	}
	return 0;
}

static int parse(struct cli_run *run, const struct cli_run_args *args, void *ctx)
{
	const struct cli_command *cmd = run->cmd;
	int key, ret;

	while ((key = cli_parse_next(&run->p)) != 0) {
		if (key < 0 && key != CLI_KEY_HELP && key != CLI_KEY_JSON && key != CLI_KEY_DISPLAY) {
			return CLI_EXIT_USAGE;
		}
		if (key == CLI_KEY_HELP) {
			cli_print_command_help(stdout, cmd);
			return CLI_EXIT_OK;
		}
		if (key == CLI_KEY_JSON) {
			run->json = true;
		} else if (key == CLI_KEY_DISPLAY) {
			if ((ret = parse_display(run)) != 0) {
				return ret;
			}
		} else if ((ret = args->option(cmd, &run->p, key, ctx)) != 0) {
			return ret;
		}
	}
	if (args->check && (ret = args->check(cmd, &run->p, ctx)) != 0) {
		return ret;
	}
	if (args->files && run->p.positional_count != args->files) {
		return cli_usage_error(cmd, "%s", run->p.positional_count > args->files ? "too many arguments" :
			args->files_needed ? args->files_needed : "no trace file given");
	}
	if (args->unavailable) {
		cli_error("%s", args->unavailable);
		return CLI_EXIT_FAILURE;
	}
	return CLI_CONTINUE;
}

int cli_run_begin(struct cli_run *run, const struct cli_command *cmd, const struct cli_run_args *args,
	int argc, char **argv, void *ctx)
{
	struct hwct_error err;
	int ret;

	*run = (struct cli_run){ .cmd = cmd, .display = UINT64_MAX };
	if (cli_parse_init(&run->p, cmd, args->options, argc, argv) < 0) {
		cli_error("out of memory");
		cli_parse_finish(&run->p);
		return CLI_EXIT_FAILURE;
	}
	ret = parse(run, args, ctx);
	if (ret == CLI_CONTINUE && args->files) {
		run->reader = hwct_reader_open(run->p.positional[0], &err);
		if (!run->reader) {
			cli_error("%s", err.message);
			ret = CLI_EXIT_FAILURE;
		} else if (run->display != UINT64_MAX) {
			ret = cli_display_check(run->reader, run->display);
		}
	}
	if (ret != CLI_CONTINUE) {
		cli_run_end(run);
	}
	return ret;
}

void cli_run_end(struct cli_run *run)
{
	hwct_reader_destroy(run->reader);
	run->reader = NULL;
	cli_parse_finish(&run->p);
}

bool cli_read_stopped(struct hwct_reader *r, const struct hwct_error *stopped)
{
	bool cut = stopped && hwct_reader_error_at_cut_end(r);

	if (cut) {
		cli_warning("%s (the writer did not finish)", stopped->message);
	} else if (stopped) {
		cli_error("%s", stopped->message);
	}
	return cut;
}
