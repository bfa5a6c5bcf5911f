/*
 * bench-format [--quick] [--pixels FILE.png]: what the trace format costs,
 * each quantity measured in the same run as its baseline (median of
 * repetitions; these machines are noisy), one line per metric:
 *
 *   writer throughput   hwct_writer_add_blob + close on full-screen pixels
 *                       / ZSTD_compress level 1, one thread, same bytes      goal >= 0.8
 *   hash throughput     hwct_hash_compute / memcpy, same buffer               goal >= 0.8
 *   seek                seek + next to the last frame / to the first frame
 *                       of a 10000-frame trace                               goal <= 2
 *   writer CPU          CPU time of all threads per payload / that of
 *                       ZSTD_compress level 1 of it                          goal <= 1.25
 *   stored bytes        blob frames of the pixel trace / zstd -19 of the
 *                       distinct payloads (zstd -3 printed too)              goal <= 1.1
 *   png                 stored bytes / libpng's PNG of the same screenshot,
 *                       and of a UI-like sequence with damage
 *                       (bench_format_png.c)                                 goal <= 0.9
 *   candidates          (--only candidates, not in the default run) the
 *                       blob frames' zstd level and hash log side by side:
 *                       writer CPU / zstd-1 and both PNG ratios for each
 *
 * --hash-log N makes every writer use zstd hash log N for blob frames
 * instead of the writer's default.
 *
 * Never fails on a missed goal (exit 0); exit 1 only when something could
 * not run. --quick makes every part small: a smoke test, not a measurement.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include <hwct/format.h>
#include <hwct/frame.h>
#include <hwct/hash.h>
#include <hwct/reader.h>
#include <hwct/writer.h>

#include "bench.h"
#include "scenario.h"

#define MAX_REPS 32

int bench_pixel_hash_log = -1;
int bench_pixel_level = INT_MIN;

void bench_writer_options(struct hwct_writer_options *opts)
{
	hwct_writer_options_init(opts);
	if (bench_pixel_hash_log >= 0) {
		opts->pixel_hash_log = bench_pixel_hash_log;
	}
	if (bench_pixel_level != INT_MIN) {
		opts->pixel_level = bench_pixel_level;
	}
}

struct config {
	bool quick;
	const char *only;		/* run only this metric: writer, hash, seek, stored */
	const char *pixels;		/* PNG path, NULL: synthetic */
	uint32_t max_rows;		/* rows of the picture used, 0 all */
	uint32_t frames;		/* distinct payloads of the writer metric */
	uint32_t stored_frames;		/* distinct payloads of the stored-bytes metric (zstd -19 is slow) */
	unsigned reps;
	uint32_t seek_frames;
	unsigned seek_reps;
};

/* Changes 16 bytes at places that depend on (frame, rep): every payload distinct, the work unchanged. */
static void mutate(uint8_t *data, size_t size, uint32_t frame, uint32_t rep)
{
	for (uint32_t i = 0; i < 16; i++) {
		uint64_t h = (uint64_t)(frame + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(rep * 16 + i) * 0xC2B2AE3D27D4EB4Full;

		h ^= h >> 29;
		data[h % size] = (uint8_t)(frame * 31 + rep * 7 + i);
	}
}

static void die(const char *what, int err)
{
	fprintf(stderr, "bench-format: %s: %s\n", what, strerror(err));
	exit(1);
}

/* ------------------------------------------------------ writer throughput */

static double time_writer(const struct config *c, const struct bench_pixels *px, uint8_t *work, const char *path,
	uint32_t rep)
{
	size_t size = (size_t)px->width * px->height * 4;
	struct hwct_writer_options opts;
	struct hwct_writer *w;
	double t0;
	int ret;

	/*
	 * A budget of four payloads: the steady state of a recorder whose writer
	 * keeps up (a few payloads in flight, their buffers reused), not a burst
	 * of every payload queued at once into fresh memory.
	 */
	bench_writer_options(&opts);
	opts.memory_budget = 4 * size;
	memcpy(work, px->data, size);
	w = hwct_writer_create(path, &opts);
	if (!w) {
		die(path, errno);
	}
	t0 = bench_now();
	for (uint32_t i = 0; i < c->frames; i++) {
		struct hwct_blob_desc d = { .data = work, .size = size, .kind = HWCT_BLOB_PIXELS, .width = px->width,
			.height = px->height, .stride = px->width * 4, .bpp = 4 };

		mutate(work, size, i, rep);
		ret = hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, NULL);
		if (ret < 0) {
			die("hwct_writer_add_blob", -ret);
		}
	}
	ret = hwct_writer_close(w);
	if (ret < 0) {
		die("hwct_writer_close", -ret);
	}
	return bench_now() - t0;
}

static double time_zstd(const struct config *c, const struct bench_pixels *px, uint8_t *work, uint8_t *dst,
	size_t cap, uint32_t rep)
{
	size_t size = (size_t)px->width * px->height * 4;
	double t0;

	memcpy(work, px->data, size);
	t0 = bench_now();
	for (uint32_t i = 0; i < c->frames; i++) {
		mutate(work, size, i, rep);
		if (ZSTD_isError(ZSTD_compress(dst, cap, work, size, 1))) {
			die("ZSTD_compress", EIO);
		}
	}
	return bench_now() - t0;
}

static void bench_writer(const struct config *c, const struct bench_pixels *px, const char *path)
{
	size_t size = (size_t)px->width * px->height * 4, cap = ZSTD_compressBound(size);
	uint8_t *work = malloc(size), *dst = malloc(cap);
	double tw[MAX_REPS], tz[MAX_REPS], ratio[MAX_REPS], cw[MAX_REPS], cz[MAX_REPS];
	double mb = (double)size * c->frames / 1e6;

	if (!work || !dst) {
		die("writer benchmark", ENOMEM);
	}
	for (unsigned r = 0; r < c->reps; r++) {
		double c0 = bench_cpu(), c1, c2;

		tz[r] = time_zstd(c, px, work, dst, cap, r);
		c1 = bench_cpu();
		tw[r] = time_writer(c, px, work, path, r);
		c2 = bench_cpu();
		ratio[r] = tz[r] / tw[r];
		cz[r] = (c1 - c0) / c->frames;
		cw[r] = (c2 - c1) / c->frames;
	}
	bench_report("writer throughput (add_blob + close, pixels)", mb / bench_median(tw, c->reps),
		mb / bench_median(tz, c->reps), "MB/s", bench_median(ratio, c->reps), 0.8, true);
	printf("  %u distinct %ux%u RGBA payloads of %s; baseline ZSTD_compress level 1, one thread\n",
		c->frames, px->width, px->height, px->source);
	bench_report("writer CPU per payload (all threads)", bench_median(cw, c->reps) * 1e3,
		bench_median(cz, c->reps) * 1e3, "ms", bench_median(cw, c->reps) / bench_median(cz, c->reps), 1.25, false);
	printf("  baseline: CPU of ZSTD_compress level 1 of the same payload; %ld CPUs online\n",
		sysconf(_SC_NPROCESSORS_ONLN));
	free(work);
	free(dst);
}

/* ------------------------------------------------------- hash vs memcpy */

/* what the timed passes produce goes here, so the compiler keeps them */
static volatile uint64_t bench_hash_sink;

static void bench_hash(const struct config *c, const struct bench_pixels *px)
{
	size_t size = (size_t)px->width * px->height * 4;
	unsigned reps = c->quick ? 5 : 41;
	uint8_t *dst = malloc(size);
	double th[64], tm[64], ratio[64], gb = (double)size / 1e9;

	if (!dst) {
		die("hash benchmark", ENOMEM);
	}
	memset(dst, 1, size);	/* fault the pages in before timing */
	/* one pass each, back to back, the order alternating: each pair sees the same machine load */
	for (unsigned r = 0; r < reps; r++) {
		for (unsigned k = 0; k < 2; k++) {
			double t0 = bench_now();

			if ((k + r) % 2 == 0) {
				struct hwct_hash h = hwct_hash_compute(px->data, size);

				bench_hash_sink += h.low;
				th[r] = bench_now() - t0;
			} else {
				memcpy(dst, px->data, size);
				bench_hash_sink += dst[(r * 4099u) % size];
				tm[r] = bench_now() - t0;
			}
		}
		ratio[r] = tm[r] / th[r];
	}
	bench_report("hash throughput (XXH3-128)", gb / bench_median(th, reps), gb / bench_median(tm, reps), "GB/s",
		bench_median(ratio, reps), 0.8, true);
	printf("  baseline memcpy of the same %zu bytes; %u pairs of single passes\n", size, reps);
	free(dst);
}

/* ----------------------------------------------------------------- seek */

static double time_seek(struct hwct_frame_iter *it, uint64_t frame)
{
	const struct hwct_frame *f = NULL;
	double t0 = bench_now();
	int ret = hwct_frame_iter_seek(it, frame);

	if (ret == 0) {
		ret = hwct_frame_iter_next(it, &f);
	}
	if (ret != 1 || f->frame != frame) {
		fprintf(stderr, "bench-format: seeking to frame %llu failed (%d)\n", (unsigned long long)frame, ret);
		exit(1);
	}
	return bench_now() - t0;
}

static void bench_seek(const struct config *c)
{
	struct scenario_options so = { .frames = c->seek_frames, .width = 180, .height = 400 };
	char *path = bench_tmp_path(".zst");
	struct hwct_writer *w;
	struct hwct_reader *r;
	struct hwct_frame_iter *it;
	struct hwct_error err;
	double first[256], last[256], ratio[256], t0;
	uint64_t last_frame = c->seek_frames - 1;
	unsigned reps = c->seek_reps > 256 ? 256 : c->seek_reps;
	int ret;

	if (!path) {
		die("seek benchmark", ENOMEM);
	}
	t0 = bench_now();
	w = hwct_writer_create(path, NULL);
	if (!w) {
		die(path, errno);
	}
	ret = scenario_write(w, "home", &so);
	ret = ret ? ret : hwct_writer_close(w);
	if (ret < 0) {
		die("writing the seek trace", -ret);
	}
	printf("  (seek trace: scenario home, %u frames of 180x400, default writer options, written in %.1f s)\n",
		c->seek_frames, bench_now() - t0);
	r = hwct_reader_open(path, &err);
	if (!r) {
		fprintf(stderr, "bench-format: %s\n", err.message);
		exit(1);
	}
	it = hwct_frame_iter_create(r);
	if (!it) {
		die("hwct_frame_iter_create", errno);
	}
	time_seek(it, 0);	/* warm up: page faults of the mapping */
	time_seek(it, last_frame);
	for (unsigned i = 0; i < reps; i++) {
		first[i] = time_seek(it, 0);
		last[i] = time_seek(it, last_frame);
		ratio[i] = last[i] / first[i];
	}
	{
		char name[96];

		snprintf(name, sizeof(name), "seek to the last frame of %u (seek + next)", c->seek_frames);
		bench_report(name, bench_median(last, reps) * 1e6, bench_median(first, reps) * 1e6, "us",
			bench_median(ratio, reps), 2.0, false);
	}
	printf("  baseline: the same to frame 0; keyframe interval %u\n", hwct_reader_info(r)->header->keyframe_interval);
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

/* --------------------------------------------------------- stored bytes */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* bench.h; from the trace's seek table (docs/format.md 1.4) and index (1.3). */
int bench_blob_frame_bytes(const char *path, uint64_t *out)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	uint64_t *offsets = NULL;
	long size;
	uint32_t count;
	const uint8_t *entries;
	int ret = -EINVAL;

	*out = 0;
	if (!f || fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 9 || fseek(f, 0, SEEK_SET) < 0) {
		goto out;
	}
	data = malloc((size_t)size);
	if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
		goto out;
	}
	count = le32(data + size - 9);
	if (le32(data + size - 4) != HWCT_SEEKABLE_FOOTER_MAGIC || (uint64_t)count * 12 + 9 > (uint64_t)size) {
		goto out;
	}
	entries = data + size - 9 - (size_t)count * 12;
	offsets = calloc(count + 1, sizeof(*offsets));
	if (!offsets) {
		goto out;
	}
	for (uint32_t i = 0; i < count; i++) {
		offsets[i + 1] = offsets[i] + le32(entries + 12 * i);
	}
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *fr = data + offsets[i];
		Hwct__Index *index;

		if (offsets[i] + 8 > (uint64_t)size || le32(fr) != HWCT_MAGIC_INDEX) {
			continue;
		}
		index = hwct__index__unpack(NULL, le32(fr + 4), fr + 8);
		if (!index) {
			goto out;
		}
		for (size_t k = 0; k < index->n_frames; k++) {
			if (index->frames[k]->kind == HWCT_FRAME_BLOBS && index->frames[k]->ordinal < count) {
				*out += le32(entries + 12 * index->frames[k]->ordinal);
			}
		}
		hwct__index__free_unpacked(index, NULL);
		ret = 0;
		break;
	}
out:
	if (f) {
		fclose(f);
	}
	free(data);
	free(offsets);
	return ret;
}

static void bench_stored(const struct config *c, const struct bench_pixels *px, const char *path)
{
	struct config sc = *c;
	size_t size = (size_t)px->width * px->height * 4, total = size * c->stored_frames;
	size_t cap = ZSTD_compressBound(total), z19, z3;
	uint8_t *concat = malloc(total), *dst = malloc(cap);
	uint64_t stored;
	double t0, t19;

	if (!concat || !dst) {
		die("stored-bytes benchmark", ENOMEM);
	}
	/* a pixel trace written as in the writer metric, with fewer payloads */
	sc.frames = c->stored_frames;
	time_writer(&sc, px, concat, path, 0);
	if (bench_blob_frame_bytes(path, &stored) < 0) {
		fprintf(stderr, "bench-format: %s: cannot read its seek table and index\n", path);
		exit(1);
	}
	/* the distinct payloads the writer stored: the same mutations from the same start */
	memcpy(concat, px->data, size);
	for (uint32_t i = 0; i < sc.frames; i++) {
		if (i) {
			memcpy(concat + size * i, concat + size * (i - 1), size);
		}
		mutate(concat + size * i, size, i, 0);
	}
	t0 = bench_now();
	z19 = ZSTD_compress(dst, cap, concat, total, 19);
	t19 = bench_now() - t0;
	z3 = ZSTD_compress(dst, cap, concat, total, 3);
	if (ZSTD_isError(z19) || ZSTD_isError(z3)) {
		die("ZSTD_compress", EIO);
	}
	bench_report("stored pixel bytes (blob frames)", (double)stored / 1e6, (double)z19 / 1e6, "MB",
		(double)stored / (double)z19, 1.1, false);
	printf("  baseline ZSTD_compress level 19 of the %u distinct payloads concatenated (%.1f MB, %.1f s); "
		"vs level 3: %.2f MB, ratio %.3f; raw %.1f MB\n", sc.frames, (double)total / 1e6, t19,
		(double)z3 / 1e6, (double)stored / (double)z3, (double)total / 1e6);
	free(concat);
	free(dst);
}

/* ----------------------------------------------------------- candidates */

/*
 * The blob frames' zstd level and hash log side by side: for each, writer
 * CPU per payload against zstd-1's measured in turn with it (median of
 * reps), and the two PNG ratios. Restores bench_pixel_hash_log and
 * bench_pixel_level.
 */
static void bench_candidates(const struct config *c, const struct bench_pixels *px, const char *path)
{
	static const struct {
		int level, hash_log;
	} cand[] = { { 1, 11 }, { 1, 9 }, { 1, 8 }, { 1, 7 }, { 1, 6 }, { 2, 7 }, { -1, 7 }, { -3, 7 } };
	size_t size = (size_t)px->width * px->height * 4, cap = ZSTD_compressBound(size);
	uint8_t *work = malloc(size), *dst = malloc(cap);
	int saved = bench_pixel_hash_log, saved_level = bench_pixel_level;
	struct hwct_writer_options defaults;

	if (!work || !dst) {
		die("candidates", ENOMEM);
	}
	hwct_writer_options_init(&defaults);
	printf("candidates: zstd level and hash log of blob frames (writer default level %d, hash log %d); "
		"%u payloads x %u reps each\n", defaults.pixel_level, defaults.pixel_hash_log, c->frames, c->reps);
	for (size_t k = 0; k < sizeof(cand) / sizeof(cand[0]); k++) {
		double cw[MAX_REPS], cz[MAX_REPS];
		uint64_t shot, seq;
		size_t shot_png, seq_png;

		bench_pixel_level = cand[k].level;
		bench_pixel_hash_log = cand[k].hash_log;
		for (unsigned r = 0; r < c->reps; r++) {
			double c0 = bench_cpu(), c1;

			time_zstd(c, px, work, dst, cap, r);
			c1 = bench_cpu();
			time_writer(c, px, work, path, r);
			cz[r] = c1 - c0;
			cw[r] = bench_cpu() - c1;
		}
		bench_png_screenshot_bytes(px, path, &shot, &shot_png);
		bench_png_sequence_bytes(px, path, c->quick ? 6 : 60, &seq, &seq_png);
		printf("  level %2d hash log %2d: writer CPU %.3fx zstd-1 (%.2f ms per payload); screenshot %.3fx PNG (%.3f MB); "
			"UI-like sequence %.3fx PNG (%.3f MB)\n", cand[k].level, cand[k].hash_log,
			bench_median(cw, c->reps) / bench_median(cz, c->reps), bench_median(cw, c->reps) / c->frames * 1e3,
			shot_png ? (double)shot / (double)shot_png : 0.0, (double)shot / 1e6,
			seq_png ? (double)seq / (double)seq_png : 0.0, (double)seq / 1e6);
	}
	bench_pixel_hash_log = saved;
	bench_pixel_level = saved_level;
	free(work);
	free(dst);
}

int main(int argc, char **argv)
{
	struct config c = { .frames = 24, .stored_frames = 2, .reps = 5, .seek_frames = 10000, .seek_reps = 101 };
	struct bench_pixels px;
	char *path;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			c.quick = true;
		} else if (strcmp(argv[i], "--pixels") == 0 && i + 1 < argc) {
			c.pixels = argv[++i];
		} else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
			c.only = argv[++i];
		} else if (strcmp(argv[i], "--hash-log") == 0 && i + 1 < argc) {
			bench_pixel_hash_log = atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: bench-format [--quick] [--pixels FILE.png] [--only writer|hash|seek|stored|png|candidates] [--hash-log N]\n");
			return 2;
		}
	}
	if (c.quick) {
		c = (struct config){ .quick = true, .pixels = c.pixels, .only = c.only, .max_rows = 240, .frames = 2,
			.stored_frames = 2, .reps = 3, .seek_frames = 300, .seek_reps = 11 };
	}
	if (bench_pixels_load(&px, c.pixels, c.max_rows) < 0) {
		die("loading pixels", ENOMEM);
	}
	path = bench_tmp_path(".zst");
	if (!path) {
		die("temporary path", ENOMEM);
	}
	if (c.quick) {
		printf("note: --quick: tiny inputs, the figures mean nothing\n");
	}
	if (!c.only || strcmp(c.only, "writer") == 0) {
		bench_writer(&c, &px, path);
	}
	if (!c.only || strcmp(c.only, "hash") == 0) {
		bench_hash(&c, &px);
	}
	if (!c.only || strcmp(c.only, "seek") == 0) {
		bench_seek(&c);
	}
	if (!c.only || strcmp(c.only, "stored") == 0) {
		bench_stored(&c, &px, path);
	}
	if (!c.only || strcmp(c.only, "png") == 0) {
		bench_png(&px, c.pixels, path, c.quick);
	}
	if (c.only && strcmp(c.only, "candidates") == 0) {
		struct config cc = c;

		cc.frames = c.quick ? 2 : 8;
		cc.reps = c.quick ? 1 : 3;
		bench_candidates(&cc, &px, path);
	}
	unlink(path);
	free(path);
	bench_pixels_finish(&px);
	return 0;
}
