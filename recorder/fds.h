/*
 * The recorder's fd budget: every fd the recorder keeps on behalf of a call
 * (the dup of a buffer's fd or of a fence, held by a queued event, a pending
 * capture or the fence watcher) is taken from one process-wide budget, a
 * quarter of RLIMIT_NOFILE's soft limit when the recorder starts, at most
 * REC_FDS_MAX. Past it no dup is made: the call is recorded without it (its
 * capture is dropped, its fence is unwatched), so a client that outruns the
 * worker never finds its own open()/dup() failing with EMFILE because of us,
 * and the hot path never waits for fds to come back (recorder/README.md,
 * "Capture before release").
 *
 * A calling thread's dups draw on credits set aside for it
 * (struct rec_fds_credit, on a line only that thread writes): the budget's
 * shared counter, which every close of the worker and the fence watcher
 * writes, is touched once per REC_FDS_CREDIT_CHUNK dups instead of once per
 * dup (recorder/README.md, "The frame's first call, line by line"). Credits
 * set aside count as held: the budget is never exceeded, and a thread may be
 * refused while another holds a few credits it has not used.
 */
#ifndef REC_FDS_H
#define REC_FDS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define REC_FDS_MAX 4096u	/* budget cap, whatever the limit */
#define REC_FDS_SHARE 4u	/* budget = soft RLIMIT_NOFILE / REC_FDS_SHARE */
#define REC_FDS_CREDIT_CHUNK 16u	/* credits a thread takes at once, */
#define REC_FDS_CREDIT_SHARE 16u	/* and at most budget / REC_FDS_CREDIT_SHARE */

/* Credits set aside for one calling thread's dups; zero-initialised is empty. */
struct rec_fds_credit {
	atomic_uint n;		/* written by its thread only; read by rec_fds_get_stats */
	atomic_bool listed;	/* in the list rec_fds_get_stats sums, never removed */
	struct rec_fds_credit *next;
};

struct rec_fds_stats {
	uint32_t budget;	/* fds the recorder may hold at once */
	uint32_t held;		/* held now (not counting credits set aside) */
	uint32_t peak;		/* most held or set aside at once since rec_fds_init */
	uint64_t refused;	/* dups not made because the budget was spent */
};

/* Sets the budget from the current soft RLIMIT_NOFILE. Returns it. */
uint32_t rec_fds_init(void);

/* Budget for a soft limit (RLIM_INFINITY: REC_FDS_MAX). */
uint32_t rec_fds_budget_for(uint64_t soft_limit);

/*
 * A close-on-exec dup of fd numbered 3 or above, charged to the budget; -1
 * when fd < 0, when the budget is spent (counted in `refused`), or when
 * dup fails. Never blocks. Any thread. Give it back with rec_fds_close.
 */
int32_t rec_fds_dup(int fd);

/*
 * rec_fds_dup charged to cr's credits, taking REC_FDS_CREDIT_CHUNK more
 * from the budget when they are spent. cr is borrowed, and written: only
 * by the one thread that owns it at a time. It stays listed for the stats
 * (and keeps its credits) for the life of the process.
 */
int32_t rec_fds_dup_credit(struct rec_fds_credit *cr, int fd);

/* Closes an fd from rec_fds_dup and returns it to the budget; fd < 0: nothing. Any thread. */
void rec_fds_close(int32_t fd);

void rec_fds_get_stats(struct rec_fds_stats *st);

#endif
