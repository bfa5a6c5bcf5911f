/* The recorder's fd budget (fds.h). */
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fds.h"
#include "hot.h"

static atomic_uint budget = REC_FDS_MAX;
/*
 * What is left of the budget: budget - fds held - credits set aside. Every
 * close adds to it, so its line is the closing threads' (the worker's, the
 * fence watcher's); a calling thread's dups reach it once per chunk.
 */
static _Alignas(REC_LINE) atomic_int avail = REC_FDS_MAX;
static atomic_uint peak;
static _Atomic uint64_t refused;
static _Atomic(struct rec_fds_credit *) credits;	/* every credit ever used, for the stats */

uint32_t rec_fds_budget_for(uint64_t soft_limit)
{
	uint64_t b = soft_limit / REC_FDS_SHARE;

	return b < REC_FDS_MAX ? (uint32_t)b : REC_FDS_MAX;
}

uint32_t rec_fds_init(void)
{
	struct rlimit rl;
	uint32_t b = REC_FDS_MAX;
	uint32_t old;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		b = rec_fds_budget_for((uint64_t)rl.rlim_cur);
	}
	/* what is held or set aside stays charged against the new budget */
	old = atomic_exchange(&budget, b);
	atomic_fetch_add(&avail, (int)b - (int)old);
	atomic_store(&peak, 0);
	atomic_store(&refused, 0);
	return b;
}

/* Takes up to want of what is left of the budget. Returns how many, 0 when it is spent. */
static int take(int want)
{
	int a = atomic_load_explicit(&avail, memory_order_relaxed);
	int k;
	unsigned used, p;

	do {
		if (a <= 0) {
			atomic_fetch_add_explicit(&refused, 1, memory_order_relaxed);
			return 0;
		}
		k = a < want ? a : want;
	} while (!atomic_compare_exchange_weak_explicit(&avail, &a, a - k, memory_order_relaxed,
		memory_order_relaxed));
	used = atomic_load_explicit(&budget, memory_order_relaxed) - (unsigned)(a - k);
	p = atomic_load_explicit(&peak, memory_order_relaxed);
	while (used > p && !atomic_compare_exchange_weak_explicit(&peak, &p, used, memory_order_relaxed,
		memory_order_relaxed)) {
	}
	return k;
}

/* Gives n back to the budget. */
static void give(int n)
{
	atomic_fetch_add_explicit(&avail, n, memory_order_relaxed);
}

static int32_t dup_fd(int fd)
{
	return fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

int32_t rec_fds_dup(int fd)
{
	int32_t d;

	if (fd < 0 || !take(1)) {
		return -1;
	}
	d = dup_fd(fd);
	if (d < 0) {
		give(1);
	}
	return d;
}

static void credit_list(struct rec_fds_credit *cr)
{
	bool expected = false;

	if (!atomic_load_explicit(&cr->listed, memory_order_relaxed) &&
			atomic_compare_exchange_strong(&cr->listed, &expected, true)) {
		cr->next = atomic_load_explicit(&credits, memory_order_relaxed);
		while (!atomic_compare_exchange_weak_explicit(&credits, &cr->next, cr, memory_order_release,
			memory_order_relaxed)) {
		}
	}
}

REC_HOT int32_t rec_fds_dup_credit(struct rec_fds_credit *cr, int fd)
{
	unsigned n;
	int32_t d;

	if (fd < 0) {
		return -1;
	}
	n = atomic_load_explicit(&cr->n, memory_order_relaxed);
	if (!n) {
		unsigned chunk = atomic_load_explicit(&budget, memory_order_relaxed) / REC_FDS_CREDIT_SHARE;

		chunk = chunk < 1 ? 1 : chunk > REC_FDS_CREDIT_CHUNK ? REC_FDS_CREDIT_CHUNK : chunk;
		credit_list(cr);
		n = (unsigned)take((int)chunk);
		if (!n) {
			return -1;
		}
	}
	d = dup_fd(fd);
	/* a failed dup keeps its credit */
	atomic_store_explicit(&cr->n, d < 0 ? n : n - 1, memory_order_relaxed);
	return d;
}

void rec_fds_close(int32_t fd)
{
	if (fd >= 0) {
		close(fd);
		give(1);
	}
}

void rec_fds_get_stats(struct rec_fds_stats *st)
{
	int h;

	st->budget = atomic_load(&budget);
	h = (int)st->budget - atomic_load(&avail);
	for (struct rec_fds_credit *cr = atomic_load_explicit(&credits, memory_order_acquire); cr; cr = cr->next) {
		h -= (int)atomic_load_explicit(&cr->n, memory_order_relaxed);
	}
	st->held = h > 0 ? (uint32_t)h : 0;
	st->peak = atomic_load(&peak);
	st->refused = atomic_load(&refused);
}
