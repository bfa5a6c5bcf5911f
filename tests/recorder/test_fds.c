/*
 * The recorder's fd budget (recorder/fds.c), with the credits a calling
 * thread dups on:
 *
 * - budget: under a soft RLIMIT_NOFILE of 256 the budget is 64. One
 *   thread's credits make exactly 64 dups, then refuse (counted), and so
 *   does the shared path; the peak is 64; closing them all gives the whole
 *   budget back. Credits set aside count: a thread that took a chunk for one
 *   dup leaves the others the budget less that chunk.
 * - threads: four calling threads dup on their own credits while they and
 *   a closing thread close, at once: the fds the test holds never exceed the
 *   budget, the peak stays within it, and once all are closed no fd is held
 *   (the stats net of the credits set aside) and none is open that was not.
 * One meson test per case.
 */
#define _GNU_SOURCE	/* memfd_create(): Linux-specific, this file only */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "fds_open.h"
#include "fds.h"

struct check_tally check_tally;

#define SOFT_LIMIT 256u
#define BUDGET (SOFT_LIMIT / REC_FDS_SHARE)

static struct rec_fds_stats stats(void)
{
	struct rec_fds_stats st;

	rec_fds_get_stats(&st);
	return st;
}

static int target(void)
{
	int fd = memfd_create("fds", MFD_CLOEXEC);

	if (fd < 0) {
		perror("memfd");
		exit(1);
	}
	return fd;
}

static void case_budget(void)
{
	static struct rec_fds_credit a, b;
	int32_t fds[BUDGET + 1];
	int src = target(), before = test_count_open_fds();
	unsigned n = 0;

	CHECK_INT(stats().budget, BUDGET);
	while (n <= BUDGET && (fds[n] = rec_fds_dup_credit(&a, src)) >= 0) {
		n++;
	}
	CHECK_INT(n, BUDGET);
	CHECK_INT(stats().held, BUDGET);
	CHECK_INT(stats().peak, BUDGET);
	CHECK(stats().refused >= 1, "a refused dup not counted");
	CHECK_INT(rec_fds_dup(src), -1);
	CHECK_INT(test_count_open_fds(), before + (int)BUDGET);
	for (unsigned i = 0; i < n; i++) {
		rec_fds_close(fds[i]);
	}
	CHECK_INT(stats().held, 0);
	CHECK_INT(test_count_open_fds(), before);
	/* a's credits are spent; b takes a chunk for one dup: a can have the rest */
	fds[0] = rec_fds_dup_credit(&b, src);
	CHECK(fds[0] >= 0, "no dup with the budget back");
	n = 1;
	while (n <= BUDGET && (fds[n] = rec_fds_dup_credit(&a, src)) >= 0) {
		n++;
	}
	CHECK_INT(n - 1, BUDGET - BUDGET / REC_FDS_CREDIT_SHARE);
	CHECK_INT(stats().held, n);
	for (unsigned i = 0; i < n; i++) {
		rec_fds_close(fds[i]);
	}
	CHECK_INT(stats().held, 0);
	CHECK_INT(test_count_open_fds(), before);
	close(src);
}

#define THREADS 4
#define ROUNDS 20000
#define KEEP 24		/* fds a thread holds at most: four of them can spend the budget */

static atomic_int holding;	/* fds the test holds now */
static atomic_int most;
static int src;

static void count(int d)
{
	int h = atomic_fetch_add(&holding, d) + d;
	int m = atomic_load(&most);

	while (h > m && !atomic_compare_exchange_weak(&most, &m, h)) {
	}
}

static void *dupper(void *data)
{
	static struct rec_fds_credit credits[THREADS];
	struct rec_fds_credit *cr = &credits[(intptr_t)data];
	int32_t kept[KEEP];
	unsigned n = 0, seed = (unsigned)(intptr_t)data + 1;

	for (unsigned r = 0; r < ROUNDS; r++) {
		seed = seed * 1103515245u + 12345u;
		if (n < KEEP && (seed >> 16) % 3 != 0) {
			int32_t d = rec_fds_dup_credit(cr, src);

			if (d >= 0) {
				kept[n++] = d;
				count(1);
			}
		} else if (n) {
			/* closed here or, as the worker does, on another thread: the budget does not care */
			count(-1);
			rec_fds_close(kept[--n]);
		}
	}
	while (n) {
		count(-1);
		rec_fds_close(kept[--n]);
	}
	return NULL;
}

static void case_threads(void)
{
	pthread_t t[THREADS];
	int before;

	src = target();
	before = test_count_open_fds();
	for (intptr_t i = 0; i < THREADS; i++) {
		if (!CHECK(pthread_create(&t[i], NULL, dupper, (void *)i) == 0, "pthread_create")) {
			return;
		}
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
	}
	CHECK(atomic_load(&most) <= (int)BUDGET, "%d fds held at once, budget %u", atomic_load(&most), BUDGET);
	CHECK(atomic_load(&most) > (int)BUDGET / 2, "at most %d fds held at once: the case tests less than it says",
		atomic_load(&most));
	CHECK(stats().peak <= BUDGET, "peak %u, budget %u", stats().peak, BUDGET);
	CHECK_INT(stats().held, 0);
	CHECK_INT(test_count_open_fds(), before);
	close(src);
}

static const struct check_case tests[] = {
	{ "budget", case_budget },
	{ "threads", case_threads },
};

int main(int argc, char **argv)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_max < SOFT_LIMIT) {
		fprintf(stderr, "test-fds: a hard RLIMIT_NOFILE of %u is needed\n", SOFT_LIMIT);
		return 77;
	}
	rl.rlim_cur = SOFT_LIMIT;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
		perror("setrlimit");
		return 1;
	}
	rec_fds_init();
	return check_run_cases(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
