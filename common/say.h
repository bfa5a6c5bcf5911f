/*
 * The one way hwctrace's programs write a message for a person on standard
 * error: "PROGRAM: KIND: message" on a line of its own (or "PROGRAM:
 * message" without a kind), after whatever standard output holds so far, so
 * that the two streams interleave in the order they were written.
 */
#ifndef HWCT_COMMON_SAY_H
#define HWCT_COMMON_SAY_H

#include <stdarg.h>

/*
 * Writes the line. program and fmt are borrowed; kind may be NULL ("error",
 * "warning", or none for a plain note). args is consumed as vfprintf does.
 * Never fails: a write error on standard error has no one to report to.
 */
void hwct_vsay(const char *program, const char *kind, const char *fmt, va_list args)
	__attribute__((format(printf, 3, 0)));

#endif
