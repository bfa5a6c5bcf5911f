/*
 * hwc-trace export: a trace in another tool's format. One format so far,
 * chrome-json: the Chrome Trace Event Format that Perfetto UI and
 * chrome://tracing load (export_collect.c, export_chrome.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "hwct_config.h"

#if HWCT_HAVE_JSON
#include <json-c/json.h>
#endif

enum {
	OPT_FORMAT = 256,
	OPT_JSON,
};

static const struct cli_option options[] = {
	{ "format", 0, true, OPT_FORMAT },
	{ "json", 0, false, OPT_JSON },
	{ NULL, 0, false, 0 },
};

static void print_summary(FILE *f, const char *out, const struct export_events *ev, bool json)
{
#if HWCT_HAVE_JSON
	if (json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "output", json_object_new_string(out));
		json_object_object_add(o, "format", json_object_new_string("chrome-json"));
		json_object_object_add(o, "events", json_object_new_int64((int64_t)ev->count));
		json_object_object_add(o, "calls", json_object_new_int64((int64_t)ev->calls));
		json_object_object_add(o, "frames", json_object_new_int64((int64_t)ev->frames));
		json_object_object_add(o, "fence_signals", json_object_new_int64((int64_t)ev->fences));
		json_object_object_add(o, "fence_flows", json_object_new_int64((int64_t)ev->flows));
		json_object_object_add(o, "callbacks", json_object_new_int64((int64_t)ev->callbacks));
		json_object_object_add(o, "displays", json_object_new_int64((int64_t)ev->display_count));
		json_object_object_add(o, "complete", json_object_new_boolean(ev->complete));
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
		return;
	}
#endif
	(void)json;
	fprintf(f, "%s: %zu events: %" PRIu64 " calls, %" PRIu64 " frame ends, %" PRIu64 " fence signals (%" PRIu64
		" with a flow from their call), %" PRIu64 " callbacks on %zu displays\n", out, ev->count, ev->calls,
		ev->frames, ev->fences, ev->flows, ev->callbacks, ev->display_count);
}

static int write_output(const char *out, const char *source, struct export_events *ev)
{
	FILE *f = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
	int ret;

	if (!f) {
		ret = -errno;
		cli_error("%s: cannot create it: %s", out, strerror(errno));
		return ret;
	}
	ret = export_write_chrome(f, source, ev);
	if (f != stdout && fclose(f) != 0 && ret == 0) {
		ret = -errno;
	}
	if (ret < 0 && f != stdout) {
		cli_error("%s: writing: %s", out, strerror(-ret));
		unlink(out);
	}
	return ret;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct export_events ev = { 0 };
	struct cli_parser p;
	struct hwct_reader *r;
	struct hwct_error err;
	const char *format = NULL;
	bool json = false;
	int key, ret = CLI_EXIT_USAGE;

	if (cli_parse_init(&p, cmd, options, argc, argv) < 0) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	while ((key = cli_parse_next(&p)) > 0 || key == CLI_KEY_HELP) {
		if (key == CLI_KEY_HELP) {
			cli_print_command_help(stdout, cmd);
			cli_parse_finish(&p);
			return CLI_EXIT_OK;
		}
		if (key == OPT_FORMAT) {
			format = p.arg;
		}
		json = key == OPT_JSON ? true : json;
	}
	if (key < 0) {
		goto out;
	}
	if (!format || strcmp(format, "chrome-json") != 0) {
		cli_usage_error(cmd, format ? "unknown format '%s' (chrome-json)" : "no --format given%s (chrome-json)",
			format ? format : "");
		goto out;
	}
	if (p.positional_count != 2) {
		cli_usage_error(cmd, p.positional_count < 2 ? "FILE and OUT are needed" : "too many arguments");
		goto out;
	}
	if (json && !HWCT_HAVE_JSON) {
		ret = cli_no_json(cmd);
		goto out;
	}
	r = hwct_reader_open(p.positional[0], &err);
	if (!r) {
		cli_error("%s", err.message);
		ret = CLI_EXIT_FAILURE;
		goto out;
	}
	ret = export_collect(r, &ev) < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	if (write_output(p.positional[1], p.positional[0], &ev) < 0) {
		ret = CLI_EXIT_FAILURE;
	} else if (strcmp(p.positional[1], "-") != 0) {
		print_summary(stdout, p.positional[1], &ev, json);
	}
	if (!ev.complete) {
		cli_error("%s", ev.error.message);
	}
	export_events_finish(&ev);
	hwct_reader_destroy(r);
out:
	cli_parse_finish(&p);
	return ret;
}

const struct cli_command cmd_export = {
	.name = "export",
	.summary = "convert a trace to the Chrome Trace Event Format (Perfetto UI, chrome://tracing)",
	.synopsis = "FILE --format chrome-json OUT [--json]",
	.options = "  --format chrome-json  Trace Event Format JSON: calls as slices per thread, validate/present\n"
		"                        and frame ends per display, fences as flows to their signal, callbacks\n"
		"  --json                the summary as one JSON object (OUT '-' writes the trace to stdout instead)\n",
	.run = run,
};
