/* Timing, medians and the report line of the format benchmark (bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double bench_median(double *values, size_t n)
{
	qsort(values, n, sizeof(*values), compare_double);
	return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

void bench_report(const char *name, double value, double baseline, const char *unit, double ratio,
	double goal, bool higher_is_better)
{
	bool pass = higher_is_better ? ratio >= goal : ratio <= goal;

	printf("%s: %.4g %s, baseline %.4g %s, ratio %.3f (goal %s %.3g): %s\n", name, value, unit, baseline, unit,
		ratio, higher_is_better ? "≥" : "≤", goal, pass ? "PASS" : "MISS");
	fflush(stdout);
}

char *bench_tmp_path(const char *suffix)
{
	static unsigned counter;
	const char *dir = getenv("TMPDIR");
	size_t size = 4096;
	char *path = malloc(size);

	if (path) {
		snprintf(path, size, "%s/hwct-bench-%d-%u%s", dir && *dir ? dir : "/tmp", (int)getpid(), counter++,
			suffix);
	}
	return path;
}
