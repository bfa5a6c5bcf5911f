/*
 * Blob predictors (docs/format.md section 4): every predictor undone
 * bit-exact on every shape it accepts, PREDICT_PLANAR_MED's validity rules,
 * a writer that picks it for photo-like payloads and deltas read back byte for
 * byte, and a trace written by format 1.0 (tests/data/format-1.0) still read.
 *
 *	test-format-predictors CASE [TRACE]
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwct/format.h>
#include <hwct/picture.h>

#include "predictor.h"
#include "testlib.h"

static const char *old_trace;

static uint32_t next_random(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Smooth gradients with noise and a few hard edges: what a photo or a UI looks like to a predictor. */
static void fill(uint8_t *p, size_t size, size_t row_len, uint32_t seed)
{
	for (size_t i = 0; i < size; i++) {
		size_t x = i % (row_len ? row_len : 1), y = i / (row_len ? row_len : 1);

		p[i] = (uint8_t)(x / 3 + y * 2 + (next_random(&seed) % 7) + ((x / 40 + y / 30) % 3 == 0 ? 128 : 0));
	}
}

static void roundtrip_one(int predictor, const uint8_t *src, const struct pixel_block *blk)
{
	uint8_t *res = malloc(blk->size + 1), *back = malloc(blk->size + 1);

	CHECK(res && back);
	CHECK(predictor_apply(predictor, res, src, blk) == 0);
	memset(back, 0xa5, blk->size);
	CHECK(predictor_undo(predictor, back, res, blk) == 0);
	CHECK_MSG(memcmp(back, src, blk->size) == 0, "predictor %d size %zu row %zu bpp %u: not bit-exact",
		predictor, blk->size, blk->row_len, blk->bpp);
	free(res);
	free(back);
}

/* Every predictor on widths 1..40 pixels, 1..9 rows, strides with padding, random and smooth content. */
static void case_roundtrip(void)
{
	unsigned planar = 0;

	for (int predictor = 0; predictor <= HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED; predictor++) {
		for (uint32_t bpp = 1; bpp <= 4; bpp++) {
			for (size_t width = 1; width <= 40; width += 3) {
				for (size_t pad = 0; pad <= 8; pad += 4) {
					for (size_t rows = 1; rows <= 9; rows += 4) {
						struct pixel_block blk = { .row_len = width * bpp + pad, .bpp = bpp };
						uint8_t *src;

						blk.size = blk.row_len * rows;
						if (!predictor_valid(predictor, &blk)) {
							continue;
						}
						planar += predictor == HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED;
						src = malloc(blk.size);
						CHECK(src);
						fill(src, blk.size, blk.row_len, (uint32_t)(width * 131 + rows));
						roundtrip_one(predictor, src, &blk);
						for (size_t i = 0; i < blk.size; i++) {
							src[i] = (uint8_t)(i * 2654435761u >> 13);
						}
						roundtrip_one(predictor, src, &blk);
						free(src);
					}
				}
			}
		}
	}
	CHECK_MSG(planar > 100, "only %u planar shapes were valid", planar);
}

static void case_planar_valid(void)
{
	struct pixel_block ok = { .size = 64, .row_len = 16, .bpp = 4 };
	struct pixel_block bad_bpp = { .size = 48, .row_len = 12, .bpp = 3 };
	struct pixel_block bad_row = { .size = 60, .row_len = 15, .bpp = 4 };
	struct pixel_block short_row = { .size = 64, .row_len = 2, .bpp = 4 };
	struct pixel_block partial = { .size = 70, .row_len = 16, .bpp = 4 };
	struct pixel_block empty = { .size = 0, .row_len = 16, .bpp = 4 };

	CHECK(predictor_valid(HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED, &ok));
	CHECK(predictor_valid(HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED, &empty));
	CHECK(!predictor_valid(HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED, &bad_bpp));
	CHECK(!predictor_valid(HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED, &bad_row));
	CHECK(!predictor_valid(HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED, &short_row));
	CHECK(!predictor_valid(HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED, &partial));
	CHECK(!predictor_valid(4, &ok));
	CHECK(!predictor_valid(-1, &ok));
}

/* Counts the Blob records of a trace per predictor and decodes each (the reader checks its hash). */
static void read_all_blobs(const char *path, unsigned counts[8], uint16_t *minor)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	int ret;

	CHECK_MSG(r, "%s", err.message);
	*minor = hwct_reader_info(r)->minor;
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		struct hwct_blob_data d;
		struct hwct_hash h;

		if (rec->kind_case != HWCT__RECORD__KIND_BLOB) {
			continue;
		}
		CHECK(rec->blob->predictor >= 0 && rec->blob->predictor < 8);
		counts[rec->blob->predictor]++;
		CHECK(hwct_hash_from_bytes(&h, rec->blob->hash.data, rec->blob->hash.len));
		ret = hwct_reader_blob(r, &h, &d);
		CHECK_MSG(ret == 0, "blob of predictor %d: %s", rec->blob->predictor,
			hwct_reader_error(r) ? hwct_reader_error(r)->message : "?");
		CHECK(d.size == rec->blob->size);
		free(d.data);
	}
	CHECK_MSG(ret == 0, "%s", hwct_reader_error(r) ? hwct_reader_error(r)->message : "?");
	hwct_reader_destroy(r);
}

/*
 * Photo-like payloads at the default options: PLANAR_MED is chosen for the
 * full payloads and for a delta, and everything reads back byte for byte.
 */
static void case_writer(void)
{
	enum { W = 256, H = 200, N = 3 };
	char *path = test_tmp_path(".zst");
	static uint8_t img[N][W * H * 4];
	struct hwct_hash hashes[N];
	struct hwct_rect damage = { 40, 30, 200, 150 };
	struct hwct_writer *w = hwct_writer_create(path, NULL);
	struct hwct_error err;
	struct hwct_reader *r;
	unsigned counts[8] = { 0 };
	uint16_t minor;

	CHECK(w);
	for (int n = 0; n < N; n++) {
		for (int y = 0; y < H; y++) {
			for (int x = 0; x < W; x++) {
				uint8_t *p = img[n] + ((size_t)y * W + x) * 4;
				uint32_t s = (uint32_t)(y * W + x + n * 7);

				/* a smooth surface with sensor noise, the channels correlated as in a photo */
				p[1] = (uint8_t)(x / 2 + y / 3 + next_random(&s) % 5);
				p[0] = (uint8_t)(p[1] + 20 + next_random(&s) % 3);
				p[2] = (uint8_t)(p[1] - 10 + next_random(&s) % 3);
				p[3] = 255;
			}
		}
		if (n == 2) {
			/* outside the damage, the same pixels as payload 1 */
			for (int y = 0; y < H; y++) {
				if (y < damage.top || y >= damage.bottom) {
					memcpy(img[2] + (size_t)y * W * 4, img[1] + (size_t)y * W * 4, W * 4);
				} else {
					memcpy(img[2] + (size_t)y * W * 4, img[1] + (size_t)y * W * 4, (size_t)damage.left * 4);
					memcpy(img[2] + ((size_t)y * W + damage.right) * 4,
						img[1] + ((size_t)y * W + damage.right) * 4, (size_t)(W - damage.right) * 4);
				}
			}
		}
	}
	for (int n = 0; n < N; n++) {
		struct hwct_blob_desc d = { .data = img[n], .size = sizeof(img[n]), .kind = HWCT_BLOB_PIXELS,
			.width = W, .height = H, .stride = W * 4, .bpp = 4 };

		if (n == 2) {
			d.base = &hashes[1];
			d.damage = &damage;
			d.damage_count = 1;
		}
		CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, &hashes[n]) == 0);
	}
	CHECK(hwct_writer_close(w) == 0);
	read_all_blobs(path, counts, &minor);
	CHECK(minor == HWCT_FORMAT_MINOR);
	CHECK_MSG(counts[HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED] == N, "%u of %d blobs are PLANAR_MED",
		counts[HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED], N);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	for (int n = 0; n < N; n++) {
		struct hwct_blob_data d;

		CHECK(hwct_reader_blob(r, &hashes[n], &d) == 0);
		CHECK(d.size == sizeof(img[n]));
		CHECK_MSG(memcmp(d.data, img[n], d.size) == 0, "payload %d differs", n);
		free(d.data);
	}
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

/*
 * A chain of deltas past WRITER_MAX_DELTA_CHAIN (16): the writer stores the
 * next one against the chain's full payload (the union of the damage since),
 * not as a full payload again; every content reads back byte for byte.
 */
static void case_chain_rebase(void)
{
	enum { W = 64, H = 48, N = 40 };
	char *path = test_tmp_path(".zst");
	static uint8_t img[N][W * H * 4];
	struct hwct_hash hashes[N];
	struct hwct_writer *w = hwct_writer_create(path, NULL);
	struct hwct_error err;
	struct hwct_reader *r;
	const Hwct__Record *rec;
	unsigned raw = 0, delta = 0;

	CHECK(w);
	fill(img[0], sizeof(img[0]), W * 4, 3);
	for (int n = 0; n < N; n++) {
		/* frame n changes a 6x5 rect at one of 4 places: the chain's union stays small */
		struct hwct_rect damage = { 4 + (n % 4) * 14, 6 + (n % 4) * 9, 10 + (n % 4) * 14, 11 + (n % 4) * 9 };
		struct hwct_blob_desc d = { .data = img[n], .size = sizeof(img[n]), .kind = HWCT_BLOB_PIXELS,
			.width = W, .height = H, .stride = W * 4, .bpp = 4 };

		if (n) {
			memcpy(img[n], img[n - 1], sizeof(img[n]));
			for (int32_t y = damage.top; y < damage.bottom; y++) {
				memset(img[n] + ((size_t)y * W + (size_t)damage.left) * 4, n * 5 + y,
					(size_t)(damage.right - damage.left) * 4);
			}
			d.base = &hashes[n - 1];
			d.damage = &damage;
			d.damage_count = 1;
		}
		CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, &hashes[n]) == 0);
	}
	CHECK(hwct_writer_close(w) == 0);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	while (hwct_reader_next(r, &rec) > 0) {
		if (rec->kind_case == HWCT__RECORD__KIND_BLOB) {
			raw += rec->blob->encoding == HWCT__BLOB_ENCODING__BLOB_RAW;
			delta += rec->blob->encoding == HWCT__BLOB_ENCODING__BLOB_DELTA;
		}
	}
	CHECK_MSG(raw == 1 && delta == N - 1, "%u full payloads, %u deltas", raw, delta);
	for (int n = 0; n < N; n++) {
		struct hwct_blob_data d;

		CHECK_MSG(hwct_reader_blob(r, &hashes[n], &d) == 0, "payload %d: %s", n,
			hwct_reader_error(r) ? hwct_reader_error(r)->message : "?");
		CHECK_MSG(d.size == sizeof(img[n]) && memcmp(d.data, img[n], d.size) == 0, "payload %d differs", n);
		free(d.data);
	}
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

/* A trace of format 1.0 (LEFT, UP and NONE predictors, raw and delta blobs) reads as before. */
static void case_old_trace(void)
{
	unsigned counts[8] = { 0 };
	uint16_t minor;

	CHECK_MSG(old_trace, "usage: test-format-predictors old-trace TRACE");
	read_all_blobs(old_trace, counts, &minor);
	CHECK(minor == 0);
	CHECK(counts[HWCT__BLOB_PREDICTOR__PREDICT_NONE] > 0);
	CHECK(counts[HWCT__BLOB_PREDICTOR__PREDICT_LEFT] > 0);
	CHECK(counts[HWCT__BLOB_PREDICTOR__PREDICT_UP] > 0);
	CHECK(counts[HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED] == 0);
}

/*
 * Padded buffers: one photo-like 300x40 RGBA picture in rows of 1200 bytes
 * (packed), 1216 (64-byte aligned) and 1280 (256-byte aligned), the padding
 * random. Every predictor round-trips each layout, padding included (blobs
 * of traces before 1.3 hold it); the picture hashes once whatever the
 * layout, and the writer stores it once, packed (1.3); stored either way,
 * every blob reads back byte for byte.
 */
static void case_padded(void)
{
	enum { W = 300, H = 40, ROW = W * 4 };
	static const uint32_t strides[] = { ROW, 1216, 1280 };
	char *path = test_tmp_path(".zst");
	struct hwct_writer *w = hwct_writer_create(path, NULL);
	struct hwct_hash picture[3], padded[3];
	uint8_t *src[3], *packed[3];
	uint32_t seed = 99;
	struct hwct_reader *r;
	struct hwct_error err;

	CHECK(w);
	for (int i = 0; i < 3; i++) {
		struct hwct_picture p;
		struct pixel_block blk = { .size = (size_t)strides[i] * H, .row_len = strides[i], .bpp = 4 };
		struct hwct_blob_desc d = { .kind = HWCT_BLOB_PIXELS, .width = W, .height = H, .bpp = 4 };

		src[i] = malloc(blk.size);
		packed[i] = malloc((size_t)ROW * H);
		CHECK(src[i] && packed[i]);
		for (size_t k = 0; k < blk.size; k++) {
			src[i][k] = (uint8_t)next_random(&seed);
		}
		for (uint32_t y = 0; y < H; y++) {
			fill(src[i] + (size_t)y * strides[i], ROW, ROW, 7 + y);	/* the same rows in every layout */
		}
		CHECK(hwct_picture_init(&p, 0x34324241u /* AB24 */, W, H));
		p.planes[0].stride = strides[i];
		hwct_picture_pack(&p, src[i], packed[i]);
		picture[i] = hwct_picture_hash(&p, src[i]);
		for (int predictor = 0; predictor <= HWCT__BLOB_PREDICTOR__PREDICT_PLANAR_MED; predictor++) {
			CHECK_MSG(predictor_valid(predictor, &blk), "predictor %d, stride %u", predictor, strides[i]);
			roundtrip_one(predictor, src[i], &blk);
		}
		/* 1.3: the packed picture */
		d.data = packed[i];
		d.size = (size_t)ROW * H;
		d.stride = ROW;
		CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, NULL) == (i ? 1 : 0));
		/* before 1.3: the buffer's bytes, padding and all */
		d.data = src[i];
		d.size = blk.size;
		d.stride = strides[i];
		CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, &padded[i]) == (i ? 0 : 1));
		CHECK(hwct_hash_equal(&picture[i], &picture[0]));
		CHECK(memcmp(packed[i], packed[0], (size_t)ROW * H) == 0);
	}
	CHECK_MSG(hwct_hash_equal(&picture[0], &padded[0]), "the packed layout's picture is not its bytes");
	CHECK(!hwct_hash_equal(&padded[1], &padded[0]) && !hwct_hash_equal(&padded[2], &padded[1]));
	CHECK(hwct_writer_close(w) == 0);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	for (int i = 0; i < 3; i++) {
		struct hwct_blob_data d;

		CHECK(hwct_reader_blob(r, &padded[i], &d) == 0);
		CHECK_MSG(d.size == (size_t)strides[i] * H && d.stride == strides[i] && memcmp(d.data, src[i], d.size) == 0,
			"stride %u: the padded payload does not read back", strides[i]);
		free(d.data);
		CHECK(hwct_reader_blob(r, &picture[i], &d) == 0);
		CHECK_MSG(d.size == (size_t)ROW * H && d.stride == ROW && memcmp(d.data, packed[i], d.size) == 0,
			"the picture reads back as %zu bytes, rows of %u", d.size, d.stride);
		free(d.data);
		free(src[i]);
		free(packed[i]);
	}
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

static const struct test_case cases[] = {
	{ "roundtrip", case_roundtrip },
	{ "planar-valid", case_planar_valid },
	{ "writer", case_writer },
	{ "chain-rebase", case_chain_rebase },
	{ "padded", case_padded },
	{ "old-trace", case_old_trace },
};

int main(int argc, char **argv)
{
	if (argc > 2) {
		old_trace = argv[2];
		argc = 2;
	}
	return test_run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
