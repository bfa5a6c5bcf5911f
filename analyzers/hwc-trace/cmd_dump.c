/*
 * hwc-trace dump: every record of a trace, as text or JSON Lines, optionally
 * only those of a range of display frames or of some kinds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/reader.h>

#include "cli.h"
#include "dump.h"
#include "frame_range.h"
#include "pb.h"

enum {
	OPT_FRAMES = 256,
	OPT_RECORDS,
	OPT_NO_BLOB_DATA,
	OPT_VERBOSE,
};

static const struct cli_option options[] = {
	{ "frames", 0, true, OPT_FRAMES },
	{ "json", 0, false, CLI_KEY_JSON },
	{ "records", 0, true, OPT_RECORDS },
	{ "no-blob-data", 0, false, OPT_NO_BLOB_DATA },
	{ "verbose", 'v', false, OPT_VERBOSE },
	{ NULL, 0, false, 0 },
};

struct dump_filter {
	uint64_t first, last;		/* display frames (FrameEnd.frame), inclusive */
	uint64_t kinds;			/* bit i: field i of Record; all bits when not given */
};

/* "call,frame_end,...": the Record field names. Returns the bad name's position or NULL. */
static const char *parse_kinds(char *list, uint64_t *kinds)
{
	*kinds = 0;
	for (char *name = list, *next; name; name = next) {
		int index;

		next = strchr(name, ',');
		if (next) {
			*next++ = 0;
		}
		index = pb_record_kind_index(name);
		if (index < 0 || index >= 64) {
			return name;
		}
		*kinds |= 1ull << index;
	}
	return NULL;
}

static bool selected(const struct dump_filter *filter, const Hwct__Record *rec)
{
	const ProtobufCFieldDescriptor *kind;
	const ProtobufCMessage *msg;

	if (!pb_record_kind(rec, &kind, &msg)) {
		return false;
	}
	return filter->kinds & (1ull << (kind - hwct__record__descriptor.fields));
}

/* Puts r before every record of display frame `first`. */
static int position(struct hwct_reader *r, uint64_t first)
{
	int ret;

	if (first == 0) {
		return 0;
	}
	/* records of frame `first` start after FrameEnd first-1: start from its keyframe */
	ret = hwct_reader_seek(r, first - 1);
	return ret == -ERANGE ? hwct_reader_rewind(r) : ret;
}

static int dump(struct hwct_reader *r, const struct dump_filter *filter, bool json,
	const struct dump_options *opts)
{
	const Hwct__Record *rec;
	uint64_t frame = 0;
	int ret;

	/* frame_count FrameEnds: frames 0..frame_count, the last one the records after them */
	if (filter->first > hwct_reader_info(r)->frame_count) {
		return 0;
	}
	ret = position(r, filter->first);

	while (ret == 0 && (ret = hwct_reader_next(r, &rec)) > 0) {
		uint64_t own = frame;

		ret = 0;
		if (rec->kind_case == HWCT__RECORD__KIND_KEYFRAME) {
			own = frame = rec->keyframe->frame;
		} else if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			own = rec->frame_end->frame;
			frame = own + 1;
		}
		if (own > filter->last) {
			break;
		}
		if (own >= filter->first && selected(filter, rec)) {
			if (json) {
				ret = dump_json_record(stdout, rec, opts);
			} else {
				dump_text_record(stdout, rec, opts);
			}
		}
		if (cli_out_broken() ||
			(rec->kind_case == HWCT__RECORD__KIND_FRAME_END && own >= filter->last)) {
			break;
		}
	}
	return ret;
}

struct dump_args {
	struct dump_filter filter;
	struct frame_range range;
	bool has_range;
	struct dump_options opts;
};

static int option(const struct cli_command *cmd, const struct cli_parser *p, int key, void *ctx)
{
	struct dump_args *a = ctx;
	const char *bad;

	switch (key) {
	case OPT_FRAMES:
		if (!frame_range_parse(p->arg, &a->range)) {
			return cli_usage_error(cmd, "--frames %s: expected " FRAME_RANGE_SYNTAX, p->arg);
		}
		a->filter.first = a->range.first;
		a->filter.last = a->range.last;
		a->has_range = true;
		break;
	case OPT_RECORDS:
		bad = parse_kinds((char *)p->arg, &a->filter.kinds);
		if (bad) {
			return cli_usage_error(cmd, "--records: unknown record kind '%s'", bad);
		}
		break;
	case OPT_NO_BLOB_DATA:
		a->opts.no_blob_data = true;
		break;
	case OPT_VERBOSE:
		a->opts.verbose = true;
		break;
	}
	return 0;
}

static const struct cli_run_args run_args = {
	.options = options,
	.option = option,
	.files = 1,
};

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct dump_args a = { .filter = { .last = UINT64_MAX, .kinds = UINT64_MAX } };
	struct cli_run run;
	uint64_t count;
	int ret = cli_run_begin(&run, cmd, &run_args, argc, argv, &a);

	if (ret != CLI_CONTINUE) {
		return ret;
	}
	/* frame N of a trace of N frames is the records after its last FrameEnd */
	count = hwct_reader_info(run.reader)->frame_count;
	if (a.has_range && !frame_range_within(&a.range, count + 1)) {
		cli_usage_error(cmd, "--frames: %s has %" PRIu64 " frames (0 to %" PRIu64 ", then the records "
			"after the last FrameEnd as frame %" PRIu64 "), none from %" PRIu64, run.p.positional[0], count,
			count ? count - 1 : 0, count, a.range.first);
		cli_run_end(&run);
		return CLI_EXIT_USAGE;
	}
	ret = dump(run.reader, &a.filter, run.json, &a.opts);
	if (ret < 0 && !hwct_reader_error(run.reader)) {
		cli_error("%s", strerror(-ret));
	} else if (ret < 0 && cli_read_stopped(run.reader, hwct_reader_error(run.reader))) {
		ret = 0;	/* an unfinished trace: every complete record was printed (docs: EXIT STATUS) */
	}
	cli_run_end(&run);
	return ret < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

const struct cli_command cmd_dump = {
	.name = "dump",
	.summary = "print every record of a trace, as text or JSON Lines",
	.synopsis = "FILE [--frames A-B] [--records KIND,...] [--json] [--no-blob-data] [--verbose]",
	.options =
		"  --frames A-B        only records of display frames A to B (also A-, -B, N):\n"
		"                      those after FrameEnd A-1 up to FrameEnd B; A past the\n"
		"                      trace's last frame is a usage error\n"
		"  --records KIND,...  only these record kinds: environment, display, call, buffer,\n"
		"                      blob, fence, callback, keyframe, frame_end, capture_stats, note\n"
		"  --json              one JSON object per record and line (JSON Lines)\n"
		"  --no-blob-data      leave out the stored bytes of Blob records\n"
		"  -v, --verbose       every Keyframe field, full hashes, strings and lists\n",
	.run = run,
};
