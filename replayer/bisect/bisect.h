/*
 * hwc-bisect (bisect_main.c): walks an ordered list of builds — Debian
 * kernel versions, kernel images, HWC2 modules, library folders — replaying
 * one trace on each with `hwc-replay --expect GOOD`, and names the first
 * build whose replay differs. A thin driver: the replays, the comparison
 * and the results files are hwc-replay's.
 *
 * bisect_search.c is the search alone (git bisect's rules, skip included),
 * bisect_build.c turns a build's spelling into hwc-replay arguments,
 * bisect_run.c runs one replay and reads what its results file says.
 */
#ifndef HWCT_REPLAYER_BISECT_H
#define HWCT_REPLAYER_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- the search ------------------------------------------------------------ */

enum bisect_state {
	BISECT_UNTESTED = 0,
	BISECT_SAME,		/* the replay matches the known-good results */
	BISECT_DIFFERS,		/* it does not */
	BISECT_SKIPPED,		/* it could not be tested (hwc-replay --expect's 125) */
};

/*
 * Builds 0..n-1, oldest first; the known-good results stand before build 0
 * (lo = -1) and nothing is known past the last (hi = n). Builds are assumed
 * to match up to some build and to differ from it on.
 */
struct bisect_search {
	size_t n;
	enum bisect_state *state;	/* n entries; owned */
	long lo;			/* the last build known to match, -1: only the good results */
	long hi;			/* the first build known to differ, n: none yet */
};

/* Sets up s for n builds (n >= 1). Returns 0 or -ENOMEM. */
int bisect_search_init(struct bisect_search *s, size_t n);

/* Frees s's state. */
void bisect_search_finish(struct bisect_search *s);

/*
 * The build to test next, or -1 when the search is over: the upper middle
 * of the builds between lo and hi, or when that one was skipped the untested
 * build nearest to it (the lower of two as near).
 */
long bisect_search_next(const struct bisect_search *s);

/* Records what testing build i gave (SAME, DIFFERS or SKIPPED). */
void bisect_search_mark(struct bisect_search *s, size_t i, enum bisect_state st);

enum bisect_outcome {
	BISECT_FOUND,		/* hi is the first build that differs */
	BISECT_NONE,		/* no build differs */
	BISECT_AMBIGUOUS,	/* skipped builds leave it open: one of lo+1..hi (hi may be n) */
};

/* The outcome once bisect_search_next returned -1. */
enum bisect_outcome bisect_search_outcome(const struct bisect_search *s);

/* --- builds ---------------------------------------------------------------- */

enum bisect_build_kind {
	BISECT_BUILD_KERNEL,	/* kernel:VERSION or a bare Debian version: --vm --kernel VERSION */
	BISECT_BUILD_IMAGE,	/* image:IMAGE[:MODULES]: --vm --kernel-image IMAGE [--kernel-modules MODULES] */
	BISECT_BUILD_HWC2,	/* hwc2:MODULE.so: --hwc2 MODULE.so */
	BISECT_BUILD_LIBS,	/* libs:DIR: LD_LIBRARY_PATH=DIR (a Mesa or libdrm build), the target from the options */
	BISECT_BUILD_USERLAND,	/* userland:DIR: --vm --userland DIR (another distribution's Mesa) */
};

struct bisect_build {
	enum bisect_build_kind kind;
	char *spec;		/* as given; owned */
	char *path;		/* version, image, module or folder; owned */
	char *modules;		/* image: the modules folder, NULL none; owned */
	char *label;		/* "kernel 6.12.117-1~deb12u1", for messages; owned */
	char *file_stem;	/* label made safe for a file name; owned */
};

/*
 * Parses one build's spelling into b. Returns 0, or -EINVAL with a message
 * naming the spelling in msg (size bytes).
 */
int bisect_build_parse(const char *spec, struct bisect_build *b, char *msg, size_t size);

/* Frees what b owns. */
void bisect_build_finish(struct bisect_build *b);

/*
 * Appends b's hwc-replay arguments (borrowed from b) to argv at *n; argv must
 * have room for 6 more.
 */
void bisect_build_args(const struct bisect_build *b, const char **argv, size_t *n);

/* --- one replay ------------------------------------------------------------ */

struct bisect_run {
	int status;			/* hwc-replay's exit status, -1 killed */
	enum bisect_state state;	/* from the status: 0 SAME, 1 DIFFERS, else SKIPPED */
	uint64_t compared, differing;	/* from the results' "comparison" */
	bool has_first;
	uint64_t first_frame;
	char first[512];		/* "layer 101: expected client (rotation), got plane 35" */
	char why[512];			/* SKIPPED: the last line of hwc-replay's stderr */
	double seconds;
};

/*
 * Runs `replay TRACE <b's arguments> --expect GOOD --results RESULTS --quiet
 * EXTRA...` with stderr into LOG, and fills r from its exit status and the
 * results file. Returns 0, or -errno when the program could not be started.
 */
int bisect_run_build(const char *replay, const char *trace, const char *good, const struct bisect_build *b,
	const char *const *extra, size_t extra_count, const char *results, const char *log, struct bisect_run *r);

#endif
