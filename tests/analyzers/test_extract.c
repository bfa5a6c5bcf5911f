/*
 * hwc-trace extract: the files of frame 3 of the standard trace read back
 * with libpng (sizes, pixels of known content in every format), frame.json,
 * and that nothing is written through symbolic links.
 */
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "testjson.h"

#define FRAME 3u

struct picture {
	uint32_t width, height;
	uint8_t *rgba;
};

static bool read_png(const char *path, struct picture *p)
{
	png_image image = { .version = PNG_IMAGE_VERSION };

	if (!png_image_begin_read_from_file(&image, path)) {
		fprintf(stderr, "%s: %s\n", path, image.message);
		return false;
	}
	image.format = PNG_FORMAT_RGBA;
	p->width = image.width;
	p->height = image.height;
	p->rgba = malloc(PNG_IMAGE_SIZE(image));
	CHECK(p->rgba);
	if (!png_image_finish_read(&image, NULL, p->rgba, 0, NULL)) {
		fprintf(stderr, "%s: %s\n", path, image.message);
		free(p->rgba);
		return false;
	}
	return true;
}

static uint32_t pixel(const struct picture *p, uint32_t x, uint32_t y)
{
	const uint8_t *q = p->rgba + ((size_t)y * p->width + x) * 4;

	return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

static bool near(uint32_t a, uint32_t b, int tolerance)
{
	for (int i = 0; i < 32; i += 8) {
		int d = (int)((a >> i) & 0xff) - (int)((b >> i) & 0xff);

		if (d < -tolerance || d > tolerance) {
			return false;
		}
	}
	return true;
}

/* Reads dir/name and checks its size and every pixel against expect(x, y) within tolerance. */
static void check_png(const char *dir, const char *name, uint32_t w, uint32_t h,
	uint32_t (*expect)(uint32_t x, uint32_t y), int tolerance)
{
	char path[600];
	struct picture p;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_MSG(read_png(path, &p), "%s is not a PNG", path);
	CHECK_MSG(p.width == w && p.height == h, "%s: %ux%u, expected %ux%u", name, p.width, p.height, w, h);
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			CHECK_MSG(near(pixel(&p, x, y), expect(x, y), tolerance), "%s (%u,%u): %08x, expected %08x", name, x, y,
				pixel(&p, x, y), expect(x, y));
		}
	}
	free(p.rgba);
}

static uint32_t l1(uint32_t x, uint32_t y)
{
	(void)x;
	(void)y;
	return gen_stack_l1_rgba(FRAME);
}

static uint32_t l2(uint32_t x, uint32_t y)
{
	return gen_stack_l2_rgba(x, y);
}

static uint32_t red(uint32_t x, uint32_t y)
{
	(void)x;
	(void)y;
	return 0xff0000ffu;
}

static uint32_t xrgb(uint32_t x, uint32_t y)
{
	(void)x;
	(void)y;
	return 3u | 2u << 8 | 1u << 16 | 0xffu << 24;	/* stored bytes B 1, G 2, R 3, X */
}

static uint32_t ct(uint32_t x, uint32_t y)
{
	return gen_stack_ct_rgba(FRAME, x, y);
}

static char *dir_path(const char *name)
{
	const char *p = test_path(name);

	return (char *)p;
}

static void check_preview(const char *dir)
{
	char path[600];
	struct picture p;

	snprintf(path, sizeof(path), "%s/preview.png", dir);
	CHECK(read_png(path, &p));
	CHECK(p.width == GEN_STACK_W && p.height == GEN_STACK_H);
	/* the solid colour layer, layer 1 alone (uniform, scaled), layer 2 at 1:1 */
	CHECK_MSG(near(pixel(&p, 5, 44), GEN_STACK_SOLID, 1), "solid: %08x", pixel(&p, 5, 44));
	CHECK_MSG(near(pixel(&p, 30, 20), gen_stack_l1_rgba(FRAME), 1), "layer 1: %08x", pixel(&p, 30, 20));
	CHECK_MSG(near(pixel(&p, 2, 2), gen_stack_l2_rgba(2, 2), 1), "layer 2: %08x", pixel(&p, 2, 2));
	free(p.rgba);
}

int test_extract_files(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *trace = std_trace("trace.zst", false, &info);
	char *dir = dir_path("out");
	char frame[16], path[600];
	struct test_run run;
	struct json_object *o, *layers;
	uint8_t *text;
	size_t size;

	snprintf(frame, sizeof(frame), "%u", FRAME);
	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--frame", frame, dir, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	check_png(dir, "layer-0-1.png", GEN_STACK_BUF_W, GEN_STACK_BUF_H, l1, 0);
	check_png(dir, "layer-1-2.png", GEN_STACK_BUF_W, GEN_STACK_BUF_H, l2, 0);
	check_png(dir, "layer-2-3.png", GEN_STACK_BUF_W, GEN_STACK_BUF_H, red, 0);
	/* NV12 Y 81 Cb 90 Cr 240, BT.601 limited range: (254, 0, 0) */
	check_png(dir, "layer-3-4.png", GEN_STACK_BUF_W, GEN_STACK_BUF_H, red, 2);
	check_png(dir, "layer-4-5.png", GEN_STACK_BUF_W, GEN_STACK_BUF_H, xrgb, 0);
	check_png(dir, "client-target.png", GEN_STACK_W, GEN_STACK_H, ct, 0);
	check_preview(dir);
	snprintf(path, sizeof(path), "%s/layer-5-6.png", dir);
	CHECK(!test_file_exists(path));	/* solid colour */
	snprintf(path, sizeof(path), "%s/layer-6-7.png", dir);
	CHECK(!test_file_exists(path));	/* not captured */

	snprintf(path, sizeof(path), "%s/frame.json", dir);
	text = test_read_file(path, &size);
	o = tj_parse((const char *)text, "frame.json");
	CHECK_EQ_U64(tj_i64(o, "frame"), FRAME);
	CHECK_EQ_U64(tj_i64(o, "width"), GEN_STACK_W);
	layers = tj_get(o, "layers");
	CHECK(json_object_array_length(layers) == GEN_STACK_LAYERS);
	CHECK(strcmp(json_object_get_string(tj_get(json_object_array_get_idx(layers, 0), "file")), "layer-0-1.png") == 0);
	CHECK(strcmp(json_object_get_string(tj_get(json_object_array_get_idx(layers, 2), "final")), "CLIENT") == 0);
	CHECK(strcmp(json_object_get_string(tj_get(json_object_array_get_idx(layers, 1), "drm_format")), "AR24") == 0);
	CHECK(!tj_get(json_object_array_get_idx(layers, 5), "file"));
	CHECK(strstr(json_object_get_string(tj_get(json_object_array_get_idx(layers, 5), "skipped")), "solid"));
	CHECK(strstr(json_object_get_string(tj_get(json_object_array_get_idx(layers, 6), "skipped")), "not captured"));
	CHECK(strcmp(json_object_get_string(tj_get(o, "client_target.file")), "client-target.png") == 0);
	CHECK(strcmp(json_object_get_string(tj_get(o, "preview.file")), "preview.png") == 0);
	json_object_put(o);
	free(text);

	/* again into the same directory (files replaced), with --json */
	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--frame", "0", dir, "--json", NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	o = tj_parse(run.out, "extract --json");
	CHECK_EQ_U64(tj_i64(o, "frame"), 0);
	CHECK(tj_get(o, "client_target") == NULL);	/* even frame: no client target */
	json_object_put(o);
	test_run_finish(&run);
	return 0;
}

int test_extract_symlinks(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *trace = std_trace("trace.zst", false, &info);
	char *dir = dir_path("out"), *outside = dir_path("outside"), *linked = dir_path("linked");
	char victim[600], target[600], link[600];
	struct test_run run;
	struct stat st;
	uint8_t *text;
	size_t size;

	CHECK(mkdir(dir, 0777) == 0 && mkdir(outside, 0777) == 0);
	snprintf(victim, sizeof(victim), "%s/victim", outside);
	test_write_file(victim, "keep", 4);
	/* planted: a link to a file outside, a link to a missing file outside, a link to a directory */
	snprintf(link, sizeof(link), "%s/preview.png", dir);
	CHECK(symlink(victim, link) == 0);
	snprintf(target, sizeof(target), "%s/new.json", outside);
	snprintf(link, sizeof(link), "%s/frame.json", dir);
	CHECK(symlink(target, link) == 0);
	snprintf(link, sizeof(link), "%s/layer-0-1.png", dir);
	CHECK(symlink(outside, link) == 0);

	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--frame", "3", dir, NULL });
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	text = test_read_file(victim, &size);
	CHECK(size == 4 && memcmp(text, "keep", 4) == 0);
	free(text);
	CHECK(!test_file_exists(target));
	snprintf(link, sizeof(link), "%s/preview.png", dir);
	CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode));
	check_preview(dir);
	snprintf(link, sizeof(link), "%s/layer-0-1.png", dir);
	CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode));
	snprintf(link, sizeof(link), "%s/layer-0-1.png", outside);
	CHECK(!test_file_exists(link));

	/* OUT_DIR itself a link: refused, nothing lands where it points */
	CHECK(symlink(outside, linked) == 0);
	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--frame", "3", linked, NULL });
	CHECK_MSG(run.status == 1 && test_contains(run.err, "symbolic link"), "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	snprintf(link, sizeof(link), "%s/frame.json", outside);
	CHECK(!test_file_exists(link));

	/* a link in OUT_DIR's path: refused as well (common/safe_dir.h), nothing created past it */
	snprintf(link, sizeof(link), "%s/sub", linked);
	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--frame", "3", link, NULL });
	CHECK_MSG(run.status == 1 && test_contains(run.err, "symbolic link"), "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	snprintf(link, sizeof(link), "%s/sub", outside);
	CHECK(!test_file_exists(link));
	return 0;
}

int test_extract_errors(struct fixture *fx)
{
	struct gen_stack_info info;
	const char *trace = std_trace("trace.zst", false, &info), *file = test_path("file");
	char *dir = dir_path("out");
	struct test_run run;

	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--frame", "99", dir, NULL });
	CHECK_MSG(run.status == 2 && test_contains(run.err, "no frame 99"), "status %d: %s", run.status, run.err);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "extract", trace, dir, NULL });
	CHECK(run.status == 2);
	test_run_finish(&run);
	fixture_run(fx, &run, (const char *const[]){ "extract", "/nonexistent.zst", "--frame", "0", dir, NULL });
	CHECK(run.status == 1 && test_contains(run.err, "/nonexistent.zst"));
	test_run_finish(&run);
	test_write_file(file, "x", 1);
	fixture_run(fx, &run, (const char *const[]){ "extract", trace, "--frame", "0", file, NULL });
	CHECK(run.status == 1 && test_contains(run.err, "not a directory"));
	test_run_finish(&run);
	return 0;
}
