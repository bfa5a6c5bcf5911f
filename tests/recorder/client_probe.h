/*
 * What the test client (hwc2_client.c) measures about itself for the
 * robustness tests: its open fds, how long its calls take, and which
 * functions the module hands out.
 */
#ifndef HWCT_TEST_CLIENT_PROBE_H
#define HWCT_TEST_CLIENT_PROBE_H

#include <stdint.h>
#include <stdio.h>

#include <hardware/hwcomposer2.h>

/* CLOCK_MONOTONIC in ns. */
uint64_t client_now_ns(void);

/*
 * Open fds of this process (entries of /proc/self/fd, the directory's own
 * fd left out), once the recorder's threads are quiet: counted every 30 ms
 * until three counts in a row agree, at most 2 s. Returns the count, or -1.
 */
int client_count_fds_settled(void);

/*
 * Open fds, counted as client_count_fds_settled() does, then every 30 ms
 * until they are at most target: a recorder that fell behind an unpaced
 * client on a loaded host still holds its backlog's dups a while, which a
 * settled count can take for quiet. Gives up after CLIENT_DRAIN_S, far past
 * any drain, and returns the last count (a leak shows as more than target),
 * or -1.
 */
#define CLIENT_DRAIN_S 60
int client_count_fds_drained(int target);

/*
 * Writes "# sched MAIN OTHERS": MAIN the calling thread's "POLICY/NICE",
 * OTHERS the same of every other thread of the process, comma-separated
 * ("-" when none), POLICY as sched_getscheduler() gives it.
 */
void client_probe_sched(FILE *log);

/*
 * How many of the n inodes some mapping of this process shows
 * (/proc/self/maps), or -1 when it cannot be read.
 */
int client_count_mapped(const uint64_t *inodes, int n);

/* The longest of a kind of call. */
/* A call at least this long counts as slow (the latency line's "slow" counts). */
#define CLIENT_SLOW_NS 50000000ull	/* 50 ms */

struct client_latency {
	uint64_t max_ns;
	int max_frame;		/* the frame of the longest call, -1 before any */
	uint64_t calls, slow;	/* calls counted; of them, at least CLIENT_SLOW_NS long */
};

/* Counts a call of frame that started at t0_ns (client_now_ns()) and just returned. */
void client_latency_add(struct client_latency *l, uint64_t t0_ns, int frame);

/*
 * Writes "# function D 0|1" (1: getFunction returned a pointer) for every
 * descriptor from 0 to one past the last of hardware/hwcomposer2.h.
 */
void client_probe_functions(hwc2_device_t *dev, FILE *log);

#endif
