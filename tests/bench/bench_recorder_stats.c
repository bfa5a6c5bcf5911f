/* Samples, their statistics and the frame clock of the recorder benchmark (bench_recorder.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_recorder.h"

int bench_samples_add(struct bench_samples *s, int32_t function, uint64_t ns)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		struct bench_sample *v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			return -ENOMEM;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct bench_sample){
		.function = function,
		.ns = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns,
	};
	return 0;
}

void bench_samples_finish(struct bench_samples *s)
{
	free(s->v);
	*s = (struct bench_samples){ 0 };
}

int bench_samples_save(const struct bench_samples *s, const char *path)
{
	FILE *f = fopen(path, "wb");
	int ret = 0;

	if (!f) {
		return -errno;
	}
	if (s->n && fwrite(s->v, sizeof(*s->v), s->n, f) != s->n) {
		ret = -EIO;
	}
	if (fclose(f) != 0 && ret == 0) {
		ret = -errno;
	}
	return ret;
}

int bench_samples_load(struct bench_samples *s, const char *path)
{
	FILE *f = fopen(path, "rb");
	struct bench_sample one;
	int ret = 0;

	if (!f) {
		return -errno;
	}
	while (ret == 0 && fread(&one, sizeof(one), 1, f) == 1) {
		ret = bench_samples_add(s, one.function, one.ns);
	}
	if (ret == 0 && ferror(f)) {
		ret = -EIO;
	}
	fclose(f);
	return ret;
}

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

struct bench_stat bench_stat_of(const struct bench_samples *s, int32_t function)
{
	struct bench_stat st = { 0 };
	uint32_t *v = malloc((s->n ? s->n : 1) * sizeof(*v));
	double sum = 0;
	size_t rank;

	if (!v) {
		return st;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (function < 0 || s->v[i].function == function) {
			v[st.n++] = s->v[i].ns;
			sum += s->v[i].ns;
		}
	}
	if (st.n) {
		qsort(v, st.n, sizeof(*v), compare_u32);
		rank = (st.n * 99 + 99) / 100;	/* ceil(0.99 n), nearest rank */
		st.mean = sum / (double)st.n;
		st.p50 = v[(st.n + 1) / 2 - 1];
		st.p99 = v[rank - 1];
	}
	free(v);
	return st;
}

static clockid_t call_clock = CLOCK_MONOTONIC;

uint64_t bench_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_call_ns(void)
{
	struct timespec ts;

	clock_gettime(call_clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void bench_call_clock_cpu(void)
{
	call_clock = CLOCK_THREAD_CPUTIME_ID;
}

void bench_pace(uint64_t *next)
{
	struct timespec ts;
	uint64_t now;

	if (!*next) {
		*next = bench_ns();
	}
	ts.tv_sec = (time_t)(*next / 1000000000u);
	ts.tv_nsec = (long)(*next % 1000000000u);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
	now = bench_ns();
	/* a late frame does not make the next ones come faster */
	*next = (now > *next + BENCH_FRAME_NS / 2 ? now : *next) + BENCH_FRAME_NS;
}
