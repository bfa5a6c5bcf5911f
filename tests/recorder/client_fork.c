/* The test client's --fork-check (client_fork.h). */
#define _GNU_SOURCE	/* pthread_getattr_np(), gettid(), SCHED_BATCH */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client_fork.h"

/* the parent's threads' stacks: [lo, hi) */
static struct {
	uintptr_t lo, hi;
} stacks[CLIENT_FORK_THREADS];
static atomic_int ready;

static void *holder_main(void *data)
{
	int k = (int)(intptr_t)data;
	pthread_attr_t attr;
	void *addr;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
			stacks[k].lo = (uintptr_t)addr;
			stacks[k].hi = (uintptr_t)addr + size;
		}
		pthread_attr_destroy(&attr);
	}
	atomic_fetch_add(&ready, 1);
	for (;;) {
		pause();
	}
	return NULL;
}

void client_fork_start(void)
{
	pid_t pid;
	int status;

	for (int k = 0; k < CLIENT_FORK_THREADS; k++) {
		pthread_t t;

		if (pthread_create(&t, NULL, holder_main, (void *)(intptr_t)k) != 0) {
			fprintf(stderr, "hwc2-client: cannot start a thread to fork from\n");
			exit(2);
		}
	}
	while (atomic_load(&ready) < CLIENT_FORK_THREADS) {
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("hwc2-client: fork");
		exit(2);
	}
	if (pid == 0) {
		return;
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("hwc2-client: waitpid");
		_exit(2);
	}
	/* the waiting threads go with the process */
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0));
}

/* The stack pointer of thread tid blocked in a call, 0 when it runs or is unknown; *readable: the file was read. */
static uintptr_t blocked_sp(pid_t tid, bool *readable)
{
	char path[64], line[512];
	unsigned long long sp = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	f = fopen(path, "r");
	if (!f) {
		return 0;
	}
	/* NR ARG1..ARG6 SP PC, or "running" / "-1 SP PC" */
	if (fgets(line, sizeof(line), f)) {
		*readable = true;
		if (sscanf(line, "%*s %*s %*s %*s %*s %*s %*s %llx", &sp) != 1) {
			sp = 0;
		}
	}
	fclose(f);
	return (uintptr_t)sp;
}

static void probe_once(int *in, int *checked, bool *readable)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	*in = *checked = 0;
	while (d && (e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		uintptr_t sp;

		if (tid <= 0 || tid == gettid() || sched_getscheduler(tid) != SCHED_BATCH ||
				!(sp = blocked_sp(tid, readable))) {
			continue;
		}
		(*checked)++;
		for (int k = 0; k < CLIENT_FORK_THREADS; k++) {
			if (sp >= stacks[k].lo && sp < stacks[k].hi) {
				(*in)++;
				break;
			}
		}
	}
	if (d) {
		closedir(d);
	}
}

void client_fork_probe(FILE *log)
{
	int in = 0, checked = 0;
	bool readable = false;

	for (int i = 0; i < 100; i++) {
		probe_once(&in, &checked, &readable);
		if (checked >= 2) {
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	fprintf(log, "# fork-stacks %d %d %d\n", in, checked, readable);
}
