/*
 * The call log: one text line per HWC2 call, in a canonical form that the
 * test client writes from what it passed and got back, and the checker
 * writes from the Call records of the trace. The two lines must be equal.
 *
 *	NAME d=<display|-> l=<layer|-> e=<error>[ field=value...][ | pixel part]
 */
#ifndef HWCT_TEST_CALLLOG_H
#define HWCT_TEST_CALLLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CALLLOG_LINE 8192

struct calllog_line {
	char s[CALLLOG_LINE];
	size_t n;
};

/* Starts a line for function (an unknown descriptor prints as FUNCTION_<n>). */
void calllog_begin(struct calllog_line *l, int32_t function, bool has_display, uint64_t display,
	bool has_layer, uint64_t layer, int32_t error);
void calllog_add(struct calllog_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* " name=[a,b,c]" */
void calllog_list(struct calllog_line *l, const char *name, const int64_t *v, size_t n);
/* " name=TEXT" with '\n' as "\n" and other bytes outside printable ASCII as "\xNN"; text may be NULL */
void calllog_text(struct calllog_line *l, const char *name, const char *text);
/* " name=[l,t,r,b;...]" from n rects of 4 ints */
void calllog_rects(struct calllog_line *l, const char *name, const int32_t (*rects)[4], size_t n);

#endif
