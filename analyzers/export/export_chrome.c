/*
 * Writing the Chrome Trace Event Format (export.h): a JSON object with
 * "traceEvents", metadata events first (process and thread names), then the
 * events by time, one per line. Times are microseconds with nanosecond
 * decimals, CLOCK_MONOTONIC of the recording as it was.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwc2_names.h>

#include "export.h"

static int by_time(const void *a, const void *b)
{
	const struct export_event *x = a, *y = b;

	if (x->ts_ns != y->ts_ns) {
		return x->ts_ns < y->ts_ns ? -1 : 1;
	}
	return x->order < y->order ? -1 : x->order > y->order;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p < 0x20) {
			fprintf(f, "\\u%04x", *p);
		} else {
			fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* ns as microseconds with three decimals. */
static void put_us(FILE *f, const char *key, int64_t ns)
{
	const char *sign = ns < 0 ? "-" : "";
	uint64_t v = ns < 0 ? (uint64_t)-(ns + 1) + 1 : (uint64_t)ns;

	fprintf(f, ",\"%s\":%s%" PRIu64 ".%03u", key, sign, v / 1000, (unsigned)(v % 1000));
}

static void put_head(FILE *f, char ph, const char *name, const struct export_event *e)
{
	fprintf(f, "{\"ph\":\"%c\",\"name\":", ph);
	put_string(f, name);
	put_us(f, "ts", e->ts_ns);
	fprintf(f, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32, e->pid, e->tid);
}

static void put_common_args(FILE *f, const struct export_event *e)
{
	if (e->has_display) {
		fprintf(f, ",\"display\":%" PRIu64, e->display);
	}
	if (e->has_layer) {
		fprintf(f, ",\"layer\":%" PRIu64, e->layer);
	}
	if (e->has_frame) {
		fprintf(f, ",\"frame\":%" PRIu64, e->frame);
	}
}

static void put_call(FILE *f, const struct export_event *e)
{
	const char *method = hwct_hwc2_function_method(e->code), *error = hwct_hwc2_error_name(e->error);
	char name[32];

	if (!method) {
		snprintf(name, sizeof(name), "function %d", e->code);
		method = name;
	}
	put_head(f, 'X', method, e);
	put_us(f, "dur", e->dur_ns);
	fprintf(f, ",\"cat\":\"hwc2\",\"args\":{\"seq\":%" PRIu64 ",\"thread\":%" PRIu32, e->seq, e->thread);
	put_common_args(f, e);
	if (error) {
		fprintf(f, ",\"error\":\"%s\"}}", error);
	} else {
		fprintf(f, ",\"error\":%d}}", e->error);
	}
}

static const char *fence_kind_name(int32_t kind)
{
	static const char *const names[] = { "fence", "acquire fence", "client target fence", "present fence",
		"release fence", "output fence", "readback fence" };

	return kind >= 0 && kind < (int32_t)(sizeof(names) / sizeof(names[0])) ? names[kind] : "fence";
}

static void put_event(FILE *f, const struct export_event *e)
{
	const char *cb;
	char name[48];

	switch (e->kind) {
	case EXPORT_CALL:
		put_call(f, e);
		return;
	case EXPORT_FRAME_END:
		snprintf(name, sizeof(name), "frame %" PRIu64, e->frame);
		put_head(f, 'i', name, e);
		fprintf(f, ",\"s\":\"t\",\"cat\":\"frame\",\"args\":{\"display_frame\":%" PRId64 ",\"flags\":%" PRId64
			",\"present_fence\":%" PRIu64, e->value, e->value2, e->fence);
		put_common_args(f, e);
		fputs("}}", f);
		return;
	case EXPORT_CALLBACK:
		cb = hwct_hwc2_callback_descriptor_name(e->code);
		if (!cb) {
			snprintf(name, sizeof(name), "callback %d", e->code);
			cb = name;
		}
		put_head(f, 'i', cb, e);
		fputs(",\"s\":\"t\",\"cat\":\"callback\",\"args\":{", f);
		if (e->code == HWC2_CALLBACK_HOTPLUG) {
			fprintf(f, "\"connection\":%" PRId64, e->value);
		} else {
			fprintf(f, "\"timestamp_ns\":%" PRId64, e->value);
			if (e->value2) {
				fprintf(f, ",\"vsync_period_ns\":%" PRId64, e->value2);
			}
		}
		put_common_args(f, e);
		fputs("}}", f);
		return;
	case EXPORT_FENCE_SIGNAL:
		put_head(f, 'i', fence_kind_name(e->code), e);
		fprintf(f, ",\"s\":\"t\",\"cat\":\"fence\",\"args\":{\"fence\":%" PRIu64 ",\"status\":%d", e->fence,
			e->error);
		put_common_args(f, e);
		fputs("}}", f);
		return;
	case EXPORT_FLOW_START:
	case EXPORT_FLOW_END:
		/* s and f of one fence share id, cat and name; f binds to the signal instant */
		put_head(f, e->kind == EXPORT_FLOW_START ? 's' : 'f', "fence", e);
		fprintf(f, ",\"cat\":\"fence\",\"id\":%" PRIu64 "%s}", e->fence,
			e->kind == EXPORT_FLOW_END ? ",\"bp\":\"e\"" : "");
		return;
	}
}

static void put_metadata(FILE *f, const char *what, uint32_t pid, const uint32_t *tid, const char *name)
{
	fprintf(f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" PRIu32, what, pid);
	if (tid) {
		fprintf(f, ",\"tid\":%" PRIu32, *tid);
	}
	fputs(",\"args\":{\"name\":", f);
	put_string(f, name);
	fputs("}}", f);
}

int export_write_chrome(FILE *f, const char *source, struct export_events *ev)
{
	const char *sep = "\n";

	if (ev->count) {
		qsort(ev->events, ev->count, sizeof(*ev->events), by_time);
	}
	fputs("{\"traceEvents\":[", f);
	for (size_t i = 0; i < ev->process_count; i++, sep = ",\n") {
		fputs(sep, f);
		put_metadata(f, "process_name", ev->processes[i].pid, NULL, ev->processes[i].name);
	}
	for (size_t i = 0; i < ev->thread_count; i++, sep = ",\n") {
		fputs(sep, f);
		put_metadata(f, "thread_name", ev->threads[i].pid, &ev->threads[i].tid, ev->threads[i].name);
	}
	for (size_t i = 0; i < ev->count; i++, sep = ",\n") {
		fputs(sep, f);
		put_event(f, &ev->events[i]);
	}
	fputs("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"hwc-trace export\",\"source\":", f);
	put_string(f, source);
	fprintf(f, ",\"complete\":%s}}\n", ev->complete ? "true" : "false");
	if (fflush(f) != 0 || ferror(f)) {
		return errno ? -errno : -EIO;
	}
	return 0;
}
