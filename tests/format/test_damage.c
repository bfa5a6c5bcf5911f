/*
 * Damaged and foreign input: truncation anywhere, flipped bytes, unknown
 * versions, a writer that died; and the container checked against the zstd
 * specifications by a parser written here, independent of format/.
 * Usage: test-format-damage CASE
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xxhash.h>
#include <zstd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>

#include "testlib.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Frame boundaries of a zstd file by RFC 8878 alone. Returns the count. */
static size_t frame_offsets(const uint8_t *data, size_t size, size_t *out, size_t max)
{
	size_t off = 0, n = 0;

	while (off < size && n < max) {
		uint32_t magic = le32(data + off);
		size_t len;

		out[n++] = off;
		if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
			len = 8 + le32(data + off + 4);
		} else {
			CHECK(magic == 0xFD2FB528u);
			len = ZSTD_findFrameCompressedSize(data + off, size - off);
			CHECK(!ZSTD_isError(len));
		}
		off += len;
	}
	CHECK(off == size);
	return n;
}

static char *sample_trace(size_t *records)
{
	struct test_trace_options o = { .frames = 30, .keyframe_interval = 5, .layers = 2, .width = 40,
		.height = 30, .pixels = true, .every_kind = true, .seed = 5 };
	char *path = test_tmp_path(".zst");

	*records = test_write_trace(path, &o);
	return path;
}

/* Records of a damaged copy must be a prefix of the original's. */
static void check_prefix(uint8_t **orig, size_t *osizes, size_t on, const char *damaged, bool expect_error,
	const char *what)
{
	uint8_t **recs;
	size_t *sizes, n;
	int result;

	n = test_read_packed(damaged, &recs, &sizes, &result);
	CHECK_MSG(n <= on, "%s: more records than the original", what);
	for (size_t i = 0; i < n; i++) {
		CHECK_MSG(sizes[i] == osizes[i] && memcmp(recs[i], orig[i], sizes[i]) == 0,
			"%s: record %zu differs from the original", what, i);
		free(recs[i]);
	}
	if (expect_error) {
		CHECK_MSG(result < 0, "%s: no error after %zu records", what, n);
	}
	free(recs);
	free(sizes);
}

static void case_truncate(void)
{
	size_t records, size, offsets[512], nframes, on;
	char *path = sample_trace(&records);
	char *cut = test_tmp_path(".zst");
	uint8_t *data = test_read_file(path, &size), **orig;
	size_t *osizes;
	int result;

	on = test_read_packed(path, &orig, &osizes, &result);
	CHECK(result == 0 && on >= records);	/* blobs come back too */
	nframes = frame_offsets(data, size, offsets, 512);
	CHECK(nframes > 8);
	for (size_t i = 1; i < nframes; i++) {
		size_t points[] = { offsets[i], offsets[i] + 1, (offsets[i - 1] + offsets[i]) / 2, offsets[i] - 1 };

		for (size_t p = 0; p < sizeof(points) / sizeof(points[0]); p++) {
			struct hwct_error err;
			struct hwct_reader *r;
			char what[64];

			if (points[p] >= size || points[p] <= offsets[0] + 1) {
				continue;
			}
			snprintf(what, sizeof(what), "cut at %zu", points[p]);
			test_write_file(cut, data, points[p]);
			r = hwct_reader_open(cut, &err);
			if (points[p] < offsets[1]) {
				/* inside the header: nothing to read, and it says where */
				CHECK_MSG(!r && strstr(err.message, "offset"), "%s: %s", what, r ? "opened" : err.message);
				continue;
			}
			CHECK_MSG(r, "%s: %s", what, err.message);
			CHECK(!hwct_reader_info(r)->has_seek_table);
			hwct_reader_destroy(r);
			/* even a cut at a frame boundary says the trace was not closed */
			check_prefix(orig, osizes, on, cut, true, what);
		}
	}
	/* the error names the file and the offset where the readable part ends */
	{
		struct hwct_error err;
		struct hwct_reader *r;
		const Hwct__Record *rec;
		char expect[64];
		size_t mid = (offsets[3] + offsets[4]) / 2;
		int ret;

		test_write_file(cut, data, mid);
		r = hwct_reader_open(cut, &err);
		CHECK(r);
		while ((ret = hwct_reader_next(r, &rec)) > 0) {
		}
		CHECK(ret < 0);
		snprintf(expect, sizeof(expect), "offset %zu:", offsets[3]);
		CHECK_MSG(strstr(hwct_reader_error(r)->message, expect) && strstr(hwct_reader_error(r)->message, cut),
			"message: %s", hwct_reader_error(r)->message);
		hwct_reader_destroy(r);
	}
	for (size_t i = 0; i < on; i++) {
		free(orig[i]);
	}
	free(orig);
	free(osizes);
	free(data);
	unlink(cut);
	unlink(path);
	free(cut);
	free(path);
}

static void case_flip(void)
{
	size_t records, size, on;
	char *path = sample_trace(&records);
	char *bad = test_tmp_path(".zst");
	uint8_t *data = test_read_file(path, &size), **orig;
	size_t *osizes;
	unsigned rng = 99, errors = 0;
	int result;

	on = test_read_packed(path, &orig, &osizes, &result);
	CHECK(result == 0);
	for (int k = 0; k < 300; k++) {
		size_t pos;
		uint8_t **recs;
		size_t *sizes, n;
		bool same = true;

		rng = rng * 1103515245u + 12345u;
		pos = (rng >> 4) % size;
		data[pos] ^= (uint8_t)(1u << (k % 8));
		test_write_file(bad, data, size);
		data[pos] ^= (uint8_t)(1u << (k % 8));
		n = test_read_packed(bad, &recs, &sizes, &result);
		/* either an error, or nothing that was read differs (the flip hit slack) */
		for (size_t i = 0; i < n; i++) {
			same = same && i < on && sizes[i] == osizes[i] && memcmp(recs[i], orig[i], sizes[i]) == 0;
			free(recs[i]);
		}
		free(recs);
		free(sizes);
		CHECK_MSG(result < 0 || (same && n == on), "flip at %zu: %zu records, differing, no error", pos, n);
		errors += result < 0;
	}
	printf("flip: %u of 300 flips reported as errors\n", errors);
	CHECK(errors > 100);
	for (size_t i = 0; i < on; i++) {
		free(orig[i]);
	}
	free(orig);
	free(osizes);
	free(data);
	unlink(bad);
	unlink(path);
	free(bad);
	free(path);
}

static void case_unknown_major(void)
{
	size_t records, size;
	char *path = sample_trace(&records);
	uint8_t *data = test_read_file(path, &size);
	struct hwct_error err;
	struct hwct_reader *r;

	/* header payload: signature (8), major (2), minor (2) after the 8-byte frame header */
	CHECK(memcmp(data + 8, "HWCTRACE", 8) == 0);
	data[16] = HWCT_FORMAT_MAJOR + 1;
	data[18] = 3;
	r = hwct_reader_open_memory(data, size, "future.zst", &err);
	CHECK(!r);
	CHECK(err.code == -EPROTONOSUPPORT);
	CHECK_MSG(strstr(err.message, "future.zst") && strstr(err.message, "2.3"), "%s", err.message);
	printf("%s\n", err.message);
	/* a plain zstd file is not a trace, and the message says so */
	{
		uint8_t plain[64];
		size_t n = ZSTD_compress(plain, sizeof(plain), "hello", 5, 1);

		CHECK(!hwct_reader_open_memory(plain, n, "plain.zst", &err));
		CHECK_MSG(strstr(err.message, "plain zstd"), "%s", err.message);
	}
	free(data);
	unlink(path);
	free(path);
}

/* zstd's own tool accepts every trace and decodes it to the record stream. */
static void case_zstd_cli(void)
{
	size_t records, raw_size;
	char *path = sample_trace(&records);
	char *raw = test_tmp_path(".raw");
	char cmd[8192];
	uint8_t *stream;
	size_t pos = 0, count = 0;
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);

	CHECK(r);
	snprintf(cmd, sizeof(cmd), "zstd -q -t '%s'", path);
	CHECK_MSG(system(cmd) == 0, "%s", cmd);
	snprintf(cmd, sizeof(cmd), "zstd -q -d -c '%s' > '%s'", path, raw);
	CHECK_MSG(system(cmd) == 0, "%s", cmd);
	stream = test_read_file(raw, &raw_size);
	CHECK(raw_size == hwct_reader_info(r)->raw_bytes);
	/* varint-length-prefixed Record messages, back to back */
	while (pos < raw_size) {
		uint64_t len = 0;
		unsigned shift = 0;
		Hwct__Record *rec;

		while (stream[pos] & 0x80) {
			len |= (uint64_t)(stream[pos++] & 0x7f) << shift;
			shift += 7;
		}
		len |= (uint64_t)stream[pos++] << shift;
		CHECK(pos + len <= raw_size);
		rec = hwct__record__unpack(NULL, len, stream + pos);
		CHECK(rec);
		count += rec->kind_case != HWCT__RECORD__KIND_KEYFRAME && rec->kind_case != HWCT__RECORD__KIND_BLOB;
		hwct__record__free_unpacked(rec, NULL);
		pos += len;
	}
	CHECK_MSG(count == records, "%zu records in the stream, %zu written", count, records);
	hwct_reader_destroy(r);
	free(stream);
	unlink(raw);
	unlink(path);
	free(raw);
	free(path);
}

/* The seek table, checked against the zstd seekable-format specification. */
static void case_seekable_spec(void)
{
	size_t records, size, offsets[512], nframes;
	char *path = sample_trace(&records);
	uint8_t *data = test_read_file(path, &size);
	const uint8_t *footer = data + size - 9, *table;
	uint32_t n;

	nframes = frame_offsets(data, size, offsets, 512);
	CHECK(le32(footer + 5) == 0x8F92EAB1u);
	CHECK(footer[4] == 0x80);	/* checksums, no reserved bits */
	n = le32(footer);
	CHECK_MSG(n == nframes - 1, "%u entries for %zu frames before the table", n, nframes - 1);
	CHECK(offsets[nframes - 1] == size - 9 - 12 * (size_t)n - 8);
	table = data + offsets[nframes - 1];
	CHECK(le32(table) == 0x184D2A5Eu && le32(table + 4) == 12 * n + 9);
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = table + 8 + 12 * (size_t)i;
		size_t csize = offsets[i + 1] - offsets[i];
		unsigned long long dsize = ZSTD_getFrameContentSize(data + offsets[i], csize);
		uint8_t *content;

		CHECK_MSG(le32(e) == csize, "entry %u compressed size", i);
		if ((le32(data + offsets[i]) & 0xFFFFFFF0u) == 0x184D2A50u) {
			CHECK(le32(e + 4) == 0 && le32(e + 8) == (uint32_t)XXH64(NULL, 0, 0));
			continue;
		}
		CHECK(dsize != ZSTD_CONTENTSIZE_UNKNOWN && dsize != ZSTD_CONTENTSIZE_ERROR);
		CHECK(le32(e + 4) == dsize);
		content = malloc(dsize + 1);
		CHECK(ZSTD_decompress(content, dsize + 1, data + offsets[i], csize) == dsize);
		CHECK_MSG(le32(e + 8) == (uint32_t)XXH64(content, dsize, 0), "entry %u checksum", i);
		free(content);
	}
	/* the first frame is our header, the one before the table our index */
	CHECK(le32(data) == HWCT_MAGIC_HEADER && le32(data + offsets[nframes - 2]) == HWCT_MAGIC_INDEX);
	free(data);
	unlink(path);
	free(path);
}

/* A writer whose process dies leaves everything it flushed readable. */
static void case_crash(void)
{
	char *path = test_tmp_path(".zst");
	struct hwct_reader *r;
	struct hwct_error err;
	const Hwct__Record *rec;
	uint64_t frames = 0;
	int status, ret;
	pid_t pid = fork();

	CHECK(pid >= 0);
	if (pid == 0) {
		struct hwct_writer_options wo;
		struct hwct_writer *w;

		hwct_writer_options_init(&wo);
		wo.keyframe_interval = 4;
		w = hwct_writer_create(path, &wo);
		for (uint64_t f = 0; f < 100; f++) {
			Hwct__Record rec2 = HWCT__RECORD__INIT;
			Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;

			fe.has_frame = true;
			fe.frame = f;
			rec2.kind_case = HWCT__RECORD__KIND_FRAME_END;
			rec2.frame_end = &fe;
			hwct_writer_write(w, &rec2);
			if (f == 41) {
				hwct_writer_flush(w);
			}
		}
		_exit(0);	/* no close: no index, no seek table */
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	CHECK(!hwct_reader_info(r)->has_seek_table);
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			CHECK(rec->frame_end->frame == frames);
			frames++;
		}
	}
	CHECK_MSG(frames >= 42, "only %llu frames survived", (unsigned long long)frames);
	CHECK(hwct_reader_seek(r, 41) == 0 || frames < 42);
	hwct_reader_destroy(r);
	unlink(path);
	free(path);
}

static const struct test_case cases[] = {
	{ "truncate", case_truncate },
	{ "flip", case_flip },
	{ "unknown-major", case_unknown_major },
	{ "zstd-cli", case_zstd_cli },
	{ "seekable-spec", case_seekable_spec },
	{ "crash", case_crash },
};

int main(int argc, char **argv)
{
	return test_run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
