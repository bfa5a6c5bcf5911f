/*
 * hwc-trace stats: per display, frames and frame rate, layers per frame,
 * the recorded composition decisions, offload and composition efficiency,
 * fence latencies, buffers and capture losses. Collected in
 * stats_collect.c; the text printer is here, the JSON one in stats_json.c,
 * the option parsing and the run in cli_report.c.
 */
#include <inttypes.h>

#include "cli.h"
#include "stats.h"

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

static void print_text(FILE *f, const char *path, const void *arg)
{
	const struct stats_facts *facts = arg;

	fprintf(f, "file              %s\n", path);
	fprintf(f, "frames            %" PRIu64 " on %zu display%s\n", facts->frames, facts->trace_displays,
		facts->trace_displays == 1 ? "" : "s");
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
	if (facts->capture_stats && facts->has_fd_budget) {
		fprintf(f, "recorder fds      budget %" PRIu64 ", peak %" PRIu64 " held; %" PRIu64
			" captures dropped for want of an fd, %" PRIu64 " fences unwatched\n", facts->fd_budget,
			facts->fds_held_peak, facts->captures_no_fd, facts->fences_unwatched);
	}
	if (facts->capture_stats && facts->has_worker_wakes) {
		fprintf(f, "recorder worker   woken by %" PRIu64 " call%s (a futex wake on the caller's thread each)\n",
			facts->worker_wakes, facts->worker_wakes == 1 ? "" : "s");
	}
	for (size_t i = 0; i < facts->display_count; i++) {
		print_display(f, &facts->displays[i]);
	}
}

/* ----------------------------------------------- the report (cli_report.c) */

static int collect(struct hwct_reader *r, uint64_t display, void *facts)
{
	return stats_collect(r, display, facts);
}

static const struct hwct_error *stopped(const void *arg)
{
	const struct stats_facts *facts = arg;

	return facts->complete ? NULL : &facts->error;
}

static int print_json(FILE *f, const char *path, const void *facts)
{
	return stats_print_json(f, path, facts);
}

static void finish(void *facts)
{
	stats_facts_finish(facts);
}

static const struct cli_report_impl report = {
	.facts_size = sizeof(struct stats_facts),
	.displays = true,
	.collect = collect,
	.stopped = stopped,
	.print_text = print_text,
	.print_json = print_json,
	.finish = finish,
};

const struct cli_command cmd_stats = {
	.name = "stats",
	.summary = "per-display statistics: frame rate, layers, decisions, offload, fence latencies",
	.synopsis = "FILE [--display ID] [--json]",
	.options = "  --display ID  only this display's section (hwc2_display_t); the lines about the\n"
		"                whole trace stay\n"
		"  --json        one JSON object with the same statistics\n",
	.run = cli_run_report,
	.report = &report,
};
