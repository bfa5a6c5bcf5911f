/* The fake module's fence signaller thread (fake_signal.h). */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "fake_signal.h"

/*
 * What the threads ask for, raised to the C library's least
 * (_SC_THREAD_STACK_MIN: 16 KiB on x86-64, 128 KiB on arm64, whose kernels
 * may use 64 KiB pages), which pthread_attr_setstacksize() refuses to go under.
 */
#define FAKE_THREAD_STACK (64u << 10)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void signal_fd(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) != sizeof(one)) {
		fprintf(stderr, "fake_hwc2: cannot signal a fence\n");
	}
	close(fd);
}

static void *signaller_main(void *data)
{
	struct fake_signaller *s = data;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (s->count > 0 && (s->stopping || s->due[s->head] <= now_ns())) {
			int fd = s->fds[s->head];

			s->head = (s->head + 1) % FAKE_SIGNAL_MAX;
			s->count--;
			pthread_mutex_unlock(&s->lock);
			signal_fd(fd);
			pthread_mutex_lock(&s->lock);
		}
		if (s->stopping) {
			break;
		}
		if (s->count == 0) {
			pthread_cond_wait(&s->cond, &s->lock);
		} else {
			uint64_t due = s->due[s->head];
			struct timespec ts = { (time_t)(due / 1000000000u), (long)(due % 1000000000u) };

			pthread_cond_timedwait(&s->cond, &s->lock, &ts);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static size_t thread_stack_size(void)
{
	long least = sysconf(_SC_THREAD_STACK_MIN);

	return least > 0 && (unsigned long)least > FAKE_THREAD_STACK ? (size_t)least : FAKE_THREAD_STACK;
}

int fake_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int ret = pthread_attr_init(&attr);

	if (ret != 0) {
		return ret;
	}
	/*
	 * A small stack of its own: a default-sized one would come from
	 * glibc's stack cache, which in a forked child (hwc-replay's) holds the
	 * stacks of the parent's threads, liblttng-ust's among them; growing
	 * that cache past its limit unmaps them, and liblttng-ust's destructor
	 * reads them at exit (recorder/background.c, REC_THREAD_STACK).
	 */
	ret = pthread_attr_setstacksize(&attr, thread_stack_size());
	if (ret == 0) {
		ret = pthread_create(thread, &attr, fn, arg);
	}
	pthread_attr_destroy(&attr);
	return ret;
}

int fake_signaller_start(struct fake_signaller *s)
{
	pthread_condattr_t attr;
	int ret;

	s->running = s->stopping = false;
	s->head = s->count = 0;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &attr);
	pthread_condattr_destroy(&attr);
	ret = fake_thread_start(&s->thread, signaller_main, s);
	if (ret != 0) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		return -ret;
	}
	s->running = true;
	return 0;
}

void fake_signaller_post(struct fake_signaller *s, const int *fds, int n)
{
	uint64_t due = now_ns() + FAKE_SIGNAL_DELAY_NS;
	bool wake;

	if (!s->running) {
		for (int i = 0; i < n; i++) {
			signal_fd(fds[i]);
		}
		return;
	}
	pthread_mutex_lock(&s->lock);
	wake = s->count == 0;	/* otherwise the thread already waits for an earlier due time */
	for (int i = 0; i < n; i++) {
		if (s->count == FAKE_SIGNAL_MAX) {
			signal_fd(fds[i]);	/* an unpaced client far ahead: no fence is ever lost */
			continue;
		}
		s->fds[(s->head + s->count) % FAKE_SIGNAL_MAX] = fds[i];
		s->due[(s->head + s->count) % FAKE_SIGNAL_MAX] = due;
		s->count++;
	}
	if (wake && s->count > 0) {
		pthread_cond_signal(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
}

void fake_signaller_stop(struct fake_signaller *s)
{
	if (!s->running) {
		return;
	}
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->running = false;
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
}
