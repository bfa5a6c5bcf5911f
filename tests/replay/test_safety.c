/*
 * Image dumps that must not escape their directory (symbolic links in the
 * path or planted under output names), damaged traces and board files.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay_gen.h"
#include "tests.h"

static void expect_status(const struct fixture *fx, const char *const *args, int status, const char *err_has,
	bool one_line)
{
	struct test_run run;

	test_replay(fx, &run, args);
	CHECK_MSG(run.status == status, "exit %d, expected %d", run.status, status);
	CHECK_MSG(!err_has || test_contains(run.err, err_has), "stderr lacks '%s'", err_has);
	CHECK_MSG(!one_line || test_line_count(run.err) == 1, "stderr has %zu lines", test_line_count(run.err));
	test_run_finish(&run);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	CHECK_MSG(f, "%s: %s", path, strerror(errno));
	CHECK(fputs(text, f) >= 0 && fclose(f) == 0);
}

static bool is_regular(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * A build without libpng (-Dpng=disabled): hwc-replay says so in --version,
 * refuses --dump-images with one line naming libpng, creates no directory,
 * and still replays. Skipped where libpng was built in.
 */
int test_dump_images_no_png(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 2, 3, GEN_NONE);
	const char *version[] = { "--version", NULL };
	const char *dump[] = { gen, "--profile", fx->overlays, "--dump-images", test_path("images"), NULL };
	const char *plain[] = { gen, "--profile", fx->overlays, "--quiet", NULL };
	struct test_run run;
	bool png;

	test_replay(fx, &run, version);
	CHECK(run.status == 0 && test_contains(run.out, "; png: "));
	png = test_contains(run.out, "; png: yes");
	test_run_finish(&run);
	if (png) {
		fprintf(stderr, "hwc-replay is built with libpng: dump-images covers --dump-images\n");
		return TEST_SKIP;
	}
	expect_status(fx, dump, 2, "built without libpng (-Dpng=disabled)", false);
	CHECK(!test_exists(test_path("images")));
	expect_status(fx, plain, 0, NULL, false);
	return 0;
}

int test_dump_images(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 3, 6, GEN_NONE), *results = test_path("r.json");
	char dir[1024], file[1024], deep[1024];
	const char *args[] = { gen, "--profile", fx->overlays, "--quiet", "--dump-images", dir, "--results", results,
		NULL };
	const char *on_file[] = { gen, "--profile", fx->overlays, "--dump-images", file, NULL };
	const char *on_deep[] = { gen, "--profile", fx->overlays, "--dump-images", deep, NULL };
	const char *no_pixels[] = { gen, "--profile", fx->overlays, "--dump-images", dir, "--no-pixels", NULL };
	struct json_object *r;

	snprintf(dir, sizeof(dir), "%s", test_path("images"));
	snprintf(file, sizeof(file), "%s", test_path("a-file"));
	snprintf(deep, sizeof(deep), "%s", test_path("no/such/dir"));
	write_text(file, "x");
	expect_status(fx, args, 0, NULL, false);
	CHECK(test_dir_entries(dir) == 6);
	CHECK(is_regular(test_path("images/frame-000000.png")) && is_regular(test_path("images/frame-000005.png")));
	r = test_results(results);
	CHECK(strcmp(json_object_get_string(test_get(r, "images_dir", NULL)), dir) == 0);
	CHECK(strcmp(json_object_get_string(test_get(json_object_array_get_idx(test_frames(r), 2), "image", NULL)),
		"frame-000002.png") == 0);
	json_object_put(r);
	expect_status(fx, args, 0, NULL, false);	/* again into the same directory: replaced */
	CHECK(test_dir_entries(dir) == 6);
	expect_status(fx, on_file, 2, "not a directory", true);
	expect_status(fx, on_deep, 2, "no/such/dir", true);
	CHECK(!test_exists(test_path("no")));
	expect_status(fx, no_pixels, 2, "--no-pixels", false);
	return 0;
}

/* DIR through a symbolic link, as the last component or inside the path: refused, nothing written. */
int test_dump_symlink_dir(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 2, 2, GEN_NONE);
	char real[1024], link_path[1024], under[1024], dangling[1024];
	const char *paths[] = { link_path, under, dangling };

	snprintf(real, sizeof(real), "%s", test_path("real"));
	snprintf(link_path, sizeof(link_path), "%s", test_path("link"));
	snprintf(under, sizeof(under), "%s", test_path("link/out"));
	snprintf(dangling, sizeof(dangling), "%s", test_path("dangling"));
	CHECK(mkdir(real, 0755) == 0);
	CHECK(symlink(real, link_path) == 0);
	CHECK(symlink(test_path("nowhere"), dangling) == 0);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *args[] = { gen, "--profile", fx->overlays, "--dump-images", paths[i], NULL };

		expect_status(fx, args, 2, "symbolic link", true);
	}
	CHECK(test_dir_entries(real) == 0);
	CHECK(!test_exists(test_path("nowhere")));
	return 0;
}

/* Links planted in DIR under output names are replaced, never written through. */
int test_dump_planted_symlink(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 2, 3, GEN_NONE);
	char dir[1024], victim[1024], outside[1024];
	const char *args[] = { gen, "--profile", fx->overlays, "--quiet", "--dump-images", dir, NULL };
	size_t before;
	size_t size;
	FILE *f;
	char buf[32] = "";

	snprintf(dir, sizeof(dir), "%s", test_path("images"));
	snprintf(victim, sizeof(victim), "%s", test_path("victim"));
	snprintf(outside, sizeof(outside), "%s", test_path("created-outside"));
	CHECK(mkdir(dir, 0755) == 0);
	write_text(victim, "precious");
	CHECK(symlink(victim, test_path("images/frame-000000.png")) == 0);
	CHECK(symlink(outside, test_path("images/frame-000001.png")) == 0);
	CHECK(symlink("../victim", test_path("images/frame-000002.png")) == 0);
	before = test_dir_entries(test_dir());
	expect_status(fx, args, 0, NULL, false);
	f = fopen(victim, "rb");
	CHECK(f);
	size = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	CHECK_MSG(size == 8 && strcmp(buf, "precious") == 0, "the link's target was written: '%s'", buf);
	CHECK(!test_exists(outside));
	CHECK(is_regular(test_path("images/frame-000000.png")) && is_regular(test_path("images/frame-000001.png")));
	CHECK(is_regular(test_path("images/frame-000002.png")));
	CHECK(test_dir_entries(dir) == 3);
	CHECK_MSG(test_dir_entries(test_dir()) == before, "files appeared outside the image directory");
	/* a directory under an output name: a clear error, nothing else touched */
	CHECK(unlink(test_path("images/frame-000001.png")) == 0);
	CHECK(mkdir(test_path("images/frame-000001.png"), 0755) == 0);
	expect_status(fx, args, 5, "frame-000001.png", true);
	CHECK(test_dir_entries(dir) == 3);
	return 0;
}

static void copy_file(const char *from, const char *to, size_t limit, long flip)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	size_t n = 0;
	int c;

	CHECK(in && out);
	while (n < limit && (c = fgetc(in)) != EOF) {
		fputc((long)n == flip ? c ^ 0x5a : c, out);
		n++;
	}
	fclose(in);
	CHECK(fclose(out) == 0);
}

static long file_size(const char *path)
{
	struct stat st;

	CHECK(stat(path, &st) == 0);
	return (long)st.st_size;
}

/* A file that is no trace, one with a damaged byte, one that is gone: exit 3 and one line naming it. */
int test_corrupt_trace(const struct fixture *fx)
{
	const char *trace = test_reference_trace(fx, "home");
	char garbage[1024], damaged[1024], gone[1024];
	const char *cases[] = { garbage, damaged, gone };

	snprintf(garbage, sizeof(garbage), "%s", test_path("garbage.zst"));
	snprintf(damaged, sizeof(damaged), "%s", test_path("damaged.zst"));
	snprintf(gone, sizeof(gone), "%s", test_path("gone.zst"));
	write_text(garbage, "HWCTRACE? no: just text that is not a trace at all\n");
	copy_file(trace, damaged, SIZE_MAX, file_size(trace) / 3);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[] = { cases[i], "--profile", fx->overlays, "--quiet", NULL };

		expect_status(fx, args, 3, cases[i], true);
	}
	return 0;
}

/* A trace cut short: the frames before the cut replay (with a note); a cut header is an error. */
int test_truncated_trace(const struct fixture *fx)
{
	const char *trace = test_reference_trace(fx, "home");
	char cut[1024], header[1024];
	const char *args[] = { cut, "--profile", fx->overlays, "--no-pixels", "--results", test_path("r.json"), NULL };
	const char *args_header[] = { header, "--profile", fx->overlays, "--quiet", NULL };
	struct json_object *r;
	size_t frames;

	snprintf(cut, sizeof(cut), "%s", test_path("cut.zst"));
	snprintf(header, sizeof(header), "%s", test_path("header.zst"));
	copy_file(trace, cut, (size_t)(file_size(trace) * 6 / 10), -1);
	copy_file(trace, header, 10, -1);
	expect_status(fx, args, 0, "truncated", false);
	r = test_results(test_path("r.json"));
	frames = json_object_array_length(test_frames(r));
	CHECK_MSG(frames > 0 && frames < 120, "%zu frames", frames);
	CHECK(json_object_get_boolean(test_get(r, "trace", "truncated", NULL)));
	json_object_put(r);
	expect_status(fx, args_header, 3, header, true);
	return 0;
}

int test_missing_board(const struct fixture *fx)
{
	const char *gen = test_generated_trace("gen.zst", 2, 2, GEN_NONE);
	char missing[1024], broken[1024], wrong[1024];
	const char *a1[] = { gen, "--profile", missing, NULL };
	const char *a2[] = { gen, "--profile", broken, NULL };
	const char *a3[] = { gen, "--profile", wrong, NULL };
	const char *a4[] = { gen, "--profile", test_dir(), NULL };

	snprintf(missing, sizeof(missing), "%s", test_path("missing.json"));
	snprintf(broken, sizeof(broken), "%s", test_path("broken.json"));
	snprintf(wrong, sizeof(wrong), "%s", test_path("wrong.json"));
	write_text(broken, "{ \"/dev/dri/card0\": { \"planes\": [ ");
	write_text(wrong, "{ \"/dev/dri/card0\": { \"driver\": {}, \"crtcs\": [], "
		"\"planes\": [ { \"id\": \"x\" } ] } }");
	expect_status(fx, a1, 4, missing, true);
	expect_status(fx, a2, 4, broken, true);
	expect_status(fx, a3, 4, "crtcs", true);
	expect_status(fx, a4, 4, test_dir(), true);
	return 0;
}
