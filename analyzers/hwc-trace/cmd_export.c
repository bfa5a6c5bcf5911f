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

#include <json-c/json.h>

enum {
	OPT_FORMAT = 256,
};

static const struct cli_option options[] = {
	{ "format", 0, true, OPT_FORMAT },
	{ "json", 0, false, CLI_KEY_JSON },
	{ "display", 0, true, CLI_KEY_DISPLAY },
	{ NULL, 0, false, 0 },
};

static void print_summary(FILE *f, const char *out, const struct export_events *ev, bool json)
{
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
	(void)json;
	fprintf(f, "%s: %zu events: %" PRIu64 " calls, %" PRIu64 " frame ends, %" PRIu64 " fence signals (%" PRIu64
		" with a flow from their call), %" PRIu64 " callbacks on %zu display%s\n", out, ev->count, ev->calls,
		ev->frames, ev->fences, ev->flows, ev->callbacks, ev->display_count, ev->display_count == 1 ? "" : "s");
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

static int option(const struct cli_command *cmd, const struct cli_parser *p, int key, void *ctx)
{
	(void)cmd;
	if (key == OPT_FORMAT) {
		*(const char **)ctx = p->arg;
	}
	return 0;
}

static int check(const struct cli_command *cmd, const struct cli_parser *p, void *ctx)
{
	const char *format = *(const char **)ctx;

	(void)p;
	if (!format || strcmp(format, "chrome-json") != 0) {
		return cli_usage_error(cmd, format ? "unknown format '%s' (chrome-json)" :
			"no --format given%s (chrome-json)", format ? format : "");
	}
	return 0;
}

static const struct cli_run_args run_args = {
	.options = options,
	.option = option,
	.check = check,
	.files = 2,
	.files_needed = "FILE and OUT are needed",
};

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct export_events ev = { 0 };
	struct cli_run run;
	const char *format = NULL, *in, *out;
	int ret = cli_run_begin(&run, cmd, &run_args, argc, argv, &format);

	if (ret != CLI_CONTINUE) {
		return ret;
	}
	in = run.p.positional[0];
	out = run.p.positional[1];
	ret = export_collect(run.reader, run.display, &ev) < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	if (write_output(out, in, &ev) < 0) {
		ret = CLI_EXIT_FAILURE;
	} else if (strcmp(out, "-") != 0) {
		print_summary(stdout, out, &ev, run.json);
	}
	if (!ev.complete) {
		cli_error("%s", ev.error.message);
	}
	export_events_finish(&ev);
	cli_run_end(&run);
	return ret;
}

const struct cli_command cmd_export = {
	.name = "export",
	.summary = "convert a trace to the Chrome Trace Event Format (Perfetto UI, chrome://tracing)",
	.synopsis = "FILE --format chrome-json OUT [--display ID] [--json]",
	.options = "  --format chrome-json  Trace Event Format JSON: calls as slices per thread, validate/present\n"
		"                        and frame ends per display, fences as flows to their signal, callbacks\n"
		"  --display ID          only this display's track (hwc2_display_t) and the calls of none\n"
		"  --json                the summary as one JSON object (OUT '-' writes the trace to stdout instead)\n",
	.run = run,
};
