/*
 * The recorder's own threads run behind the host's (recorder.h,
 * recorder/README.md "Hot path and worker"): SCHED_BATCH, niced
 * REC_BACKGROUND_NICE steps below the thread that created them.
 */
#define _GNU_SOURCE	/* gettid(), SCHED_BATCH: Linux-specific, this file only */
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "recorder.h"

#define REC_BACKGROUND_NICE 10

void rec_thread_background(void)
{
	struct sched_param param = { .sched_priority = 0 };
	pid_t tid = gettid();
	int nice_now = getpriority(PRIO_PROCESS, (id_t)tid);	/* inherited from the creator */

	/*
	 * SCHED_BATCH: never preempts the thread that was running when it
	 * wakes; also takes the thread out of a real-time policy it may have
	 * inherited (a SCHED_FIFO compositor thread that opened the device).
	 * Raising one's own nice value needs no privilege; failures leave the
	 * thread as it was, which works, only less politely.
	 */
	sched_setscheduler(tid, SCHED_BATCH, &param);
	setpriority(PRIO_PROCESS, (id_t)tid, nice_now + REC_BACKGROUND_NICE > 19 ? 19 : nice_now + REC_BACKGROUND_NICE);
}
