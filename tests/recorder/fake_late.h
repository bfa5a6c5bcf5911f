/*
 * The fake HWC2 module's late hotplug (fake_hwc2.c, FAKE_HWC2_MODE
 * "late-hotplug"): the second display is announced from a thread of the
 * module's once the caller that registered the callbacks is waiting for
 * it, i.e. blocked in a futex wait with a timeout (a
 * pthread_cond_timedwait), as /proc/self/task/TID/syscall shows. A fixed
 * delay instead could be stretched past the caller's own wait by a loaded
 * machine, or run out before the caller looked. Where that file cannot be
 * read, or numbers calls otherwise than this program (under qemu-user it
 * shows the host's calls), the thread falls back to FAKE_LATE_FALLBACK_MS
 * after the registration.
 */
#ifndef HWCT_TEST_FAKE_LATE_H
#define HWCT_TEST_FAKE_LATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#define FAKE_LATE_FALLBACK_MS 300
#define FAKE_LATE_POLL_MS 5

/* The calling thread's id, for fake_late_wait_for_waiter. */
pid_t fake_late_self(void);

/*
 * 1 when thread tid of this process is blocked in a futex wait with a
 * timeout, 0 when it is not, -1 when that cannot be read (no such thread,
 * no /proc/.../syscall here, or one with another architecture's numbers).
 */
int fake_late_timed_wait(pid_t tid);

/*
 * Returns once thread tid waits (fake_late_timed_wait), or after the
 * fallback delay when that cannot be read; false when *stop was set first
 * (the device closing). Polls every FAKE_LATE_POLL_MS.
 */
bool fake_late_wait_for_waiter(pid_t tid, const atomic_bool *stop);

#endif
