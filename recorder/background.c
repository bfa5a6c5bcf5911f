/*
 * The recorder's own threads run behind the host's (recorder.h,
 * recorder/README.md "Hot path and worker"): SCHED_BATCH, at the nice
 * value of the thread that created them; the writer's threads, which
 * compress the pixels, REC_WRITER_NICE steps lower.
 */
#define _GNU_SOURCE	/* gettid(), SCHED_BATCH: Linux-specific, this file only */
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "recorder.h"

#define REC_WRITER_NICE 10

void rec_thread_background(void)
{
	struct sched_param param = { .sched_priority = 0 };

	/*
	 * SCHED_BATCH: never preempts the thread that was running when it
	 * wakes; also takes the thread out of a real-time policy it may have
	 * inherited (a SCHED_FIFO compositor thread that opened the device).
	 * Its CPU share stays the host's (a lower nice value let an unpaced
	 * client outrun the worker until calls were dropped: recorder-fd-leak).
	 * Moving to SCHED_BATCH needs no privilege; a failure leaves the thread
	 * as it was, which works, only less politely.
	 */
	sched_setscheduler(gettid(), SCHED_BATCH, &param);
}

struct lowered {
	void (*fn)(void *);
	void *arg;
};

static void *lowered_main(void *data)
{
	struct lowered *l = data;
	pid_t tid = gettid();
	int nice_now = getpriority(PRIO_PROCESS, (id_t)tid);	/* inherited from the creator */

	rec_thread_background();
	/* raising one's own nice value needs no privilege; lowering it again would */
	setpriority(PRIO_PROCESS, (id_t)tid, nice_now + REC_WRITER_NICE > 19 ? 19 : nice_now + REC_WRITER_NICE);
	l->fn(l->arg);
	return NULL;
}

int rec_run_lowered(void (*fn)(void *), void *arg)
{
	struct lowered l = { fn, arg };
	pthread_t thread;
	int ret = pthread_create(&thread, NULL, lowered_main, &l);

	if (ret != 0) {
		return -ret;
	}
	pthread_join(thread, NULL);
	return 0;
}
