/*
 * The recorder's hot arena (recorder/hot_arena.c):
 *
 * - layout: the blocks of the recorder's objects (the recorder, a device, a
 *   pool, its events, a kept dup) all come from one region aligned to its
 *   2 MiB, each aligned to a line, none overlapping another; the region is
 *   offered for a huge page (its smaps line says THPeligible 1 when the
 *   kernel's THP mode is `always` or `madvise` and a control mapping of the
 *   test's own, advised the same, says so too: not under qemu-user).
 * - reuse: a block given back is the next one handed out of its size, and
 *   not one of another size.
 * - full: past the arena's 2 MiB blocks still come (from the heap), are
 *   written whole and given back; a block larger than the arena takes is
 *   never in it. Under ASan a heap block given back as an arena one, or the
 *   other way round, is reported (and recorder-handle-cache-race reports a
 *   kept dup used after it was given back: the arena poisons it).
 * - fork: a child forked while another thread takes and gives back blocks
 *   takes and gives back its own (the arena's lock is not left held).
 * One meson test per case (the arena is the process's).
 */
#define _DEFAULT_SOURCE	/* MAP_ANONYMOUS, madvise(), MADV_HUGEPAGE (Linux), this file only */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "hot.h"
#include "hot_arena.h"

struct check_tally check_tally;

/* The sizes the recorder asks for (struct recorder, rec_device, a pool, rec_event, rec_kept_fd), rounded up. */
static const size_t sizes[] = { 22848, 6912, 128, 640, 640, 640, 128 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* The THP mode the kernel runs, "" when it has none. */
static void thp_mode(char *mode, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "", *open, *close;

	mode[0] = '\0';
	if (f && fgets(line, sizeof(line), f) && (open = strchr(line, '[')) && (close = strchr(open, ']'))) {
		snprintf(mode, len, "%.*s", (int)(close - open - 1), open + 1);
	}
	if (f) {
		fclose(f);
	}
}

/* THPeligible of the mapping that holds p in /proc/self/smaps: 1, 0, or -1 when not found. */
static int thp_eligible(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false;
	int eligible = -1;
	uintptr_t a = (uintptr_t)p;

	while (f && eligible < 0 && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		int v;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = a >= lo && a < hi;
		} else if (in && sscanf(line, "THPeligible: %d", &v) == 1) {
			eligible = v;
		}
	}
	if (f) {
		fclose(f);
	}
	return eligible;
}

/*
 * Whether this process's kernel applies MADV_HUGEPAGE: a control mapping of
 * the test's own, aligned and advised as the arena is, says THPeligible 1.
 * Under an emulator (qemu-user, which the cross builds' tests run in) the
 * advice is taken and dropped, and nothing can be checked.
 */
static bool thp_applies(void)
{
	size_t size = 2 * (size_t)REC_HOT_ARENA_SIZE;
	char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;
	bool applies;

	if (m == MAP_FAILED) {
		return false;
	}
	a = (char *)(((uintptr_t)m + REC_HOT_ARENA_SIZE - 1) & ~(uintptr_t)(REC_HOT_ARENA_SIZE - 1));
	applies = madvise(a, REC_HOT_ARENA_SIZE, MADV_HUGEPAGE) == 0 && (*(volatile char *)a = 1, thp_eligible(a) == 1);
	munmap(m, size);
	return applies;
}

static void case_layout(void)
{
	char *p[NSIZES];
	char mode[32];
	uintptr_t base;

	for (size_t i = 0; i < NSIZES; i++) {
		p[i] = rec_hot_alloc(sizes[i]);
		CHECK(p[i] != NULL, "block %zu: none", i);
		if (!p[i]) {
			return;
		}
		memset(p[i], (int)i + 1, sizes[i]);
		CHECK(rec_hot_arena_holds(p[i]), "block %zu (%zu bytes) is not in the arena", i, sizes[i]);
		CHECK((uintptr_t)p[i] % REC_LINE == 0, "block %zu at %p is not line-aligned", i, (void *)p[i]);
	}
	base = (uintptr_t)p[0];
	CHECK(base % REC_HOT_ARENA_SIZE == 0, "the first block at %p is not at a 2 MiB boundary", (void *)p[0]);
	for (size_t i = 0; i < NSIZES; i++) {
		CHECK((uintptr_t)p[i] - base < REC_HOT_ARENA_SIZE, "block %zu lies %zu bytes past the first", i,
			(size_t)((uintptr_t)p[i] - base));
		for (size_t j = 0; j < sizes[i]; j++) {
			if (p[i][j] != (char)(i + 1)) {
				CHECK(false, "block %zu byte %zu was overwritten by another block", i, j);
				break;
			}
		}
	}
	thp_mode(mode, sizeof(mode));
	if ((strcmp(mode, "always") == 0 || strcmp(mode, "madvise") == 0) && thp_applies()) {
		CHECK_INT(thp_eligible(p[0]), 1);
	} else {
		printf("THP mode \"%s\"%s: the huge-page advice is not checked\n", mode,
			mode[0] ? ", not applied to a control mapping here (an emulator?)" : "");
	}
	for (size_t i = 0; i < NSIZES; i++) {
		rec_hot_free(p[i], sizes[i]);
	}
}

static void case_reuse(void)
{
	void *a = rec_hot_alloc(640), *b = rec_hot_alloc(128), *c, *d;

	CHECK(a && b && rec_hot_arena_holds(a) && rec_hot_arena_holds(b), "the first blocks are not the arena's");
	rec_hot_free(a, 640);
	c = rec_hot_alloc(128);
	CHECK(c != a, "a 128-byte block took the 640-byte block given back");
	d = rec_hot_alloc(640);
	CHECK(d == a, "the 640-byte block given back was not handed out again (%p, then %p)", a, d);
	rec_hot_free(NULL, 640);
	rec_hot_free(b, 128);
	rec_hot_free(c, 128);
	rec_hot_free(d, 640);
}

static void case_full(void)
{
	enum { N = REC_HOT_ARENA_SIZE / 640 + 64 };
	static char *p[N];
	size_t in = 0, out = 0;
	char *big;

	for (size_t i = 0; i < N; i++) {
		p[i] = rec_hot_alloc(640);
		CHECK(p[i] != NULL, "block %zu: none", i);
		if (!p[i]) {
			break;
		}
		memset(p[i], 0x5a, 640);
		if (rec_hot_arena_holds(p[i])) {
			in++;
		} else {
			out++;
			CHECK((uintptr_t)p[i] % REC_LINE == 0, "heap block %zu is not line-aligned", i);
		}
	}
	CHECK_INT(in, REC_HOT_ARENA_SIZE / 640);
	CHECK_INT(out, N - REC_HOT_ARENA_SIZE / 640);
	CHECK(rec_hot_arena_used() <= REC_HOT_ARENA_SIZE, "%zu bytes used of %u", rec_hot_arena_used(),
		REC_HOT_ARENA_SIZE);
	for (size_t i = 0; i < N; i++) {
		rec_hot_free(p[i], 640);
	}
	big = rec_hot_alloc(REC_HOT_ARENA_MAX_BLOCK + 1);
	CHECK(big && !rec_hot_arena_holds(big), "a block larger than the arena takes came from it");
	if (big) {
		memset(big, 1, REC_HOT_ARENA_MAX_BLOCK + 1);
	}
	rec_hot_free(big, REC_HOT_ARENA_MAX_BLOCK + 1);
}

static atomic_bool stop;

static void *churn(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		rec_hot_free(rec_hot_alloc(128), 128);
	}
	return NULL;
}

static void case_fork(void)
{
	pthread_t t;
	int status = 0;

	rec_hot_free(rec_hot_alloc(128), 128);
	if (pthread_create(&t, NULL, churn, NULL) != 0) {
		CHECK(false, "pthread_create failed");
		return;
	}
	for (int i = 0; i < 50; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			void *p;

			alarm(5);	/* a lock left held would hang here: SIGALRM ends the child */
			p = rec_hot_alloc(128);
			rec_hot_free(p, 128);
			_exit(p ? 0 : 2);
		}
		CHECK(pid > 0, "fork: %s", strerror(errno));
		if (pid > 0) {
			waitpid(pid, &status, 0);
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d: status 0x%x", i, status);
		}
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
}

static const struct check_case tests[] = {
	{ "layout", case_layout },
	{ "reuse", case_reuse },
	{ "full", case_full },
	{ "fork", case_fork },
};

int main(int argc, char **argv)
{
	return check_run_cases(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
