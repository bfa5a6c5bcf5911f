/*
 * The trace part of the page's data (report.h), written from the collected
 * facts only. Frames are written as columns (one array per field), which
 * keeps a 100 000-frame trace to a few MB and lets the page index them
 * without building an object per frame.
 */
#include <errno.h>
#include <inttypes.h>

#include "report.h"

/* ns to whole us, -1 kept */
static int64_t us(int64_t ns)
{
	return ns < 0 ? -1 : (ns + 500) / 1000;
}

enum column {
	COL_FRAME,
	COL_DISPLAY,
	COL_DISPLAY_FRAME,
	COL_TIME,
	COL_FLAGS,
	COL_LAYERS,
	COL_CLIENT,
	COL_EFFICIENCY,
	COL_ACQUIRE,
	COL_PRESENT,
	COL_RELEASE,
	COL_STACK,
	COL_COUNT,
};

static const char *const column_names[COL_COUNT] = { "f", "d", "df", "t", "fl", "n", "c", "e", "a", "p", "r", "s" };

static int64_t column_value(const struct report_trace *t, const struct report_frame *fr, enum column col)
{
	switch (col) {
	case COL_FRAME:
		return (int64_t)fr->frame;
	case COL_DISPLAY:
		return (int64_t)fr->display;
	case COL_DISPLAY_FRAME:
		return (int64_t)fr->display_frame;
	case COL_TIME:	/* us since the first frame */
		return us((int64_t)(fr->t_ns - t->frames[0].t_ns));
	case COL_FLAGS:
		return fr->flags;
	case COL_LAYERS:
		return fr->layers;
	case COL_CLIENT:
		return fr->client_layers;
	case COL_EFFICIENCY:
		return fr->efficiency;
	case COL_ACQUIRE:
		return us(fr->acquire_ns);
	case COL_PRESENT:
		return us(fr->present_ns);
	case COL_RELEASE:
		return us(fr->release_ns);
	default:
		return (int64_t)fr->stack;
	}
}

static void strings_array(FILE *f, const struct report_intern *in)
{
	fputc('[', f);
	for (size_t i = 0; i < in->count; i++) {
		fputs(i ? ",\n" : "\n", f);
		fputs(in->strings[i], f);	/* JSON text made by report_trace.c */
	}
	fputc(']', f);
}

int report_write_trace(FILE *f, const struct report_trace *t)
{
	const struct hwct_trace_info *info = t->info;

	fputs("\"trace\":{\"path\":", f);
	report_json_cstr(f, t->path);
	fputs(",\"writer\":", f);
	report_json_cstr(f, info->header->writer);
	fprintf(f, ",\"format_version\":\"%u.%u\",\"frames\":%" PRIu64 ",\"records\":%" PRIu64
		",\"file_size\":%" PRIu64 ",\"raw_bytes\":%" PRIu64 ",\"stored_bytes\":%" PRIu64 ",\"blobs\":%" PRIu64
		",\"pixels\":%s,\"has_seek_table\":%s,\"truncated\":%s,\"complete\":%s,\"error\":",
		info->major, info->minor, info->frame_count, info->record_count, info->file_size, info->raw_bytes,
		info->stored_bytes, info->blob_count, info->header->has_pixels ? info->header->pixels ? "true" : "false" :
		"null", info->has_seek_table ? "true" : "false", info->truncated ? "true" : "false",
		t->complete ? "true" : "false");
	report_json_cstr(f, t->complete ? NULL : t->error.message);
	fputs("},\n\"environment\":", f);
	fputs(t->environment_json ? t->environment_json : "null", f);
	fputs(",\n\"displays\":[", f);
	for (size_t i = 0; i < t->display_count; i++) {
		const struct report_display *d = &t->displays[i];

		fprintf(f, "%s{\"id\":%" PRIu64 ",\"name\":", i ? "," : "", d->id);
		report_json_cstr(f, d->name);
		fprintf(f, ",\"width\":%" PRId32 ",\"height\":%" PRId32 ",\"vsync_period_ns\":%" PRId32
			",\"frames\":%" PRIu64 "}", d->width, d->height, d->vsync_period_ns, d->frames);
	}
	fprintf(f, "],\n\"capture\":{\"blobs_dropped\":%" PRIu64 ",\"bytes_dropped\":%" PRIu64
		",\"records_dropped\":%" PRIu64 ",\"frames_capture_late\":%" PRIu64 ",\"late_frames\":%" PRIu64 "},\n",
		t->blobs_dropped, t->bytes_dropped, t->records_dropped, t->frames_capture_late, t->capture_late_frames);
	fputs("\"frames\":{", f);
	for (size_t c = 0; c < COL_COUNT; c++) {
		fprintf(f, "%s\"%s\":[", c ? ",\n" : "", column_names[c]);
		for (size_t i = 0; i < t->frame_count; i++) {
			fprintf(f, i ? ",%" PRId64 : "%" PRId64, column_value(t, &t->frames[i], (enum column)c));
		}
		fputc(']', f);
	}
	fputs("},\n\"layers\":", f);
	strings_array(f, &t->layers);
	fputs(",\n\"stacks\":", f);
	strings_array(f, &t->stacks);
	return ferror(f) ? -EIO : 0;
}
