/*
 * The trace survives its host process dying: on a fatal signal (SIGSEGV,
 * SIGBUS, SIGILL, SIGFPE, SIGABRT; and SIGTERM, the request to end that
 * hwc-replay's --hwc2 supervisor sends a hung module's process before it
 * kills it) delivered to any thread but the
 * recorder's worker, the handler asks the worker to quit, waits for it
 * (at most REC_CRASH_WAIT_MS) to write what was queued and finish the
 * trace (its index and seek table), then puts the previous handler back
 * and raises the signal again, so the process dies as it would have (core
 * dump, debuggerd, the parent's view of the signal unchanged). Calls made
 * before the fatal one are in the trace; the one under way is not.
 *
 * A handler cannot be fully async-signal-safe here (it wakes a thread
 * through a mutex it only tries to take); it runs once, in a process
 * that is dying anyway.
 */
#ifndef HWCT_REC_CRASH_H
#define HWCT_REC_CRASH_H

#include "recorder.h"

#define REC_CRASH_WAIT_MS 3000

/* Installs the handlers for r (the process's recorder); once per process. */
void rec_crash_install(struct recorder *r);

#endif
