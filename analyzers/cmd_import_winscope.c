/*
 * hwc-trace import-winscope: converts a SurfaceFlinger layer trace (the
 * .pb / .winscope files Winscope opens) into a replayable hwctrace trace
 * (analyzers/winscope/, docs/winscope.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "winscope.h"

enum {
	OPT_DISPLAY = 1,
	OPT_SIZE,
	OPT_NO_PIXELS,
};

static const struct cli_option options[] = {
	{ "display", 0, true, OPT_DISPLAY },
	{ "size", 0, true, OPT_SIZE },
	{ "no-pixels", 0, false, OPT_NO_PIXELS },
	{ NULL, 0, false, 0 },
};

static const char *const type_names[8] = {
	"INVALID", "CLIENT", "DEVICE", "SOLID_COLOR", "CURSOR", "SIDEBAND", "DISPLAY_DECORATION",
	"REFRESH_RATE_INDICATOR",
};

static void print_report(FILE *f, const char *in, const char *out, const struct winscope_report *rep)
{
	const char *sep = "";

	fprintf(f, "%s: %" PRIu64 " entr%s -> %" PRIu64 " display frame%s on %" PRIu32 " display%s", in,
		rep->entries, rep->entries == 1 ? "y" : "ies", rep->frames, rep->frames == 1 ? "" : "s",
		rep->display_count, rep->display_count == 1 ? "" : "s");
	if (rep->displays_skipped) {
		fprintf(f, "; %" PRIu32 " other display%s not imported", rep->displays_skipped,
			rep->displays_skipped == 1 ? "" : "s");
	}
	for (uint32_t k = 0; k < rep->display_count; k++) {
		const struct winscope_display_report *d = &rep->displays[k];

		fprintf(f, "%s\n  display %" PRIu64 ": DisplayProto %" PRIu64 " '%s'%s, %" PRIu32 "x%" PRIu32 " (%s), %"
			PRIu64 " frame%s", k ? "" : ":", d->hwc2_id, d->id, d->name, d->is_virtual ? " (virtual)" : "",
			d->width, d->height, d->size_source, d->frames, d->frames == 1 ? "" : "s");
		if (d->first_entry) {
			fprintf(f, ", hotplugged at entry %" PRIu64, d->first_entry);
		}
		if (d->unplugs) {
			fprintf(f, ", unplugged at entry %" PRIu64 "%s", d->first_unplug_entry, d->unplugs > 1 ?
				" (and later again)" : "");
		}
	}
	if (rep->packets) {
		fprintf(f, ".\n  Perfetto trace: %" PRIu64 " packet%s, %" PRIu64 " without a layer snapshot skipped",
			rep->packets, rep->packets == 1 ? "" : "s", rep->packets_skipped);
	}
	if (rep->duplicates) {
		fprintf(f, ".\n  %" PRIu32 " layer%s repeating an earlier layer's id (e.g. %" PRId32 ") left out, "
			"with what hangs under them", rep->duplicates, rep->duplicates == 1 ? "" : "s",
			rep->duplicate_id);
	}
	fprintf(f, ".\n  %" PRIu64 " HWC2 layers created, up to %" PRIu64 " in a frame; %" PRIu64
		" buffer contents synthesized", rep->layers_created, rep->layers_max, rep->buffers);
	if (rep->formats_substituted) {
		fprintf(f, " (%" PRIu64 " layer uses drawn in RGBA_8888 instead of the recorded format)",
			rep->formats_substituted);
	}
	fprintf(f, ".\n  %s: ", rep->decisions ? "Composition decisions (recorded)" :
		"No composition decisions in the trace; requested types");
	for (unsigned t = 1; t < 8; t++) {
		if (rep->decided[t]) {
			fprintf(f, "%s%s %" PRIu64, sep, type_names[t], rep->decided[t]);
			sep = ", ";
		}
	}
	fprintf(f, "%s.\nWrote %s.\n", *sep ? "" : "none", out);
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct winscope_options opts;
	struct winscope_report report;
	struct hwct_error err;
	struct cli_parser p;
	int key, ret = CLI_EXIT_USAGE;

	winscope_options_init(&opts);
	if (cli_parse_init(&p, cmd, options, argc, argv) < 0) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	while ((key = cli_parse_next(&p)) > 0) {
		char *end;

		if (key == OPT_DISPLAY) {
			errno = 0;
			opts.display = strtoull(p.arg, &end, 0);
			if (errno || end == p.arg || *end || *p.arg == '-') {
				cli_usage_error(cmd, "--display: '%s' is not a display id", p.arg);
				goto out;
			}
			opts.has_display = true;
		} else if (key == OPT_SIZE) {
			unsigned w, h;
			char extra;

			if (sscanf(p.arg, "%ux%u%c", &w, &h, &extra) != 2 || !w || !h || w > opts.max_dimension ||
				h > opts.max_dimension) {
				cli_usage_error(cmd, "--size: '%s' is not WIDTHxHEIGHT (1 to %u)", p.arg,
					opts.max_dimension);
				goto out;
			}
			opts.width = w;
			opts.height = h;
		} else if (key == OPT_NO_PIXELS) {
			opts.no_pixels = true;
		}
	}
	if (key == CLI_KEY_HELP) {
		cli_print_command_help(stdout, cmd);
		ret = CLI_EXIT_OK;
		goto out;
	}
	if (key < 0) {
		goto out;
	}
	if (p.positional_count != 2) {
		cli_usage_error(cmd, p.positional_count > 2 ? "too many arguments" : "expected IN and OUT");
		goto out;
	}
	if (winscope_import_file(p.positional[0], p.positional[1], &opts, &report, &err) < 0) {
		if (err.code == -EEXIST) {
			cli_usage_error(cmd, "%s", err.message);	/* OUT names IN */
		} else {
			cli_error("%s", err.message);
			ret = CLI_EXIT_FAILURE;
		}
		goto out;
	}
	print_report(stdout, p.positional[0], p.positional[1], &report);
	ret = CLI_EXIT_OK;
out:
	cli_parse_finish(&p);
	return ret;
}

const struct cli_command cmd_import_winscope = {
	.name = "import-winscope",
	.summary = "convert a SurfaceFlinger layer trace (Winscope .pb, Perfetto) into a trace",
	.synopsis = "IN OUT [--display ID] [--size WxH] [--no-pixels]",
	.options = "  --display ID   import only the display with this DisplayProto id (default: every display)\n"
		"  --size WxH     the display size, for traces that record none (default: inferred from the layers)\n"
		"  --no-pixels    draw no placeholder content: calls, layers and decisions only (a trace without pixels)\n",
	.run = run,
};
