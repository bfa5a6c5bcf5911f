/*
 * hwc-trace import (and its older name import-winscope): finds the
 * SurfaceFlinger traces in what it is given (a trace file, a bugreport or
 * Winscope archive, a folder: analyzers/import/), says what it found and
 * which it imports, and converts that one into a replayable hwctrace trace
 * (analyzers/winscope/; docs/import.md, docs/winscope.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "import_find.h"
#include "tnx_import.h"
#include "winscope.h"

#define MAX_AT 64	/* times --at takes */

enum {
	OPT_DISPLAY = 1,
	OPT_SIZE,
	OPT_USE,
	OPT_AT,
	OPT_NO_PIXELS,
};

static const struct cli_option options[] = {
	{ "display", 0, true, OPT_DISPLAY },
	{ "size", 0, true, OPT_SIZE },
	{ "use", 0, true, OPT_USE },
	{ "at", 0, true, OPT_AT },
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

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void print_found(FILE *f, const char *in, const struct imp_found *found)
{
	if (!found->container && found->count == 1) {
		fprintf(f, "%s: %s.\n", in, found->sources[0].cls.what);
		return;
	}
	fprintf(f, "%s: %s; found:\n", in, found->count || found->passed ? "looked inside" : "nothing inside");
	for (size_t i = 0; i < found->count; i++) {
		const struct imp_source *s = &found->sources[i];

		fprintf(f, "  %s: %s%s\n", s->path, s->cls.what, s->generated ? ", generated from transactions (by "
			"its name)" : "");
	}
	if (found->passed) {
		fprintf(f, "  (%" PRIu64 " other file%s passed over: not a trace by name)\n", found->passed,
			found->passed == 1 ? "" : "s");
	}
}

struct import_args {
	const struct winscope_options *opts;
	int64_t at[MAX_AT];		/* --at, ascending */
	size_t at_count;
};

static void print_gaps(FILE *f, const struct tnx_report *t)
{
	fprintf(f, "  Not in the transaction trace, so assumed: the physical display (one, on layer stack 0, %" PRIu32
		"x%" PRIu32 " %s), its refresh rate, the dataspaces, visible regions and composition decisions",
		t->width, t->height, t->size_inferred ? "from the largest buffer; --size gives it" : "given with --size");
	if (t->gaps.mirrors) {
		fprintf(f, "; %" PRIu64 " mirror layer%s drawn empty (mirroring not rebuilt)", t->gaps.mirrors,
			t->gaps.mirrors == 1 ? "" : "s");
	}
	if (t->gaps.unknown_layers) {
		fprintf(f, "; %" PRIu64 " change%s to layers never created (the trace began after them) skipped",
			t->gaps.unknown_layers, t->gaps.unknown_layers == 1 ? "" : "s");
	}
	if (t->gaps.display_transforms) {
		fprintf(f, "; display orientation changes not applied");
	}
	fprintf(f, ".\n");
}

/* The layer trace or transaction trace src, imported into out. */
static int import_source(const struct imp_source *src, const char *out, const struct import_args *a)
{
	struct winscope_options opts = *a->opts;
	struct winscope_report report;
	struct tnx_report tr;
	struct hwct_error err;
	const uint8_t *data = src->data;
	size_t size = src->size;
	uint8_t *rebuilt = NULL;
	char note[1024];
	int ret = CLI_EXIT_OK;

	if (src->cls.kind == IMP_TRANSACTIONS) {
		struct tnx_options to = {
			.at = a->at_count ? a->at : NULL,
			.at_count = a->at_count,
			.width = opts.width,
			.height = opts.height,
			.max_layers = opts.max_layers,
		};

		if (tnx_import(src->data, src->size, src->path, &to, &rebuilt, &size, &tr, &err) < 0) {
			cli_error("%s", err.message);
			return CLI_EXIT_FAILURE;
		}
		printf("%s: %" PRIu64 " transaction entr%s (%" PRIu64 " transactions, %.3f s to %.3f s elapsed) "
			"rebuilt into %" PRIu64 " layer stack%s%s.\n", src->path, tr.entries, tr.entries == 1 ? "y" : "ies",
			tr.transactions, tr.first_ns / 1e9, tr.last_ns / 1e9, tr.written, tr.written == 1 ? "" : "s",
			a->at_count ? " at the --at times" : ", one after each entry");
		print_gaps(stdout, &tr);
		snprintf(note, sizeof(note), "Rebuilt by hwc-trace import from the SurfaceFlinger transaction trace %s "
			"(%" PRIu64 " entries, %" PRIu64 " transactions): SurfaceFlinger's layer state replayed transaction "
			"by transaction and written as a layer trace without composition state, imported as below. Not "
			"in a transaction trace, so assumed: the physical display (one, on layer stack 0, %" PRIu32 "x%"
			PRIu32 ", %s), its refresh rate, dataspaces, visible regions and composition decisions; %" PRIu64
			" mirror layers drawn empty; %" PRIu64 " changes to layers never created skipped. See docs/import.md.",
			src->path, tr.entries, tr.transactions, tr.width, tr.height, tr.size_inferred ?
			"the largest buffer's size" : "given with --size", tr.gaps.mirrors, tr.gaps.unknown_layers);
		opts.origin_note = note;
		data = rebuilt;
		opts.width = tr.width;
		opts.height = tr.height;
	}
	if (winscope_import_data_file(data, size, src->path, out, &opts, &report, &err) < 0) {
		cli_error("%s", err.message);
		ret = CLI_EXIT_FAILURE;
	} else {
		print_report(stdout, src->path, out, &report);
	}
	free(rebuilt);
	return ret;
}

/* --at T[,T...]: elapsed times in ns, ascending. */
static bool parse_at(const char *arg, struct import_args *a)
{
	const char *p = arg;

	a->at_count = 0;
	while (*p) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(p, &end, 10);
		if (errno || end == p || v < 0 || a->at_count == MAX_AT || (a->at_count && v < a->at[a->at_count - 1]) ||
			(*end && *end != ',')) {
			return false;
		}
		a->at[a->at_count++] = v;
		p = *end ? end + 1 : end;
	}
	return a->at_count > 0;
}

static int import(const struct cli_command *cmd, const char *in, const char *out, const struct import_args *a,
	enum imp_pick pick, const char *use)
{
	const struct imp_source *src;
	struct imp_found found;
	struct hwct_error err;
	const char *why = NULL;
	int ret;

	if (same_file(in, out)) {
		return cli_usage_error(cmd, "%s: is the input itself", out);
	}
	if (imp_find(in, NULL, a->opts->max_input, &found, &err) < 0) {
		cli_error("%s", err.message);
		imp_found_finish(&found);
		return CLI_EXIT_FAILURE;
	}
	if (found.container || cmd == &cmd_import) {
		print_found(stdout, in, &found);
	}
	src = imp_choose(&found, pick, use, &why);
	if (!src) {
		if (use) {
			cli_error("%s: nothing there fits --use %s", in, use);
		} else if (found.count == 1) {
			cli_error("%s: %s%s: no SurfaceFlinger layers or transactions to import", found.sources[0].path,
				found.sources[0].cls.perfetto ? "" : "offset 1: ", found.sources[0].cls.what);
		} else {
			cli_error("%s: holds no SurfaceFlinger layer trace and no transaction trace", in);
		}
		imp_found_finish(&found);
		return CLI_EXIT_FAILURE;
	}
	if (!found.container && src->cls.kind == IMP_OTHER) {
		cli_error("%s: %s%s: no SurfaceFlinger layers or transactions to import", in,
			src->cls.perfetto ? "" : "offset 1: ", src->cls.what);
		imp_found_finish(&found);
		return CLI_EXIT_FAILURE;
	}
	if (found.container || cmd == &cmd_import) {
		printf("Importing %s (%s): %s%s.\n", src->path, imp_kind_name(src->cls.kind), why, found.count > 1 ?
			"; --use layers|generated|transactions|NAME picks another" : "");
	}
	fflush(stdout);
	ret = import_source(src, out, a);
	imp_found_finish(&found);
	return ret;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct winscope_options opts;
	struct cli_parser p;
	struct import_args args = { 0 };
	enum imp_pick pick = IMP_PICK_AUTO;
	const char *use = NULL;
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
		} else if (key == OPT_AT) {
			if (!parse_at(p.arg, &args)) {
				cli_usage_error(cmd, "--at: '%s' is not a list of up to %d ascending elapsed times in ns", p.arg,
					MAX_AT);
				goto out;
			}
		} else if (key == OPT_NO_PIXELS) {
			opts.no_pixels = true;
		} else if (key == OPT_USE) {
			use = p.arg;
			pick = !strcmp(use, "layers") ? IMP_PICK_LAYERS : !strcmp(use, "generated") ?
				IMP_PICK_GENERATED : !strcmp(use, "transactions") ? IMP_PICK_TRANSACTIONS : IMP_PICK_NAME;
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
	args.opts = &opts;
	ret = import(cmd, p.positional[0], p.positional[1], &args, pick, use);
out:
	cli_parse_finish(&p);
	return ret;
}

#define IMPORT_OPTIONS \
	"  --display ID   import only the display with this DisplayProto id (default: every display)\n" \
	"  --size WxH     the display size, for traces that record none (default: inferred from the layers)\n" \
	"  --use WHAT     which trace of an archive or folder to import: layers (recorded), generated (from\n" \
	"                 transactions), transactions, or the end of a path as listed (default: the first of\n" \
	"                 layers, generated, transactions there is)\n" \
	"  --at T,...     a transaction trace: write the rebuilt layers at these elapsed times (ns)\n" \
	"                 (default: after every transaction entry)\n" \
	"  --no-pixels    draw no placeholder content: calls, layers and decisions only (a trace without pixels)\n"

const struct cli_command cmd_import = {
	.name = "import",
	.summary = "convert a SurfaceFlinger trace, bugreport zip, Winscope archive or folder into a trace",
	.synopsis = "IN OUT [--display ID] [--size WxH] [--use WHAT] [--at T,...] [--no-pixels]",
	.options = IMPORT_OPTIONS,
	.run = run,
};

const struct cli_command cmd_import_winscope = {
	.name = "import-winscope",
	.summary = "the former name of import",
	.synopsis = "IN OUT [--display ID] [--size WxH] [--use WHAT] [--at T,...] [--no-pixels]",
	.options = IMPORT_OPTIONS,
	.run = run,
};
