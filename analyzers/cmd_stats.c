/*
 * hwc-trace stats: per display, frames and frame rate, layers per frame,
 * the recorded composition decisions, offload and composition efficiency,
 * fence latencies, buffers and capture losses. Collected in
 * stats_collect.c; the text printer is here, the JSON one in stats_json.c.
 */
#include <inttypes.h>

#include "cli.h"
#include "hwct_config.h"
#include "stats.h"

enum {
	OPT_JSON = 256,
};

static const struct cli_option options[] = {
	{ "json", 0, false, OPT_JSON },
	{ NULL, 0, false, 0 },
};

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_latency(FILE *f, const char *what, const struct stats_latency *l)
{
	struct stats_percentiles p = stats_latency_percentiles(l);

	fprintf(f, "  %-18s", what);
	if (l->count) {
		fprintf(f, "n %zu  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms", l->count, p.p50 / 1e6,
			p.p90 / 1e6, p.p99 / 1e6, p.max / 1e6);
	} else {
		fputs("none", f);
	}
	if (l->unsignalled) {
		fprintf(f, "  (%" PRIu64 " never signalled)", l->unsignalled);
	}
	if (l->errors) {
		fprintf(f, "  (%" PRIu64 " signalled an error)", l->errors);
	}
	fputc('\n', f);
}

static void print_display(FILE *f, const struct stats_display *d)
{
	double rate = stats_frame_rate(d), eff = stats_efficiency(d), offload = stats_offload(d);
	uint64_t decided = 0, captures = 0;

	fprintf(f, "\ndisplay %" PRIu64, d->id);
	if (d->name[0]) {
		fprintf(f, " \"%s\"", d->name);
	}
	if (d->width > 0) {
		fprintf(f, " %dx%d", d->width, d->height);
	}
	fprintf(f, "\n  %-18s%" PRIu64, "frames", d->frames);
	if (rate > 0.0) {
		fprintf(f, ", %.2f per second", rate);
	}
	fprintf(f, "\n  %-18smin %zu, mean %.2f, max %zu\n", "layers per frame", d->layers_min,
		d->frames ? (double)d->layers / (double)d->frames : 0.0, d->layers_max);
	for (size_t i = 0; i < STATS_COMPOSITIONS; i++) {
		decided += d->composition[i];
	}
	fprintf(f, "  %-18s", "composition");
	for (size_t i = 0, n = 0; i < STATS_COMPOSITIONS; i++) {
		if (d->composition[i]) {
			fprintf(f, "%s%s %" PRIu64 " (%.1f%%)", n++ ? ", " : "", stats_composition_name(i), d->composition[i],
				percent(d->composition[i], decided));
		}
	}
	fputs(decided ? "\n" : "none\n", f);
	fprintf(f, "  %-18s", "offload");
	if (offload >= 0.0) {
		fprintf(f, "%.1f%% (%" PRIu64 " of %" PRIu64 " layers on the device)\n", 100.0 * offload, d->device_layers,
			d->device_layers + d->client_layers);
	} else {
		fputs("(no decided layers)\n", f);
	}
	fprintf(f, "  %-18s", "efficiency");
	if (eff >= 0.0) {
		fprintf(f, "%.3f (%.0f of %.0f layer pixels composited by the client)\n", eff, d->client_pixels,
			d->layer_pixels);
	} else {
		fputs("(no layer pixels)\n", f);
	}
	fprintf(f, "  %-18s%" PRIu64 " (%.1f%%); %" PRIu64 " validated\n", "client frames", d->client_frames,
		percent(d->client_frames, d->frames), d->validated_frames);
	print_latency(f, "acquire wait", &d->acquire);
	print_latency(f, "present fence", &d->present);
	print_latency(f, "release fence", &d->release);
	fprintf(f, "  %-18s%" PRIu64 " distinct\n", "buffers", d->buffers);
	fprintf(f, "  %-18s", "capture status");
	for (size_t i = 0; i < STATS_CAPTURES; i++) {
		if (d->capture[i]) {
			fprintf(f, "%s%s %" PRIu64, captures ? ", " : "", stats_capture_name(i), d->capture[i]);
			captures += d->capture[i];
		}
	}
	fputs(captures ? " (setLayerBuffer calls)\n" : "no setLayerBuffer calls\n", f);
}

static void print_text(FILE *f, const char *path, const struct stats_facts *facts)
{
	fprintf(f, "file              %s\n", path);
	fprintf(f, "frames            %" PRIu64 " on %zu display%s\n", facts->frames, facts->display_count,
		facts->display_count == 1 ? "" : "s");
	fprintf(f, "bytes per frame   %.0f (%" PRIu64 " stored bytes of record and blob frames)\n",
		stats_bytes_per_frame(facts), facts->trace->stored_bytes);
	fprintf(f, "capture drops     ");
	if (facts->capture_stats) {
		fprintf(f, "%" PRIu64 " blobs (%" PRIu64 " bytes), %" PRIu64 " records, %" PRIu64 " frames late"
			" (last of %" PRIu64 " CaptureStats)", facts->blobs_dropped, facts->bytes_dropped,
			facts->records_dropped, facts->frames_capture_late, facts->capture_stats);
	} else {
		fputs("no CaptureStats records", f);
	}
	fprintf(f, "; %" PRIu64 " frames flagged capture-late\n", facts->capture_late_frames);
	for (size_t i = 0; i < facts->display_count; i++) {
		print_display(f, &facts->displays[i]);
	}
	if (!facts->complete) {
		fputs("\n(incomplete: reading stopped at the error below)\n", f);
	}
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct stats_facts facts = { 0 };
	struct cli_parser p;
	struct hwct_reader *r;
	struct hwct_error err;
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
		json = key == OPT_JSON ? true : json;
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
	ret = stats_collect(r, &facts) < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
#if HWCT_HAVE_JSON
	if (json && stats_print_json(stdout, p.positional[0], &facts) < 0) {
		cli_error("out of memory");
		ret = CLI_EXIT_FAILURE;
	}
#endif
	if (!json) {
		print_text(stdout, p.positional[0], &facts);
	}
	if (!facts.complete) {
		cli_error("%s", facts.error.message);
	}
	stats_facts_finish(&facts);
	hwct_reader_destroy(r);
out:
	cli_parse_finish(&p);
	return ret;
}

const struct cli_command cmd_stats = {
	.name = "stats",
	.summary = "per-display statistics: frame rate, layers, decisions, offload, fence latencies",
	.synopsis = "FILE [--json]",
	.options = "  --json      one JSON object with the same statistics\n",
	.run = run,
};
