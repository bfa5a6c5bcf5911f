/* Option parsing and usage messages of the sub-commands (cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_init(struct cli_parser *p, const struct cli_command *cmd,
	const struct cli_option *options, int argc, char **argv)
{
	*p = (struct cli_parser){
		.cmd = cmd,
		.options = options,
		.argc = argc,
		.argv = argv,
		.index = 1,
	};
	p->positional = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*p->positional));
	return p->positional ? 0 : -ENOMEM;
}

void cli_parse_finish(struct cli_parser *p)
{
	free(p->positional);
	p->positional = NULL;
	p->positional_count = 0;
}

static const struct cli_option *find_long(const struct cli_option *options, const char *name, size_t len)
{
	for (const struct cli_option *o = options; o && o->name; o++) {
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) {
			return o;
		}
	}
	return NULL;
}

static const struct cli_option *find_short(const struct cli_option *options, char c)
{
	for (const struct cli_option *o = options; o && o->name; o++) {
		if (o->short_name && o->short_name == c) {
			return o;
		}
	}
	return NULL;
}

/* Takes the option's value from "=value", the rest of a short option, or the next argument. */
static int take_value(struct cli_parser *p, const struct cli_option *o, const char *inline_value,
	const char *spelled)
{
	if (!o->has_arg) {
		if (inline_value) {
			cli_usage_error(p->cmd, "option %s takes no value", spelled);
			return -1;
		}
		p->arg = NULL;
		return o->key;
	}
	if (inline_value) {
		p->arg = inline_value;
		return o->key;
	}
	if (p->index >= p->argc) {
		cli_usage_error(p->cmd, "option %s needs a value", spelled);
		return -1;
	}
	p->arg = p->argv[p->index++];
	return o->key;
}

static int parse_long(struct cli_parser *p, const char *a)
{
	const char *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct cli_option *o = find_long(p->options, name, len);

	if (!o && len == 4 && strncmp(name, "help", 4) == 0) {
		return CLI_KEY_HELP;
	}
	if (!o) {
		cli_usage_error(p->cmd, "unknown option --%.*s", (int)len, name);
		return -1;
	}
	return take_value(p, o, eq ? eq + 1 : NULL, a);
}

static int parse_short(struct cli_parser *p, const char *a)
{
	const struct cli_option *o = find_short(p->options, a[1]);
	char spelled[3] = { '-', a[1], 0 };

	if (!o && a[1] == 'h' && !a[2]) {
		return CLI_KEY_HELP;
	}
	if (!o || (a[2] && !o->has_arg)) {
		cli_usage_error(p->cmd, "unknown option %s", a);
		return -1;
	}
	return take_value(p, o, a[2] ? a + 2 : NULL, spelled);
}

int cli_parse_next(struct cli_parser *p)
{
	while (p->index < p->argc) {
		char *a = p->argv[p->index++];

		if (p->only_positional || a[0] != '-' || a[1] == 0) {
			p->positional[p->positional_count++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			p->only_positional = true;
			continue;
		}
		return a[1] == '-' ? parse_long(p, a) : parse_short(p, a);
	}
	return 0;
}

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "%s %s: ", CLI_PROGRAM, cmd->name);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\nusage: %s %s %s\n(see '%s help %s')\n", CLI_PROGRAM, cmd->name, cmd->synopsis,
		CLI_PROGRAM, cmd->name);
	return CLI_EXIT_USAGE;
}

void cli_print_command_help(FILE *f, const struct cli_command *cmd)
{
	fprintf(f, "usage: %s %s %s\n\n%s\n", CLI_PROGRAM, cmd->name, cmd->synopsis, cmd->summary);
	if (cmd->options) {
		fprintf(f, "\noptions:\n%s", cmd->options);
	}
}
