/*
 * Hostile traces against the reader's limits (docs/format.md, "Limits"):
 * each case builds its input here (writer API, then byte surgery on the
 * file), runs the reader in a child process with a time limit and an
 * address-space limit, and checks for one clean error naming the cause.
 * Usage: test-format-limits CASE
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xxhash.h>
#include <zstd.h>

#include <hwct/format.h>
#include <hwct/limits.h>

#include "testlib.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* CPU seconds, not wall-clock: a loaded host must not fail a child that works */
#define CHILD_SECONDS 20
#define CHILD_MEMORY (768ull << 20)

/*
 * Runs fn in a child with CHILD_SECONDS of CPU time and CHILD_MEMORY of address
 * space; the child must exit 0 (a crash, a hang or exhausted memory fails).
 * ASan reserves terabytes of address space, so its builds run without the
 * memory limit (the time limit still holds).
 */
static void bounded(const char *what, void (*fn)(void *), void *ctx)
{
	pid_t pid = fork();
	int status;

	CHECK(pid >= 0);
	if (pid == 0) {
#ifndef UNDER_ASAN
		struct rlimit rl = { CHILD_MEMORY, CHILD_MEMORY };

		CHECK(setrlimit(RLIMIT_AS, &rl) == 0);
#endif
		struct rlimit cpu = { CHILD_SECONDS, CHILD_SECONDS };

		CHECK(setrlimit(RLIMIT_CPU, &cpu) == 0);
		fn(ctx);
		fflush(stdout);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child %s %d", what,
		WIFSIGNALED(status) ? "killed by signal" : "exited with",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A trace cut into its frames, to change some and write it back with a matching seek table. */
struct frames {
	struct {
		uint8_t *data;		/* owned */
		size_t size;
		uint32_t decompressed, checksum;
	} f[256];
	size_t count;			/* the seek table not included */
};

static void split(const uint8_t *data, size_t size, struct frames *out)
{
	uint32_t n = le32(data + size - 9);
	const uint8_t *table = data + size - 9 - 12 * (size_t)n;
	size_t off = 0;

	CHECK(le32(data + size - 4) == 0x8F92EAB1u && n <= 256);
	out->count = n;
	for (uint32_t i = 0; i < n; i++) {
		out->f[i].size = le32(table + 12 * (size_t)i);
		out->f[i].decompressed = le32(table + 12 * (size_t)i + 4);
		out->f[i].checksum = le32(table + 12 * (size_t)i + 8);
		out->f[i].data = malloc(out->f[i].size);
		memcpy(out->f[i].data, data + off, out->f[i].size);
		off += out->f[i].size;
	}
}

/* Writes the frames and a seek table for them to path; frees them. */
static void join(struct frames *fr, const char *path)
{
	size_t size = 0, off = 0;
	uint8_t *out;

	for (size_t i = 0; i < fr->count; i++) {
		size += fr->f[i].size;
	}
	out = malloc(size + 8 + 12 * fr->count + 9);
	CHECK(out);
	for (size_t i = 0; i < fr->count; i++) {
		memcpy(out + off, fr->f[i].data, fr->f[i].size);
		off += fr->f[i].size;
		free(fr->f[i].data);
	}
	put32(out + off, 0x184D2A5Eu);
	put32(out + off + 4, (uint32_t)(12 * fr->count + 9));
	off += 8;
	for (size_t i = 0; i < fr->count; i++) {
		put32(out + off, (uint32_t)fr->f[i].size);
		put32(out + off + 4, fr->f[i].decompressed);
		put32(out + off + 8, fr->f[i].checksum);
		off += 12;
	}
	put32(out + off, (uint32_t)fr->count);
	out[off + 4] = 0x80;
	put32(out + off + 5, 0x8F92EAB1u);
	test_write_file(path, out, off + 9);
	free(out);
}

/* Decompresses data frame i of fr. Caller frees. */
static uint8_t *content(const struct frames *fr, size_t i, size_t *size)
{
	unsigned long long n = ZSTD_getFrameContentSize(fr->f[i].data, fr->f[i].size);
	uint8_t *out;

	CHECK(n != ZSTD_CONTENTSIZE_UNKNOWN && n != ZSTD_CONTENTSIZE_ERROR);
	out = malloc(n + 1);
	CHECK(out && ZSTD_decompress(out, n + 1, fr->f[i].data, fr->f[i].size) == n);
	*size = (size_t)n;
	return out;
}

/* Replaces frame i by the zstd compression of data, with a correct seek entry. */
static void set_content(struct frames *fr, size_t i, const void *data, size_t size)
{
	size_t cap = ZSTD_compressBound(size);

	free(fr->f[i].data);
	fr->f[i].data = malloc(cap);
	fr->f[i].size = ZSTD_compress(fr->f[i].data, cap, data, size, 1);
	CHECK(!ZSTD_isError(fr->f[i].size));
	fr->f[i].decompressed = (uint32_t)size;
	fr->f[i].checksum = (uint32_t)XXH64(data, size, 0);
}

/*
 * A zstd frame that decodes to `size` copies of `byte` (RLE blocks, RFC 8878
 * 3.1.1), its content size in the header: a few bytes per 128 KiB.
 */
static void set_rle_frame(struct frames *fr, size_t i, uint64_t size, uint8_t byte)
{
	size_t blocks = (size_t)((size + (128u << 10) - 1) / (128u << 10));
	uint8_t *p = malloc(4 + 1 + 8 + 4 * (blocks ? blocks : 1));
	size_t off = 0;
	uint64_t left = size;

	free(fr->f[i].data);
	fr->f[i].data = p;
	put32(p, 0xFD2FB528u);
	p[4] = 0xE0;	/* 8-byte content size, single segment, no checksum */
	for (int b = 0; b < 8; b++) {
		p[5 + b] = (uint8_t)(size >> (8 * b));
	}
	off = 13;
	do {
		uint32_t n = left > (128u << 10) ? (128u << 10) : (uint32_t)left;
		uint32_t header = n << 3 | 1u << 1 | (left == n);	/* RLE block, last? */

		p[off] = (uint8_t)header;
		p[off + 1] = (uint8_t)(header >> 8);
		p[off + 2] = (uint8_t)(header >> 16);
		p[off + 3] = byte;
		off += 4;
		left -= n;
	} while (left);
	fr->f[i].size = off;
	fr->f[i].decompressed = (uint32_t)size;
	fr->f[i].checksum = 0;	/* past the frame limit: never reached, the size is refused first */
	if (size <= (64u << 20)) {
		uint8_t *plain = malloc(size ? size : 1);

		memset(plain, byte, size);
		fr->f[i].checksum = (uint32_t)XXH64(plain, size, 0);
		free(plain);
	}
}

static char *sample(bool pixels)
{
	struct test_trace_options o = { .frames = 12, .keyframe_interval = 4, .layers = 1, .width = 32,
		.height = 16, .pixels = pixels, .seed = 3 };
	char *path = test_tmp_path(".zst");

	test_write_trace(path, &o);
	return path;
}

/* Index of the first data frame of fr holding records (kind 1) or blobs (kind 2). */
static size_t find_frame(struct hwct_reader *r, const struct frames *fr, bool blobs)
{
	size_t size;

	(void)r;
	for (size_t i = 1; i < fr->count; i++) {
		uint8_t *c;
		size_t pos = 0;
		uint64_t len = 0;
		unsigned shift = 0;
		Hwct__Record *rec;
		bool is_blob;

		if ((le32(fr->f[i].data) & 0xFFFFFFF0u) == 0x184D2A50u) {
			continue;
		}
		c = content(fr, i, &size);
		while (c[pos] & 0x80) {
			len |= (uint64_t)(c[pos++] & 0x7f) << shift;
			shift += 7;
		}
		len |= (uint64_t)c[pos++] << shift;
		rec = hwct__record__unpack(NULL, len, c + pos);
		CHECK(rec);
		is_blob = rec->kind_case == HWCT__RECORD__KIND_BLOB;
		hwct__record__free_unpacked(rec, NULL);
		free(c);
		if (is_blob == blobs) {
			return i;
		}
	}
	FAIL("no %s frame", blobs ? "blob" : "record");
	return 0;
}

/* Reads every record and every blob of path; returns the first error's message (static) or "". */
static const char *read_all(const char *path)
{
	static char msg[HWCT_ERROR_MESSAGE_MAX];
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	int ret;

	msg[0] = '\0';
	if (!r) {
		snprintf(msg, sizeof(msg), "%s", err.message);
		return msg;
	}
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		struct hwct_blob_data blob;
		struct hwct_hash h;

		/* blob frames come back as records too: decode each blob they hold */
		if (rec->kind_case != HWCT__RECORD__KIND_BLOB ||
			!hwct_hash_from_bytes(&h, rec->blob->hash.data, rec->blob->hash.len)) {
			continue;
		}
		if (hwct_reader_blob(r, &h, &blob) < 0) {
			snprintf(msg, sizeof(msg), "%s", hwct_reader_error(r)->message);
			break;
		}
		free(blob.data);
	}
	if (ret < 0 && msg[0] == '\0') {
		snprintf(msg, sizeof(msg), "%s", hwct_reader_error(r)->message);
	}
	hwct_reader_destroy(r);
	return msg;
}

/* ---------------------------------------------------------------- cases */

/* A seek-table entry shorter than a frame header once sent size - 8 (unsigned) to protobuf-c. */
static void short_entry_child(void *ctx)
{
	const char *path = ctx;
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	int ret;

	/* the damaged trailer is not believed: the frames are scanned instead */
	CHECK_MSG(r, "%s", err.message);
	CHECK(!hwct_reader_info(r)->has_seek_table);
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
	}
	/* every data frame is read, then the reader says the trace's end is damaged */
	CHECK(ret < 0 && strstr(hwct_reader_error(r)->message, path), "%s",
		hwct_reader_error(r)->message);
	printf("%s\n", hwct_reader_error(r)->message);
	hwct_reader_destroy(r);
}

static void case_short_entry(void)
{
	char *path = sample(true);
	size_t size, idx = 0;
	uint8_t *data = test_read_file(path, &size);
	struct frames fr;
	static const uint32_t short_sizes[] = { 4, 5, 7, 0 };
	/* after the index payload: field 15, length-delimited, 1 MiB long (past the file's end) */
	static const uint8_t long_field[] = { 0x7a, 0x80, 0x80, 0x40 };

	split(data, size, &fr);
	for (size_t i = 0; i < fr.count; i++) {
		if (le32(fr.f[i].data) == HWCT_MAGIC_INDEX) {
			idx = i;
		}
	}
	CHECK(idx > 1 && idx + 1 == fr.count);
	/*
	 * The index frame's seek entry cut to s bytes, a new entry covering the
	 * rest of it, which starts with a skippable-frame magic (written over
	 * the index frame's size field or payload when s >= 4): every entry
	 * then starts at a frame magic and the sizes add up, but the index
	 * entry is shorter than a frame header. A reader that took the index
	 * payload to be (s - 8) bytes, unsigned, would read the 1 MiB field
	 * appended to it far past the end of the file.
	 */
	for (size_t k = 0; k < sizeof(short_sizes) / sizeof(short_sizes[0]); k++) {
		uint32_t s = short_sizes[k];
		struct frames cut;
		char what[64];

		split(data, size, &cut);
		cut.count++;
		cut.f[idx + 1].size = cut.f[idx].size - s + sizeof(long_field);
		cut.f[idx + 1].data = malloc(cut.f[idx + 1].size);
		memcpy(cut.f[idx + 1].data, cut.f[idx].data + s, cut.f[idx].size - s);
		memcpy(cut.f[idx + 1].data + cut.f[idx].size - s, long_field, sizeof(long_field));
		cut.f[idx + 1].decompressed = cut.f[idx + 1].checksum = 0;
		if (s >= 4) {
			put32(cut.f[idx + 1].data, 0x184D2A50u);
		}
		cut.f[idx].size = s;
		join(&cut, path);
		snprintf(what, sizeof(what), "index entry of %u bytes", s);
		bounded(what, short_entry_child, path);
	}
	for (size_t i = 0; i < fr.count; i++) {
		free(fr.f[i].data);
	}
	free(data);
	unlink(path);
	free(path);
}

struct expect {
	const char *path;
	const char *env;		/* NAME=VALUE put in the child's environment, or NULL */
	const char *want[3];		/* substrings of the error, NULL-terminated */
};

/*
 * setenv() of "NAME=VALUE", then the limits read again from the environment
 * (the parent's writer read them already, before the fork).
 */
static int setenv_pair(const char *pair)
{
	struct hwct_limits lim;
	char name[64], msg[256];
	const char *eq = strchr(pair, '=');

	CHECK(eq && (size_t)(eq - pair) < sizeof(name));
	snprintf(name, sizeof(name), "%.*s", (int)(eq - pair), pair);
	CHECK(setenv(name, eq + 1, 1) == 0);
	CHECK(hwct_limits_from_env(&lim, msg, sizeof(msg)) == 0, "%s", msg);
	hwct_limits_set(&lim);
	return 0;
}

static void expect_child(void *ctx)
{
	const struct expect *e = ctx;
	const char *msg;

	if (e->env) {
		CHECK(setenv_pair(e->env) == 0);
	}
	msg = read_all(e->path);
	printf("%s\n", msg);
	CHECK(msg[0] != '\0', "no error");
	CHECK(strstr(msg, e->path), "the error does not name the file: %s", msg);
	for (size_t i = 0; i < 3 && e->want[i]; i++) {
		CHECK(strstr(msg, e->want[i]), "no \"%s\" in: %s", e->want[i], msg);
	}
}

/* A record frame claiming 1 GiB (of zeros), 32 KiB on disk: refused before allocating. */
static void case_huge_record_frame(void)
{
	char *path = sample(false);
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	struct frames fr;
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	size_t i;

	CHECK(r);
	split(data, size, &fr);
	i = find_frame(r, &fr, false);
	hwct_reader_destroy(r);
	set_rle_frame(&fr, i, 1ull << 30, 0);
	join(&fr, path);
	bounded("1 GiB record frame", expect_child, &(struct expect){ path, NULL,
		{ "content size 1073741824", "frame limit", "HWCT_LIMIT_FRAME_BYTES" } });
	/* under the limit, zeros are not records: the first empty one stops the reader */
	split(data, size, &fr);
	set_rle_frame(&fr, i, 8u << 20, 0);
	join(&fr, path);
	bounded("8 MiB of zeros", expect_child, &(struct expect){ path, NULL,
		{ "an empty record", NULL } });
	/* and the limit can be lowered (or raised) from the environment */
	split(data, size, &fr);
	set_rle_frame(&fr, i, 8u << 20, 0);
	join(&fr, path);
	bounded("frame limit from the environment", expect_child, &(struct expect){ path,
		"HWCT_LIMIT_FRAME_BYTES=4M", { "exceeds the frame limit of 4194304 bytes", NULL } });
	free(data);
	unlink(path);
	free(path);
}

/* A blob frame claiming 1 GiB: refused by the frame limit when the blob is read. */
static void case_huge_blob_frame(void)
{
	char *path = sample(true);
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	struct frames fr;
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	size_t i;

	CHECK(r);
	hwct_reader_destroy(r);
	/* the blob limit names itself: the sample's 32x16 payloads are 2 KiB */
	bounded("blob limit", expect_child, &(struct expect){ path, "HWCT_LIMIT_BLOB_BYTES=1K",
		{ "blob: size 2048 exceeds the blob limit of 1024 bytes", "HWCT_LIMIT_BLOB_BYTES" } });
	split(data, size, &fr);
	i = find_frame(r, &fr, true);
	set_rle_frame(&fr, i, 1ull << 30, 0x41);
	join(&fr, path);
	bounded("1 GiB blob frame", expect_child, &(struct expect){ path, NULL,
		{ "exceeds the frame limit", NULL } });
	free(data);
	unlink(path);
	free(path);
}

/* The hashes of the deltas of delta_trace(). */
static struct hwct_hash hash_a, hash_b;

/*
 * Full payload X; A a delta on X; B a delta on A, each in its own blob
 * frame (A and B differ from their bases in one 8x8 corner). Returns the
 * path; hash_a and hash_b set.
 */
static char *delta_trace(void)
{
	char *path = test_tmp_path(".zst");
	struct hwct_writer_options wo;
	struct hwct_writer *w;
	static uint8_t pixels[64 * 64 * 4];
	struct hwct_rect damage = { 0, 0, 8, 8 };
	struct hwct_hash x;
	struct hwct_blob_desc d = { .data = pixels, .size = sizeof(pixels), .kind = HWCT_BLOB_PIXELS,
		.width = 64, .height = 64, .stride = 64 * 4, .bpp = 4 };

	hwct_writer_options_init(&wo);
	w = hwct_writer_create(path, &wo);
	CHECK(w);
	for (size_t k = 0; k < sizeof(pixels); k++) {
		pixels[k] = (uint8_t)(k * 7);
	}
	CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, &x) == 0);
	CHECK(hwct_writer_flush(w) == 0);
	pixels[0] ^= 1;
	d.base = &x;
	d.damage = &damage;
	d.damage_count = 1;
	CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, &hash_a) == 0);
	CHECK(hwct_writer_flush(w) == 0);
	pixels[4] ^= 1;
	d.base = &hash_a;
	CHECK(hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, &hash_b) == 0);
	CHECK(hwct_writer_close(w) == 0);
	return path;
}

/* Rewrites the base_hash of blob `of` to `base` in whichever frame holds it. */
static void rebase(const char *path, const struct hwct_hash *of, const struct hwct_hash *base)
{
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	struct frames fr;
	bool done = false;

	split(data, size, &fr);
	for (size_t i = 1; i < fr.count && !done; i++) {
		uint8_t *c, *out;
		size_t csize, pos = 0, olen = 0;

		if ((le32(fr.f[i].data) & 0xFFFFFFF0u) == 0x184D2A50u) {
			continue;
		}
		c = content(&fr, i, &csize);
		out = malloc(csize + 64);
		while (pos < csize) {
			uint64_t len = 0;
			unsigned shift = 0;
			Hwct__Record *rec;
			struct hwct_hash h;
			uint8_t bytes[HWCT_HASH_BYTES];

			while (c[pos] & 0x80) {
				len |= (uint64_t)(c[pos++] & 0x7f) << shift;
				shift += 7;
			}
			len |= (uint64_t)c[pos++] << shift;
			rec = hwct__record__unpack(NULL, len, c + pos);
			CHECK(rec);
			pos += len;
			if (rec->kind_case == HWCT__RECORD__KIND_BLOB &&
				hwct_hash_from_bytes(&h, rec->blob->hash.data, rec->blob->hash.len) &&
				hwct_hash_equal(&h, of)) {
				hwct_hash_to_bytes(base, bytes);
				CHECK(rec->blob->base_hash.len == HWCT_HASH_BYTES);
				memcpy(rec->blob->base_hash.data, bytes, HWCT_HASH_BYTES);
				done = true;
			}
			len = hwct__record__get_packed_size(rec);
			CHECK(len < 0x80 * 0x80 * 0x80);
			for (uint64_t v = len; ; v >>= 7) {
				out[olen++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
				if (v <= 0x7f) {
					break;
				}
			}
			olen += hwct__record__pack(rec, out + olen);
			hwct__record__free_unpacked(rec, NULL);
		}
		if (done) {
			set_content(&fr, i, out, olen);
		}
		free(out);
		free(c);
	}
	CHECK(done);
	join(&fr, path);
	free(data);
}

static void cycle_child(void *ctx)
{
	const struct hwct_hash *start = ctx;
	struct hwct_error err;
	struct hwct_blob_data blob;
	struct hwct_reader *r;
	const char *path = getenv("LIMITS_TEST_PATH");
	const char *msg;

	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	CHECK_INT(hwct_reader_blob(r, start, &blob), -ELOOP);
	msg = hwct_reader_error(r)->message;
	printf("%s\n", msg);
	CHECK(strstr(msg, "cycle") && strstr(msg, path), "%s", msg);
	hwct_reader_destroy(r);
}

/* A blob may never be its own ancestor: A on B on A is caught at once, not after 4096 links. */
static void case_delta_cycle(void)
{
	char *path = delta_trace();
	CHECK(setenv("LIMITS_TEST_PATH", path, 1) == 0);
	rebase(path, &hash_a, &hash_b);
	bounded("A -> B -> A from A", cycle_child, (void *)&hash_a);
	bounded("A -> B -> A from B", cycle_child, (void *)&hash_b);
	/* a blob on itself */
	unlink(path);
	free(path);
	path = delta_trace();
	CHECK(setenv("LIMITS_TEST_PATH", path, 1) == 0);
	rebase(path, &hash_a, &hash_a);
	bounded("A -> A", cycle_child, (void *)&hash_a);
	unlink(path);
	free(path);
}

static void depth_child(void *ctx)
{
	struct hwct_error err;
	struct hwct_blob_data blob;
	struct hwct_reader *r;
	const char *path = ctx;

	CHECK(setenv_pair("HWCT_LIMIT_DELTA_DEPTH=1") == 0);
	r = hwct_reader_open(path, &err);
	CHECK_MSG(r, "%s", err.message);
	/* A is one link from X: within the limit */
	CHECK(hwct_reader_blob(r, &hash_a, &blob) == 0, "%s", hwct_reader_error(r)->message);
	free(blob.data);
	hwct_reader_destroy(r);
	/* B is two (a fresh reader: nothing decoded is kept) */
	r = hwct_reader_open(path, &err);
	CHECK(hwct_reader_blob(r, &hash_b, &blob) == -ELOOP);
	printf("%s\n", hwct_reader_error(r)->message);
	CHECK(strstr(hwct_reader_error(r)->message, "HWCT_LIMIT_DELTA_DEPTH"), "%s",
		hwct_reader_error(r)->message);
	hwct_reader_destroy(r);
}

/* The delta depth limit, lowered from the environment to 1. */
static void case_delta_depth(void)
{
	char *path = delta_trace();

	bounded("delta depth 1", depth_child, path);
	unlink(path);
	free(path);
}

static void dimension_child(void *ctx)
{
	const char *path = ctx;
	struct hwct_error err;
	struct hwct_blob_data blob;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	static const struct hwct_hash h = { 0x3333, 0xcccc };

	CHECK_MSG(r, "%s", err.message);
	CHECK_INT(hwct_reader_blob(r, &h, &blob), -EFBIG);
	printf("%s\n", hwct_reader_error(r)->message);
	CHECK(strstr(hwct_reader_error(r)->message, "20000x1 exceeds the dimension limit of 16384"), "%s",
		hwct_reader_error(r)->message);
	hwct_reader_destroy(r);
}

/* A blob wider than the dimension limit is refused by name. */
static void case_dimension(void)
{
	char *path = test_tmp_path(".zst");
	struct hwct_writer_options wo;
	struct hwct_writer *w;
	static uint8_t row[20000 * 4];
	static const struct hwct_hash h = { 0x3333, 0xcccc };
	struct hwct_blob_desc d = { .data = row, .size = sizeof(row), .kind = HWCT_BLOB_PIXELS,
		.width = 20000, .height = 1, .stride = sizeof(row), .bpp = 4, .hash = &h };

	hwct_writer_options_init(&wo);
	w = hwct_writer_create(path, &wo);
	CHECK(w && hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, NULL) == 0);
	CHECK(hwct_writer_close(w) == 0);
	bounded("20000 pixels wide", dimension_child, path);
	unlink(path);
	free(path);
}

static void env_child(void *ctx)
{
	struct hwct_limits lim;
	char msg[256];

	(void)ctx;
	CHECK(hwct_limits_from_env(&lim, msg, sizeof(msg)) == 0);
	CHECK(setenv("HWCT_LIMIT_JSON_DEPTH", "2k", 1) == 0);
	CHECK(setenv("HWCT_LIMIT_DIMENSION", "12x", 1) == 0);
	CHECK(hwct_limits_from_env(&lim, msg, sizeof(msg)) == -EINVAL);
	CHECK(strstr(msg, "HWCT_LIMIT_DIMENSION=12x"), "%s", msg);
	/* a wrong value leaves the default, the others apply */
	CHECK_EQ_U64(lim.dimension, HWCT_LIMIT_DEFAULT_DIMENSION);
	CHECK_EQ_U64(lim.json_depth, 2048);
	CHECK(setenv("HWCT_LIMIT_DIMENSION", "0", 1) == 0);
	CHECK(hwct_limits_from_env(&lim, msg, sizeof(msg)) == -EINVAL);
}

/* A wrong HWCT_LIMIT_* value is reported by name. */
static void case_env(void)
{
	bounded("environment", env_child, NULL);
}

static const struct test_case cases[] = {
	{ "short-entry", case_short_entry },
	{ "huge-record-frame", case_huge_record_frame },
	{ "huge-blob-frame", case_huge_blob_frame },
	{ "delta-cycle", case_delta_cycle },
	{ "delta-depth", case_delta_depth },
	{ "dimension", case_dimension },
	{ "env", case_env },
};

int main(int argc, char **argv)
{
	return test_run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
