/* The canonical call-log line (calllog.h). */
#include <stdarg.h>
#include <stdio.h>

#include <hwct/hwc2_names.h>

#include "calllog.h"

void calllog_add(struct calllog_line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->n >= sizeof(l->s) - 1) {
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	va_end(ap);
	if (n > 0) {
		l->n += (size_t)n;
		if (l->n > sizeof(l->s) - 1) {
			l->n = sizeof(l->s) - 1;
		}
	}
}

void calllog_begin(struct calllog_line *l, int32_t function, bool has_display, uint64_t display,
	bool has_layer, uint64_t layer, int32_t error)
{
	const char *name = hwct_hwc2_function_name(function);

	l->n = 0;
	l->s[0] = '\0';
	if (name && function > 0) {
		calllog_add(l, "%s", name);
	} else {
		calllog_add(l, "FUNCTION_%d", function);
	}
	if (has_display) {
		calllog_add(l, " d=%llu", (unsigned long long)display);
	} else {
		calllog_add(l, " d=-");
	}
	if (has_layer) {
		calllog_add(l, " l=%llu", (unsigned long long)layer);
	} else {
		calllog_add(l, " l=-");
	}
	calllog_add(l, " e=%d", error);
}

void calllog_list(struct calllog_line *l, const char *name, const int64_t *v, size_t n)
{
	calllog_add(l, " %s=[", name);
	for (size_t i = 0; i < n; i++) {
		calllog_add(l, "%s%lld", i ? "," : "", (long long)v[i]);
	}
	calllog_add(l, "]");
}

void calllog_rects(struct calllog_line *l, const char *name, const int32_t (*rects)[4], size_t n)
{
	calllog_add(l, " %s=[", name);
	for (size_t i = 0; i < n; i++) {
		calllog_add(l, "%s%d,%d,%d,%d", i ? ";" : "", rects[i][0], rects[i][1], rects[i][2],
			rects[i][3]);
	}
	calllog_add(l, "]");
}

void calllog_text(struct calllog_line *l, const char *name, const char *text)
{
	calllog_add(l, " %s=", name);
	for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) {
		if (*p == '\n') {
			calllog_add(l, "\\n");
		} else if (*p >= 0x20 && *p < 0x7f) {
			calllog_add(l, "%c", *p);
		} else {
			calllog_add(l, "\\x%02x", *p);
		}
	}
}
