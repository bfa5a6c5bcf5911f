/*
 * The buffer-info plug-ins against handle snapshots of each allocator's
 * layout, built here from the layouts their headers define (libdrm
 * android/gralloc_handle.h, minigbm cros_gralloc_handle.h of 2018, intel and
 * 2020, the project's <hwct/test_buffer.h>), and against near-misses each plug-in
 * must refuse. One meson test per case.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/test_buffer.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "bufinfo.h"

#define AB24 REC_FOURCC('A', 'B', '2', '4')
#define NV12 REC_FOURCC('N', 'V', '1', '2')

struct check_tally check_tally;

static struct rec_handle *handle(int num_fds, int num_ints)
{
	struct rec_handle *h = calloc(1, sizeof(*h) + (size_t)(num_fds + num_ints) * sizeof(int32_t));

	h->fd = -1;
	h->num_fds = num_fds;
	h->num_ints = num_ints;
	h->words = num_fds + num_ints;
	return h;
}

/* ---------------------------------------------------------- test allocator */

/* The public <hwct/test_buffer.h> handle (hwcomposer.kms.so, the HWC2 test client). */
static struct rec_handle *test_buffer(uint32_t magic, uint32_t w, uint32_t fourcc)
{
	struct hwct_test_buffer b = { .fd = 5, .width = w, .height = 480, .fourcc = fourcc,
		.stride = { w * 4, 0 }, .offset = { 256, 0 }, .hal_format = 1 };
	native_handle_t *n = hwct_test_handle_create(&b);
	struct rec_handle *h = handle(n->numFds, n->numInts);

	memcpy(h->data, n->data, (size_t)(n->numFds + n->numInts) * sizeof(int));
	h->data[1] = (int32_t)magic;
	free(n);
	return h;
}

/* ------------------------------------------------------------ gbm_gralloc */

/* libdrm android/gralloc_handle.h, GRALLOC_HANDLE_VERSION 3, native_handle_t spelled out */
struct gralloc_v3 {
	int version, num_fds, num_ints;
	int prime_fd;
	uint32_t magic, hversion, width, height, format, usage, stride;
	uint64_t modifier;
	int data_owner;
	_Alignas(8) union {
		void *data;
		uint64_t reserved;
	} u;
};

static struct rec_handle *gralloc(uint32_t magic, uint32_t version, uint32_t format, uint32_t stride)
{
	struct gralloc_v3 g = {
		.prime_fd = 5,
		.magic = magic,
		.hversion = version,
		.width = 640,
		.height = 480,
		.format = format,
		.usage = 0x933,
		.stride = stride,
		.modifier = 0,
	};
	int words = (int)((sizeof(g) - 3 * sizeof(int)) / sizeof(int));
	struct rec_handle *h = handle(1, words - 1);

	memcpy(h->data, (const char *)&g + 3 * sizeof(int), (size_t)words * sizeof(int));
	return h;
}

/* -------------------------------------------------------------- minigbm */

static struct rec_handle *cros_2018(int extra, uint32_t magic, uint32_t width)
{
	/* fds[4] strides[4] offsets[4] sizes[4] modifiers[8] width height format flags[2] magic ... */
	struct rec_handle *h = handle(1, 33 + extra - 1);

	h->data[0] = 5;
	h->data[4] = (int32_t)(width * 4);	/* strides[0] */
	h->data[8] = 0;				/* offsets[0] */
	h->data[24] = (int32_t)width;
	h->data[25] = 480;
	h->data[26] = (int32_t)AB24;
	h->data[29] = (int32_t)magic;
	h->data[31] = 1;			/* droid_format RGBA_8888 */
	return h;
}

/* upstream minigbm: fds[5] ... name_offset, then the name */
static struct rec_handle *cros_2020(uint32_t magic, uint32_t planes, uint32_t fourcc)
{
	struct layout {
		int nh[3];
		int32_t fds[5];
		uint32_t strides[4], offsets[4], sizes[4];
		uint32_t id, width, height, format, tiling;
		uint64_t format_modifier, use_flags;
		uint32_t magic, pixel_stride;
		int32_t droid_format, usage;
		uint32_t num_planes;
		uint64_t reserved_region_size, total_size;
		uint32_t name_offset;
	} c = { 0 };
	int fixed = (int)((offsetof(struct layout, name_offset) + 4 - 3 * sizeof(int)) / sizeof(int));
	struct rec_handle *h = handle((int)planes, fixed + 2 - (int)planes);

	c.fds[0] = 5;
	c.strides[0] = 640 * 4;
	c.strides[1] = 640;
	c.offsets[1] = 640 * 480;
	c.width = 640;
	c.height = 480;
	c.format = fourcc;
	c.magic = magic;
	c.num_planes = planes;
	c.name_offset = (uint32_t)fixed;
	c.format_modifier = 0;
	memcpy(h->data, (const char *)&c + 3 * sizeof(int), (size_t)fixed * sizeof(int));
	memcpy(&h->data[fixed], "bo\0", 4);
	return h;
}

/* --------------------------------------------------------------- cases */

static void expect(const char *name, struct rec_handle *h, const char *allocator, uint32_t width,
	uint32_t fourcc, uint32_t stride)
{
	struct rec_buffer_layout l;
	bool ok = rec_bufinfo_parse(h, &l);

	if (!allocator) {
		CHECK(!ok, "%s: claimed by %s", name, l.allocator);
	} else {
		CHECK(ok && l.allocator && strcmp(l.allocator, allocator) == 0, "%s: %s", name,
			ok ? l.allocator : "refused");
		if (ok) {
			CHECK(l.width == width && l.drm_format == fourcc && l.planes[0].stride == stride &&
				l.plane_count >= 1, "%s: %ux%u %08x stride %u", name, l.width, l.height,
				l.drm_format, l.planes[0].stride);
		}
	}
	free(h);
}

static void test_test_allocator(void)
{
	expect("test_buffer", test_buffer(HWCT_TEST_HANDLE_MAGIC, 640, AB24), "hwct-test", 640, AB24, 2560);
	expect("test_buffer bad magic", test_buffer(0x12345678, 640, AB24), NULL, 0, 0, 0);
	expect("test_buffer no width", test_buffer(HWCT_TEST_HANDLE_MAGIC, 0, AB24), NULL, 0, 0, 0);
	expect("test_buffer huge", test_buffer(HWCT_TEST_HANDLE_MAGIC, 1u << 20, AB24), NULL, 0, 0, 0);
	expect("test_buffer not fourcc", test_buffer(HWCT_TEST_HANDLE_MAGIC, 640, 1), NULL, 0, 0, 0);
}

static void test_gralloc(void)
{
	/* HAL_PIXEL_FORMAT_RGBA_8888 = 1 maps to ABGR8888 */
	expect("gralloc v3 hal format", gralloc(0x60585350u, 3, 1, 2560), "gbm_gralloc", 640, AB24, 2560);
	expect("gralloc v3 fourcc", gralloc(0x60585350u, 3, AB24, 2560), "gbm_gralloc", 640, AB24, 2560);
	expect("gralloc bad magic", gralloc(0x60585351u, 3, 1, 2560), NULL, 0, 0, 0);
	expect("gralloc old version", gralloc(0x60585350u, 1, 1, 2560), NULL, 0, 0, 0);
	/* a fork with covert_format where stride was: stride reads as 0 */
	expect("gralloc moved stride", gralloc(0x60585350u, 4, 1, 0), NULL, 0, 0, 0);
	{
		struct rec_handle *h = gralloc(0x60585350u, 3, 1, 2560);

		h->num_ints++;	/* another layout */
		expect("gralloc wrong size", h, NULL, 0, 0, 0);
	}
}

static void test_cros(void)
{
	expect("cros 2018", cros_2018(0, 0xABCDDCBAu, 640), "cros_gralloc", 640, AB24, 2560);
	expect("cros intel", cros_2018(14, 0xABCDDCBAu, 640), "cros_gralloc", 640, AB24, 2560);
	expect("cros 2018 bad magic", cros_2018(0, 0xABCDDCBBu, 640), NULL, 0, 0, 0);
	expect("cros 2018 odd size", cros_2018(3, 0xABCDDCBAu, 640), NULL, 0, 0, 0);
	expect("cros 2018 no width", cros_2018(0, 0xABCDDCBAu, 0), NULL, 0, 0, 0);
	expect("cros 2020", cros_2020(0xABCDDCBAu, 1, AB24), "cros_gralloc", 640, AB24, 2560);
	expect("cros 2020 nv12", cros_2020(0xABCDDCBAu, 2, NV12), "cros_gralloc", 640, NV12, 2560);
	expect("cros 2020 bad magic", cros_2020(0x1u, 1, AB24), NULL, 0, 0, 0);
	{
		struct rec_handle *h = cros_2020(0xABCDDCBAu, 1, AB24);

		h->words--;	/* cut short: the snapshot is incomplete */
		expect("cros 2020 cut", h, NULL, 0, 0, 0);
	}
}

static void test_unknown(void)
{
	struct rec_handle *h = handle(1, 3);

	h->data[1] = 42;
	expect("unknown", h, NULL, 0, 0, 0);
	expect("empty", handle(0, 0), NULL, 0, 0, 0);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "test-allocator", test_test_allocator },
	{ "gbm-gralloc", test_gralloc },
	{ "cros-gralloc", test_cros },
	{ "unknown", test_unknown },
};

int main(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (argc == 2 && strcmp(argv[1], cases[i].name) == 0) {
			cases[i].fn();
			return check_status();
		}
	}
	fprintf(stderr, "usage: test-bufinfo CASE\n");
	return 2;
}
