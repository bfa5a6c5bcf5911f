/*
 * The hwc-trace front end: the sub-command table, option parsing and output
 * helpers shared by the cmd_*.c files. Analyzers only read traces.
 */
#ifndef HWCT_ANALYZERS_CLI_H
#define HWCT_ANALYZERS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>

struct hwct_reader;
struct cli_report_impl;

#define CLI_PROGRAM "hwc-trace"

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,	/* the trace could not be read (entirely) or written */
	CLI_EXIT_USAGE = 2,	/* unknown command or option, missing argument */
};

/* One sub-command: one cmd_*.c file defines one and main.c lists it. */
struct cli_command {
	const char *name;		/* "dump" */
	const char *summary;		/* one line for `hwc-trace --help` */
	const char *synopsis;		/* arguments after the name: "FILE [--json]" */
	const char *options;		/* option lines for `hwc-trace help NAME`, may be NULL */
	/* argv[0] is the command name. Returns an enum cli_exit. */
	int (*run)(const struct cli_command *cmd, int argc, char **argv);
	const struct cli_report_impl *report;	/* a report command's (run is cli_run_report), else NULL */
};

extern const struct cli_command cmd_info;
extern const struct cli_command cmd_dump;
extern const struct cli_command cmd_repair;
extern const struct cli_command cmd_stats;
extern const struct cli_command cmd_diff;
extern const struct cli_command cmd_export;
extern const struct cli_command cmd_extract;
extern const struct cli_command cmd_trim;
extern const struct cli_command cmd_import;
extern const struct cli_command cmd_import_winscope;
extern const struct cli_command cmd_board;
extern const struct cli_command cmd_report;

/* An option a command accepts. */
struct cli_option {
	const char *name;		/* long name without "--" */
	char short_name;		/* 0 for none */
	bool has_arg;
	int key;			/* returned by cli_parse_next */
};

#define CLI_KEY_HELP (-2)

/*
 * Walks argv[1..argc) of a command. Options may come before or after the
 * positional arguments; "--" ends the options. "--help"/"-h" is always
 * accepted (key CLI_KEY_HELP).
 */
struct cli_parser {
	const struct cli_command *cmd;
	const struct cli_option *options;	/* terminated by a NULL name */
	int argc;
	char **argv;
	int index;
	bool only_positional;
	const char *arg;			/* value of the last option */
	char **positional;			/* owned array (the strings are argv's) */
	size_t positional_count;
};

/* Starts parsing. Returns 0 or -ENOMEM. */
int cli_parse_init(struct cli_parser *p, const struct cli_command *cmd,
	const struct cli_option *options, int argc, char **argv);

/*
 * Returns the key of the next option (p->arg set for options with a value),
 * 0 when argv is done, or -1 after printing a usage error.
 */
int cli_parse_next(struct cli_parser *p);

/* Frees the positional array. */
void cli_parse_finish(struct cli_parser *p);

/* Prints "hwc-trace NAME: <message>" and the synopsis to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints the command's full help to f. */
void cli_print_command_help(FILE *f, const struct cli_command *cmd);

/* Prints "hwc-trace: error: <message>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "hwc-trace: warning: <message>" to stderr. */
void cli_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Output on stdout: fully buffered, SIGPIPE ignored so that a closed pipe
 * (`| head`) shows as EPIPE. cli_out_broken() says when to stop writing;
 * cli_out_finish() flushes and returns false on a write error other than
 * EPIPE (already reported).
 */
void cli_out_init(void);
bool cli_out_broken(void);
bool cli_out_finish(void);

/* Writes ns as seconds with 6 decimals ("1.234567") into buf (at least 32 bytes). */
const char *cli_format_seconds(char *buf, size_t size, uint64_t ns);

/*
 * The start every command shares: option parsing with --help, --json
 * (CLI_KEY_JSON) and --display ID (CLI_KEY_DISPLAY), the count of
 * positional arguments, and the trace (the first of them) opened for
 * reading.
 */
#define CLI_KEY_JSON (-3)	/* the key to give "json" in a command's option table */
#define CLI_KEY_DISPLAY (-4)	/* the key to give "display" (with a value) in a command's option table */
#define CLI_CONTINUE (-1)	/* cli_run_begin(): the command goes on */

struct cli_run_args {
	const struct cli_option *options;	/* NULL-name terminated; --json keyed CLI_KEY_JSON */
	/*
	 * Takes one option (p->arg its value) into ctx. Returns 0, or
	 * CLI_EXIT_USAGE after cli_usage_error(). NULL when --json is the only one.
	 */
	int (*option)(const struct cli_command *cmd, const struct cli_parser *p, int key, void *ctx);
	/*
	 * After the options, before the count of positional arguments: returns
	 * 0, or CLI_EXIT_USAGE after cli_usage_error(). May be NULL.
	 */
	int (*check)(const struct cli_command *cmd, const struct cli_parser *p, void *ctx);
	/*
	 * Exactly this many positional arguments, the first a trace to open; 0
	 * when the command counts them itself and opens nothing.
	 */
	size_t files;
	const char *files_needed;	/* the usage error when fewer; NULL: "no trace file given" */
	const char *unavailable;	/* why this build cannot run the command (exit 1), NULL when it can */
};

struct cli_run {
	const struct cli_command *cmd;
	struct cli_parser p;		/* p.positional: the arguments (argv's strings) */
	bool json;			/* --json given */
	uint64_t display;		/* --display ID (hwc2_display_t), UINT64_MAX when not given */
	struct hwct_reader *reader;	/* the first positional argument, owned; NULL when args->files is 0 */
};

/*
 * Parses argv for cmd as args says, then opens the trace; with --display,
 * checks the trace names that display (cli_display_check()). Returns
 * CLI_CONTINUE when the command goes on (end it with cli_run_end()), else
 * the enum cli_exit the command returns (--help printed, a usage error or
 * why the trace did not open said), with nothing left to end.
 */
int cli_run_begin(struct cli_run *run, const struct cli_command *cmd, const struct cli_run_args *args,
	int argc, char **argv, void *ctx);

/* Closes the trace and frees the arguments. */
void cli_run_end(struct cli_run *run);

/*
 * Reads r until a record names display (a Display record, a call,
 * callback, FrameEnd or Fence of it), writing the ids the records read
 * name into list ("0, 1", "none"). Returns 1 when one does (r rewound), 0
 * when none does (a trace cut where its writer died included), or -errno
 * when reading stopped first (the read error in hwct_reader_error(r)).
 */
int cli_display_find(struct hwct_reader *r, uint64_t display, char *list, size_t size);

/*
 * --display ID of a command that opened a trace (cli_run_begin() calls it
 * when both were given): CLI_CONTINUE when a record of r names display (r
 * rewound). Else says which displays r names and returns CLI_EXIT_USAGE,
 * or CLI_EXIT_FAILURE when reading stopped before the end (the read error
 * said too).
 */
int cli_display_check(struct hwct_reader *r, uint64_t display);

/*
 * Says why reading r stopped before its end, if it did: a trace cut where
 * its writer died (every complete record read) is a warning, anything else
 * an error. Returns true for the cut end.
 */
bool cli_read_stopped(struct hwct_reader *r, const struct hwct_error *stopped);

/*
 * A report command, `NAME FILE [--json]` (info; stats also takes
 * [--display ID]): reads the whole
 * trace into the command's facts, prints them as text or as one JSON
 * object on stdout, and says on stderr why reading stopped early, if it
 * did (the text then ends with a line saying it is incomplete). facts is
 * the command's own struct, handed to each callback as is.
 */
struct cli_report_impl {
	size_t facts_size;	/* the facts struct, zeroed before collect */
	bool displays;		/* takes --display ID */
	/*
	 * Fills facts from r, only display's where the command takes --display
	 * (UINT64_MAX: every display). Returns 0 or -errno: then facts hold
	 * what was read.
	 */
	int (*collect)(struct hwct_reader *r, uint64_t display, void *facts);
	/* Why reading stopped before the end (owned by facts), NULL when it did not. */
	const struct hwct_error *(*stopped)(const void *facts);
	void (*print_text)(FILE *f, const char *path, const void *facts);
	/* Returns 0 or -ENOMEM. */
	int (*print_json)(FILE *f, const char *path, const void *facts);
	/* Frees what facts own. */
	void (*finish)(void *facts);
};

/*
 * The run() of a report command (cli_report.c): parses argv, opens the
 * trace, collects into cmd->report's facts and prints. Returns an enum
 * cli_exit: CLI_EXIT_FAILURE when the trace could not be opened or read to
 * the end.
 */
int cli_run_report(const struct cli_command *cmd, int argc, char **argv);

#endif
