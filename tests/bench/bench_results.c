/*
 * bench-results: peak memory of the results readers against the input they
 * read, for a pair of results files of 100 000 frames (5 000 with --quick)
 * made by tests/common/results_gen.c, one frame a line as hwc-replay writes
 * them. Each command runs as a child; its peak is the kernel's high-water
 * mark of its resident memory (wait4's ru_maxrss). The baseline, measured in
 * the same run, is how the readers read before they streamed: both files
 * parsed whole into json-c trees (in a child too). Goal: a peak at most a
 * quarter of the baseline's (the commands then keep compact frames or
 * their output, never the documents). Never fails on a missed goal.
 *	bench-results [--quick] [--merge HWC_SUITE MERGE_INPUT] HWC_TRACE TRACE
 *		[BEFORE_HWC_TRACE]
 * TRACE: any trace, for hwc-trace report (its frames need not match);
 * BEFORE_HWC_TRACE: another build's hwc-trace, whose peaks are printed
 * beside (an older commit's, to show before and after);
 * --merge: also `hwc-suite merge` of two jobs on two boards whose cases
 * carry the pair (tests/bench/merge-input.py MERGE_INPUT writes their
 * LAVA logs): its peak with the hwc-trace diffs it runs (wait4 reports the
 * largest of a child and the children it waited for).
 */
#define _DEFAULT_SOURCE	/* wait4(): the peak of one child */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bench.h"
#include "results_gen.h"

#define GOAL 0.25

/*
 * Runs argv in a child to its end (its stdout to /dev/null when quiet) and
 * returns its peak resident bytes (wait4's ru_maxrss: the largest of the
 * child and the children it waited for). Exits when it fails: an exit
 * status above worst_ok, or a signal.
 */
static double spawn(char *const argv[], bool quiet, int worst_ok)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		if (quiet && !freopen("/dev/null", "w", stdout)) {
			_exit(126);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) > worst_ok) {
		fprintf(stderr, "bench-results: %s %s failed (status %d)\n", argv[0], argv[1] ? argv[1] : "",
			status);
		exit(1);
	}
	return (double)ru.ru_maxrss * 1024.0;
}

/* Peak resident bytes of a command that compares (exit 0 or 1: alike or not). */
static double peak_of(char *const argv[])
{
	return spawn(argv, true, 1);
}

/* Runs argv to its end, unmeasured. */
static void run(char *const argv[])
{
	spawn(argv, false, 0);
}

/* hwc-suite merge of the pair as two boards' results; prints its peak. */
static void merge_peak(char *hwc_suite, char *merge_input, char *hwc_trace, char *trace, char *a, char *b,
	double input, double base)
{
	char *dir = bench_tmp_path("-merge");
	char *rm[] = { "/bin/rm", "-rf", dir, NULL };

	if (!dir || mkdir(dir, 0700) != 0) {
		perror("bench-results: a folder for the merge");
		exit(1);
	}
	{
		char *make[] = { merge_input, trace, a, b, dir, NULL };
		char *merge[] = { hwc_suite, "merge", dir, "--hwc-trace", hwc_trace, NULL };
		double peak;

		run(make);
		peak = peak_of(merge);
		printf("hwc-suite merge (two boards' jobs, the pair's results in their logs): peak %.1f MB\n",
			peak / 1e6);
		bench_report("merge peak memory / input", peak / input, base / input, "x", peak / base, GOAL, false);
	}
	run(rm);
	free(dir);
}

/* The baseline: both files parsed whole, in a child. */
static double whole_peak(const char *a, const char *b)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		struct json_object *ja = json_object_from_file(a), *jb = json_object_from_file(b);

		_exit(ja && jb ? 0 : 1);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench-results: the whole-file parse failed\n");
		exit(1);
	}
	return (double)ru.ru_maxrss * 1024.0;
}

int main(int argc, char **argv)
{
	bool quick = false;
	char *hwc_suite = NULL, *merge_input = NULL;
	char *a = bench_tmp_path("-a.json"), *b = bench_tmp_path("-b.json"), *page = bench_tmp_path(".html");
	struct results_gen g = { .layers = 6 };
	size_t size_a, size_b, largest;
	double input, base;

	/* --quick anywhere (check-quick.sh puts it last) */
	for (int i = 1, k = 1; i < argc; i++) {
		quick = quick || strcmp(argv[i], "--quick") == 0;
		argv[k] = argv[i];
		k += strcmp(argv[i], "--quick") != 0;
	}
	argc -= quick;
	if (argc >= 4 && strcmp(argv[1], "--merge") == 0) {
		hwc_suite = argv[2];
		merge_input = argv[3];
		argv += 3;
		argc -= 3;
	}
	if ((argc != 3 && argc != 4) || !a || !b || !page) {
		fprintf(stderr, "usage: bench-results [--quick] [--merge HWC_SUITE MERGE_INPUT] HWC_TRACE TRACE "
			"[BEFORE_HWC_TRACE]\n");
		return 2;
	}
	g.frames = quick ? 5000 : 100000;
	test_results_write(a, &g, &largest, &size_a);
	g.variant = 1;
	test_results_write(b, &g, NULL, &size_b);
	input = (double)(size_a + size_b);
	printf("results pair: %u frames each, %.1f MB together, largest frame %zu bytes\n", g.frames, input / 1e6,
		largest);
	base = whole_peak(a, b);
	printf("baseline, both parsed whole (json-c, the readers before they streamed): peak %.1f MB\n", base / 1e6);
	{
		char *diff[] = { argv[1], "diff", a, b, NULL };
		double peak = peak_of(diff);

		printf("hwc-trace diff A B: peak %.1f MB\n", peak / 1e6);
		bench_report("diff peak memory / input", peak / input, base / input, "x", peak / base, GOAL, false);
	}
	{
		char *report[] = { argv[1], "report", argv[2], a, b, "-o", page, NULL };
		double peak = peak_of(report);

		printf("hwc-trace report TRACE A B: peak %.1f MB\n", peak / 1e6);
		bench_report("report peak memory / input", peak / input, base / input, "x", peak / base, GOAL, false);
	}
	if (hwc_suite) {
		merge_peak(hwc_suite, merge_input, argv[1], argv[2], a, b, input, base);
	}
	if (argc == 4) {
		char *diff[] = { argv[3], "diff", a, b, NULL };
		char *report[] = { argv[3], "report", argv[2], a, b, "-o", page, NULL };
		double d = peak_of(diff), r = peak_of(report);

		printf("before (%s): diff peak %.1f MB (%.3g x input), report peak %.1f MB (%.3g x input)\n",
			argv[3], d / 1e6, d / input, r / 1e6, r / input);
	}
	unlink(a);
	unlink(b);
	unlink(page);
	free(a);
	free(b);
	free(page);
	return 0;
}
