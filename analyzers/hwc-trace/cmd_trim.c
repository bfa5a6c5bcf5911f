/*
 * hwc-trace trim: writes a smaller trace holding display frames A..B of
 * another one, valid and replayable on its own (trim_copy.c), and says
 * what it kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frame_range.h"
#include "trim.h"

#include <json-c/json.h>

enum {
	OPT_FRAMES = 256,
};

static const struct cli_option options[] = {
	{ "frames", 0, true, OPT_FRAMES },
	{ "json", 0, false, CLI_KEY_JSON },
	{ NULL, 0, false, 0 },
};

static void print_text(FILE *f, const char *in, const char *out, const struct trim_report *r)
{
	fprintf(f, "%s: frames %" PRIu64 "-%" PRIu64 " of %s, renumbered from 0 (%" PRIu64 " display frames)\n", out,
		r->first, r->last, in, r->frames);
	fprintf(f, "  state         from the keyframe at frame %" PRIu64 " and %" PRIu64 " records up to frame %" PRIu64
		"\n", r->keyframe_frame, r->seeded, r->first);
	fprintf(f, "  records       %" PRIu64 " (%" PRIu64 " Environment, %" PRIu64 " Note) and the writer's keyframes\n",
		r->records, r->environments, r->notes);
	fprintf(f, "  blobs         %" PRIu64 " (%" PRIu64 " bytes decoded; %" PRIu64 " offered as deltas)", r->blobs,
		r->blob_bytes, r->delta_bases);
	if (r->blobs_missing) {
		fprintf(f, "; %" PRIu64 " contents without a blob in the input", r->blobs_missing);
	}
	fprintf(f, "\n  fences        %" PRIu64 " Fence records", r->fences);
	if (r->fences_missing) {
		fprintf(f, "; %" PRIu64 " fences of these frames have none within %d frames after %" PRIu64,
			r->fences_missing, TRIM_FENCE_LOOKAHEAD, r->last);
	}
	fprintf(f, "\n  size          %" PRIu64 " bytes\n", r->out_size);
}

static int print_json(FILE *f, const char *in, const char *out, const struct trim_report *r)
{
	struct json_object *o = json_object_new_object();
	const struct {
		const char *key;
		uint64_t value;
	} fields[] = {
		{ "first", r->first }, { "last", r->last }, { "keyframe_frame", r->keyframe_frame },
		{ "seeded_records", r->seeded }, { "records", r->records }, { "frames", r->frames },
		{ "environments", r->environments }, { "notes", r->notes }, { "blobs", r->blobs },
		{ "blob_bytes", r->blob_bytes }, { "delta_bases", r->delta_bases },
		{ "blobs_missing", r->blobs_missing }, { "fences", r->fences },
		{ "fences_missing", r->fences_missing }, { "size", r->out_size },
	};
	bool ok = o && json_object_object_add(o, "input", json_object_new_string(in)) == 0 &&
		json_object_object_add(o, "output", json_object_new_string(out)) == 0;

	for (size_t i = 0; ok && i < sizeof(fields) / sizeof(fields[0]); i++) {
		ok = json_object_object_add(o, fields[i].key, json_object_new_int64((int64_t)fields[i].value)) == 0;
	}
	if (ok) {
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
	}
	json_object_put(o);
	return ok ? 0 : -ENOMEM;
}

struct trim_args {
	struct frame_range range;
	bool has_range;
};

static int option(const struct cli_command *cmd, const struct cli_parser *p, int key, void *ctx)
{
	struct trim_args *a = ctx;

	if (key == OPT_FRAMES && !frame_range_parse(p->arg, &a->range)) {
		return cli_usage_error(cmd, "bad --frames range '%s' (" FRAME_RANGE_SYNTAX ")", p->arg);
	}
	a->has_range = a->has_range || key == OPT_FRAMES;
	return 0;
}

static int check(const struct cli_command *cmd, const struct cli_parser *p, void *ctx)
{
	const struct trim_args *a = ctx;

	(void)p;
	return a->has_range ? 0 : cli_usage_error(cmd, "no --frames range given");
}

static const struct cli_run_args run_args = {
	.options = options,
	.option = option,
	.check = check,
	.files = 2,
	.files_needed = "IN and OUT are needed",
};

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct trim_args a = { 0 };
	struct trim_report report;
	struct hwct_error err;
	struct cli_run run;
	const char *in, *out;
	int ret = cli_run_begin(&run, cmd, &run_args, argc, argv, &a);

	if (ret != CLI_CONTINUE) {
		return ret;
	}
	in = run.p.positional[0];
	out = run.p.positional[1];
	if (a.range.last == UINT64_MAX && hwct_reader_info(run.reader)->frame_count) {
		a.range.last = hwct_reader_info(run.reader)->frame_count - 1;
	}
	ret = trim_run(run.reader, out, a.range.first, a.range.last, &report, &err);
	if (ret == -ERANGE || ret == -EEXIST) {
		ret = cli_usage_error(cmd, "%s", err.message);
	} else if (ret < 0) {
		cli_error("%s", err.message);
		ret = CLI_EXIT_FAILURE;
	} else {
		ret = CLI_EXIT_OK;
		if (run.json && print_json(stdout, in, out, &report) < 0) {
			cli_error("out of memory");
			ret = CLI_EXIT_FAILURE;
		}
		if (!run.json) {
			print_text(stdout, in, out, &report);
		}
	}
	cli_run_end(&run);
	return ret;
}

const struct cli_command cmd_trim = {
	.name = "trim",
	.summary = "write a smaller trace of display frames A..B, valid and replayable on its own",
	.synopsis = "IN --frames A-B OUT [--json]",
	.options = "  --frames A-B  display frames to keep (FrameEnd.frame, inclusive; also A-, -B, N);\n"
		"                OUT numbers them from 0\n"
		"  --json        the report as one JSON object\n",
	.run = run,
};
