/*
 * hwc-trace: reads hwctrace traces. `hwc-trace COMMAND [options]`; each
 * command lives in its own cmd_*.c file and is listed once below.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <hwct/limits.h>

#include "cli.h"
#include "hwct_config.h"
#include "say.h"

static const struct cli_command *const commands[] = {
	&cmd_info,
	&cmd_dump,
	&cmd_repair,
	&cmd_stats,
	&cmd_diff,
	&cmd_export,
	&cmd_extract,
	&cmd_trim,
	&cmd_import,
	&cmd_import_winscope,
	&cmd_board,
	&cmd_report,
};

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

static const struct cli_command *find_command(const char *name)
{
	for (size_t i = 0; i < COMMAND_COUNT; i++) {
		if (strcmp(commands[i]->name, name) == 0) {
			return commands[i];
		}
	}
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f, "usage: %s COMMAND [options]\n"
		"       %s help COMMAND\n"
		"       %s --help | --version\n\n"
		"Reads hwctrace traces of HWC2 display-composition sessions.\n\ncommands:\n",
		CLI_PROGRAM, CLI_PROGRAM, CLI_PROGRAM);
	for (size_t i = 0; i < COMMAND_COUNT; i++) {
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	}
	fprintf(f, "\nexit status: 0 success, 1 the trace could not be read or written, 2 usage error\n");
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	hwct_vsay(CLI_PROGRAM, NULL, fmt, args);
	va_end(args);
	print_usage(stderr);
	return CLI_EXIT_USAGE;
}

static int help(int argc, char **argv)
{
	const struct cli_command *cmd;

	if (argc < 3) {
		print_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 3) {
		return usage_error("help: too many arguments (%s ...)", argv[3]);
	}
	cmd = find_command(argv[2]);
	if (!cmd) {
		return usage_error("help: unknown command '%s'", argv[2]);
	}
	cli_print_command_help(stdout, cmd);
	return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cli_command *cmd;
	struct hwct_limits limits;
	char msg[256];
	int ret;

	if (argc < 2) {
		return usage_error("no command given");
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", CLI_PROGRAM, HWCT_VERSION);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		return help(argc, argv);
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		return usage_error(argv[1][0] == '-' ? "unknown option '%s'" : "unknown command '%s'", argv[1]);
	}
	if (hwct_limits_from_env(&limits, msg, sizeof(msg)) < 0) {
		return usage_error("%s", msg);
	}
	cli_out_init();
	ret = cmd->run(cmd, argc - 1, argv + 1);
	if (!cli_out_finish() && ret == CLI_EXIT_OK) {
		ret = CLI_EXIT_FAILURE;
	}
	return ret;
}
