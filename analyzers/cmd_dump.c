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
#include "hwct_config.h"
#include "pb.h"

enum {
	OPT_FRAMES = 256,
	OPT_JSON,
	OPT_RECORDS,
	OPT_NO_BLOB_DATA,
	OPT_VERBOSE,
};

static const struct cli_option options[] = {
	{ "frames", 0, true, OPT_FRAMES },
	{ "json", 0, false, OPT_JSON },
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
#if HWCT_HAVE_JSON
			if (json) {
				ret = dump_json_record(stdout, rec, opts);
			} else {
				dump_text_record(stdout, rec, opts);
			}
#else
			(void)json;
			dump_text_record(stdout, rec, opts);
#endif
		}
		if (cli_out_broken() ||
			(rec->kind_case == HWCT__RECORD__KIND_FRAME_END && own >= filter->last)) {
			break;
		}
	}
	return ret;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct dump_filter filter = { .last = UINT64_MAX, .kinds = UINT64_MAX };
	struct frame_range range;
	bool has_range = false;
	struct dump_options opts = { 0 };
	struct cli_parser p;
	struct hwct_reader *r;
	struct hwct_error err;
	const char *bad;
	bool json = false;
	int key, ret = CLI_EXIT_USAGE;

	if (cli_parse_init(&p, cmd, options, argc, argv) < 0) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	while ((key = cli_parse_next(&p)) > 0 || key == CLI_KEY_HELP) {
		switch (key) {
		case CLI_KEY_HELP:
			cli_print_command_help(stdout, cmd);
			cli_parse_finish(&p);
			return CLI_EXIT_OK;
		case OPT_FRAMES:
			if (!frame_range_parse(p.arg, &range)) {
				cli_usage_error(cmd, "--frames %s: expected " FRAME_RANGE_SYNTAX, p.arg);
				goto out;
			}
			filter.first = range.first;
			filter.last = range.last;
			has_range = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_RECORDS:
			bad = parse_kinds((char *)p.arg, &filter.kinds);
			if (bad) {
				cli_usage_error(cmd, "--records: unknown record kind '%s'", bad);
				goto out;
			}
			break;
		case OPT_NO_BLOB_DATA:
			opts.no_blob_data = true;
			break;
		case OPT_VERBOSE:
			opts.verbose = true;
			break;
		}
	}
	if (key < 0) {
		goto out;
	}
	if (p.positional_count != 1) {
		cli_usage_error(cmd, p.positional_count ? "too many arguments" : "no trace file given");
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
	/* frame N of a trace of N frames is the records after its last FrameEnd */
	if (has_range && !frame_range_within(&range, hwct_reader_info(r)->frame_count + 1)) {
		uint64_t count = hwct_reader_info(r)->frame_count;

		cli_usage_error(cmd, "--frames: %s has %" PRIu64 " frames (0 to %" PRIu64 ", then the records "
			"after the last FrameEnd as frame %" PRIu64 "), none from %" PRIu64, p.positional[0], count,
			count ? count - 1 : 0, count, range.first);
		hwct_reader_destroy(r);
		goto out;
	}
	ret = dump(r, &filter, json, &opts);
	if (ret < 0 && hwct_reader_error_at_cut_end(r)) {
		/* an unfinished trace: every complete record was printed (docs: EXIT STATUS) */
		cli_warning("%s (the writer did not finish)", hwct_reader_error(r)->message);
		ret = 0;
	} else if (ret < 0) {
		const struct hwct_error *e = hwct_reader_error(r);

		cli_error("%s", e ? e->message : strerror(-ret));
	}
	ret = ret < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	hwct_reader_destroy(r);
out:
	cli_parse_finish(&p);
	return ret;
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
