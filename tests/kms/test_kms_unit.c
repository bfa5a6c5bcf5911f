/*
 * Deviceless tests of the KMS backend: format fallbacks and row conversion,
 * the framebuffer cache (with stand-in framebuffers), IN_FORMATS blob
 * decoding and the frame checksum definition. One case per argument; exits
 * 0 when it passes, 1 with "check failed:" lines otherwise (check.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>
#include <xf86drmMode.h>

#define CHECK_NONFATAL	/* a failed check is counted and the test goes on */
#include "check.h"
#include "fb.h"
#include "format.h"
#include "kms_private.h"
#include "readback.h"

struct check_tally check_tally;

/* A vkms 6.1 board: primary XR24 XR48 RG16, one overlay AR24 XR24 XR48 AR48 RG16. */
static struct board *vkms_board(void)
{
	static const uint32_t primary[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616,
		DRM_FORMAT_RGB565 };
	static const uint32_t overlay[] = { DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888,
		DRM_FORMAT_XRGB16161616, DRM_FORMAT_ARGB16161616, DRM_FORMAT_RGB565 };
	struct board *board = board_create("vkms-test");
	struct board_plane *plane;

	plane = board_add_plane(board, 31, BOARD_PLANE_PRIMARY);
	for (size_t i = 0; i < sizeof(primary) / sizeof(primary[0]); i++) {
		board_plane_add_format(plane, primary[i], BOARD_MOD_LINEAR);
	}
	plane = board_add_plane(board, 33, BOARD_PLANE_OVERLAY);
	for (size_t i = 0; i < sizeof(overlay) / sizeof(overlay[0]); i++) {
		board_plane_add_format(plane, overlay[i], BOARD_MOD_LINEAR);
	}
	plane = board_add_plane(board, 35, BOARD_PLANE_OVERLAY);
	board_plane_add_format(plane, DRM_FORMAT_ARGB8888, BOARD_MOD_LINEAR);
	return board;
}

static void test_format_choose(void)
{
	struct board *board = vkms_board();
	const struct board_plane *primary = board_find_plane(board, 31);
	const struct board_plane *overlay = board_find_plane(board, 33);
	const struct board_plane *argb_only = board_find_plane(board, 35);
	struct kms_import imp = { .source_fourcc = DRM_FORMAT_ABGR8888,
		.fourcc = DRM_FORMAT_ARGB8888, .converted = true };
	char buf[64];

	CHECK(kms_format_choose(board, primary, DRM_FORMAT_XRGB8888, false) == DRM_FORMAT_XRGB8888);
	CHECK(kms_format_choose(board, overlay, DRM_FORMAT_ABGR8888, false) == DRM_FORMAT_ARGB8888);
	CHECK(kms_format_choose(board, overlay, DRM_FORMAT_XBGR8888, false) == DRM_FORMAT_XRGB8888);
	CHECK(kms_format_choose(board, overlay, DRM_FORMAT_RGBA8888, true) == DRM_FORMAT_ARGB8888);
	/* the primary has no alpha format: only an opaque layer may lose its alpha */
	CHECK(kms_format_choose(board, primary, DRM_FORMAT_ARGB8888, false) == 0);
	CHECK(kms_format_choose(board, primary, DRM_FORMAT_ARGB8888, true) == DRM_FORMAT_XRGB8888);
	CHECK(kms_format_choose(board, primary, DRM_FORMAT_ABGR8888, true) == DRM_FORMAT_XRGB8888);
	/* an X source may gain an opaque alpha */
	CHECK(kms_format_choose(board, argb_only, DRM_FORMAT_XBGR8888, false) == DRM_FORMAT_ARGB8888);
	CHECK(kms_format_choose(board, overlay, DRM_FORMAT_NV12, true) == 0);
	CHECK(kms_format_choose(board, overlay, DRM_FORMAT_BGR565, true) == 0);
	/* plane NULL: any plane of the board */
	CHECK(kms_format_choose(board, NULL, DRM_FORMAT_ARGB8888, false) == DRM_FORMAT_ARGB8888);
	CHECK(strcmp(kms_import_describe(&imp, buf, sizeof(buf)),
		"format fallback AB24\u2192AR24") == 0);
	imp.converted = false;
	CHECK(strcmp(kms_import_describe(&imp, buf, sizeof(buf)), "") == 0);
	CHECK(strcmp(kms_fourcc_name(DRM_FORMAT_NV12, buf), "NV12") == 0);
	board_destroy(board);
}

static void test_format_convert(void)
{
	/* ABGR8888 bytes R, G, B, A */
	const uint8_t abgr[8] = { 0x10, 0x20, 0x30, 0x80, 0x01, 0x02, 0x03, 0x04 };
	uint8_t out[8];

	kms_format_convert_row(DRM_FORMAT_ARGB8888, out, DRM_FORMAT_ABGR8888, abgr, 2);
	CHECK(memcmp(out, (uint8_t[]){ 0x30, 0x20, 0x10, 0x80, 0x03, 0x02, 0x01, 0x04 }, 8) == 0);
	kms_format_convert_row(DRM_FORMAT_XRGB8888, out, DRM_FORMAT_ABGR8888, abgr, 2);
	CHECK(memcmp(out, (uint8_t[]){ 0x30, 0x20, 0x10, 0xff, 0x03, 0x02, 0x01, 0xff }, 8) == 0);
	kms_format_convert_row(DRM_FORMAT_ARGB8888, out, DRM_FORMAT_XBGR8888, abgr, 2);
	CHECK(memcmp(out, (uint8_t[]){ 0x30, 0x20, 0x10, 0xff, 0x03, 0x02, 0x01, 0xff }, 8) == 0);
	/* RGBA8888 is [31:0] R:G:B:A: bytes A, B, G, R */
	kms_format_convert_row(DRM_FORMAT_RGBA8888, out, DRM_FORMAT_ABGR8888, abgr, 1);
	CHECK(memcmp(out, (uint8_t[]){ 0x80, 0x30, 0x20, 0x10 }, 4) == 0);
}

struct fake_fb {
	struct kms_fb base;
	int *destroyed;
};

static void fake_destroy(struct kms_fb *fb)
{
	struct fake_fb *f = (struct fake_fb *)(void *)fb;

	(*f->destroyed)++;
	free(f);
}

static const struct kms_fb_impl fake_impl = { .destroy = fake_destroy };

static int destroyed_count;	/* fake framebuffers destroyed */

static struct kms_fb *fake(uint32_t id, int *destroyed)
{
	struct fake_fb *f = calloc(1, sizeof(*f));

	f->base = (struct kms_fb){ .impl = &fake_impl, .refs = 1, .id = id, .width = 4,
		.height = 4, .fourcc = DRM_FORMAT_ARGB8888 };
	f->destroyed = destroyed;
	return &f->base;
}

static struct kms_fb_key key(uint64_t n)
{
	return (struct kms_fb_key){ .hash = { n, ~n }, .src_fourcc = DRM_FORMAT_ABGR8888,
		.fourcc = DRM_FORMAT_ARGB8888, .width = 4, .height = 4 };
}

static void test_fb_cache(void)
{
	struct kms_fb_cache *cache = kms_fb_cache_create(2);
	struct kms_fb_key k1 = key(1), k2 = key(2), k3 = key(3), k4 = key(4);
	struct kms_fb *a = fake(1, &destroyed_count), *b = fake(2, &destroyed_count);
	struct kms_fb *c = fake(3, &destroyed_count), *d = fake(4, &destroyed_count);
	struct kms_fb *e = fake(5, &destroyed_count), *got;

	destroyed_count = 0;
	CHECK(kms_fb_cache_put(cache, &k1, a) == 0);
	CHECK(kms_fb_cache_put(cache, &k2, b) == 0);
	kms_fb_unref(a);
	kms_fb_unref(b);
	CHECK(destroyed_count == 0);
	/* a different target format is another entry */
	k1.fourcc = DRM_FORMAT_XRGB8888;
	CHECK(kms_fb_cache_get(cache, &k1) == NULL);
	k1.fourcc = DRM_FORMAT_ARGB8888;
	/* touching k1 leaves k2 the least recently used */
	got = kms_fb_cache_get(cache, &k1);
	CHECK(got == a && a->refs == 2);
	kms_fb_unref(got);
	CHECK(kms_fb_cache_put(cache, &k3, c) == 0);
	kms_fb_unref(c);
	CHECK(destroyed_count == 1 && kms_fb_cache_count(cache) == 2);
	CHECK(kms_fb_cache_get(cache, &k2) == NULL);
	/* a held entry (on screen) is not evicted: c goes although a is older */
	got = kms_fb_cache_get(cache, &k1);
	CHECK(kms_fb_cache_put(cache, &k4, d) == 0);
	CHECK(destroyed_count == 2 && kms_fb_cache_count(cache) == 2);
	CHECK(kms_fb_cache_get(cache, &k3) == NULL);
	/* every entry held (a by got, d by its creator): the cache grows */
	CHECK(kms_fb_cache_put(cache, &k2, e) == 0);
	kms_fb_unref(e);
	CHECK(destroyed_count == 2 && kms_fb_cache_count(cache) == 3);
	kms_fb_unref(d);
	kms_fb_unref(got);
	CHECK(kms_fb_cache_stats(cache).evictions == 2);
	CHECK(kms_fb_cache_stats(cache).hits == 2);
	kms_fb_cache_destroy(cache);
	CHECK(destroyed_count == 5);
}

/* A two-modifier IN_FORMATS blob: LINEAR with formats 0 and 2, modifier 7 with format 1. */
struct test_blob {
	struct drm_format_modifier_blob head;
	uint32_t formats[3];
	uint32_t pad;
	struct drm_format_modifier mods[2];
};

static void test_in_formats(void)
{
	struct test_blob blob = {
		.head = { .version = FORMAT_BLOB_CURRENT, .count_formats = 3,
			.formats_offset = sizeof(struct drm_format_modifier_blob), .count_modifiers = 2,
			.modifiers_offset = offsetof(struct test_blob, mods) },
		.formats = { DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888, DRM_FORMAT_RGB565 },
		.mods = { { .formats = 0x5, .offset = 0, .modifier = DRM_FORMAT_MOD_LINEAR },
			{ .formats = 0x2, .offset = 0, .modifier = 7 } },
	};
	struct kms_in_format *mods;
	size_t count;

	CHECK(kms_in_formats_decode(&blob, sizeof(blob), &mods, &count) == 0);
	CHECK(count == 2);
	CHECK(mods[0].modifier == 0 && mods[0].format_count == 2 &&
		mods[0].formats[0] == DRM_FORMAT_ARGB8888 && mods[0].formats[1] == DRM_FORMAT_RGB565);
	CHECK(mods[1].modifier == 7 && mods[1].format_count == 1 &&
		mods[1].formats[0] == DRM_FORMAT_XRGB8888);
	free(mods);
	/* a format index past count_formats, a truncated blob, a future version */
	blob.mods[1].formats = 0x8;
	CHECK(kms_in_formats_decode(&blob, sizeof(blob), &mods, &count) == -EINVAL);
	blob.mods[1].formats = 0x2;
	CHECK(kms_in_formats_decode(&blob, sizeof(blob) - 8, &mods, &count) == -EINVAL);
	blob.head.version = 2;
	CHECK(kms_in_formats_decode(&blob, sizeof(blob), &mods, &count) == -EINVAL);
}

static void test_checksum(void)
{
	/* 2x2 XRGB8888 with a padded stride and garbage in the X bytes */
	uint8_t padded[2 * 12] = {
		1, 2, 3, 0x00, 4, 5, 6, 0x7f, 0xee, 0xee, 0xee, 0xee,
		7, 8, 9, 0x10, 10, 11, 12, 0xff, 0xee, 0xee, 0xee, 0xee,
	};
	const uint8_t packed[16] = { 1, 2, 3, 0xff, 4, 5, 6, 0xff, 7, 8, 9, 0xff, 10, 11, 12, 0xff };
	struct hwct_hash want = hwct_hash_compute(packed, sizeof(packed));
	struct hwct_hash got = kms_frame_checksum(DRM_FORMAT_XRGB8888, 2, 2, 12, padded);

	CHECK(hwct_hash_equal(&got, &want));
	/* ARGB8888 keeps its alpha bytes */
	got = kms_frame_checksum(DRM_FORMAT_ARGB8888, 2, 2, 12, padded);
	CHECK(!hwct_hash_equal(&got, &want));
	padded[3] = padded[7] = padded[15] = padded[19] = 0xff;
	got = kms_frame_checksum(DRM_FORMAT_ARGB8888, 2, 2, 12, padded);
	CHECK(hwct_hash_equal(&got, &want));
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "format-choose", test_format_choose },
	{ "format-convert", test_format_convert },
	{ "fb-cache", test_fb_cache },
	{ "in-formats", test_in_formats },
	{ "checksum", test_checksum },
};

int main(int argc, char *argv[])
{
	bool ran = false;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) {
			cases[i].run();
			ran = true;
		}
	}
	if (!ran) {
		fprintf(stderr, "unknown case %s\n", argv[1]);
		return 2;
	}
	return check_status();
}
