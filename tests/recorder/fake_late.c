/* The fake HWC2 module's late hotplug timing: fake_late.h. */
#define _GNU_SOURCE	/* gettid() */
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fake_late.h"

pid_t fake_late_self(void)
{
	return gettid();
}

/*
 * Whether /proc/.../syscall numbers calls as this program does: the calling
 * thread reads its own file, in the middle of a read(2), and must find
 * SYS_read. Under qemu-user (a cross build's tests) the file shows the host
 * kernel's numbers for the host's calls, not this architecture's.
 */
static bool numbers_are_ours(void)
{
	char path[64], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)gettid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		return false;
	}
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == SYS_read;
}

int fake_late_timed_wait(pid_t tid)
{
	static int ours = -1;	/* numbers_are_ours(), once: 1, 0, or -1 not yet asked */
	char path[64];
	long nr;
	unsigned long long op = 0, timeout = 0;
	int fields;
	FILE *f;

	if (ours < 0) {
		ours = numbers_are_ours();
	}
	if (!ours) {
		return -1;
	}
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
