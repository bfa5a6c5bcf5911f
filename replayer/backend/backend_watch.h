/*
 * Where a replay is inside an HWC2 module, for the process that supervises
 * it (replay_guard.h): the frame being replayed and the module call under
 * way with the time it started. The record lives in memory shared with the
 * supervisor, so it survives the module crashing or hanging the replaying
 * process. Without a record attached every function does nothing. The
 * call names can also go to a log file (--hwc2-call-log).
 */
#ifndef HWCT_BACKEND_WATCH_H
#define HWCT_BACKEND_WATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define BACKEND_WATCH_NAME_MAX 48
#define BACKEND_WATCH_END (UINT64_MAX - 1)	/* frame: after the last one (tear-down) */

struct backend_watch {
	_Atomic uint64_t frame;		/* FrameEnd.frame being replayed; UINT64_MAX before the first */
	_Atomic int64_t call_start_ns;	/* CLOCK_MONOTONIC start of the call under way; 0 none */
	_Atomic uint32_t seq;		/* odd while call is being rewritten */
	char call[BACKEND_WATCH_NAME_MAX];	/* the last call entered ("presentDisplay") */
};

/* Makes w (shared memory, borrowed for the life of the process) the record; NULL detaches. */
void backend_watch_attach(struct backend_watch *w);

/* Resets w: no frame, no call. */
void backend_watch_init(struct backend_watch *w);

/* The frame about to be replayed, or BACKEND_WATCH_END. */
void backend_watch_frame(uint64_t frame);

/*
 * A module call starts: name is its HWC2 name ("presentDisplay") or a
 * backend field name ("present_display", written back in camel case).
 */
void backend_watch_enter(const char *name);

/* The module call under way returned. */
void backend_watch_leave(void);

/*
 * Reads w from the supervisor: the call's name into call (size bytes),
 * the frame and the call's start (0: none under way).
 */
void backend_watch_read(struct backend_watch *w, char *call, unsigned size, uint64_t *frame, int64_t *start_ns);

/*
 * Writes the name of every module call entered from now on, one a line,
 * to path (created or truncated; each line written at once, so a crash
 * loses none). Returns 0 or -errno.
 */
int backend_watch_log_open(const char *path);

/* CLOCK_MONOTONIC now in ns. */
int64_t backend_watch_now_ns(void);

#endif
