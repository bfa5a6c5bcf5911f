/* The test client's self-measurements (client_probe.h). */
#define _GNU_SOURCE	/* gettid() */
#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include <time.h>

#include <hwct/hwc2_names.h>

#include "client_probe.h"
#include "fds_open.h"

#define SETTLE_STEP_NS 30000000L
#define SETTLE_TRIES 66		/* 2 s */
#define SETTLE_AGREE 3

uint64_t client_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int client_count_fds_settled(void)
{
	struct timespec step = { 0, SETTLE_STEP_NS };
	int last = -2, agree = 0;

	for (int i = 0; i < SETTLE_TRIES; i++) {
		int n = test_count_open_fds();

		if (n < 0) {
			return -1;
		}
		agree = n == last ? agree + 1 : 1;
		last = n;
		if (agree == SETTLE_AGREE) {
			break;
		}
		nanosleep(&step, NULL);
	}
	return last;
}

int client_count_fds_drained(int target)
{
	struct timespec step = { 0, SETTLE_STEP_NS };
	uint64_t end = client_now_ns() + CLIENT_DRAIN_S * 1000000000ull;
	int n = client_count_fds_settled();

	while (n > target && client_now_ns() < end) {
		nanosleep(&step, NULL);
		n = test_count_open_fds();
		if (n < 0) {
			return -1;
		}
	}
	return n;
}

void client_latency_add(struct client_latency *l, uint64_t t0_ns, int frame)
{
	uint64_t ns = client_now_ns() - t0_ns;

	l->calls++;
	l->slow += ns >= CLIENT_SLOW_NS;
	if (l->max_frame < 0 || ns > l->max_ns) {
		l->max_ns = ns;
		l->max_frame = frame;
	}
}

void client_probe_functions(hwc2_device_t *dev, FILE *log)
{
	for (int32_t d = 0; d <= HWCT_HWC2_FUNCTION_MAX + 1; d++) {
		fprintf(log, "# function %d %d\n", d, dev->getFunction(dev, d) != NULL);
	}
}

int client_count_mapped(const uint64_t *inodes, int n)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int found = 0;
	bool seen[64] = { false };

	if (!f || n > 64) {
		if (f) {
			fclose(f);
		}
		return -1;
	}
	/* ADDRESS PERMS OFFSET DEV INODE [PATH] */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long ino;

		if (sscanf(line, "%*s %*s %*s %*s %llu", &ino) != 1 || ino == 0) {
			continue;
		}
		for (int i = 0; i < n; i++) {
			if (!seen[i] && inodes[i] == ino) {
				seen[i] = true;
				found++;
			}
		}
	}
	fclose(f);
	return found;
}

void client_probe_sched(FILE *log)
{
	pid_t self = gettid();
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	bool any = false;

	fprintf(log, "# sched %d/%d ", sched_getscheduler(self), getpriority(PRIO_PROCESS, (id_t)self));
	while (dir && (e = readdir(dir))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid <= 0 || tid == self) {
			continue;
		}
		fprintf(log, "%s%d/%d", any ? "," : "", sched_getscheduler(tid), getpriority(PRIO_PROCESS, (id_t)tid));
		any = true;
	}
	fprintf(log, "%s\n", any ? "" : "-");
	if (dir) {
		closedir(dir);
	}
}
