/*
 * The recorder: one per process, shared by every wrapped device. The hot
 * path (wrappers, call.c) reads the atomics below and pushes events into
 * `queue`; the worker thread (worker.c) owns everything else.
 */
#ifndef REC_RECORDER_H
#define REC_RECORDER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "queue.h"

#define REC_MAX_DISPLAYS 8
#define REC_MAX_CAPABILITIES 32

enum rec_info_state {
	REC_INFO_NONE = 0,	/* not connected, or facts not needed */
	REC_INFO_NEEDED,	/* hotplug said connected: query on the next call */
	REC_INFO_QUERYING,
	REC_INFO_DONE,
};

/*
 * Per-display counters shared by the hot path and the worker. Capture
 * tickets number the buffer calls of a display whose pixels are captured;
 * presentDisplay waits until the tickets of the previous frame are resolved
 * (recorder/README.md, "Capture before release").
 */
struct rec_display_slot {
	/* read by every call of the display, written once */
	_Atomic uint64_t key;		/* display id + 1, 0 = free slot */
	atomic_int info;		/* enum rec_info_state */
	/* written by the calling threads (hot path) */
	_Alignas(REC_LINE) _Atomic uint64_t tickets;	/* last ticket issued */
	_Atomic uint64_t at_present;	/* `tickets` when the last present returned */
	_Atomic uint64_t release_target;	/* what getReleaseFences waits for */
	_Atomic uint64_t late;		/* tickets <= this must be marked late */
	/* written by the worker */
	_Alignas(REC_LINE) _Atomic uint64_t resolved;	/* every ticket <= this is resolved */
};

struct rec_worker;
struct rec_fence_watch;

struct recorder {
	struct rec_config cfg;
	char module_path[4096];		/* the real module, as loaded */
	int32_t capabilities[REC_MAX_CAPABILITIES];	/* of the first wrapped device */
	uint32_t capability_count;
	uint32_t passthrough[16];	/* descriptors handed out unwrapped */
	atomic_uint passthrough_count;

	atomic_bool recording;		/* a session is capturing events (read by every call) */
	/* written by the calling threads */
	_Alignas(REC_LINE) atomic_int inflight;		/* calls between rec_call_begin and their push, of threads without a pool (call.h) */
	_Atomic uint64_t next_fence_id;
	_Atomic uint64_t events_dropped;	/* calls/callbacks not recorded (queue full, no memory) */
	struct rec_queue queue;
	struct rec_display_slot displays[REC_MAX_DISPLAYS];

	/* worker control */
	_Alignas(REC_LINE) pthread_mutex_t lock;
	pthread_cond_t wake;
	atomic_bool worker_idle;	/* the worker sleeps on `wake` */
	_Atomic uint64_t worker_wake_ns;	/* when the sleeping worker wakes on its own (rec_now_ns) */
	_Atomic uint64_t worker_wakes;	/* rec_wake_worker calls that found it asleep (CaptureStats) */
	atomic_bool quit;
	atomic_bool worker_done;	/* the worker has finished the trace and returns */
	atomic_int toggles;		/* SIGUSR2 deliveries not yet handled */
	bool threads_running;		/* under `lock` */
	int devices;			/* wrapped devices open, under `lock` */
	pthread_t worker_thread;
	int first_fd;			/* output opened at attach for an immediate start, -1 */
	char first_path[4096];		/* its path */
	unsigned first_index;		/* n of the next generated name after it */
	struct rec_worker *worker;
	struct rec_fence_watch *fences;
};

/* The process's recorder, NULL before the first device was wrapped. */
struct recorder *rec_get(void);

/*
 * Called when a device is about to be wrapped: creates the recorder on
 * first use (reading the options and checking the output), starts its
 * threads. Returns 0, or -errno when the device must be left unwrapped
 * (the reason was logged, once per process).
 */
int rec_attach(const char *module_path, const int32_t *caps, uint32_t cap_count);

/* A wrapped device closed: the last one ends the session and stops the threads. */
void rec_detach(void);

/* Wakes the worker if it sleeps (hot path: no syscall unless it does). */
void rec_wake_worker(struct recorder *r);

/*
 * Whether the worker is asleep and wakes on its own by t_ns + REC_WAKE_SLACK_NS
 * (recorder/README.md, "Presents that wake no one"): a present can then leave
 * its captures to that wake-up instead of paying for a futex wake.
 */
bool rec_worker_due(struct recorder *r, uint64_t t_ns);

#define REC_WAKE_SLACK_NS 2500000u

/* Slot of display, claimed on first use; never NULL (slot 0 is shared on overflow). */
struct rec_display_slot *rec_display_slot(struct recorder *r, uint64_t display);

/* Monotonic clock in ns. */
uint64_t rec_now_ns(void);

/* The calling thread's kernel tid (cached per thread; tid.c). */
uint32_t rec_tid(void);

/*
 * Puts the calling thread (one of the recorder's own) behind the host's
 * threads: SCHED_BATCH, which never preempts a running thread on wakeup;
 * threads it creates later inherit it (background.c). Best effort.
 */
void rec_thread_background(void);

/*
 * Every thread of the recorder's own (the worker, the fence watcher, the
 * format writer's compression threads, rec_run_lowered's) is started here:
 * pthread_create(thread, attributes, fn, arg) with a stack of
 * REC_THREAD_STACK bytes (background.c says why). Returns 0 or an error
 * number, as pthread_create.
 */
int rec_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/*
 * Runs fn(arg) on a thread of its own, SCHED_BATCH and 10 nice steps
 * below the caller, and waits for it: the threads fn creates inherit
 * both (the format writer's, which compress pixels). Returns 0, or -errno
 * when no thread could be made (fn was not run).
 */
int rec_run_lowered(void (*fn)(void *), void *arg);

#endif
