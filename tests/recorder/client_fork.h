/*
 * --fork-check of the test client (hwc2_client.c): the client runs as the
 * forked child of a process whose other threads hold their stacks, as the
 * module's process of hwc-replay --hwc2 is the forked child of a process
 * that ran threads. glibc gives the child those threads' stacks as cached,
 * free stacks, and hands one of them to a thread the child makes with a
 * stack of about their size (the default), over the data the parent's
 * thread left there (recorder/background.c, REC_THREAD_STACK).
 */
#ifndef HWCT_TEST_CLIENT_FORK_H
#define HWCT_TEST_CLIENT_FORK_H

#include <stdio.h>

#define CLIENT_FORK_THREADS 6

/*
 * Starts CLIENT_FORK_THREADS threads with default attributes, which wait
 * forever, then forks. The parent waits for the child and exits with its
 * status (does not return); the child returns. Exits 2 on failure.
 */
void client_fork_start(void);

/*
 * In the child, while the recorder records: writes "# fork-stacks IN
 * CHECKED READABLE", CHECKED the SCHED_BATCH threads (the recorder's:
 * background.c) whose stack pointer could be read (/proc/self/task/TID/
 * syscall, threads blocked in a call; retried for up to 1 s until two
 * were), IN how many of them run on a stack of one of the parent's
 * threads, READABLE 1 when such a file could be read at all.
 */
void client_fork_probe(FILE *log);

#endif
