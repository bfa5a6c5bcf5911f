/*
 * Shared by the recorder's robustness tests (test_robust.c and the case
 * files test_*.c next to it): counted checks (check.h), a scratch directory
 * and the case runner (testlib.c); running the test client (hwc2_client.c) on the fake
 * module with or without the recorder (testlib_client.c); its log, and
 * what a trace holds (testlib_trace.c).
 */
#ifndef HWCT_TEST_RECORDER_TESTLIB_H
#define HWCT_TEST_RECORDER_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <hwct/hwctrace.pb-c.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"

#define TEST_SKIP 77	/* meson: the test was skipped */

/* A case: returns 0 when it ran (failures counted), TEST_SKIP, or 2 when it could not run. */
struct test_case {
	const char *name;
	int (*run)(void);
};

/*
 * Runs case argv[1] in a fresh scratch directory (kept when HWCT_TEST_KEEP
 * is set). Returns the exit status: 0 pass, 1 fail, 2 usage, 77 skip.
 */
int test_main(int argc, char **argv, const struct test_case *cases, size_t count);

/* getenv(name); exits 2 when it is not set (run through meson test). */
const char *test_env(const char *name);

/* The scratch directory's name/, in one of 8 rotating buffers: copy what is kept. */
const char *test_path(const char *name);

/* Reads a whole file, NUL-terminated (*size may be NULL). Caller frees; NULL when unreadable. */
char *test_read_file(const char *path, size_t *size);

/* How the client reaches the fake module. */
enum test_via {
	TEST_DIRECT,	/* no recorder */
	TEST_HAL,	/* libhwc-record.so as the module, HWCT_REAL_MODULE the fake */
	TEST_PRELOAD,	/* the fake, libhwc-record.so in LD_PRELOAD */
};

struct test_client {
	pid_t pid;
	int status;		/* exit status, 128 + signal when killed, -1 while running */
	char *err;		/* its stderr, after test_client_wait(); owned */
	char err_path[512];
};

/*
 * Starts the client (HWCT_TEST_CLIENT) with --module and --log log, then
 * args (NULL-terminated, may be NULL). Its environment: ours without
 * HWCT_* and LD_PRELOAD, then env (NAME=VALUE, NULL-terminated, may be
 * NULL). Exits 2 when it cannot.
 */
void test_client_start(struct test_client *c, enum test_via via, const char *log,
	const char *const *env, const char *const *args);

/* Whether the client ended (reaped, status set); does not wait. */
bool test_client_done(struct test_client *c);

/* Waits for the client and reads its stderr. */
void test_client_wait(struct test_client *c);

/* test_client_start() then test_client_wait(). */
void test_client_run(struct test_client *c, enum test_via via, const char *log,
	const char *const *env, const char *const *args);

/* Frees what c holds. */
void test_client_finish(struct test_client *c);

/*
 * Makes the directory test_path("out") and writes "HWCT_OUTPUT=" it into
 * buf (size bytes) for a client's env; returns buf.
 */
const char *test_output_env(char *buf, size_t size);

/*
 * The checks of a client run that ended (test_client_wait): exit 0 and,
 * when quiet, nothing on its stderr (the client's or the recorder's).
 * Failures counted; returns whether it exited 0.
 */
bool test_client_ok(struct test_client *c, bool quiet);

/*
 * Copies what comes through the FIFO read end fd (non-blocking) into
 * out_path until every writer closed it, while c runs (reaped when it
 * ends). Gives up after timeout_ms. Returns the bytes copied, or -1 when
 * it gave up or failed.
 */
long test_fifo_drain(int fd, const char *out_path, struct test_client *c, int timeout_ms);

/* Path of the trace of session n of the client c in directory dir. */
const char *test_trace_path(const struct test_client *c, unsigned n, const char *dir);

/* The client's log: call lines and "# name ..." facts. */
struct test_log {
	char *text;		/* the file, split into lines in place */
	char **calls;		/* the call lines, in order */
	size_t call_count;
	char **facts;		/* the "#" lines, in order */
	size_t fact_count;
};

/* Loads path; false (a failure counted) when it cannot. */
bool test_log_load(struct test_log *log, const char *path);

/* The text after "# name " of the last such fact, or NULL. */
const char *test_log_fact(const struct test_log *log, const char *name);

void test_log_finish(struct test_log *log);

/*
 * Loads the client's log, test_path("log"), into log; when it cannot (a
 * failure counted) finishes c and returns false.
 */
bool test_client_log(struct test_client *c, struct test_log *log);

/*
 * A robust case's run: test_client_run() through the HAL, test_client_ok()
 * and test_client_log(); returns whether the log was loaded (if not, c is
 * finished).
 */
bool test_client_run_log(struct test_client *c, struct test_log *log, const char *const *env,
	const char *const *args, bool quiet);

/* What a trace holds, counted. */
struct test_trace {
	uint64_t records, calls, frame_ends;
	uint64_t frame_ends_late;	/* FrameEnds flagged HWCT_FRAME_CAPTURE_LATE */
	uint64_t call_errors;		/* calls with an error */
	uint64_t captures_ok, captures_dropped, captures_late;
	bool stats;			/* a CaptureStats was seen; the last one: */
	uint64_t blobs_dropped, records_dropped;
	bool has_fds;			/* ... has the fd-budget fields (format 1.2): */
	uint64_t fd_budget, fds_held_peak, captures_no_fd, fences_unwatched;
	bool has_wakes;			/* ... counts the worker's wake-ups by calls: */
	uint64_t worker_wakes;
	uint64_t fences, fences_unwatched_seen;	/* Fence records, those with status UNWATCHED */
	bool closed;			/* it has its seek table */
};

/*
 * Reads the trace at path; on_call (may be NULL) sees every Call, in
 * order. False (a failure counted) when it does not read to its end.
 */
bool test_trace_scan(const char *path, struct test_trace *out,
	void (*on_call)(const Hwct__Call *call, void *data), void *data);

/*
 * Checks the trace's Calls against the log's call lines: as many, and each
 * one's "NAME d= l= e=" (function, display, layer, error) the same.
 */
void test_check_calls(const char *trace, const struct test_log *log, struct test_trace *out);

#endif
