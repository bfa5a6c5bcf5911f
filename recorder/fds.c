/* The recorder's fd budget (fds.h). */
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fds.h"

static atomic_uint budget = REC_FDS_MAX;
static atomic_int held;
static atomic_uint peak;
static _Atomic uint64_t refused;

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
	atomic_store(&budget, b);
	atomic_store(&peak, 0);
	atomic_store(&refused, 0);
	return b;
}

int32_t rec_fds_dup(int fd)
{
	int n;
	unsigned p;
	int32_t d;

	if (fd < 0) {
		return -1;
	}
	n = atomic_fetch_add_explicit(&held, 1, memory_order_relaxed) + 1;
	if (n > (int)atomic_load_explicit(&budget, memory_order_relaxed)) {
		atomic_fetch_sub_explicit(&held, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&refused, 1, memory_order_relaxed);
		return -1;
	}
	d = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (d < 0) {
		atomic_fetch_sub_explicit(&held, 1, memory_order_relaxed);
		return -1;
	}
	p = atomic_load_explicit(&peak, memory_order_relaxed);
	while ((unsigned)n > p && !atomic_compare_exchange_weak_explicit(&peak, &p, (unsigned)n,
			memory_order_relaxed, memory_order_relaxed)) {
	}
	return d;
}

void rec_fds_close(int32_t fd)
{
	if (fd >= 0) {
		close(fd);
		atomic_fetch_sub_explicit(&held, 1, memory_order_relaxed);
	}
}

void rec_fds_get_stats(struct rec_fds_stats *st)
{
	int h = atomic_load(&held);

	st->budget = atomic_load(&budget);
	st->held = h > 0 ? (uint32_t)h : 0;
	st->peak = atomic_load(&peak);
	st->refused = atomic_load(&refused);
}
