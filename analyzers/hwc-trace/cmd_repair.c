/*
 * hwc-trace repair: rewrites a trace whose writer did not finish with an
 * index and a seek table (hwct_trace_repair), and says what it kept.
 */
#include <errno.h>
#include <inttypes.h>

#include <hwct/repair.h>

#include "cli.h"

static const struct cli_option options[] = {
	{ NULL, 0, false, 0 },
};

static void print_report(FILE *f, const char *in, const char *out, const struct hwct_repair_report *rep)
{
	fprintf(f, "%s: %s. Kept %" PRIu64 " data frames (%" PRIu64 " record, %" PRIu64 " blob; %" PRIu64
		" records, %" PRIu64 " bytes) holding %" PRIu64 " display frames", in,
		rep->had_seek_table ? "complete (it had a seek table)" : "no seek table (its writer did not finish)",
		rep->frames_kept, rep->record_frames_kept, rep->blob_frames_kept, rep->records_kept, rep->bytes_kept,
		rep->display_frames_kept);
	if (rep->has_last_frame) {
		fprintf(f, " (up to frame %" PRIu64 ")", rep->last_frame);
	}
	if (rep->dropped_offset != UINT64_MAX) {
		fprintf(f, ". Lost %" PRIu64 " bytes from offset %" PRIu64, rep->bytes_dropped, rep->dropped_offset);
		if (rep->frames_dropped) {
			fprintf(f, ", %" PRIu64 " complete data frames among them", rep->frames_dropped);
		}
		fprintf(f, " (%s)", rep->reason);
	} else {
		fputs(". Nothing was lost", f);
	}
	if (rep->skippable_dropped) {
		fprintf(f, "; left out %" PRIu64 " foreign skippable frames", rep->skippable_dropped);
	}
	fprintf(f, ". Wrote %s (%" PRIu64 " bytes) with a rebuilt index and seek table.\n", out, rep->out_size);
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct hwct_repair_report report;
	struct cli_parser p;
	struct hwct_error err;
	int key, ret = CLI_EXIT_USAGE;

	if (cli_parse_init(&p, cmd, options, argc, argv) < 0) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	key = cli_parse_next(&p);
	if (key == CLI_KEY_HELP) {
		cli_print_command_help(stdout, cmd);
		cli_parse_finish(&p);
		return CLI_EXIT_OK;
	}
	if (key < 0) {
		goto out;
	}
	if (p.positional_count != 2) {
		cli_usage_error(cmd, p.positional_count > 2 ? "too many arguments" : "expected IN and OUT");
		goto out;
	}
	ret = hwct_trace_repair(p.positional[0], p.positional[1], &report, &err);
	if (ret == 0) {
		print_report(stdout, p.positional[0], p.positional[1], &report);
		ret = CLI_EXIT_OK;
	} else if (ret == -EEXIST) {
		ret = cli_usage_error(cmd, "%s", err.message);
	} else {
		cli_error("%s", err.message);
		ret = CLI_EXIT_FAILURE;
	}
out:
	cli_parse_finish(&p);
	return ret;
}

const struct cli_command cmd_repair = {
	.name = "repair",
	.summary = "rewrite an unfinished trace with an index and a seek table",
	.synopsis = "IN OUT",
	.options = NULL,
	.run = run,
};
