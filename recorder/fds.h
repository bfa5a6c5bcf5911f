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
 */
#ifndef REC_FDS_H
#define REC_FDS_H

#include <stdint.h>

#define REC_FDS_MAX 4096u	/* budget cap, whatever the limit */
#define REC_FDS_SHARE 4u	/* budget = soft RLIMIT_NOFILE / REC_FDS_SHARE */

struct rec_fds_stats {
	uint32_t budget;	/* fds the recorder may hold at once */
	uint32_t held;		/* held now */
	uint32_t peak;		/* most held at once since rec_fds_init */
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

/* Closes an fd from rec_fds_dup and returns it to the budget; fd < 0: nothing. Any thread. */
void rec_fds_close(int32_t fd);

void rec_fds_get_stats(struct rec_fds_stats *st);

#endif
