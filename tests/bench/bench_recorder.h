/*
 * The recorder benchmark's parts (bench_recorder.c): the HWC2 client that
 * times each call (bench_recorder_client.c), the empty-tracepoint baseline
 * (bench_recorder_tp.c, LTTng builds only), a private LTTng session daemon
 * (bench_recorder_lttng.c), child processes (bench_recorder_spawn.c), the
 * statistics (bench_recorder_stats.c), what a recorded trace held
 * (bench_recorder_trace.c), the report (bench_recorder_report.c), and the
 * UI session of issue 16 goal 2 (bench_recorder_ui.c, bench_recorder_ui_report.c).
 */
#ifndef HWCT_BENCH_RECORDER_H
#define HWCT_BENCH_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct native_handle;	/* <cutils/native_handle.h>: not every includer has it */

/* Pseudo function ids of the baseline's samples, beside HWC2_FUNCTION_*. */
#define BENCH_FN_TRACEPOINT 1000	/* the empty tracepoint */
#define BENCH_FN_FLOOR 1001		/* nothing between the two clock reads */
#define BENCH_FN_DUP 1002		/* one dup + close of an fd */

#define BENCH_FRAME_NS 16666667u	/* frame pacing, 60 Hz */
#define BENCH_CALLS_PER_FRAME 31	/* of the client's frame (bench_recorder_client.c) */

/* What a child process measures. */
enum bench_mode {
	MODE_DIRECT,		/* the fake module called directly */
	MODE_PIXELS_OFF,	/* through libhwc-record.so, HWCT_PIXELS=0 */
	MODE_PIXELS_ON,		/* through libhwc-record.so, HWCT_PIXELS=1 */
	MODE_TP_DISABLED,	/* the empty tracepoint, no session */
	MODE_TP_ENABLED,	/* the empty tracepoint, enabled in a session */
	MODE_DUP,		/* one dup + close of an fd (bench_recorder_dup.c) */
	MODE_TP_IN_CALLS,	/* the fake called directly, the enabled empty tracepoint fired in each timed call */
	MODE_PAIRED_OFF,	/* direct and through the recorder (pixels off) in one process, frames alternating */
	MODE_PAIRED_ON,		/* the same with pixels on */
	MODE_PAIRED_DUP,	/* the same pairs, the second half the fake with one dup + close in each fence call */
	MODE_PAIRED_REF,	/* the same, the second half with the enabled tracepoint in every call and the dup too */
	MODE_COUNT,
};

/* Their names, as --child takes them (bench_recorder_report.c). */
extern const char *const bench_mode_names[MODE_COUNT];

/* One timed call. */
struct bench_sample {
	int32_t function;		/* HWC2_FUNCTION_* or BENCH_FN_* */
	uint32_t ns;			/* CLOCK_MONOTONIC after - before the call */
};

/* A growing array of samples (bench_recorder_stats.c). */
struct bench_samples {
	struct bench_sample *v;		/* owned */
	size_t n, cap;
};

/* Appends one sample. Returns 0 or -ENOMEM. */
int bench_samples_add(struct bench_samples *s, int32_t function, uint64_t ns);

/* Frees what s holds. */
void bench_samples_finish(struct bench_samples *s);

/* Writes s to path (raw structs). Returns 0 or -errno. */
int bench_samples_save(const struct bench_samples *s, const char *path);

/* Appends the samples stored at path. Returns 0 or -errno. */
int bench_samples_load(struct bench_samples *s, const char *path);

/* Mean and 99th percentile of the samples of one function, or of all (function -1). */
struct bench_stat {
	size_t n;
	double mean;			/* ns */
	double p50, p99;		/* ns, nearest rank */
};

/* Statistics of the samples of s with that function (-1: every sample). */
struct bench_stat bench_stat_of(const struct bench_samples *s, int32_t function);

/* CLOCK_MONOTONIC in ns (pacing). */
uint64_t bench_ns(void);

/*
 * The clock calls are timed with: CLOCK_MONOTONIC, or with
 * bench_call_clock_cpu() the calling thread's CPU time (a diagnostic that
 * leaves out waits and preemption). In ns.
 */
uint64_t bench_call_ns(void);
void bench_call_clock_cpu(void);

/* Sleeps until *next (CLOCK_MONOTONIC ns, 0: now) and moves it one frame on. */
void bench_pace(uint64_t *next);

/* --------------------------------------------------------- the client */

struct bench_client_options {
	const char *module;		/* the HWC2 module to dlopen: the fake, or the recorder */
	const char *pixels;		/* PNG of the full-screen layer, NULL: a synthetic pattern */
	unsigned warmup, frames;	/* frames not timed, then frames timed */
	bool paced;			/* one frame per BENCH_FRAME_NS */
	bool no_draw;			/* keep the first content (profiling the calls alone) */
	void (*probe)(int32_t function);	/* run inside each timed call, before it (tp-in-calls, paired-dup's second half); NULL none */
};

/*
 * Opens the module's composer device and drives it for warmup + frames
 * frames of two layers (bench_recorder_client.c), appending the measured
 * frames' calls to out. Prints what went wrong to stderr. Returns 0 or
 * -errno.
 */
int bench_client_run(const struct bench_client_options *o, struct bench_samples *out);

/*
 * The paired measure: the fake opened directly and through the recorder in
 * the same process, their frames alternating (direct first in even frames,
 * the wrapper first in odd ones), each frame paced alone; frame f of both
 * has the same calls in the same order, so sample i of out_direct and of
 * out_wrapped are the same call of the same frame. Options other than the
 * module are direct's. Returns 0 or -errno.
 */
int bench_client_run_paired(const struct bench_client_options *direct, const struct bench_client_options *wrapped,
	struct bench_samples *out_direct, struct bench_samples *out_wrapped);

/* A signalled acquire fence: a pipe's read end with a byte in it. Returns the fd (the caller's), or -errno. */
int bench_signalled_fence(void);

/*
 * A width x height ABGR8888 buffer (stride width * 4) in a memfd, mapped, with a
 * <hwct/test_buffer.h> handle. *fd, *map and *handle are the caller's (close, munmap,
 * free), also when it fails part way. Returns 0 or -errno.
 */
int bench_memfd_buffer(uint32_t width, uint32_t height, int *fd, uint8_t **map,
	struct native_handle **handle);

/* ------------------------------------------------------- the UI session */

/* A 60 Hz lock-screen session of three buffer-queue layers (bench_recorder_ui.c). */
#define BENCH_UI_LAYERS 3
extern const char *const bench_ui_layer_names[BENCH_UI_LAYERS];	/* in the order they are created */

/* Prints the session's layers in one line's words (no newline). */
void bench_ui_describe(FILE *f);

struct bench_ui_options {
	const char *module;		/* the fake, or the recorder */
	const char *pixels;		/* PNG of the wallpaper, NULL: a synthetic pattern */
	unsigned warmup, frames;
};

/* What one UI session measured (written by the child, read by the parent). */
struct bench_ui_result {
	unsigned frames;		/* measured frames */
	uint64_t session_ns;		/* first measured frame to the device closed */
	uint64_t other_cpu_ns;		/* process CPU minus the client thread's, same span */
	uint64_t client_cpu_ns;		/* the client thread's CPU over the frames */
	uint64_t release_waits;		/* the producer found a buffer's release fence pending */
	uint64_t buffers[4];		/* new buffers set per layer, measured frames */
};

/*
 * Opens the module's device and runs the session, paced at 60 Hz. Prints
 * what went wrong to stderr. Returns 0 or -errno.
 */
int bench_ui_run(const struct bench_ui_options *o, struct bench_ui_result *res);

/*
 * Prints the session's result lines (bench_recorder_ui_report.c): per layer captured / late / dropped
 * from the traces in out_dir, the recorder's CPU against the direct run's,
 * and the goal (0 late, 0 dropped, <= 1 core).
 */
void bench_ui_print(const struct bench_ui_result *direct, const struct bench_ui_result *rec, const char *out_dir);

/* The UI session's processes (bench_recorder_ui_report.c). Whether name is a UI child (--child ui-direct / ui). */
bool bench_ui_is_child(const char *name);

/* A UI child's main: runs the session, writes its result to result_path. Returns the exit status. */
int bench_ui_child(const char *name, const struct bench_ui_options *o, const char *result_path);

/* What the parent passes on to the UI children; borrowed. */
struct bench_ui_parent {
	const char *self, *tmp;		/* this program; the run's directory (has no-lttng/) */
	const char *fake, *recorder, *pixels;
	unsigned warmup, frames;
};

/*
 * Runs the session on the fake directly, then through the recorder
 * (pixels on, HWCT_CAPTURE_WAIT_MS=0, traces in tmp/out-ui), and prints
 * bench_ui_print's lines. Returns 0 or -errno.
 */
int bench_ui_session(const struct bench_ui_parent *p);

/* ------------------------------------------------- the tracepoint baseline */

/* Whether the empty tracepoint is built in (LTTng-UST found). */
bool bench_tp_built(void);

/* Whether hwct_bench:empty is enabled in some session (false without LTTng). */
bool bench_tp_enabled(void);

/*
 * Per frame, times per_frame calls of the empty tracepoint
 * (BENCH_FN_TRACEPOINT) and per_frame empty timings (BENCH_FN_FLOOR), the
 * way the client times its calls; the first warmup frames are not kept.
 * Returns 0, -ENOTSUP without LTTng, or -ENOMEM.
 */
int bench_tp_run(unsigned warmup, unsigned frames, unsigned per_frame, bool paced,
	struct bench_samples *out);

/*
 * Fires the empty tracepoint once: the probe of MODE_TP_IN_CALLS, which
 * puts it at the client's call sites, in the frame's own cache state (the
 * frame's content drawn just before, the module's work between calls).
 * Does nothing without LTTng. function is the call's, unused.
 */
void bench_tp_fire(int32_t function);

/* ------------------------------------------------------- the dup baseline */

/*
 * Per frame, times per_frame dup + close pairs of an eventfd
 * (BENCH_FN_DUP), the way the client times its calls; the first warmup
 * frames are not kept. Returns 0 or -errno.
 */
int bench_dup_run(unsigned warmup, unsigned frames, unsigned per_frame, bool paced, struct bench_samples *out);

/*
 * The probe of MODE_PAIRED_DUP's second half: in a call that carries a fence fd
 * (bench_function_has_fence), one dup + close of an eventfd, as the
 * recorder takes one dup per fence: the one dup of the fence-fd goal, paid
 * where the calls pay it (the first such call of a frame finds the syscall
 * path cold). Nothing in other calls. The eventfd is opened at the first
 * call and kept; without it, nothing.
 */
void bench_dup_probe(int32_t function);

/*
 * The probe of MODE_PAIRED_REF's second half: the least a tracer that keeps
 * the fences costs, paid where the calls pay it: the enabled tracepoint
 * (bench_tp_fire) in every call, and in a call that carries a fence fd the
 * dup + close of bench_dup_probe as well. The goals' baseline measured in
 * the calls (bench_recorder_paired.c).
 */
void bench_ref_probe(int32_t function);

/* ------------------------------------------------------------ the report */

/* Everything the report prints from; borrowed. */
struct bench_results {
	const struct bench_samples *samples;	/* [MODE_COUNT], pooled over rounds */
	const bool *ran;			/* [MODE_COUNT]: the mode has samples */
	const struct bench_samples *paired_direct;	/* [MODE_COUNT]: the direct half of the paired modes;
						 * samples[m] is their wrapper half, sample i of both a pair */
	const char *tp_why;			/* why the enabled tracepoint did not run */
	unsigned frames;			/* measured frames per mode */
	const char *pixels_source;
	const char *out_pixels_off, *out_pixels_on;	/* directories of the traces */
};

/* Prints the results on stdout (bench_recorder_report.c). */
void bench_report_print(const struct bench_results *r);

/* Whether m is one of the paired modes (two halves in one process). */
bool bench_mode_paired(enum bench_mode m);

/* Whether a call of function carries a fence fd the recorder dups (bench_recorder_classes.c). */
bool bench_function_has_fence(int32_t function);

/* A class's goal: what its overhead's mean and p99 may be, in ns. */
struct bench_goal {
	double mean, p99;
};

/*
 * The goal of a class of call (bench_recorder_classes.c): mean ≤ 1.5 × the
 * tracepoint's net mean, p99 ≤ 3 × its net p99; a fence-carrying class adds
 * one dup (dup's mean and p99) to the tracepoint before the factor, as the
 * goal reads: 1.5 × (tracepoint + one dup).
 */
struct bench_goal bench_class_goal(bool fence, double tp_mean, double tp_p99, const struct bench_stat *dup);

/*
 * Prints goal 3 of issue 16 per class of call, no-fd and fence-fd, for
 * both wrapper modes, against the tracepoint's net cost (tp_mean, tp_p99,
 * ns) and, for fence-fd calls, one dup (bench_recorder_classes.c).
 */
void bench_report_classes(const struct bench_results *r, double tp_mean, double tp_p99);

/*
 * The paired modes per class (bench_recorder_paired.c): overhead = the
 * mean over pairs of wrapper - direct of the same call of the same frame,
 * p99 of wrapper - p99 of direct, each with a 95 % interval from ten
 * blocks of consecutive frames, ÷ the same goals as bench_report_classes.
 */
void bench_report_paired(const struct bench_results *r, double tp_mean, double tp_p99);

/* ------------------------------------------------------------ processes */

/* An environment variable for a child: value NULL unsets name. */
struct bench_env {
	const char *name, *value;
};

/*
 * Runs argv (argv[0] a path or a name in PATH) with env applied on top of
 * ours, as user nobody when as_nobody, its stdout and stderr appended to
 * out_path (NULL: ours). Returns its exit status, or -ENOENT when it could
 * not be run, -EINTR when it died of a signal, -errno.
 */
int bench_spawn(char *const argv[], const struct bench_env *env, size_t env_count, bool as_nobody,
	const char *out_path);

/* ------------------------------------------------ the LTTng session daemon */

struct bench_lttng {
	char home[256];			/* LTTNG_HOME of the daemon and of the children */
	bool as_nobody;			/* root: the daemon and its children run as nobody */
	bool daemon_started;
	bool session_created;
};

/*
 * Starts a private lttng-sessiond under l->home (a new directory in tmp_dir)
 * with a started session enabling hwct_bench:*, as tests/recorder/test_lttng.sh
 * does. Returns 0, or -errno with why (size bytes) saying what failed; then
 * bench_lttng_stop still cleans up.
 */
int bench_lttng_start(struct bench_lttng *l, const char *tmp_dir, char *why, size_t size);

/* Destroys the session and stops the daemon it started. */
void bench_lttng_stop(struct bench_lttng *l);

/* ------------------------------------------------------- recorded traces */

#define BENCH_TRACE_LAYERS 4

/* What the recorder wrote, summed over traces. */
struct bench_trace_summary {
	unsigned traces;
	uint64_t calls, frames, bytes;
	struct {
		uint64_t id;		/* layer id, 0 unused slot */
		uint64_t buffers;	/* SET_LAYER_BUFFER calls */
		uint64_t status[6];	/* by LayerBufferArgs.capture (0 ok .. 5 synthetic) */
	} layers[BENCH_TRACE_LAYERS];	/* in order of first appearance */
	uint64_t frames_late, blobs_dropped, records_dropped;	/* last CaptureStats of each */
};

/* Adds every hwctrace-*.zst in dir to sum. Returns 0 or -errno (message on stderr). */
int bench_trace_summarize(const char *dir, struct bench_trace_summary *sum);

/* Prints sum as "  trace: ..." lines. */
void bench_trace_print(FILE *f, const struct bench_trace_summary *sum, const char *const *layer_names);

/* ---- bench_recorder_sched.c: the calling thread's policy in the children */

/* In the parent, before any child: other keeps the children SCHED_OTHER (--sched-other). */
void bench_sched_parent(bool other);

/* Returns the policy the children use, for the header line (a static string). */
const char *bench_sched_describe(void);

/* In a child, before the module loads: SCHED_FIFO 2 as a composer thread; says so on stderr when refused. */
void bench_sched_child(void);

#endif
