/*
 * The fake HWC2 module's fence signaller (fake_hwc2.c): fences signal the
 * way a kernel signals them, from a thread of their own some time after
 * the call that retired them returned, never inside the call. A present
 * hands over the previous frame's eventfds; the signaller's thread writes
 * each one FAKE_SIGNAL_DELAY_NS after the hand-over and closes it.
 *
 * Lifetime: the thread is started by fake_signaller_start and joined by
 * fake_signaller_stop, which first signals everything still pending; the
 * device calls stop before its fds and memory go away, so the thread never
 * touches either after close.
 */
#ifndef HWCT_TEST_FAKE_SIGNAL_H
#define HWCT_TEST_FAKE_SIGNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define FAKE_SIGNAL_DELAY_NS 1000000	/* 1 ms: well after the present returned, well before the next */
/*
 * Pending fds; past that a hand-over signals at once. Small enough that a
 * signal thread descheduled on a loaded host holds no more fds than
 * recorder-fd-bound leaves room for (its client's RLIMIT_NOFILE is 256).
 */
#define FAKE_SIGNAL_MAX 64

struct fake_signaller {
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* CLOCK_MONOTONIC */
	pthread_t thread;
	bool running;			/* the thread exists (joined by stop) */
	bool stopping;
	unsigned head, count;		/* ring of pending fds */
	int fds[FAKE_SIGNAL_MAX];	/* owned until signalled and closed */
	uint64_t due[FAKE_SIGNAL_MAX];	/* CLOCK_MONOTONIC ns */
};

/* Initialises s and starts its thread. Returns 0 or -errno (then s is unusable). */
int fake_signaller_start(struct fake_signaller *s);

/*
 * pthread_create(thread, attributes, fn, arg) with a small stack: every
 * thread of the fake module starts here. Returns 0 or an error number.
 */
int fake_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/*
 * Takes ownership of fds[0 .. n): each is written (an eventfd's 1) and
 * closed FAKE_SIGNAL_DELAY_NS from now by the thread. When the thread is
 * not running or the ring is full, the fd is signalled and closed at once.
 */
void fake_signaller_post(struct fake_signaller *s, const int *fds, int n);

/* Signals and closes every pending fd, joins the thread and frees what s holds. */
void fake_signaller_stop(struct fake_signaller *s);

#endif
