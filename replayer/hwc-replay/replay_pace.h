/*
 * Pacing of the replay (--timing): recorded (each frame at its recorded
 * presentDisplay time after the first frame of the play; gaps over
 * REPLAY_PACE_MAX_GAP_NS are cut to it), vsync (one frame per vsync
 * period), fast (no waiting). CLOCK_MONOTONIC, absolute sleeps: no drift.
 */
#ifndef HWCT_REPLAY_PACE_H
#define HWCT_REPLAY_PACE_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/frame.h>

#include "replay.h"

#define REPLAY_PACE_DEFAULT_PERIOD_NS 16666667	/* 60 Hz when nobody knows better */
#define REPLAY_PACE_MAX_GAP_NS 10000000000ll	/* 10 s */

struct replay_pace {
	enum replay_timing timing;	/* resolved: RECORDED, VSYNC or FAST */
	int64_t period_ns;		/* vsync: the target's period, 0 = the recorded display's */
	bool started;
	int64_t deadline_ns;		/* monotonic time the previous frame was due */
	uint64_t previous_t_ns;		/* recorded time of the previous frame */
};

/* Starts a play (each loop starts again). */
void replay_pace_start(struct replay_pace *p, enum replay_timing timing, int64_t period_ns);

/* Waits until f is due. Returns the time waited in ns (0 for fast). */
int64_t replay_pace_wait(struct replay_pace *p, const struct hwct_frame *f);

/* CLOCK_MONOTONIC in ns. */
int64_t replay_now_ns(void);

#endif
