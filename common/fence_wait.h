/*
 * Waiting for a fence (a sync_file, or any fd that polls readable once
 * signalled), one rule for every program and test: the wait is a poll for
 * POLLIN, retried when a signal interrupts it, and its result says
 * signalled, timed out or failed.
 */
#ifndef HWCT_COMMON_FENCE_WAIT_H
#define HWCT_COMMON_FENCE_WAIT_H

/*
 * Waits up to timeout_ms (0: only looks, negative: forever) for fence fd
 * (borrowed, not closed) to signal. A negative fd is no fence: nothing to
 * wait for. A fence that signalled with an error counts as signalled.
 * Returns 0 (signalled, or fd < 0), -ETIME when the time ran out, -EBADF
 * when fd is not open, or another -errno from poll(2).
 */
int hwct_fence_wait(int fd, int timeout_ms);

#endif
