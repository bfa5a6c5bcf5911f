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
#include "hwct_config.h"
#include "trim.h"

#if HWCT_HAVE_JSON
#include <json-c/json.h>
#endif

enum {
	OPT_FRAMES = 256,
	OPT_JSON,
};

static const struct cli_option options[] = {
	{ "frames", 0, true, OPT_FRAMES },
	{ "json", 0, false, OPT_JSON },
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

#if HWCT_HAVE_JSON
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
#endif

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct trim_report report;
	struct cli_parser p;
	struct hwct_reader *r;
	struct hwct_error err;
	uint64_t first = 0, last = 0;
	struct frame_range range;
	bool json = false, has_range = false;
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
		if (key == OPT_JSON) {
			json = true;
		} else if (key == OPT_FRAMES) {
			if (!frame_range_parse(p.arg, &range)) {
				cli_usage_error(cmd, "bad --frames range '%s' (" FRAME_RANGE_SYNTAX ")", p.arg);
				goto out;
			}
			first = range.first;
			last = range.last;
			has_range = true;
		}
	}
	if (key < 0) {
		goto out;
	}
	if (p.positional_count != 2 || !has_range) {
		cli_usage_error(cmd, !has_range ? "no --frames range given" : p.positional_count < 2 ?
			"IN and OUT are needed" : "too many arguments");
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
	if (last == UINT64_MAX && hwct_reader_info(r)->frame_count) {
		last = hwct_reader_info(r)->frame_count - 1;
	}
	ret = trim_run(r, p.positional[1], first, last, &report, &err);
	if (ret == -ERANGE || ret == -EEXIST) {
		cli_usage_error(cmd, "%s", err.message);
		ret = CLI_EXIT_USAGE;
	} else if (ret < 0) {
		cli_error("%s", err.message);
		ret = CLI_EXIT_FAILURE;
	} else {
		ret = CLI_EXIT_OK;
#if HWCT_HAVE_JSON
		if (json && print_json(stdout, p.positional[0], p.positional[1], &report) < 0) {
			cli_error("out of memory");
			ret = CLI_EXIT_FAILURE;
		}
#endif
		if (!json) {
			print_text(stdout, p.positional[0], p.positional[1], &report);
		}
	}
	hwct_reader_destroy(r);
out:
	cli_parse_finish(&p);
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
