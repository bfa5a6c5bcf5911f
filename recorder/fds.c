/* The recorder's fd budget (fds.h). */
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fds.h"
#include "hot.h"

/*
 * held = dups - closes. The threads that dup (the composer's, in its calls)
 * write only their own line; the threads that close (the worker, mostly)
 * only theirs, so a call's dup does not fetch a line the worker wrote last
 * (recorder/README.md, "Who writes which line"). A call checks the budget
 * against closes_seen, a copy of `closes` that only lags (closes only
 * grows): the count it sees is never below the true one, and it reads
 * `closes` itself only when that count says the budget is spent. The most
 * held at once is reached just before a close, so the closer keeps `peak`.
 */
static struct {
	_Alignas(REC_LINE) _Atomic uint64_t dups;	/* dups made (refused ones taken back) */
	_Atomic uint64_t closes_seen;			/* a value `closes` had */
	atomic_uint budget;
} dupper = { .budget = REC_FDS_MAX };
static struct {
	_Alignas(REC_LINE) _Atomic uint64_t closes;	/* dups closed */
	atomic_uint peak;
	_Atomic uint64_t refused;
} closer;

static uint32_t held_now(void)
{
	uint64_t c = atomic_load_explicit(&closer.closes, memory_order_relaxed);
	uint64_t d = atomic_load_explicit(&dupper.dups, memory_order_relaxed);

	return d > c ? (uint32_t)(d - c) : 0;
}

static void note_peak(uint32_t h)
{
	unsigned p = atomic_load_explicit(&closer.peak, memory_order_relaxed);

	while (h > p && !atomic_compare_exchange_weak_explicit(&closer.peak, &p, h, memory_order_relaxed,
			memory_order_relaxed)) {
	}
}

uint32_t rec_fds_budget_for(uint64_t soft_limit)
{
	uint64_t b = soft_limit / REC_FDS_SHARE;

	return b < REC_FDS_MAX ? (uint32_t)b : REC_FDS_MAX;
}

uint32_t rec_fds_init(void)
{
	struct rlimit rl;
	uint32_t b = REC_FDS_MAX;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		b = rec_fds_budget_for((uint64_t)rl.rlim_cur);
	}
	atomic_store(&dupper.budget, b);
	atomic_store(&closer.peak, held_now());
	atomic_store(&closer.refused, 0);
	return b;
}

REC_HOT int32_t rec_fds_dup(int fd)
{
	uint64_t n, seen;
	uint32_t b;
	int32_t d;

	if (fd < 0) {
		return -1;
	}
	n = atomic_fetch_add_explicit(&dupper.dups, 1, memory_order_relaxed) + 1;
	seen = atomic_load_explicit(&dupper.closes_seen, memory_order_relaxed);
	b = atomic_load_explicit(&dupper.budget, memory_order_relaxed);
	if (n - seen > b) {
		seen = atomic_load_explicit(&closer.closes, memory_order_relaxed);
		atomic_store_explicit(&dupper.closes_seen, seen, memory_order_relaxed);
	}
	if (n - seen > b) {
		atomic_fetch_sub_explicit(&dupper.dups, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&closer.refused, 1, memory_order_relaxed);
		return -1;
	}
	d = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (d < 0) {
		atomic_fetch_sub_explicit(&dupper.dups, 1, memory_order_relaxed);
		return -1;
	}
	return d;
}

REC_HOT void rec_fds_prefetch(void)
{
	__builtin_prefetch(&dupper, 1);
}

void rec_fds_close(int32_t fd)
{
	if (fd >= 0) {
		note_peak(held_now());
		close(fd);
		atomic_fetch_add_explicit(&closer.closes, 1, memory_order_relaxed);
	}
}

void rec_fds_get_stats(struct rec_fds_stats *st)
{
	uint32_t h = held_now();

	note_peak(h);
	st->budget = atomic_load(&dupper.budget);
	st->held = h;
	st->peak = atomic_load(&closer.peak);
	st->refused = atomic_load(&closer.refused);
}
