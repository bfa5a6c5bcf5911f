/*
 * The checks of the test programs, header-only: `#include "check.h"` with
 * tests_common_inc (tests/meson.build) among the include directories.
 *
 * A check that fails prints one line to stderr,
 *
 *	FILE:LINE: check failed: COND[: MESSAGE]
 *
 * COND as the source spells it, MESSAGE printf-formatted from the check's
 * optional arguments (evaluated only when the check fails). What comes next
 * is the program's choice, made once for all of its files, as NDEBUG is for
 * assert():
 *
 * - fatal (the default): exit(1) at once, and meson counts the test failed.
 *   For tests where nothing after a broken check can be trusted.
 * - counted, where CHECK_NONFATAL is defined before the first include of
 *   this header: check_tally.failed goes up by one and the test goes on, so
 *   one run reports every broken check. Such a program defines the tally in
 *   exactly one of its files (`struct check_tally check_tally;`) and takes
 *   its exit status from check_status().
 *
 * Each check is an expression whose value is whether it held (always true
 * in a fatal program, which never comes back from a failed one), so a
 * counted test can skip what depends on it:
 *
 *	if (!CHECK(fd >= 0, "open %s: %s", path, strerror(errno))) {
 *		return;
 *	}
 *
 * The checks:
 *	CHECK(cond)			cond holds (is not 0 or NULL)
 *	CHECK(cond, fmt, ...)		the same, with a message
 *	CHECK_MSG(cond, fmt, ...)	the same as CHECK with a message
 *	CHECK_INT(got, want)		equal as long long; says both values
 *	CHECK_EQ_U64(a, b)		equal as unsigned long long; says both values
 *	CHECK_STR(got, want)		got is a string (not NULL) equal to want
 *	FAIL(fmt, ...)			a failure the test found otherwise (always false)
 *
 * A counted program made of cases (one meson test each) lists them as
 * `struct check_case` and returns check_run_cases() from main().
 *
 * A counted program may also define CHECK_PRINT_MAX to a number before the
 * first include: the failures after that many are counted, not printed.
 *
 * Not thread-safe: check from one thread at a time.
 */
#ifndef HWCT_TESTS_CHECK_H
#define HWCT_TESTS_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CHECK_NONFATAL
#define CHECK_NONFATAL_ 1
#else
#define CHECK_NONFATAL_ 0
#endif

/* What the checks of a counted (CHECK_NONFATAL) program found. */
struct check_tally {
	int run;	/* checks evaluated, FAIL() included */
	int failed;	/* of those, the ones that failed */
};

#if CHECK_NONFATAL_
/* Defined by one file of the program: `struct check_tally check_tally;`. */
extern struct check_tally check_tally;

/* The exit status of a counted program: 0, or 1 after "N of M checks failed" on stderr. */
static inline int check_status(void)
{
	if (check_tally.failed == 0) {
		return 0;
	}
	fprintf(stderr, "%d of %d checks failed\n", check_tally.failed, check_tally.run);
	return 1;
}

/* A case of a counted program; meson runs one case per test, named by argv[1]. */
struct check_case {
	const char *name;
	void (*run)(void);
};

/*
 * The main() of a counted program of n cases: runs the case argv[1] names,
 * or every case when there is no argument. Returns the exit status:
 * check_status(), or 2 after "unknown case NAME" on stderr.
 */
static inline int check_run_cases(const struct check_case *cases, size_t n, int argc, char **argv)
{
	for (size_t i = 0; i < n; i++) {
		if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) {
			cases[i].run();
			if (argc >= 2) {
				return check_status();
			}
		}
	}
	if (argc >= 2) {
		fprintf(stderr, "unknown case %s\n", argv[1]);
		return 2;
	}
	return check_status();
}
#endif

#define CHECK(...) CHECK_PICK_(__VA_ARGS__, \
	CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, \
	CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, \
	CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, \
	CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, \
	CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_WITH_MSG_, CHECK_COND_ONLY_, 0)(#__VA_ARGS__, __VA_ARGS__)
#define CHECK_MSG(cond, ...) CHECK_WITH_MSG_(#cond, cond, __VA_ARGS__)
#define CHECK_INT(got, want) check_int_(__FILE__, __LINE__, #got, (long long)(got), (long long)(want))
#define CHECK_EQ_U64(a, b) check_u64_(__FILE__, __LINE__, #a, #b, (unsigned long long)(a), \
	(unsigned long long)(b))
#define CHECK_STR(got, want) check_str_(__FILE__, __LINE__, #got, (got), (want))
#define FAIL(...) (check_held_(false) ? true : check_failed_msg_(__FILE__, __LINE__, NULL, __VA_ARGS__))

/* ------------------------------------------------------------ internals */

/*
 * CHECK's 25th argument: CHECK_COND_ONLY_ when it was given the condition
 * alone, CHECK_WITH_MSG_ when 2 to 24 arguments (C11 has no empty __VA_ARGS__).
 */
#define CHECK_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, \
	a17, a18, a19, a20, a21, a22, a23, a24, name, ...) name
/*
 * text: the arguments as spelt, "COND" or "COND, FMT, ARGS" (COND cut out when printed).
 * `?:` rather than `||`: a check as a statement leaves no unused value to warn of.
 */
#define CHECK_COND_ONLY_(text, cond) \
	(check_held_(!!(cond)) ? true : check_failed_(__FILE__, __LINE__, text))
#define CHECK_WITH_MSG_(text, cond, ...) \
	(check_held_(!!(cond)) ? true : check_failed_msg_(__FILE__, __LINE__, text, __VA_ARGS__))

/* Counts a check evaluated; returns held. */
static inline bool check_held_(bool held)
{
#if CHECK_NONFATAL_
	check_tally.run++;
#endif
	return held;
}

/* Whether a failure is printed (all are, but past CHECK_PRINT_MAX in a counted program). */
static inline bool check_printing_(void)
{
#if CHECK_NONFATAL_ && defined(CHECK_PRINT_MAX)
	return check_tally.failed < CHECK_PRINT_MAX;
#else
	return true;
#endif
}

/* After the failure's line: counts it and returns false, or ends the program. */
static inline bool check_end_(void)
{
#if CHECK_NONFATAL_
	check_tally.failed++;
	return false;
#else
	exit(1);
#endif
}

/* How much of text is the condition: up to its first comma outside brackets and literals. */
static inline int check_cond_length_(const char *text)
{
	const char *p;
	char quote = 0;
	int depth = 0;

	for (p = text; *p != '\0'; p++) {
		if (quote != 0) {
			if (*p == '\\' && p[1] != '\0') {
				p++;
			} else if (*p == quote) {
				quote = 0;
			}
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if (*p == ')' || *p == ']' || *p == '}') {
			depth--;
		} else if (*p == ',' && depth == 0) {
			break;
		}
	}
	return (int)(p - text);
}

static inline bool check_failed_(const char *file, int line, const char *cond)
{
	if (check_printing_()) {
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, cond);
	}
	return check_end_();
}

/* cond: CHECK's text (cut at the condition), or NULL for a failure without one. */
static inline bool check_failed_msg_(const char *file, int line, const char *cond,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline bool check_failed_msg_(const char *file, int line, const char *cond,
	const char *fmt, ...)
{
	va_list args;

	if (!check_printing_()) {
		return check_end_();
	}
	fprintf(stderr, "%s:%d: check failed: ", file, line);
	if (cond != NULL) {
		fprintf(stderr, "%.*s: ", check_cond_length_(cond), cond);
	}
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	return check_end_();
}

static inline bool check_int_(const char *file, int line, const char *expr, long long got,
	long long want)
{
	return check_held_(got == want) ||
		check_failed_msg_(file, line, NULL, "%s = %lld, want %lld", expr, got, want);
}

static inline bool check_u64_(const char *file, int line, const char *a_expr, const char *b_expr,
	unsigned long long a, unsigned long long b)
{
	return check_held_(a == b) || check_failed_msg_(file, line, NULL,
		"%s = %llu, expected %s = %llu", a_expr, a, b_expr, b);
}

static inline bool check_str_(const char *file, int line, const char *expr, const char *got,
	const char *want)
{
	return check_held_(got != NULL && strcmp(got, want) == 0) ||
		check_failed_msg_(file, line, NULL, "%s\n  got  \"%s\"\n  want \"%s\"", expr,
			got != NULL ? got : "(null)", want);
}

#endif

/* Every file of a program includes this header in the same mode (see the top). */
#if defined(CHECK_NONFATAL) != CHECK_NONFATAL_
#error "check.h: CHECK_NONFATAL defined in some includes and not in others"
#endif
