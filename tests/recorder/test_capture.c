/*
 * Pixel capture of multi-plane buffers (recorder/capture.c, payload.c),
 * deviceless. NV12 buffers with the public <hwct/test_buffer.h> handle, on
 * memfds, go through rec_capture_create/arm/step into a real writer; the
 * trace is read back and every stored blob must decode to the bytes the
 * planes held, laid out as docs/format.md section 3.3 says: the same bytes,
 * and so the same content hash, as the scenario writer's NV12 image of those
 * pixels (analyzers/session/pattern.c). DMA_BUF_IOCTL_SYNC is stood in for by
 * the ioctl() of this file: a buffer holds its pixels only between START
 * and END (stale bytes outside, as CPU caches a sync would have flushed), so
 * a plane read outside the bracket shows in the blob. Also the mapping
 * cache (capture_map.c) and the order the worker steps captures in. One
 * meson test per case.
 */
#define _GNU_SOURCE	/* memfd_create(), syscall() */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <hwct/format.h>
#include <hwct/reader.h>
#include <hwct/test_buffer.h>
#include <hwct/writer.h>
#include <system/graphics.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "buffers.h"
#include "capture.h"
#include "config.h"
#include "pattern.h"
#include "recorder.h"
#include "sync_uapi.h"

#define NV12 REC_FOURCC('N', 'V', '1', '2')
#define AB24 REC_FOURCC('A', 'B', '2', '4')
#define STALE 0xEE	/* what a buffer reads as outside SYNC START..END */
#define MAX_BUFS 4

struct check_tally check_tally;

/* A buffer: its handle fields and what its fd holds while synced for reading. */
struct buf {
	struct hwct_test_buffer tb;	/* tb.fd: the memfd, owned */
	ino_t ino;
	size_t size;			/* bytes of the fd */
	uint8_t *image;			/* the fd's bytes between SYNC START and END, owned */
	unsigned starts, ends;		/* SYNC ioctls seen */
	bool synced;			/* between START and END */
};

static struct buf *bufs[MAX_BUFS];

/* The recorder's clock (call.c, not linked here). */
uint64_t rec_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void fill_fd(const struct buf *b, bool real)
{
	uint8_t *stale = NULL;

	if (!real) {
		stale = malloc(b->size);
		memset(stale, STALE, b->size);
	}
	CHECK(pwrite(b->tb.fd, real ? b->image : stale, b->size, 0) == (ssize_t)b->size, "pwrite: %s",
		strerror(errno));
	free(stale);
}

/* Stands in for the kernel's dma-buf: every other request goes to the real ioctl. */
int ioctl(int fd, unsigned long request, ...)
{
	const struct rec_dma_buf_sync *s;
	struct stat st;
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request != REC_DMA_BUF_IOCTL_SYNC || fstat(fd, &st) != 0) {
		return (int)syscall(SYS_ioctl, fd, request, arg);
	}
	s = arg;
	for (int i = 0; i < MAX_BUFS; i++) {
		struct buf *b = bufs[i];

		if (!b || b->ino != st.st_ino) {
			continue;
		}
		CHECK(s->flags & REC_DMA_BUF_SYNC_READ, "sync without READ: %#llx", (unsigned long long)s->flags);
		if (s->flags & REC_DMA_BUF_SYNC_END) {
			CHECK(b->synced, "SYNC END without START");
			b->ends++;
			b->synced = false;
			fill_fd(b, false);
		} else {
			CHECK(!b->synced, "SYNC START twice");
			b->starts++;
			b->synced = true;
			fill_fd(b, true);
		}
		return 0;
	}
	errno = ENOTTY;
	return -1;
}

/*
 * A buffer of size bytes whose fd reads as `image` only while synced; the
 * handle says tb. Bytes of image outside the planes are garbage (`junk`).
 */
static struct buf *buf_create(const struct hwct_test_buffer *tb, size_t size, uint8_t junk)
{
	struct buf *b = calloc(1, sizeof(*b));
	struct stat st;

	b->tb = *tb;
	b->size = size;
	b->image = malloc(size);
	memset(b->image, junk, size);
	b->tb.fd = memfd_create("hwct-test-capture", MFD_CLOEXEC);
	CHECK(b->tb.fd >= 0 && ftruncate(b->tb.fd, (off_t)size) == 0 && fstat(b->tb.fd, &st) == 0,
		"memfd: %s", strerror(errno));
	b->ino = st.st_ino;
	fill_fd(b, false);
	for (int i = 0; i < MAX_BUFS; i++) {
		if (!bufs[i]) {
			bufs[i] = b;
			break;
		}
	}
	return b;
}

static void buf_destroy(struct buf *b)
{
	for (int i = 0; i < MAX_BUFS; i++) {
		bufs[i] = bufs[i] == b ? NULL : bufs[i];
	}
	close(b->tb.fd);
	free(b->image);
	free(b);
}

/* Copies rows of row bytes from src (stride src_stride) into plane p of b's image. */
static void buf_put_plane(struct buf *b, int p, const uint8_t *src, uint32_t src_stride, uint32_t row,
	uint32_t rows)
{
	for (uint32_t y = 0; y < rows; y++) {
		memcpy(b->image + b->tb.offset[p] + (size_t)y * b->tb.stride[p], src + (size_t)y * src_stride, row);
	}
}

/* A recorder without a session: a writer, the worker's buffer memory, a display slot. */
struct fixture {
	char path[64];
	struct rec_config cfg;
	struct rec_buffers *buffers;
	struct rec_display_slot slot;
	struct rec_capture_ctx ctx;
	uint64_t ticket;
};

static void fixture_init(struct fixture *f)
{
	int fd;

	*f = (struct fixture){ .cfg.pixels = true };
	snprintf(f->path, sizeof(f->path), "/tmp/hwct-test-capture-XXXXXX");
	fd = mkstemp(f->path);
	f->buffers = calloc(1, sizeof(*f->buffers));
	f->ctx = (struct rec_capture_ctx){ .buffers = f->buffers, .cfg = &f->cfg };
	f->ctx.writer = fd >= 0 ? hwct_writer_create_fd(fd, NULL) : NULL;
	if (!f->ctx.writer) {
		fprintf(stderr, "cannot create a trace in /tmp: %s\n", strerror(errno));
		exit(1);
	}
}

/* Closes the writer; the trace stays for reading until fixture_finish. */
static void fixture_close(struct fixture *f)
{
	CHECK(hwct_writer_close(f->ctx.writer) == 0, "writer close");
	f->ctx.writer = NULL;
}

static void fixture_finish(struct fixture *f)
{
	hwct_writer_close(f->ctx.writer);
	rec_buffers_finish(f->buffers);
	free(f->buffers);
	rec_capture_ctx_release(&f->ctx);
	unlink(f->path);
}

/*
 * One setLayerBuffer of b, armed with the damage hint (NULL: none), captured
 * as the worker does. Returns the status; *hash the content when OK.
 */
static int32_t capture(struct fixture *f, struct buf *b, const hwc_rect_t *damage, struct hwct_hash *hash)
{
	native_handle_t *n = hwct_test_handle_create(&b->tb);
	struct rec_handle *h = calloc(1, sizeof(*h) + (size_t)(n->numFds + n->numInts) * sizeof(int32_t));
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct rec_capture *cap;
	unsigned starts = b->starts;
	int32_t status;

	h->fd = dup(b->tb.fd);
	h->num_fds = n->numFds;
	h->num_ints = n->numInts;
	h->words = n->numFds + n->numInts;
	memcpy(h->data, n->data, (size_t)h->words * sizeof(int32_t));
	ev->function = HWC2_FUNCTION_SET_LAYER_BUFFER;
	ev->display = 1;
	ev->layer = 2;
	ev->ticket = ++f->ticket;
	cap = rec_capture_create(ev, h, -1, &f->slot, &f->cfg);
	CHECK(cap && cap->has_layout, "capture of a test_buffer handle");
	rec_capture_arm(cap, damage, damage ? 1 : 0, damage != NULL);
	CHECK(rec_capture_step(cap, &f->ctx, false), "capture not done");
	status = cap->status;
	if (hash) {
		*hash = cap->hash;
	}
	if (status == HWCT_CAPTURE_OK) {
		CHECK(b->starts == starts + 1 && b->ends == b->starts && !b->synced,
			"one SYNC START/END per capture: %u starts, %u ends", b->starts - starts, b->ends);
	}
	rec_capture_free(cap);
	free(ev);
	free(h);
	free(n);
	return status;
}

/* The Blob record of hash in the trace at path (fields copied), false when there is none. */
static bool find_blob(const char *path, const struct hwct_hash *hash, Hwct__Blob *out)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	uint8_t want[HWCT_HASH_BYTES];
	bool found = false;

	hwct_hash_to_bytes(hash, want);
	while (r && !found && hwct_reader_next(r, &rec) == 1) {
		const Hwct__Blob *b = rec->blob;

		if (rec->kind_case == HWCT__RECORD__KIND_BLOB && b->hash.len == HWCT_HASH_BYTES &&
				memcmp(b->hash.data, want, HWCT_HASH_BYTES) == 0) {
			*out = *b;
			out->data = (ProtobufCBinaryData){ 0 };
			out->base_hash = (ProtobufCBinaryData){ 0 };
			out->n_rects = 0;
			out->rects = NULL;
			found = true;
		}
	}
	hwct_reader_destroy(r);
	return found;
}

/* The stored blob of hash equals want (size bytes). */
static void expect_blob(const char *path, const struct hwct_hash *hash, const uint8_t *want, size_t size,
	const char *what)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	struct hwct_blob_data blob = { 0 };
	struct hwct_hash computed = hwct_hash_compute(want, size);
	int ret = r ? hwct_reader_blob(r, hash, &blob) : -EIO;

	CHECK(hwct_hash_equal(hash, &computed), "%s: content hash is not the hash of the bytes", what);
	CHECK(ret == 0, "%s: blob not readable: %d", what, ret);
	if (ret == 0) {
		CHECK(blob.size == size, "%s: blob of %zu bytes, want %zu", what, blob.size, size);
		CHECK(blob.size != size || memcmp(blob.data, want, size) == 0, "%s: blob bytes differ", what);
	}
	free(blob.data);
	hwct_reader_destroy(r);
}

/* ------------------------------------------------------------------ cases */

/* video.zst's layer: 320x192 NV12 as the scenario draws it and hwc-replay --hwc2 lays it out. */
static void test_nv12(void)
{
	struct pattern_image *img = pattern_image_create(PATTERN_NV12, 320, 192);
	struct hwct_test_buffer tb = { .width = 320, .height = 192, .fourcc = NV12, .stride = { 320, 320 },
		.offset = { 0, 320 * 192 }, .hal_format = HAL_PIXEL_FORMAT_YCBCR_420_888 };
	struct fixture f;
	struct buf *b;
	struct hwct_hash hash, scenario;
	Hwct__Blob blob;

	pattern_gradient(img, (struct hwct_rect){ 0, 0, 320, 192 }, pattern_rgba(200, 30, 30, 255),
		pattern_rgba(20, 40, 220, 255), true);
	pattern_text(img, 10, 10, 3, "NV12 0123", pattern_rgba(255, 255, 255, 255));
	pattern_markers(img, (struct hwct_rect){ 0, 0, 320, 180 }, 16);
	scenario = hwct_hash_compute(img->data, img->size);
	fixture_init(&f);
	b = buf_create(&tb, img->size, 0);
	buf_put_plane(b, 0, img->data, img->stride, 320, 192);
	buf_put_plane(b, 1, img->data + img->uv_offset, img->stride, 320, 96);
	CHECK(capture(&f, b, NULL, &hash) == HWCT_CAPTURE_OK, "NV12 not captured");
	CHECK(hwct_hash_equal(&hash, &scenario), "content hash differs from the scenario's NV12 blob");
	fixture_close(&f);
	expect_blob(f.path, &hash, img->data, img->size, "nv12");
	CHECK(find_blob(f.path, &hash, &blob), "no Blob record");
	CHECK(blob.encoding == HWCT__BLOB_ENCODING__BLOB_RAW && blob.width == 320 && blob.height == 192 &&
		blob.stride == 320 && blob.bpp == 1, "blob geometry is not plane 0's: %ux%u stride %u bpp %u",
		blob.width, blob.height, blob.stride, blob.bpp);
	buf_destroy(b);
	fixture_finish(&f);
	pattern_image_destroy(img);
}

/*
 * Plane 0 not at the start of the fd, strides past the row, a gap of junk
 * between the planes and junk after the last: the payload is the picture,
 * each plane's visible rows packed (docs/format.md section 3.3), none of
 * the padding, gap or junk.
 */
static void nv12_padded(struct hwct_test_buffer *tb, uint32_t w, uint32_t h)
{
	*tb = (struct hwct_test_buffer){ .width = w, .height = h, .fourcc = NV12, .stride = { 384, 416 },
		.offset = { 4096, 4096 + 384 * h + 8192 }, .hal_format = HAL_PIXEL_FORMAT_YCBCR_420_888 };
}

static void fill_planes(struct buf *b, uint8_t seed)
{
	for (int p = 0; p < 2; p++) {
		uint32_t rows = p ? (b->tb.height + 1) / 2 : b->tb.height;

		for (uint32_t y = 0; y < rows; y++) {
			uint8_t *row = b->image + b->tb.offset[p] + (size_t)y * b->tb.stride[p];

			for (uint32_t x = 0; x < b->tb.stride[p]; x++) {
				row[x] = (uint8_t)(seed + x * 7 + y * 13 + p * 101);
			}
		}
	}
}

/*
 * What the trace must store for b (NV12 or a 4-byte RGB format): each
 * plane's visible rows, packed, plane after plane.
 */
static uint8_t *expected(const struct buf *b, size_t *size)
{
	bool nv12 = b->tb.fourcc == NV12;
	uint32_t row0 = nv12 ? b->tb.width : b->tb.width * 4, row1 = (b->tb.width + 1) / 2 * 2;
	uint32_t rows1 = nv12 ? (b->tb.height + 1) / 2 : 0;
	size_t luma = (size_t)row0 * b->tb.height;
	uint8_t *e;

	*size = luma + (size_t)row1 * rows1;
	e = calloc(1, *size);
	for (uint32_t y = 0; y < b->tb.height; y++) {
		memcpy(e + (size_t)y * row0, b->image + b->tb.offset[0] + (size_t)y * b->tb.stride[0], row0);
	}
	for (uint32_t y = 0; y < rows1; y++) {
		memcpy(e + luma + (size_t)y * row1, b->image + b->tb.offset[1] + (size_t)y * b->tb.stride[1], row1);
	}
	return e;
}

static void test_nv12_layout(void)
{
	struct hwct_test_buffer tb;
	struct fixture f;
	struct hwct_hash hash;
	struct buf *b;
	uint8_t *want;
	size_t size;

	nv12_padded(&tb, 318, 181);	/* odd height: 91 chroma rows */
	fixture_init(&f);
	b = buf_create(&tb, tb.offset[1] + (size_t)tb.stride[1] * 91 + 5000, 0xA5);
	fill_planes(b, 1);
	want = expected(b, &size);
	CHECK(capture(&f, b, NULL, &hash) == HWCT_CAPTURE_OK, "padded NV12 not captured");
	fixture_close(&f);
	expect_blob(f.path, &hash, want, size, "nv12-layout");
	free(want);
	buf_destroy(b);
	fixture_finish(&f);
}

/*
 * Same pixels in two buffers with different junk: one hash, one blob. New
 * content with a damage hint: stored whole again (no delta for planes).
 */
static void test_nv12_dedup(void)
{
	struct hwct_test_buffer tb;
	struct hwct_writer_stats st;
	struct hwct_hash h1, h2, h3, h4;
	hwc_rect_t damage = { 0, 0, 64, 64 };
	struct fixture f;
	struct buf *a, *b;
	uint8_t *want;
	size_t size;
	Hwct__Blob blob;

	nv12_padded(&tb, 320, 180);
	fixture_init(&f);
	a = buf_create(&tb, tb.offset[1] + (size_t)tb.stride[1] * 90, 0x11);
	b = buf_create(&tb, tb.offset[1] + (size_t)tb.stride[1] * 90, 0x77);
	fill_planes(a, 3);
	fill_planes(b, 3);
	CHECK(capture(&f, a, NULL, &h1) == HWCT_CAPTURE_OK, "a");
	CHECK(capture(&f, b, NULL, &h2) == HWCT_CAPTURE_OK, "b");
	CHECK(capture(&f, a, &damage, &h3) == HWCT_CAPTURE_OK, "a again");
	CHECK(hwct_hash_equal(&h1, &h2) && hwct_hash_equal(&h1, &h3), "equal planes, different hashes");
	fill_planes(a, 9);
	CHECK(capture(&f, a, &damage, &h4) == HWCT_CAPTURE_OK, "a changed");
	CHECK(!hwct_hash_equal(&h1, &h4), "changed planes, same hash");
	hwct_writer_get_stats(f.ctx.writer, &st);
	CHECK(st.blobs == 2 && st.blobs_deduplicated == 2, "%llu blobs, %llu deduplicated; want 2, 2",
		(unsigned long long)st.blobs, (unsigned long long)st.blobs_deduplicated);
	fixture_close(&f);
	want = expected(a, &size);
	expect_blob(f.path, &h4, want, size, "nv12 changed");
	CHECK(find_blob(f.path, &h4, &blob) && blob.encoding == HWCT__BLOB_ENCODING__BLOB_RAW,
		"multi-plane content stored as a delta");
	free(want);
	buf_destroy(a);
	buf_destroy(b);
	fixture_finish(&f);
}

/* Layouts the recorder cannot read: unmappable, nothing stored, nothing read. */
static void test_refused(void)
{
	static const struct {
		const char *name;
		uint32_t stride[2], offset[2];
		uint64_t modifier;
		size_t size;
	} cases[] = {
		{ "chroma past the fd", { 320, 320 }, { 0, 320 * 180 }, 0, 320 * 180 + 320 * 89 },
		{ "chroma stride short", { 320, 318 }, { 0, 320 * 180 }, 0, 320 * 270 },
		{ "one plane", { 320, 0 }, { 0, 0 }, 0, 320 * 270 },
		{ "tiled", { 320, 320 }, { 0, 320 * 180 }, 0x0100000000000001ull, 320 * 270 },
		{ "chroma before luma", { 320, 320 }, { 320 * 90, 0 }, 0, 320 * 270 },
	};
	struct hwct_writer_stats st;
	struct fixture f;

	fixture_init(&f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hwct_test_buffer tb = { .width = 320, .height = 180, .fourcc = NV12,
			.stride = { cases[i].stride[0], cases[i].stride[1] },
			.offset = { cases[i].offset[0], cases[i].offset[1] }, .modifier = cases[i].modifier };
		struct buf *b = buf_create(&tb, cases[i].size, 0x42);
		int32_t status = capture(&f, b, NULL, NULL);

		CHECK(status == HWCT_CAPTURE_UNMAPPABLE, "%s: status %d", cases[i].name, status);
		CHECK(b->starts == 0, "%s: read", cases[i].name);
		buf_destroy(b);
	}
	hwct_writer_get_stats(f.ctx.writer, &st);
	CHECK(st.blobs == 0, "%llu blobs stored", (unsigned long long)st.blobs);
	fixture_finish(&f);
}

/* Single-plane RGB with padded rows: the packed picture whole, then a delta for a damaged rect. */
static void test_rgb(void)
{
	struct hwct_test_buffer tb = { .width = 200, .height = 100, .fourcc = AB24, .stride = { 832, 0 },
		.offset = { 256, 0 } };
	hwc_rect_t damage = { 10, 10, 40, 30 };
	struct hwct_hash h1, h2;
	struct fixture f;
	uint8_t *first, *second;
	size_t size;
	struct buf *b;
	Hwct__Blob blob;

	fixture_init(&f);
	b = buf_create(&tb, 256 + 832 * 100, 0x33);
	for (size_t i = 256; i < b->size; i++) {
		b->image[i] = (uint8_t)(i * 31);
	}
	first = expected(b, &size);
	CHECK(capture(&f, b, NULL, &h1) == HWCT_CAPTURE_OK, "RGB not captured");
	for (uint32_t y = 10; y < 30; y++) {
		memset(b->image + 256 + (size_t)y * 832 + 10 * 4, 0xC0, 30 * 4);
	}
	second = expected(b, &size);
	CHECK(capture(&f, b, &damage, &h2) == HWCT_CAPTURE_OK, "RGB change not captured");
	fixture_close(&f);
	expect_blob(f.path, &h1, first, size, "rgb");
	expect_blob(f.path, &h2, second, size, "rgb delta");
	CHECK(find_blob(f.path, &h2, &blob) && blob.encoding == HWCT__BLOB_ENCODING__BLOB_DELTA,
		"RGB change not stored as a delta");
	CHECK(blob.stride == 800 && blob.bpp == 4, "blob rows of %u bytes (bpp %u), want the packed 800",
		blob.stride, blob.bpp);
	free(first);
	free(second);
	buf_destroy(b);
	fixture_finish(&f);
}

/*
 * One picture in buffers of three layouts: packed, rows (and the chroma
 * plane) 64-byte aligned, 256-byte aligned; padding, gaps and what follows
 * the planes filled with random bytes, different in each buffer. Equal
 * pixels are equal content: one hash, the hash of the packed picture, one
 * blob stored, which decodes to the packed picture.
 */
static void strides_case(const char *what, uint32_t fourcc, uint32_t w, uint32_t h)
{
	bool nv12 = fourcc == NV12;
	uint32_t row = nv12 ? w : w * 4, rows1 = nv12 ? (h + 1) / 2 : 0;
	static const uint32_t aligns[] = { 1, 64, 256 };
	struct hwct_writer_stats st;
	struct hwct_hash hashes[3];
	struct fixture f;
	struct buf *bs[3];
	uint8_t *want = NULL;
	size_t size = 0;

	fixture_init(&f);
	for (int i = 0; i < 3; i++) {
		uint32_t a = aligns[i], stride = (row + a - 1) / a * a;
		uint32_t luma_end = i * 4096 + stride * h;
		struct hwct_test_buffer tb = { .width = w, .height = h, .fourcc = fourcc,
			.stride = { stride, nv12 ? stride : 0 },
			.offset = { (uint32_t)i * 4096, nv12 ? (luma_end + a - 1) / a * a + (i ? a : 0) : 0 },
			.hal_format = nv12 ? HAL_PIXEL_FORMAT_YCBCR_420_888 : HAL_PIXEL_FORMAT_RGBA_8888 };
		size_t bytes = (nv12 ? tb.offset[1] + (size_t)stride * rows1 : luma_end) + (i ? 777 : 0);

		bs[i] = buf_create(&tb, bytes, 0);
		srand(7 + i);
		for (size_t k = 0; k < bytes; k++) {
			bs[i]->image[k] = (uint8_t)rand();	/* padding and gaps: whatever the allocator left */
		}
		/* the picture: the same bytes in every buffer */
		for (uint32_t y = 0; y < h; y++) {
			for (uint32_t x = 0; x < row; x++) {
				bs[i]->image[tb.offset[0] + (size_t)y * stride + x] = (uint8_t)(x * 7 + y * 3);
			}
		}
		for (uint32_t y = 0; y < rows1; y++) {
			for (uint32_t x = 0; x < (w + 1) / 2 * 2; x++) {
				bs[i]->image[tb.offset[1] + (size_t)y * stride + x] = (uint8_t)(x * 5 + y * 11 + 1);
			}
		}
		CHECK(capture(&f, bs[i], NULL, &hashes[i]) == HWCT_CAPTURE_OK, "%s: stride %u not captured", what,
			stride);
		if (i == 0) {
			want = expected(bs[0], &size);
		}
	}
	CHECK(hwct_hash_equal(&hashes[0], &hashes[1]) && hwct_hash_equal(&hashes[0], &hashes[2]),
		"%s: one picture, more than one hash across strides", what);
	hwct_writer_get_stats(f.ctx.writer, &st);
	CHECK(st.blobs == 1 && st.blobs_deduplicated == 2, "%s: %llu blobs, %llu deduplicated; want 1, 2", what,
		(unsigned long long)st.blobs, (unsigned long long)st.blobs_deduplicated);
	fixture_close(&f);
	expect_blob(f.path, &hashes[2], want, size, what);
	free(want);
	for (int i = 0; i < 3; i++) {
		buf_destroy(bs[i]);
	}
	fixture_finish(&f);
}

static void test_strides(void)
{
	strides_case("rgb strides", AB24, 540, 37);
	strides_case("nv12 strides", NV12, 318, 181);
}

/*
 * The mapping cache (capture_map.c): one buffer is mapped once and read
 * through the kept mapping, which shows what the buffer holds now; a longer
 * layout maps again; other buffers get their own; at most REC_MAP_CACHE are
 * kept, idle ones are dropped, and clear drops all.
 */
static unsigned maps_kept(const struct rec_map_cache *c)
{
	unsigned n = 0;

	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		n += c->items[i].used;
	}
	return n;
}

static void test_map(void)
{
	struct rec_map_cache c = { 0 };
	int fds[REC_MAP_CACHE + 2];
	struct stat st[REC_MAP_CACHE + 2];
	const uint8_t *m1, *m2;
	uint64_t now = 1000000000ull;

	for (int i = 0; i < REC_MAP_CACHE + 2; i++) {
		uint8_t v = (uint8_t)i;

		fds[i] = memfd_create("hwct-test-map", MFD_CLOEXEC);
		CHECK(fds[i] >= 0 && ftruncate(fds[i], 8192) == 0 && fstat(fds[i], &st[i]) == 0 &&
			pwrite(fds[i], &v, 1, 0) == 1, "memfd: %s", strerror(errno));
	}
	m1 = rec_map_cache_get(&c, fds[0], st[0].st_dev, st[0].st_ino, 4096, now);
	m2 = rec_map_cache_get(&c, fds[0], st[0].st_dev, st[0].st_ino, 4096, now + 1);
	CHECK(m1 && m1 == m2 && maps_kept(&c) == 1, "the same buffer mapped again (%p, %p, %u kept)",
		(const void *)m1, (const void *)m2, maps_kept(&c));
	CHECK(pwrite(fds[0], "\x5a", 1, 0) == 1 && m2 && m2[0] == 0x5a, "the kept mapping shows old bytes");
	m2 = rec_map_cache_get(&c, fds[0], st[0].st_dev, st[0].st_ino, 8192, now + 2);
	CHECK(m2 && m2[8191] == 0 && m2[0] == 0x5a && maps_kept(&c) == 1, "a longer layout not mapped again");
	m2 = rec_map_cache_get(&c, fds[1], st[1].st_dev, st[1].st_ino, 4096, now + 3);
	CHECK(m2 && m2[0] == 1 && maps_kept(&c) == 2, "a second buffer shares a mapping");
	for (int i = 2; i < REC_MAP_CACHE + 2; i++) {
		m2 = rec_map_cache_get(&c, fds[i], st[i].st_dev, st[i].st_ino, 4096, now + 3 + (uint64_t)i);
		CHECK(m2 && m2[0] == (uint8_t)i, "buffer %d read wrong", i);
	}
	CHECK(maps_kept(&c) == REC_MAP_CACHE, "%u mappings kept, at most %d", maps_kept(&c), REC_MAP_CACHE);
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		CHECK(!c.items[i].used || c.items[i].ino != st[0].st_ino, "the least recently used was kept");
	}
	/* the last one mapped is used again after the others went idle: only it stays */
	m2 = rec_map_cache_get(&c, fds[REC_MAP_CACHE + 1], st[REC_MAP_CACHE + 1].st_dev,
		st[REC_MAP_CACHE + 1].st_ino, 4096, now + 3 + REC_MAP_CACHE + 1 + REC_MAP_IDLE_NS);
	CHECK(m2 && m2[0] == (uint8_t)(REC_MAP_CACHE + 1) && maps_kept(&c) == 1, "%u mappings kept past the idle "
		"time", maps_kept(&c));
	rec_map_cache_clear(&c);
	CHECK(maps_kept(&c) == 0, "clear kept %u mappings", maps_kept(&c));
	for (int i = 0; i < REC_MAP_CACHE + 2; i++) {
		close(fds[i]);
	}
}

/*
 * The mapping cache lets a buffer go as soon as the worker learns it is
 * gone (capture_map.h): replaced REC_MAP_REPLACED + 1 times on its layer (a
 * queue of three cycling keeps all three), its layer destroyed, its display
 * gone, or idle past REC_MAP_IDLE_NS at a frame; and then the memory of a
 * buffer its producer closed is no longer mapped in the process.
 */
enum { RB_A, RB_B, RB_C, RB_G, RB_H, RB_I, RB_D, RB_E, RB_F, RB_COUNT };

struct retire_buf {
	int fd;
	struct stat st;
	char name[32];
};

static bool kept(const struct rec_map_cache *c, const struct retire_buf *b)
{
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		if (c->items[i].used && c->items[i].ino == (uint64_t)b->st.st_ino &&
				c->items[i].dev == (uint64_t)b->st.st_dev) {
			return true;
		}
	}
	return false;
}

/* Whether the process maps the memfd named name (/proc/self/maps shows "/memfd:NAME"). */
static bool mapped_in_process(const char *name)
{
	char line[512], want[64];
	FILE *f = fopen("/proc/self/maps", "r");
	bool found = false;

	if (!f) {
		return false;
	}
	snprintf(want, sizeof(want), "/memfd:%s ", name);
	while (fgets(line, sizeof(line), f)) {
		found = found || strstr(line, want) != NULL;
	}
	fclose(f);
	return found;
}

/* A capture maps b, then its call is written: set on (display, layer) at now. */
static void capture_set(struct rec_map_cache *c, struct retire_buf *b, uint64_t display, bool target, uint64_t layer,
	uint64_t now)
{
	CHECK(rec_map_cache_get(c, b->fd, b->st.st_dev, b->st.st_ino, 4096, now) != NULL, "map %s", b->name);
	rec_map_cache_buffer_set(c, display, target, layer, b->st.st_dev, b->st.st_ino, now);
}

static void test_map_retire(void)
{
	static const char *const names = "ABCGHIDEF";
	struct rec_map_cache c = { 0 };
	struct retire_buf b[RB_COUNT];
	uint64_t now = 1000000000ull;

	for (int i = 0; i < RB_COUNT; i++) {
		snprintf(b[i].name, sizeof(b[i].name), "hwct-retire-%d-%c", (int)getpid(), names[i]);
		b[i].fd = memfd_create(b[i].name, MFD_CLOEXEC);
		CHECK(b[i].fd >= 0 && ftruncate(b[i].fd, 4096) == 0 && fstat(b[i].fd, &b[i].st) == 0, "memfd: %s",
			strerror(errno));
	}
	/* display 0: layer 1 cycles a queue of A, B, C; layer 2 shows D; a client target E; display 1's layer 1: F */
	for (int round = 0; round < 3; round++) {
		for (int i = RB_A; i <= RB_C; i++) {
			capture_set(&c, &b[i], 0, false, 1, now += 16000000);
		}
	}
	capture_set(&c, &b[RB_D], 0, false, 2, now += 1000);
	capture_set(&c, &b[RB_E], 0, true, 1, now += 1000);
	capture_set(&c, &b[RB_F], 1, false, 1, now += 1000);
	CHECK(kept(&c, &b[RB_A]) && kept(&c, &b[RB_B]) && kept(&c, &b[RB_C]), "a queue of three cycling lost a mapping");
	/* layer 1's queue reallocated (G, H, I): A, last set before B and C, goes at its fifth replacement */
	capture_set(&c, &b[RB_G], 0, false, 1, now += 16000000);
	capture_set(&c, &b[RB_H], 0, false, 1, now += 16000000);
	CHECK(kept(&c, &b[RB_A]), "A dropped after %d replacements", 4);
	capture_set(&c, &b[RB_I], 0, false, 1, now += 16000000);
	CHECK(!kept(&c, &b[RB_A]), "A kept after %d replacements", REC_MAP_REPLACED + 1);
	CHECK(kept(&c, &b[RB_B]) && kept(&c, &b[RB_C]), "B or C dropped before its fifth replacement");
	capture_set(&c, &b[RB_G], 0, false, 1, now += 16000000);
	capture_set(&c, &b[RB_H], 0, false, 1, now += 16000000);
	CHECK(!kept(&c, &b[RB_B]) && !kept(&c, &b[RB_C]), "the old queue's buffers kept after it was replaced");
	CHECK(kept(&c, &b[RB_D]) && kept(&c, &b[RB_E]) && kept(&c, &b[RB_F]),
		"another layer's, a client target's or another display's mapping counted a replacement");
	/* the producer frees D (closes it): the kept mapping alone holds it, until its layer is destroyed */
	close(b[RB_D].fd);
	b[RB_D].fd = -1;
	CHECK(mapped_in_process(b[RB_D].name), "D not mapped while kept (is /proc/self/maps readable?)");
	rec_map_cache_forget(&c, 0, false, 2);
	CHECK(!kept(&c, &b[RB_D]) && !mapped_in_process(b[RB_D].name), "D's memory held after its layer was destroyed");
	rec_map_cache_forget(&c, 0, false, 1);
	CHECK(!kept(&c, &b[RB_G]) && !kept(&c, &b[RB_H]) && !kept(&c, &b[RB_I]), "layer 1's buffers kept after it was "
		"destroyed");
	CHECK(kept(&c, &b[RB_E]) && kept(&c, &b[RB_F]), "destroying display 0's layer 1 dropped its client target's "
		"or display 1's layer 1's mapping");
	/* display 0 disconnected: its client target goes, display 1's layer stays */
	rec_map_cache_forget(&c, 0, true, 0);
	CHECK(!kept(&c, &b[RB_E]) && kept(&c, &b[RB_F]), "a display's disconnection dropped the wrong mappings");
	/* idle: dropped at a frame past REC_MAP_IDLE_NS, with no capture to trigger it */
	rec_map_cache_expire(&c, now + REC_MAP_IDLE_NS / 2);
	CHECK(kept(&c, &b[RB_F]), "F dropped before it was idle");
	rec_map_cache_expire(&c, now + REC_MAP_IDLE_NS + 1);
	CHECK(!kept(&c, &b[RB_F]), "F kept past the idle time");
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		CHECK(!c.items[i].used, "mapping %zu still kept", i);
	}
	rec_map_cache_clear(&c);
	for (int i = 0; i < RB_COUNT; i++) {
		if (b[i].fd >= 0) {
			close(b[i].fd);
		}
	}
}

/* The worker's order of pending captures (rec_capture_more_urgent). */
static void test_urgency(void)
{
	struct rec_capture every_frame = { .release_fd = -1, .interval_ns = 16666667, .bytes = 10368000 };
	struct rec_capture jittered = { .release_fd = -1, .interval_ns = 17900000, .bytes = 10368000 };
	struct rec_capture small = { .release_fd = -1, .interval_ns = 16000000, .bytes = 414720 };
	struct rec_capture each_second = { .release_fd = -1, .interval_ns = 1000000000, .bytes = 414720 };
	struct rec_capture first = { .release_fd = -1, .interval_ns = 0, .bytes = 10368000 };
	struct rec_capture handed_back = { .release_fd = 0, .interval_ns = 1000000000, .bytes = 10368000 };

	CHECK(rec_capture_more_urgent(&every_frame, &each_second) && !rec_capture_more_urgent(&each_second,
		&every_frame), "a layer new every frame is not captured before one new every second");
	CHECK(rec_capture_more_urgent(&first, &each_second), "a layer's first buffer waits behind a slow layer");
	CHECK(!rec_capture_more_urgent(&every_frame, &jittered) && !rec_capture_more_urgent(&jittered,
		&every_frame), "a 60 Hz layer's jitter reorders it");
	CHECK(rec_capture_more_urgent(&small, &every_frame) && rec_capture_more_urgent(&small, &first) &&
		!rec_capture_more_urgent(&every_frame, &small), "a small buffer waits behind a big one as urgent");
	CHECK(rec_capture_more_urgent(&handed_back, &small) && !rec_capture_more_urgent(&small, &handed_back),
		"a buffer already handed back (its release fence pending) waits");
	CHECK(!rec_capture_more_urgent(&every_frame, &every_frame), "equal urgency does not keep call order");
}

static const struct check_case tests[] = {
	{ "nv12", test_nv12 },
	{ "nv12-layout", test_nv12_layout },
	{ "strides", test_strides },
	{ "nv12-dedup", test_nv12_dedup },
	{ "refused", test_refused },
	{ "rgb", test_rgb },
	{ "map", test_map },
	{ "map-retire", test_map_retire },
	{ "urgency", test_urgency },
};

int main(int argc, char **argv)
{
	return check_run_cases(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
