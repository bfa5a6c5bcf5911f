/*
 * bench-recorder [--quick] [--frames N] [--rounds N] [--no-pace] [--thread-cputime]
 *	[--no-draw] [--ui-only | --no-ui] [--sched-other] [--pixels PNG] --fake hwcomposer.fake.so
 *	--recorder libhwc-record.so
 *
 * The recorder's per-call overhead. One frame of SurfaceFlinger's
 * calls (bench_recorder_client.c: two layers, one of them 1080x2400 RGBA8888
 * with new content every frame; 31 calls) is driven at 60 Hz against the
 * fake HWC2 module, each call timed alone with CLOCK_MONOTONIC, in modes:
 *
 *   direct       the fake loaded directly;
 *   pixels-off   the fake through libhwc-record.so as HAL wrapper
 *                (HWCT_REAL_MODULE), recording a trace, HWCT_PIXELS=0;
 *   pixels-on    the same with pixel capture (HWCT_PIXELS=1, budget 256 MB,
 *                the default HWCT_CAPTURE_WAIT_MS: present never waits,
 *                captures checked against release fences);
 *   dup          one fcntl(F_DUPFD_CLOEXEC) of an eventfd and the close of
 *                the dup, 31 per frame, timed the same way: the least a
 *                call carrying a fence fd costs the recorder;
 *   tracepoint   an LTTng-UST tracepoint without payload (hwct_bench:empty),
 *                31 per frame, timed the same way, beside the same clock
 *                pair around nothing (the timing floor): once disabled (no
 *                session daemon) and once enabled in a session of a private
 *                session daemon (as nobody when root, as test_lttng.sh);
 *   tp-in-calls  the direct client with the enabled tracepoint fired inside
 *                each timed call: the tracepoint at the call site, in the
 *                frame's own cache state; printed beside the goal, which is
 *                judged against the tracepoint alone;
 *   paired-off, paired-on, paired-dup (bench_recorder_paired.c) the fake
 *                directly and, frames alternating in the same process,
 *                through the recorder, or (paired-dup) directly with one
 *                dup + close inside each fence-carrying call: the goal's one
 *                dup where the calls pay it, printed beside the goal;
 *   paired-ref   the same pairs, the second half the fake with the enabled
 *                tracepoint fired in every call and, in a call carrying a
 *                fence fd, one dup + close as well: the goals' baseline
 *                measured in the calls, paired as the recorder's overhead
 *                is; each paired class is judged against it too.
 *
 * The recorder reads its options once per process, and LTTng-UST registers
 * at process start, so every mode runs in a child process of its own (this
 * program with --child); modes take turns, round after round, and the
 * samples are pooled per mode. Per call, overhead = wrapper - direct (mean
 * minus mean, p99 minus p99), held against the tracepoint's own cost: the
 * enabled tracepoint net of the timing floor when a session could be
 * started, else the disabled one (the output says which). Goals: mean <= 1.5x,
 * p99 <= 3x; per class (bench_recorder_classes.c), calls carrying a fence
 * fd against the tracepoint plus one dup (1.5 x (tracepoint + dup)). A missed goal is reported, never a failure: exit 1 only when
 * something could not run.
 *
 * Then the UI session of issue 16 goal 2 (bench_recorder_ui.c): a 60 Hz lock
 * screen of three buffer-queue layers, --frames frames once on the fake
 * directly and once through the recorder with pixels on: per layer captured
 * / late / dropped and the recorder's CPU (goal 0 late, 0 dropped, <= 1
 * core). --ui-only runs just that, --no-ui leaves it out.
 *
 * Every child's calling thread runs SCHED_FIFO 2, the policy of the
 * composer service's threads that call a module on a device
 * (bench_recorder_sched.c); --sched-other keeps SCHED_OTHER instead.
 *
 * Diagnostics: --no-pace drives frames back to back; --thread-cputime times
 * each call with the calling thread's CPU time instead of CLOCK_MONOTONIC,
 * which leaves out what the call waited (preemption, the capture wait), so
 * that wall time minus CPU time shows how much of a cost is scheduling;
 * --no-draw leaves the buffers' content as first drawn (the calls alone, for
 * a profiler; with pixels on the content then repeats: not the benchmark).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "bench_recorder.h"

#define EXIT_NOT_ENABLED 3	/* child: the tracepoint was not enabled */

struct options {
	bool quick, paced, cputime, no_draw;
	bool ui_only, no_ui;		/* the UI session alone, or not at all */
	bool sched_other;		/* --sched-other: children keep SCHED_OTHER */
	const char *pixels, *fake, *recorder;
	const char *child, *samples;	/* --child MODE --samples FILE */
	unsigned warmup, frames, rounds;
};

struct run {
	struct options o;
	char self[PATH_MAX];
	char tmp[256];
	struct bench_lttng lttng;
	bool lttng_ok;
	char lttng_why[256];
	char out[MODE_COUNT][300];	/* HWCT_OUTPUT of the wrapper modes */
	char shared_fake[300], shared_pixels[300];	/* copies nobody can read, "" none (share_with_nobody) */
	struct bench_samples samples[MODE_COUNT];
	struct bench_samples paired_direct[MODE_COUNT];	/* the direct half of the paired modes */
	bool ran[MODE_COUNT];
};

static void usage(void)
{
	fprintf(stderr, "usage: bench-recorder [--quick] [--frames N] [--rounds N] [--no-pace] [--thread-cputime] "
		"[--no-draw] [--ui-only | --no-ui] [--sched-other] [--pixels PNG] --fake hwcomposer.fake.so --recorder libhwc-record.so\n");
	exit(2);
}

static unsigned parse_count(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*end || v < 1 || v > 1000000) {
		usage();
	}
	return (unsigned)v;
}

static enum bench_mode mode_of(const char *name)
{
	for (int m = 0; m < MODE_COUNT; m++) {
		if (strcmp(name, bench_mode_names[m]) == 0) {
			return (enum bench_mode)m;
		}
	}
	usage();
	return MODE_COUNT;
}

static void parse(int argc, char **argv, struct options *o)
{
	unsigned frames = 0, rounds = 0;

	*o = (struct options){ .paced = true };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--quick") == 0) {
			o->quick = true;
		} else if (strcmp(a, "--no-pace") == 0) {
			o->paced = false;
		} else if (strcmp(a, "--thread-cputime") == 0) {
			o->cputime = true;
		} else if (strcmp(a, "--no-draw") == 0) {
			o->no_draw = true;
		} else if (strcmp(a, "--ui-only") == 0) {
			o->ui_only = true;
		} else if (strcmp(a, "--no-ui") == 0) {
			o->no_ui = true;
		} else if (strcmp(a, "--sched-other") == 0) {
			o->sched_other = true;
		} else if (!v) {
			usage();
		} else if (strcmp(a, "--frames") == 0) {
			frames = parse_count(argv[++i]);
		} else if (strcmp(a, "--rounds") == 0) {
			rounds = parse_count(argv[++i]);
		} else if (strcmp(a, "--warmup") == 0) {
			o->warmup = parse_count(argv[++i]);
		} else if (strcmp(a, "--pixels") == 0) {
			o->pixels = argv[++i];
		} else if (strcmp(a, "--fake") == 0) {
			o->fake = argv[++i];
		} else if (strcmp(a, "--recorder") == 0) {
			o->recorder = argv[++i];
		} else if (strcmp(a, "--child") == 0) {
			o->child = argv[++i];
		} else if (strcmp(a, "--samples") == 0) {
			o->samples = argv[++i];
		} else {
			usage();
		}
	}
	if (!o->fake || !o->recorder || (o->child && !o->samples) || (o->ui_only && o->no_ui)) {
		usage();
	}
	o->frames = frames ? frames : o->quick ? 30 : 600;
	o->rounds = rounds ? rounds : o->quick ? 1 : 3;
	o->warmup = o->warmup ? o->warmup : o->quick ? 5 : 30;
}

/* Whether mode m's child runs in the LTTng session (the enabled tracepoint: as nobody when root). */
static bool in_session(enum bench_mode m)
{
	return m == MODE_TP_ENABLED || m == MODE_TP_IN_CALLS || m == MODE_PAIRED_REF;
}

/* ------------------------------------------------------------ a child */

static int child_main(const struct options *o)
{
	enum bench_mode m;
	struct bench_samples s = { 0 };
	struct bench_client_options c = {
		.pixels = o->pixels,
		.warmup = o->warmup,
		.frames = o->frames,
		.paced = o->paced,
		.no_draw = o->no_draw,
	};
	int ret;

	bench_sched_child();
	if (bench_ui_is_child(o->child)) {
		struct bench_ui_options u = {
			.module = strcmp(o->child, "ui-direct") == 0 ? o->fake : o->recorder,
			.pixels = o->pixels,
			.warmup = o->warmup,
			.frames = o->frames,
		};

		return bench_ui_child(o->child, &u, o->samples);
	}
	m = mode_of(o->child);
	c.module = m == MODE_DIRECT ? o->fake : o->recorder;
	if (o->cputime) {
		bench_call_clock_cpu();
	}
	if (m == MODE_TP_IN_CALLS) {
		c.module = o->fake;
		c.probe = bench_tp_fire;
	}
	if (in_session(m) && !bench_tp_enabled()) {
		return EXIT_NOT_ENABLED;
	}
	if (bench_mode_paired(m)) {
		struct bench_client_options w = c;
		struct bench_samples d = { 0 };
		char path[PATH_MAX];

		c.module = o->fake;
		w.module = m == MODE_PAIRED_DUP || m == MODE_PAIRED_REF ? o->fake : o->recorder;
		w.probe = m == MODE_PAIRED_DUP ? bench_dup_probe : m == MODE_PAIRED_REF ? bench_ref_probe : NULL;
		ret = bench_client_run_paired(&c, &w, &d, &s);
		snprintf(path, sizeof(path), "%s.direct", o->samples);
		ret = ret ? ret : bench_samples_save(&d, path);
		bench_samples_finish(&d);
	} else if (m == MODE_DUP) {
		ret = bench_dup_run(o->warmup, o->frames, BENCH_CALLS_PER_FRAME, o->paced, &s);
	} else if (m == MODE_TP_DISABLED || m == MODE_TP_ENABLED) {
		ret = bench_tp_run(o->warmup, o->frames, BENCH_CALLS_PER_FRAME, o->paced, &s);
	} else {
		ret = bench_client_run(&c, &s);
	}
	if (ret == 0) {
		ret = bench_samples_save(&s, o->samples);
	}
	bench_samples_finish(&s);
	if (ret < 0) {
		fprintf(stderr, "bench-recorder: %s: %s\n", o->child, strerror(-ret));
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ the parent */

static void die(const char *what, int err)
{
	fprintf(stderr, "bench-recorder: %s: %s\n", what, strerror(err));
	exit(1);
}

/* Copies from to path, readable by all. Returns 0 or -errno. */
static int copy_readable(const char *from, const char *path)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, ret = 0;
	ssize_t n;

	if (in < 0) {
		return -errno;
	}
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		ret = -errno;
	}
	while (ret == 0 && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 || write(out, buf, (size_t)n) != n) {
			ret = n < 0 ? -errno : -EIO;
		}
	}
	close(in);
	if (out >= 0 && close(out) < 0 && ret == 0) {
		ret = -errno;
	}
	return ret;
}

/*
 * As root the enabled-tracepoint children run as nobody, who may not enter
 * the build tree (a clone in a private 0700 directory, as CI makes): the
 * files tp-in-calls opens, the fake module and the pixels, are copied into
 * the run's temporary directory (0755) for them.
 */
static void share_with_nobody(struct run *r)
{
	int ret;

	snprintf(r->shared_fake, sizeof(r->shared_fake), "%s/hwcomposer.fake.so", r->tmp);
	ret = copy_readable(r->o.fake, r->shared_fake);
	if (ret < 0) {
		die(r->o.fake, -ret);
	}
	/* a PNG that is not there is not copied: every child then draws the synthetic pattern, as the parent said */
	if (r->o.pixels && access(r->o.pixels, F_OK) == 0) {
		snprintf(r->shared_pixels, sizeof(r->shared_pixels), "%s/pixels.png", r->tmp);
		ret = copy_readable(r->o.pixels, r->shared_pixels);
		if (ret < 0) {
			die(r->o.pixels, -ret);
		}
	}
}

/* Runs one mode's child and pools its samples. */
static void run_mode(struct run *r, enum bench_mode m)
{
	char samples[300], warmup[16], frames[16];
	char *argv[20];
	struct bench_env env[7];
	bool enabled = in_session(m);
	bool shared = enabled && r->shared_fake[0];
	size_t n = 0, e = 0;
	int ret;

	snprintf(samples, sizeof(samples), "%s/%s.samples", enabled ? r->lttng.home : r->tmp, bench_mode_names[m]);
	snprintf(warmup, sizeof(warmup), "%u", r->o.warmup);
	snprintf(frames, sizeof(frames), "%u", r->o.frames);
	argv[n++] = r->self;
	argv[n++] = "--child";
	argv[n++] = (char *)bench_mode_names[m];
	argv[n++] = "--samples";
	argv[n++] = samples;
	argv[n++] = "--warmup";
	argv[n++] = warmup;
	argv[n++] = "--frames";
	argv[n++] = frames;
	argv[n++] = "--fake";
	argv[n++] = shared ? r->shared_fake : (char *)r->o.fake;
	argv[n++] = "--recorder";
	argv[n++] = (char *)r->o.recorder;
	if (r->o.pixels) {
		argv[n++] = "--pixels";
		argv[n++] = shared && r->shared_pixels[0] ? r->shared_pixels : (char *)r->o.pixels;
	}
	if (!r->o.paced) {
		argv[n++] = "--no-pace";
	}
	if (r->o.cputime) {
		argv[n++] = "--thread-cputime";
	}
	if (r->o.no_draw) {
		argv[n++] = "--no-draw";
	}
	argv[n] = NULL;

	env[e++] = (struct bench_env){ "HWCT_REAL_MODULE", r->o.fake };
	env[e++] = (struct bench_env){ "HWCT_OUTPUT", r->out[m] };
	env[e++] = (struct bench_env){ "HWCT_PIXELS", m == MODE_PIXELS_ON || m == MODE_PAIRED_ON ? "1" : "0" };
	if (enabled) {
		env[e++] = (struct bench_env){ "LTTNG_HOME", r->lttng.home };
		/* no limit on the registration (-1, lttng-ust(3)): with one, a loaded host could leave
		 * the child untraced, and the quick test has no tracepoint baseline to print */
		env[e++] = (struct bench_env){ "LTTNG_UST_REGISTER_TIMEOUT", "-1" };
	} else {
		/* no session daemon there: nothing is enabled, nothing to wait for */
		static char none[300];

		snprintf(none, sizeof(none), "%s/no-lttng", r->tmp);
		env[e++] = (struct bench_env){ "LTTNG_HOME", none };
		env[e++] = (struct bench_env){ "LTTNG_UST_REGISTER_TIMEOUT", "0" };
	}
	ret = bench_spawn(argv, env, e, enabled && r->lttng.as_nobody, NULL);
	if (enabled && ret == EXIT_NOT_ENABLED) {
		r->lttng_ok = false;
		snprintf(r->lttng_why, sizeof(r->lttng_why), "the tracepoint was not enabled in the child");
		return;
	}
	if (ret != 0) {
		fprintf(stderr, "bench-recorder: the %s run failed (%d)\n", bench_mode_names[m], ret);
		exit(1);
	}
	ret = bench_samples_load(&r->samples[m], samples);
	if (ret < 0) {
		die(samples, -ret);
	}
	unlink(samples);
	if (bench_mode_paired(m)) {
		char direct[320];

		snprintf(direct, sizeof(direct), "%s.direct", samples);
		ret = bench_samples_load(&r->paired_direct[m], direct);
		if (ret < 0) {
			die(direct, -ret);
		}
		unlink(direct);
	}
	r->ran[m] = true;
}

static void make_dirs(struct run *r)
{
	const char *base = getenv("TMPDIR");
	char path[300];
	ssize_t len;

	len = readlink("/proc/self/exe", r->self, sizeof(r->self) - 1);
	if (len <= 0) {
		die("/proc/self/exe", errno);
	}
	r->self[len] = '\0';
	snprintf(r->tmp, sizeof(r->tmp), "%s/hwct-bench-recorder-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(r->tmp) || chmod(r->tmp, 0755) < 0) {
		die("a temporary directory", errno);
	}
	for (int m = MODE_PIXELS_OFF; m < MODE_COUNT; m++) {
		if (m > MODE_PIXELS_ON && m != MODE_PAIRED_OFF && m != MODE_PAIRED_ON) {
			continue;
		}
		snprintf(r->out[m], sizeof(r->out[m]), "%s/out-%s", r->tmp, bench_mode_names[m]);
		if (mkdir(r->out[m], 0755) < 0) {
			die(r->out[m], errno);
		}
	}
	snprintf(path, sizeof(path), "%s/no-lttng", r->tmp);
	if (mkdir(path, 0755) < 0) {
		die(path, errno);
	}
}

static void remove_dirs(struct run *r)
{
	char *rm[] = { "rm", "-rf", r->tmp, NULL };

	bench_spawn(rm, NULL, 0, false, NULL);
}

int main(int argc, char **argv)
{
	struct run r = { 0 };
	struct bench_pixels px;

	parse(argc, argv, &r.o);
	if (r.o.child) {
		return child_main(&r.o);
	}
	make_dirs(&r);
	bench_sched_parent(r.o.sched_other);
	if (r.o.ui_only) {
		printf("bench-recorder: the UI session only, %s\n", bench_sched_describe());
	} else {
		printf("bench-recorder: %u calls per frame, each timed alone (%s), %s, %s; per mode %u round%s "
			"of %u frames after %u warm-up frames, modes in turn%s\n", BENCH_CALLS_PER_FRAME,
			r.o.cputime ? "CLOCK_THREAD_CPUTIME_ID: the caller's CPU time, a diagnostic" : "CLOCK_MONOTONIC",
			r.o.paced ? "60 frames/s" : "frames back to back", bench_sched_describe(), r.o.rounds, r.o.rounds == 1 ? "" : "s",
			r.o.frames, r.o.warmup, r.o.quick ? "; quick run: a smoke test, not a measurement" : "");
	}
	if (bench_pixels_load(&px, r.o.pixels, 0) < 0) {
		die("pixels", ENOMEM);
	}
	if (bench_tp_built()) {
		r.lttng_ok = bench_lttng_start(&r.lttng, r.tmp, r.lttng_why, sizeof(r.lttng_why)) == 0;
		if (r.lttng_ok && r.lttng.as_nobody) {
			share_with_nobody(&r);
		}
	}
	for (unsigned round = 0; !r.o.ui_only && round < r.o.rounds; round++) {
		for (int m = 0; m < MODE_COUNT; m++) {
			enum bench_mode mode = (enum bench_mode)m;
			bool tp = mode == MODE_TP_DISABLED || in_session(mode);

			if ((tp && !bench_tp_built()) || (in_session(mode) && !r.lttng_ok)) {
				continue;
			}
			run_mode(&r, mode);
		}
	}
	if (bench_tp_built()) {
		bench_lttng_stop(&r.lttng);
	}
	if (!r.o.ui_only) {
		bench_report_print(&(struct bench_results){
			.samples = r.samples,
			.ran = r.ran,
			.paired_direct = r.paired_direct,
			.tp_why = r.lttng_why,
			.frames = r.o.frames * r.o.rounds,
			.pixels_source = px.source,
			.out_pixels_off = r.out[MODE_PIXELS_OFF],
			.out_pixels_on = r.out[MODE_PIXELS_ON],
		});
	}
	if (!r.o.no_ui && bench_ui_session(&(struct bench_ui_parent){ .self = r.self, .tmp = r.tmp,
			.fake = r.o.fake, .recorder = r.o.recorder, .pixels = r.o.pixels, .warmup = r.o.warmup,
			.frames = r.o.frames }) < 0) {
		die("the UI session", EIO);
	}
	bench_pixels_finish(&px);
	for (int m = 0; m < MODE_COUNT; m++) {
		bench_samples_finish(&r.samples[m]);
		bench_samples_finish(&r.paired_direct[m]);
	}
	remove_dirs(&r);
	return 0;
}
