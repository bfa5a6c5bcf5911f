/*
 * hwc-trace info: where a trace was taken, its header, displays, counts,
 * sizes and duration. Reads the whole trace; the text printer is here, the
 * JSON one in info_json.c, the option parsing and the run in cli_report.c.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <hwct/hwc2_names.h>

#include "cli.h"
#include "info.h"
#include "pb.h"

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "(unknown)";
}

static double ratio(uint64_t raw, uint64_t stored)
{
	return stored ? (double)raw / (double)stored : 0.0;
}

static void print_name(FILE *f, const char *(*namer)(int32_t), int32_t v)
{
	const char *name = namer(v);

	if (name) {
		fputs(name, f);
	} else {
		fprintf(f, "%d", v);
	}
}

static void print_header(FILE *f, const char *path, const struct hwct_trace_info *t)
{
	const Hwct__FileHeader *h = t->header;
	char created[64] = "(unknown)";

	if (h->has_created_unix_ns) {
		time_t secs = (time_t)(h->created_unix_ns / 1000000000u);
		struct tm tm;

		if (gmtime_r(&secs, &tm)) {
			strftime(created, sizeof(created), "%Y-%m-%d %H:%M:%S UTC", &tm);
		}
	}
	fprintf(f, "file          %s (%" PRIu64 " bytes)\n", path, t->file_size);
	fprintf(f, "format        %u.%u\n", t->major, t->minor);
	fprintf(f, "container     %s", t->has_seek_table ? "seek table and index" :
		"no seek table (scanned: the writer did not finish)");
	if (t->truncated) {
		fprintf(f, "; truncated at offset %" PRIu64 " (%" PRIu64 " bytes ignored)", t->truncated_offset,
			t->file_size - t->truncated_offset);
	}
	fprintf(f, "\nwriter        %s\ncreated       %s\n", or_unknown(h->writer), created);
	fprintf(f, "capture       keyframe interval %u, zstd level %d records / %d pixels, pixels %s\n",
		h->keyframe_interval, h->record_level, h->pixel_level, h->pixels ? "on" : "off");
	fputs("options      ", f);
	for (size_t i = 0; i < h->n_options; i++) {
		fprintf(f, "%s %s=%s", i ? "," : "", or_unknown(h->options[i]->key),
			h->options[i]->value ? h->options[i]->value : "");
	}
	fputs(h->n_options ? "\n" : " none\n", f);
}

static void print_environment(FILE *f, const Hwct__Environment *e)
{
	if (!e) {
		fputs("\nenvironment   none recorded\n", f);
		return;
	}
	fprintf(f, "\nenvironment\n  source      %s\n  host        %s\n  kernel      %s\n  machine     %s\n",
		or_unknown(e->source), or_unknown(e->host), or_unknown(e->kernel), or_unknown(e->machine));
	fprintf(f, "  process     %s", or_unknown(e->process));
	if (e->has_pid) {
		fprintf(f, " (pid %d)", e->pid);
	}
	fprintf(f, "\n  android     %s\n  mesa        %s\n  libdrm      %s\n  hwc2 module %s\n",
		or_unknown(e->android_fingerprint), or_unknown(e->mesa_version), or_unknown(e->libdrm_version),
		or_unknown(e->hwc2_module));
	fputs("  hwc2 caps  ", f);
	for (size_t i = 0; i < e->n_hwc2_capabilities; i++) {
		fputs(i ? ", " : " ", f);
		print_name(f, hwct_hwc2_capability_name, e->hwc2_capabilities[i]);
	}
	fputs(e->n_hwc2_capabilities ? "\n" : " none\n", f);
}

static void print_display(FILE *f, const struct info_display *d)
{
	const Hwct__Display *x = d->display;

	fprintf(f, "  %-4" PRIu64 " ", d->id);
	if (!x) {
		fprintf(f, "(no Display record)  frames %" PRIu64 "\n", d->frames);
		return;
	}
	fprintf(f, "\"%s\" ", x->name ? x->name : "");
	if (x->has_type) {
		print_name(f, hwct_hwc2_display_type_name, x->type);
	}
	if (x->has_connection_type) {
		fputc(' ', f);
		print_name(f, hwct_hwc2_display_connection_type_name, x->connection_type);
	}
	fputs("  configs", f);
	for (size_t i = 0; i < x->n_configs; i++) {
		const Hwct__DisplayConfig *c = x->configs[i];

		fprintf(f, "%s %u: %dx%d@%.2fHz", i ? "," : "", c->id, c->width, c->height,
			c->vsync_period_ns > 0 ? 1e9 / c->vsync_period_ns : 0.0);
	}
	fputs(x->n_configs ? "" : " none", f);
	if (x->has_active_config) {
		fprintf(f, "  active %u", x->active_config);
	}
	fprintf(f, "  frames %" PRIu64 "\n", d->frames);
}

static void print_counts(FILE *f, const struct info_facts *facts)
{
	size_t top = facts->function_count < INFO_TOP_FUNCTIONS ? facts->function_count : INFO_TOP_FUNCTIONS;

	fprintf(f, "\ncounts\n  display frames  %" PRIu64, facts->frame_ends);
	for (size_t i = 0; i < facts->display_count; i++) {
		fprintf(f, "%sdisplay %" PRIu64 ": %" PRIu64, i ? ", " : " (", facts->displays[i].id,
			facts->displays[i].frames);
	}
	fputs(facts->display_count ? ")\n" : "\n", f);
	fprintf(f, "  records         %" PRIu64, facts->records);
	for (unsigned i = 0, n = 0; i < hwct__record__descriptor.n_fields; i++) {
		if (facts->records_by_kind[i]) {
			fprintf(f, "%s%s %" PRIu64, n++ ? ", " : " (", hwct__record__descriptor.fields[i].name,
				facts->records_by_kind[i]);
		}
	}
	fputs(facts->records ? ")\n" : "\n", f);
	fprintf(f, "  calls           %" PRIu64 "%s\n", facts->calls,
		facts->function_count > top ? " (top 10 functions)" : "");
	for (size_t i = 0; i < top; i++) {
		const char *name = hwct_hwc2_function_name(facts->functions[i].function);

		if (name) {
			fprintf(f, "    %-34s %" PRIu64 "\n", name, facts->functions[i].calls);
		} else {
			fprintf(f, "    function %-25d %" PRIu64 "\n", facts->functions[i].function,
				facts->functions[i].calls);
		}
	}
	fprintf(f, "  buffers         %" PRIu64 " distinct\n  blobs           %" PRIu64 " distinct\n"
		"  fences          %" PRIu64 " distinct\n  keyframes       %" PRIu64 " (%" PRIu64 " seek points)\n",
		facts->buffers, facts->blobs, facts->fences, facts->keyframes, facts->seek_keyframes);
}

static void print_bytes(FILE *f, const struct info_facts *facts)
{
	const struct hwct_trace_info *t = facts->trace;
	const struct hwct_frame_counts *fr = &facts->frames;
	char a[32], b[32];

	fprintf(f, "\nbytes\n  file            %" PRIu64 "\n", t->file_size);
	fprintf(f, "  data frames     %" PRIu64 " stored, %" PRIu64 " raw (ratio %.2f)\n", t->stored_bytes,
		t->raw_bytes, ratio(t->raw_bytes, t->stored_bytes));
	fprintf(f, "  record frames   %" PRIu64 " stored, %" PRIu64 " raw (ratio %.2f)\n", fr->record_stored,
		fr->record_raw, ratio(fr->record_raw, fr->record_stored));
	fprintf(f, "  blob frames     %" PRIu64 " stored, %" PRIu64 " raw (ratio %.2f); payloads %" PRIu64
		" bytes decoded (ratio %.2f)\n", fr->blob_stored, fr->blob_raw, ratio(fr->blob_raw, fr->blob_stored),
		facts->blob_payload, ratio(facts->blob_payload, fr->blob_stored));
	fprintf(f, "  zstd frames     %" PRIu64 ": %" PRIu64 " record, %" PRIu64 " blob, %" PRIu64 " skippable\n",
		fr->record_frames + fr->blob_frames + fr->skippable_frames, fr->record_frames, fr->blob_frames,
		fr->skippable_frames);
	if (facts->has_time) {
		fprintf(f, "\nduration      %.6f s (t %s to %s)\n", (double)(facts->t_last - facts->t_first) / 1e9,
			cli_format_seconds(a, sizeof(a), facts->t_first), cli_format_seconds(b, sizeof(b), facts->t_last));
	} else {
		fputs("\nduration      (no timestamps)\n", f);
	}
}

static void print_text(FILE *f, const char *path, const void *arg)
{
	const struct info_facts *facts = arg;

	print_header(f, path, facts->trace);
	print_environment(f, facts->environment);
	fputs("\ndisplays\n", f);
	for (size_t i = 0; i < facts->display_count; i++) {
		print_display(f, &facts->displays[i]);
	}
	if (!facts->display_count) {
		fputs("  none\n", f);
	}
	print_counts(f, facts);
	print_bytes(f, facts);
}

/* ----------------------------------------------- the report (cli_report.c) */

static int collect(struct hwct_reader *r, uint64_t display, void *facts)
{
	(void)display;	/* facts of the whole trace */
	return info_collect(r, facts);
}

static const struct hwct_error *stopped(const void *arg)
{
	const struct info_facts *facts = arg;

	return facts->complete ? NULL : &facts->error;
}

static int print_json(FILE *f, const char *path, const void *facts)
{
	return info_print_json(f, path, facts);
}

static void finish(void *facts)
{
	info_facts_finish(facts);
}

static const struct cli_report_impl report = {
	.facts_size = sizeof(struct info_facts),
	.collect = collect,
	.stopped = stopped,
	.print_text = print_text,
	.print_json = print_json,
	.finish = finish,
};

const struct cli_command cmd_info = {
	.name = "info",
	.summary = "describe a trace: environment, header, displays, counts, sizes, duration",
	.synopsis = "FILE [--json]",
	.options = "  --json      one JSON object with the same facts\n",
	.run = cli_run_report,
	.report = &report,
};
