/* The progress bar on stderr: frames done of the range, frames per second. */
#ifndef HWCT_REPLAY_PROGRESS_H
#define HWCT_REPLAY_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#define REPLAY_PROGRESS_INTERVAL_NS 100000000	/* redraw at most every 100 ms */

struct replay_progress {
	bool on;
	uint64_t total;			/* frame positions in the range times loops; 0 unknown */
	int64_t start_ns, drawn_ns;
	bool drawn;
};

/* Starts it; on false makes every call a no-op. */
void replay_progress_start(struct replay_progress *p, bool on, uint64_t total);

/* done: positions passed, frames: frames replayed. Redraws when due. */
void replay_progress_update(struct replay_progress *p, uint64_t done, uint64_t frames);

/* Erases the bar. */
void replay_progress_end(struct replay_progress *p);

#endif
