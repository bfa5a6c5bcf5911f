/* Progress bar on stderr (replay_progress.h). */
#include <stdio.h>

#include "replay_pace.h"
#include "replay_progress.h"

#define BAR 24

void replay_progress_start(struct replay_progress *p, bool on, uint64_t total)
{
	*p = (struct replay_progress){ .on = on, .total = total, .start_ns = replay_now_ns() };
}

void replay_progress_update(struct replay_progress *p, uint64_t done, uint64_t frames)
{
	int64_t now;
	double fps;
	char bar[BAR + 1];
	unsigned filled;

	if (!p->on) {
		return;
	}
	now = replay_now_ns();
	if (p->drawn && now - p->drawn_ns < REPLAY_PROGRESS_INTERVAL_NS) {
		return;
	}
	p->drawn = true;
	p->drawn_ns = now;
	fps = now > p->start_ns ? (double)frames * 1e9 / (double)(now - p->start_ns) : 0.0;
	done = p->total && done > p->total ? p->total : done;
	filled = p->total ? (unsigned)(done * BAR / p->total) : 0;
	for (unsigned i = 0; i < BAR; i++) {
		bar[i] = i < filled ? '#' : '-';
	}
	bar[BAR] = '\0';
	if (p->total) {
		fprintf(stderr, "\r[%s] %llu/%llu frames, %.0f fps ", bar, (unsigned long long)done,
			(unsigned long long)p->total, fps);
	} else {
		fprintf(stderr, "\r%llu frames, %.0f fps ", (unsigned long long)frames, fps);
	}
	fflush(stderr);
}

void replay_progress_end(struct replay_progress *p)
{
	if (p->on && p->drawn) {
		fprintf(stderr, "\r%*s\r", BAR + 48, "");
		fflush(stderr);
	}
	p->drawn = false;
}
