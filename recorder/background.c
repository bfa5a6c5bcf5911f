/*
 * The recorder's own threads: all started by rec_thread_start, with a
 * stack of an explicit size; they run behind the host's (recorder.h,
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
/*
 * The stack of every thread of the recorder's own. Not the default (from
 * RLIMIT_STACK: 8 MiB, or 2 MiB when that is unlimited): glibc keeps the
 * stacks of finished threads in a cache (40 MiB by default) and gives a new
 * thread a cached stack of at least the size it asks for and at most four
 * times that. In a forked child (the recorder under hwc-replay --hwc2, or
 * in any host that forks) that cache holds the stacks of the parent's
 * threads, which do not run in the child but whose memory others may still
 * read (liblttng-ust's at exit): a default-sized thread is handed one of
 * them (tests: recorder-fork-stacks), and each default-sized stack a
 * finished thread returns can push the cache past its limit, and glibc
 * then unmaps cached stacks. A stack of 256 KiB is never handed one above
 * 1 MiB, so neither default, and adds 1/32 of an 8 MiB stack to the cache.
 * What the threads use: 20 KiB at most (pages of each stack touched by
 * thread exit, bench-recorder --quick with pixels on: worker, fence
 * watcher, compression threads); no recursion, no array sized by input;
 * 256 KiB leaves the sanitizers' larger frames ample room.
 */
#define REC_THREAD_STACK (256u << 10)

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

int rec_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int ret = pthread_attr_init(&attr);

	if (ret != 0) {
		return ret;
	}
	ret = pthread_attr_setstacksize(&attr, REC_THREAD_STACK);
	if (ret == 0) {
		ret = pthread_create(thread, &attr, fn, arg);
	}
	pthread_attr_destroy(&attr);
	return ret;
}

int rec_run_lowered(void (*fn)(void *), void *arg)
{
	struct lowered l = { fn, arg };
	pthread_t thread;
	int ret = rec_thread_start(&thread, lowered_main, &l);

	if (ret != 0) {
		return -ret;
	}
	pthread_join(thread, NULL);
	return 0;
}
