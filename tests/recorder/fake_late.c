/* The fake HWC2 module's late hotplug timing: fake_late.h. */
#define _GNU_SOURCE	/* gettid() */
#include <linux/futex.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fake_late.h"

pid_t fake_late_self(void)
{
	return gettid();
}

int fake_late_timed_wait(pid_t tid)
{
	char path[64];
	long nr;
	unsigned long long op = 0, timeout = 0;
	int fields;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	f = fopen(path, "r");
	if (!f) {
		return -1;
	}
	/* "NR ARG1 ... ARG6 SP PC" while in a call; "running" or "-1 SP PC" otherwise */
	fields = fscanf(f, "%ld %*s %llx %*s %llx", &nr, &op, &timeout);
	fclose(f);
	if (fields != 3) {
		return 0;
	}
#ifdef SYS_futex_time64
	if (nr == SYS_futex_time64) {
		nr = SYS_futex;
	}
#endif
	op &= FUTEX_CMD_MASK;
	return nr == SYS_futex && (op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET) && timeout != 0;
}

bool fake_late_wait_for_waiter(pid_t tid, const atomic_bool *stop)
{
	struct timespec step = { 0, FAKE_LATE_POLL_MS * 1000000L };
	int waits;

	while ((waits = fake_late_timed_wait(tid)) == 0) {
		if (atomic_load(stop)) {
			return false;
		}
		nanosleep(&step, NULL);
	}
	if (waits < 0) {
		nanosleep(&(struct timespec){ 0, FAKE_LATE_FALLBACK_MS * 1000000L }, NULL);
	}
	return !atomic_load(stop);
}
