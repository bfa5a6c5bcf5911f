/* Finishing the trace on a fatal signal (crash.h). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#include "crash.h"

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM };
#define FATAL_COUNT (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static struct sigaction previous[FATAL_COUNT];
static struct recorder *watched;
static atomic_flag handling = ATOMIC_FLAG_INIT;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Has the worker write out and finish the trace; bounded. */
static void finish_trace(struct recorder *r)
{
	struct timespec tick = { .tv_nsec = 10 * 1000000 };

	if (!r || !r->worker || pthread_equal(pthread_self(), r->worker_thread)) {
		return;	/* nothing recording, or the worker itself crashed: it cannot finish */
	}
	atomic_store(&r->quit, true);
	if (pthread_mutex_trylock(&r->lock) == 0) {
		pthread_cond_signal(&r->wake);
		pthread_mutex_unlock(&r->lock);
	}	/* else the worker wakes on its own within its sleep period */
	for (int i = 0; i < REC_CRASH_WAIT_MS / 10 && !atomic_load(&r->worker_done); i++) {
		nanosleep(&tick, NULL);
	}
}

static void on_fatal(int sig)
{
	size_t k = 0;

	if (!atomic_flag_test_and_set(&handling)) {
		finish_trace(watched);
	}
	while (k < FATAL_COUNT && fatal_signals[k] != sig) {
		k++;
	}
	if (k < FATAL_COUNT) {
		struct sigaction back = previous[k];

		if (back.sa_handler == SIG_IGN) {
			back.sa_handler = SIG_DFL;	/* a fatal signal ignored would resume the faulting code */
		}
		sigaction(sig, &back, NULL);
	}
	raise(sig);	/* SA_NODEFER: delivered now, to the previous handler or the default action */
}

static void install(void)
{
	struct sigaction sa = { .sa_handler = on_fatal, .sa_flags = SA_NODEFER };

	sigemptyset(&sa.sa_mask);
	for (size_t k = 0; k < FATAL_COUNT; k++) {
		sigaction(fatal_signals[k], &sa, &previous[k]);
	}
}

void rec_crash_install(struct recorder *r)
{
	watched = r;
	pthread_once(&once, install);
}
