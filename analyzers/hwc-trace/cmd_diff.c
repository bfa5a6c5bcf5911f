/*
 * hwc-trace diff: what differs between two traces (frame models) or two
 * hwc-replay results files, and how a replay's plans agree with the
 * decisions recorded in the trace it replayed. The inputs are told apart by
 * content: a trace starts with the hwctrace header frame, results with a
 * JSON object. Exit status as diff(1): 0 equal, 1 different, 2 error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/format.h>
#include <hwct/reader.h>

#include "cli.h"
#include "diff.h"

enum {
	OPT_JSON = 256,
	OPT_TIMING,
	OPT_AGAINST_RECORDED,
	OPT_VERBOSE,
};

static const struct cli_option options[] = {
	{ "json", 0, false, OPT_JSON },
	{ "timing-threshold", 0, true, OPT_TIMING },
	{ "against-recorded", 0, false, OPT_AGAINST_RECORDED },
	{ "verbose", 'v', false, OPT_VERBOSE },
	{ "display", 0, true, CLI_KEY_DISPLAY },
	{ NULL, 0, false, 0 },
};

enum input_kind {
	INPUT_TRACE,
	INPUT_RESULTS,
};

/* What a file is, from its first bytes. Returns 0, or -errno after a message. */
static int detect(const char *path, enum input_kind *kind)
{
	unsigned char head[4];
	FILE *f = fopen(path, "rb");
	int c;

	if (!f) {
		int code = -errno;

		cli_error("%s: %s", path, strerror(-code));
		return code;
	}
	if (fread(head, 1, sizeof(head), f) == sizeof(head) &&
		((uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 | (uint32_t)head[3] << 24) ==
		HWCT_MAGIC_HEADER) {
		fclose(f);
		*kind = INPUT_TRACE;
		return 0;
	}
	rewind(f);
	while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\r' || c == '\n') {
	}
	fclose(f);
	if (c == '{') {
		*kind = INPUT_RESULTS;
		return 0;
	}
	cli_error("%s: offset 0: neither an hwctrace trace (header frame magic) nor hwc-replay results (a JSON "
		"object)", path);
	return -EINVAL;
}

static int finish_report(struct diff_report *r, bool json)
{
	int ret = DIFF_EXIT_ERROR;

	if (r->out_of_memory) {
		cli_error("out of memory");
	} else {
		if (json && diff_report_print_json(stdout, r) < 0) {
			cli_error("out of memory");
			diff_report_finish(r);
			return DIFF_EXIT_ERROR;
		}
		if (!json) {
			diff_report_print_text(stdout, r);
		}
		ret = diff_report_differs(r) ? DIFF_EXIT_DIFFERENT : DIFF_EXIT_EQUAL;
	}
	diff_report_finish(r);
	return ret;
}

struct diff_args {
	bool json, against_recorded, verbose;
	double threshold;
	uint64_t display;		/* --display (cli_run's), UINT64_MAX all */
};

/* Whether the trace at path names display (-1: unreadable, diff_traces() says why); its displays into list. */
static int trace_names(const char *path, uint64_t display, char *list, size_t size)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	int found = r ? cli_display_find(r, display, list, size) : -1;

	hwct_reader_destroy(r);
	return found < 0 ? -1 : found;
}

static int diff_two_traces(const char *a, const char *b, const struct diff_args *args)
{
	struct diff_report r = { .a = a, .b = b };
	struct hwct_error err;
	char list_a[256], list_b[256];

	if (args->display != UINT64_MAX && trace_names(a, args->display, list_a, sizeof(list_a)) == 0 &&
		trace_names(b, args->display, list_b, sizeof(list_b)) == 0) {
		cli_error("no display %" PRIu64 " in %s (its displays: %s) nor in %s (its displays: %s)", args->display,
			a, list_a, b, list_b);
		return DIFF_EXIT_ERROR;
	}
	if (diff_traces(a, b, args->display, &r, &err) < 0) {
		cli_error("%s", err.message);
		diff_report_finish(&r);
		return DIFF_EXIT_ERROR;
	}
	return finish_report(&r, args->json);
}

/* The displays of res's frames, in order of their first frame, into list ("0, 1", "none"). */
static void list_displays(const struct diff_results *res, char *list, size_t size)
{
	size_t used = 0;

	snprintf(list, size, "none");
	for (size_t i = 0; i < res->count && used < size; i++) {
		size_t k = 0;
		int n;

		while (k < i && res->frames[k].display != res->frames[i].display) {
			k++;
		}
		if (k < i) {
			continue;	/* listed */
		}
		n = snprintf(list + used, size - used, "%s%" PRIu64, used ? ", " : "", res->frames[i].display);
		used += n > 0 ? (size_t)n : size;
	}
}

/*
 * The results at path, with only the frames of display (UINT64_MAX: all).
 * list: what their displays were when none of the frames is display's.
 */
static struct diff_results *load(const char *path, uint64_t display, char *list, size_t size)
{
	char msg[600];
	struct diff_results *res = diff_results_load(path, msg, sizeof(msg));

	list[0] = 0;
	if (!res) {
		cli_error("%s", msg);
	} else if (display != UINT64_MAX) {
		list_displays(res, list, size);
		diff_results_keep_display(res, display);
		list[0] = res->count ? 0 : list[0];
	}
	return res;
}

static int diff_two_results(const char *a, const char *b, const struct diff_args *args)
{
	char list_a[256], list_b[256];
	struct diff_results *ra = load(a, args->display, list_a, sizeof(list_a));
	struct diff_results *rb = ra ? load(b, args->display, list_b, sizeof(list_b)) : NULL;
	struct diff_report r = { .a = a, .b = b };
	int ret = DIFF_EXIT_ERROR;

	if (rb && list_a[0] && list_b[0]) {
		cli_error("no frame of display %" PRIu64 " in %s (its displays: %s) nor in %s (its displays: %s)",
			args->display, a, list_a, b, list_b);
	} else if (rb) {
		ret = diff_results_compare(ra, rb, args->threshold, &r) < 0 ? (cli_error("out of memory"),
			DIFF_EXIT_ERROR) : finish_report(&r, args->json);
	}
	diff_report_finish(&r);
	diff_results_destroy(ra);
	diff_results_destroy(rb);
	return ret;
}

static int agreement(const char *trace, const char *results, const struct diff_args *args)
{
	char list[256];
	struct diff_results *res = load(results, args->display, list, sizeof(list));
	int ret = DIFF_EXIT_ERROR;

	if (res && list[0]) {
		cli_error("no frame of display %" PRIu64 " in %s (its displays: %s)", args->display, results, list);
	} else if (res) {
		ret = diff_agreement(stdout, trace, results, res, args->json, args->verbose);
	}
	diff_results_destroy(res);
	return ret;
}

static int run_diff(const struct cli_command *cmd, char **files, size_t count, const struct diff_args *args)
{
	bool against_recorded = args->against_recorded;

	enum input_kind kinds[2];

	for (size_t i = 0; i < count; i++) {
		if (detect(files[i], &kinds[i]) < 0) {
			return DIFF_EXIT_ERROR;
		}
	}
	if (against_recorded && kinds[0] != INPUT_RESULTS) {
		return cli_usage_error(cmd, "--against-recorded takes one results file; %s is a trace", files[0]);
	}
	if (!against_recorded && kinds[0] == INPUT_TRACE && kinds[1] == INPUT_TRACE) {
		return diff_two_traces(files[0], files[1], args);
	}
	if (against_recorded) {
		return agreement(NULL, files[0], args);
	}
	if (kinds[0] == INPUT_RESULTS && kinds[1] == INPUT_RESULTS) {
		return diff_two_results(files[0], files[1], args);
	}
	/* a trace and results: the agreement of the replay with the recording */
	return kinds[0] == INPUT_TRACE ? agreement(files[0], files[1], args) : agreement(files[1], files[0], args);
}

static int option(const struct cli_command *cmd, const struct cli_parser *p, int key, void *ctx)
{
	struct diff_args *a = ctx;
	char *end;

	switch (key) {
	case OPT_JSON:
		a->json = true;
		break;
	case OPT_AGAINST_RECORDED:
		a->against_recorded = true;
		break;
	case OPT_VERBOSE:
		a->verbose = true;
		break;
	case OPT_TIMING:
		errno = 0;
		a->threshold = strtod(p->arg, &end);
		if (errno || end == p->arg || *end || !(a->threshold >= 0.0)) {
			return cli_usage_error(cmd, "bad --timing-threshold '%s' (a percentage, 0 or more)", p->arg);
		}
		break;
	}
	return 0;
}

/* One results file with --against-recorded, else two files of either kind. */
static int check(const struct cli_command *cmd, const struct cli_parser *p, void *ctx)
{
	const struct diff_args *a = ctx;
	size_t count = p->positional_count;

	if (count != (a->against_recorded ? 1u : 2u)) {
		return cli_usage_error(cmd, a->against_recorded ? "--against-recorded takes one results file" :
			count < 2 ? "two files are needed" : "too many arguments");
	}
	return 0;
}

/* diff exits 2 on every error (diff(1)); its --json is its own option. */
static const struct cli_run_args run_args = {
	.options = options,
	.option = option,
	.check = check,
};

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct diff_args a = { .threshold = -1.0 };
	struct cli_run run;
	int ret = cli_run_begin(&run, cmd, &run_args, argc, argv, &a);

	if (ret != CLI_CONTINUE) {
		return ret == CLI_EXIT_OK ? ret : DIFF_EXIT_ERROR;
	}
	a.display = run.display;
	ret = run_diff(cmd, run.p.positional, run.p.positional_count, &a);
	cli_run_end(&run);
	return ret;
}

const struct cli_command cmd_diff = {
	.name = "diff",
	.summary = "compare two traces or two replay results; agreement of a replay with its trace",
	.synopsis = "A B [--json] [--timing-threshold PCT] [--display ID] [-v] | RESULTS --against-recorded",
	.options = "  A and B are traces or hwc-replay results files (told apart by content):\n"
		"    two traces: per frame the first difference in layers, geometry, properties,\n"
		"      decisions and pixels (content hashes), and a summary table; with several\n"
		"      displays, frame k of A's i-th display against frame k of B's i-th;\n"
		"    two results: per frame plan, reasons and checksum differences;\n"
		"    a trace and the results of its replay: the agreement report per layer.\n"
		"  --timing-threshold PCT  results: a frame whose work time changed by more than PCT\n"
		"                          percent differs (without it timing is only reported)\n"
		"  --against-recorded      one results file: agreement with the decisions it recorded\n"
		"  --display ID            only the frames of this display (hwc2_display_t; one of\n"
		"                          the inputs must have it)\n"
		"  -v, --verbose           agreement: list every disagreement\n"
		"  --json                  one JSON object\n"
		"exit status: 0 equal (all agree), 1 different, 2 error\n",
	.run = run,
};
