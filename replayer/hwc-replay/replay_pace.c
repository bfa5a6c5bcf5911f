/* Pacing the replay (replay_pace.h). */
#include <errno.h>
#include <time.h>

#include "replay_pace.h"

int64_t replay_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void replay_pace_start(struct replay_pace *p, enum replay_timing timing, int64_t period_ns)
{
	*p = (struct replay_pace){ .timing = timing, .period_ns = period_ns };
}

static void sleep_until(int64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000),
		.tv_nsec = (long)(deadline_ns % 1000000000),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
}

int64_t replay_pace_wait(struct replay_pace *p, const struct hwct_frame *f)
{
	int64_t now = replay_now_ns(), step;

	if (p->timing == REPLAY_TIMING_FAST) {
		return 0;
	}
	if (!p->started) {
		p->started = true;
		p->deadline_ns = now;
		p->previous_t_ns = f->t_ns;
		return 0;
	}
	if (p->timing == REPLAY_TIMING_RECORDED) {
		step = f->t_ns > p->previous_t_ns ? (int64_t)(f->t_ns - p->previous_t_ns) : 0;
		step = step > REPLAY_PACE_MAX_GAP_NS || step < 0 ? REPLAY_PACE_MAX_GAP_NS : step;
	} else {
		step = p->period_ns > 0 ? p->period_ns :
			f->vsync_period_ns > 0 ? f->vsync_period_ns : REPLAY_PACE_DEFAULT_PERIOD_NS;
	}
	p->previous_t_ns = f->t_ns;
	p->deadline_ns += step;
	if (p->deadline_ns <= now) {
		return 0;	/* late: no catching up by skipping, the frame goes now */
	}
	sleep_until(p->deadline_ns);
	return p->deadline_ns - now;
}
