/* Helpers shared by the format benchmark's files. */
#ifndef HWCT_BENCH_H
#define HWCT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CLOCK_MONOTONIC in seconds. */
double bench_now(void);

/* CPU time of the process (all its threads) in seconds. */
double bench_cpu(void);

/* The median of n values (sorts them in place). n > 0. */
double bench_median(double *values, size_t n);

/*
 * Prints one metric line:
 *   NAME: VALUE UNIT, baseline BASE UNIT, ratio R (goal ≥|≤ GOAL): PASS|MISS
 * higher_is_better picks the goal's direction.
 */
void bench_report(const char *name, double value, double baseline, const char *unit, double ratio,
	double goal, bool higher_is_better);

/* A path for a temporary file under $TMPDIR (or /tmp); caller frees. */
char *bench_tmp_path(const char *suffix);

/* RGBA8888 pixels to benchmark with. */
struct bench_pixels {
	uint8_t *data;			/* owned, width * height * 4 bytes */
	uint32_t width, height;
	char source[256];		/* where they came from, for the report */
};

/*
 * Loads path (a PNG, decoded to RGBA with libpng when built with it) cut to
 * at most max_rows rows (0: all), or, when that fails, a synthetic pattern
 * of 1080 x 2400 (cut the same way), saying so on stdout. Returns 0 or
 * -ENOMEM.
 */
int bench_pixels_load(struct bench_pixels *px, const char *path, uint32_t max_rows);

/* Frees what px holds. */
void bench_pixels_finish(struct bench_pixels *px);

/*
 * Sums the compressed sizes of the blob frames of a closed trace
 * (bench_format.c). Returns 0 or -EINVAL.
 */
int bench_blob_frame_bytes(const char *path, uint64_t *out);

/*
 * The zstd hash log of blob frames every writer of bench-format uses
 * (bench_format.c, --hash-log); -1: the writer's default.
 */
extern int bench_pixel_hash_log;
/* The zstd level of blob frames likewise (candidates only); INT_MIN: the writer's default. */
extern int bench_pixel_level;

/* Writer options of bench-format: the defaults with bench_pixel_hash_log and bench_pixel_level applied. */
struct hwct_writer_options;
void bench_writer_options(struct hwct_writer_options *opts);

/*
 * The UI-like sequence of the "png" metric written with bench_writer_options
 * (bench_format_png.c): its stored blob-frame bytes and libpng's bytes of
 * the same frames and rects. Exits on failure.
 */
void bench_png_sequence_bytes(const struct bench_pixels *px, const char *path, uint32_t frames, uint64_t *stored,
	size_t *png);

/* The screenshot alone: stored blob-frame bytes and libpng's bytes; 0 PNG bytes without libpng. Exits on failure. */
void bench_png_screenshot_bytes(const struct bench_pixels *px, const char *path, uint64_t *stored, size_t *png);

/*
 * The "png" metric (bench_format_png.c): the writer's stored bytes against
 * libpng's PNG of px and of a UI-like sequence built on it; png_path is the
 * published file (its size printed beside), path a scratch trace.
 */
void bench_png(const struct bench_pixels *px, const char *png_path, const char *path, bool quick);

#endif
