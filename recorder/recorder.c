/* The process's recorder: creation, threads, shared counters (recorder.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hwct/log.h>

#include "hotline.h"
#include "crash.h"
#include "event.h"
#include "fds.h"
#include "fence.h"
#include "hot_arena.h"
#include "output.h"
#include "recorder.h"
#include "worker.h"

static pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;
static bool disabled;	/* under attach_lock: a bad configuration was reported */

REC_HOT struct recorder *rec_get(void)
{
	return atomic_load_explicit(&rec_hotline.recorder, memory_order_acquire);
}

REC_HOT struct rec_display_slot *rec_display_slot(struct recorder *r, uint64_t display)
{
	uint64_t key = display + 1;

	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		uint64_t k = atomic_load(&r->displays[i].key);

		if (k == key) {
			return &r->displays[i];
		}
		if (k == 0) {
			uint64_t expected = 0;

			if (atomic_compare_exchange_strong(&r->displays[i].key, &expected, key) ||
					expected == key) {
				return &r->displays[i];
			}
		}
	}
	return &r->displays[0];
}

REC_HOT void rec_wake_worker(struct recorder *r)
{
	if (atomic_load(&r->worker_idle)) {
		atomic_fetch_add_explicit(&r->worker_wakes, 1, memory_order_relaxed);
		pthread_mutex_lock(&r->lock);
		pthread_cond_signal(&r->wake);
		pthread_mutex_unlock(&r->lock);
	}
}

REC_HOT bool rec_worker_due(struct recorder *r, uint64_t t_ns)
{
	/* the worker stores its wake-up time before it says it is idle */
	return atomic_load(&r->worker_idle) && atomic_load(&r->worker_wake_ns) <= t_ns + REC_WAKE_SLACK_NS;
}

static void on_sigusr2(int sig)
{
	struct recorder *r = rec_get();

	(void)sig;
	if (r) {
		atomic_fetch_add(&r->toggles, 1);
	}
}

/*
 * fork(): the child has none of our threads. It stops recording; a device it
 * wraps or closes later starts threads of its own (and a trace named by its
 * own pid).
 */
static void before_fork(void)
{
	pthread_mutex_lock(&attach_lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&attach_lock);
}

static void after_fork_child(void)
{
	struct recorder *r = rec_get();

	if (r) {
		atomic_store(&r->recording, false);
		atomic_store(&r->inflight, 0);
		r->threads_running = false;	/* the worker is the parent's: never joined here */
		r->worker = NULL;
		r->devices = 0;
		pthread_mutex_init(&r->lock, NULL);
	}
	rec_event_pools_after_fork();
	pthread_mutex_unlock(&attach_lock);
}

_Static_assert(_Alignof(struct recorder) <= REC_LINE, "rec_hot_alloc aligns to a line");

/* Reads the options and checks the output; logs one line and returns NULL when unusable. */
static struct recorder *create(void)
{
	/* line-aligned, as recorder.h's parts need */
	struct recorder *r = rec_hot_alloc(sizeof(*r));
	pthread_condattr_t attr;
	char why[512];
	int ret;

	if (!r) {
		hwct_log(HWCT_LOG_ERROR, "recorder: out of memory; not recording");
		return NULL;
	}
	memset(r, 0, sizeof(*r));
	r->first_fd = -1;
	rec_fds_init();
	if (rec_config_read(&r->cfg, why, sizeof(why)) < 0) {
		hwct_log(HWCT_LOG_ERROR, "recorder: bad option %s; not recording", why);
		goto error;
	}
	if (!r->cfg.output_none) {
		if (r->cfg.trigger == REC_TRIGGER_NONE && !r->cfg.control[0]) {
			ret = rec_output_open(&r->cfg, &r->first_index, r->first_path, sizeof(r->first_path));
			r->first_fd = ret;
		} else {
			ret = rec_output_check(&r->cfg);
		}
		if (ret < 0) {
			hwct_log(HWCT_LOG_ERROR, "recorder: cannot write traces to %s: %s; not recording",
				r->cfg.output, strerror(-ret));
			r->first_fd = -1;
			goto error;
		}
	}
	if (rec_queue_init(&r->queue) < 0) {
		hwct_log(HWCT_LOG_ERROR, "recorder: out of memory; not recording");
		goto error_fd;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&r->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (r->cfg.trigger == REC_TRIGGER_SIGNAL) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigusr2;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR2, &sa, NULL);
	}
	return r;

error_fd:
	if (r->first_fd >= 0) {
		close(r->first_fd);
		unlink(r->first_path);
	}
error:
	rec_hot_free(r, sizeof(*r));
	return NULL;
}

/* Starts the worker (and its fence watcher) with every signal blocked (attach_lock held). */
static int start_threads(struct recorder *r)
{
	struct rec_worker *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int ret;

	if (!w) {
		return -ENOMEM;
	}
	w->r = r;
	w->fences = rec_fence_watch_create();
	if (!w->fences) {
		free(w);
		return -EAGAIN;
	}
	/* without triggers a session runs while devices are open */
	w->want = !r->cfg.output_none && r->cfg.trigger == REC_TRIGGER_NONE && !r->cfg.control[0];
	atomic_store(&r->quit, false);
	atomic_store(&r->worker_done, false);
	/* calls from now on are captured; the worker opens the trace before it writes them */
	atomic_store(&r->recording, w->want);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = rec_thread_start(&r->worker_thread, rec_worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0) {
		atomic_store(&r->recording, false);
		rec_fence_watch_destroy(w->fences);
		free(w);
		return -ret;
	}
	r->worker = w;
	r->threads_running = true;
	return 0;
}

int rec_attach(const char *module_path, const int32_t *caps, uint32_t cap_count)
{
	struct recorder *r;
	int ret = 0;

	pthread_mutex_lock(&attach_lock);
	r = rec_get();
	if (!r && disabled) {
		ret = -EINVAL;
		goto out;
	}
	if (!r) {
		r = create();
		if (!r) {
			disabled = true;
			ret = -EINVAL;
			goto out;
		}
		snprintf(r->module_path, sizeof(r->module_path), "%s", module_path ? module_path : "");
		r->capability_count = cap_count < REC_MAX_CAPABILITIES ? cap_count : REC_MAX_CAPABILITIES;
		memcpy(r->capabilities, caps, r->capability_count * sizeof(*caps));
		atomic_store_explicit(&rec_hotline.recorder, r, memory_order_release);
		pthread_atfork(before_fork, after_fork_parent, after_fork_child);
		rec_crash_install(r);
	}
	if (!r->threads_running) {
		ret = start_threads(r);
		if (ret < 0) {
			hwct_log(HWCT_LOG_ERROR, "recorder: cannot start its threads: %s; not recording",
				strerror(-ret));
			goto out;
		}
	}
	r->devices++;
out:
	pthread_mutex_unlock(&attach_lock);
	return ret;
}

/* Ends the session and joins the threads (attach_lock held). */
static void stop_threads(struct recorder *r)
{
	struct rec_worker *w = r->worker;

	if (!r->threads_running) {
		return;
	}
	atomic_store(&r->quit, true);
	pthread_mutex_lock(&r->lock);
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->worker_thread, NULL);
	rec_fence_watch_destroy(w->fences);
	rec_buffers_finish(&w->buffers);
	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		free(w->displays[i].info);
	}
	free(w->damage);
	rec_release_index_finish(&w->releases);
	rec_pending_finish(&w->pending);
	free(w);
	r->worker = NULL;
	r->threads_running = false;
}

void rec_detach(void)
{
	struct recorder *r;

	pthread_mutex_lock(&attach_lock);
	r = rec_get();
	if (r && r->devices > 0 && --r->devices == 0) {
		stop_threads(r);
	}
	pthread_mutex_unlock(&attach_lock);
}

/* At exit, a device that was never closed (composer services never close it) still gets its trace finished. */
__attribute__((destructor)) static void finish_at_exit(void)
{
	struct recorder *r;

	if (pthread_mutex_trylock(&attach_lock) != 0) {
		return;
	}
	r = rec_get();
	if (r) {
		stop_threads(r);
	}
	pthread_mutex_unlock(&attach_lock);
}
