/*
 * --format-fallback and --mode: byte-order-equivalent formats put a real
 * (ABGR8888) stack on vkms's ARGB8888 planes with the pixels unchanged,
 * only where a plane takes the equivalent; the conversion itself; a mode
 * given on the command line.
 */
#include <errno.h>
#include <string.h>

#include "fourcc.h"

#include "replay_fallback.h"
#include "tests.h"

static const char *layer_plane_state(struct json_object *layer)
{
	return json_object_get_type(test_get(layer, "plane", NULL)) == json_type_null ? "client" : "plane";
}

/* Layers of a frame on a plane. */
static size_t placed(struct json_object *frame)
{
	struct json_object *plan = test_get(frame, "plan", NULL);
	size_t n = 0;

	CHECK(plan && json_object_is_type(plan, json_type_array));
	for (size_t i = 0; i < json_object_array_length(plan); i++) {
		n += strcmp(layer_plane_state(json_object_array_get_idx(plan, i)), "plane") == 0;
	}
	return n;
}

static bool has_reason(struct json_object *layer, const char *reason)
{
	struct json_object *reasons = test_get(layer, "reasons", NULL);

	for (size_t i = 0; reasons && i < json_object_array_length(reasons); i++) {
		if (strcmp(json_object_get_string(json_object_array_get_idx(reasons, i)), reason) == 0) {
			return true;
		}
	}
	return false;
}

static uint64_t total(struct json_object *r, const char *key)
{
	struct json_object *v = test_get(r, "totals", key, NULL);

	CHECK_MSG(v, "totals.%s missing", key);
	return (uint64_t)json_object_get_int64(v);
}

/*
 * The no-overlays vkms board without its cursor plane: a primary that
 * takes XRGB8888, XRGB16161616 and RGB565 only, so no plane takes ARGB8888.
 * Written into the scratch directory; returns its path.
 */
static const char *board_without_argb(const struct fixture *fx)
{
	struct json_object *root = json_object_from_file(fx->no_overlays);
	const char *path = test_path("primary-only.json");
	size_t removed = 0;

	CHECK(root);
	json_object_object_foreach(root, node, dev) {
		struct json_object *planes = test_get(dev, "planes", NULL);

		(void)node;
		CHECK(planes);
		for (size_t i = json_object_array_length(planes); i-- > 0;) {
			struct json_object *id = test_get(json_object_array_get_idx(planes, i), "id", NULL);

			if (json_object_get_int(id) == 33) {	/* the cursor */
				json_object_array_del_idx(planes, i, 1);
				removed++;
			}
		}
	}
	CHECK(removed == 1);
	test_write_json(path, root);
	json_object_put(root);
	return path;
}

int test_format_fallback(const struct fixture *fx)
{
	const char *home = test_reference_trace(fx, "home");
	const char *none[] = { home, "--profile", fx->overlays, "--mode", "540x1200", "--frames", "0-9", NULL };
	const char *equiv[] = { home, "--profile", fx->overlays, "--mode", "540x1200", "--frames", "0-9",
		"--format-fallback", "equivalent", NULL };
	const char *bare[] = { home, "--profile", board_without_argb(fx), "--mode", "540x1200", "--frames", "0-9",
		"--format-fallback", "equivalent", "--quiet", NULL };
	const char *with_none[] = { home, "--profile", fx->overlays, "--mode", "540x1200", "--frames", "0-9",
		"--results", test_path("none-again.json"), NULL };
	struct json_object *rn = test_replay_ok(fx, test_path("none.json"), none);
	struct json_object *re = test_replay_ok(fx, test_path("equiv.json"), equiv);
	struct json_object *rb = test_replay_ok(fx, test_path("bare.json"), bare);
	struct test_run run;
	size_t n = test_frame_count(rn), refused = 0, on_planes = 0, subs = 0;

	CHECK(n == 10 && test_frame_count(re) == n && test_frame_count(rb) == n);
	CHECK(strcmp(json_object_get_string(test_get(rn, "format_fallback", NULL)), "none") == 0);
	CHECK(strcmp(json_object_get_string(test_get(re, "format_fallback", NULL)), "equivalent") == 0);
	for (size_t i = 0; i < n; i++) {
		struct json_object *fn = test_frame_at(rn, i), *fe = test_frame_at(re, i), *fb = test_frame_at(rb, i);
		struct json_object *plan = test_get(fn, "plan", NULL), *list = test_get(fe, "format_substitutions", NULL);

		/* vkms 6.1 has no ABGR8888 plane: without the fallback every layer is refused for it */
		for (size_t l = 0; l < json_object_array_length(plan); l++) {
			struct json_object *layer = json_object_array_get_idx(plan, l);

			CHECK_MSG(has_reason(layer, "format"), "frame %zu layer %zu: not refused for its format", i, l);
			refused++;
		}
		CHECK(test_get(fn, "format_substitutions", NULL) == NULL);
		on_planes += placed(fe);
		CHECK_MSG(list && json_object_array_length(list) > 0, "frame %zu: no substitution reported", i);
		for (size_t k = 0; k < json_object_array_length(list); k++) {
			struct json_object *s = json_object_array_get_idx(list, k);

			CHECK(strcmp(json_object_get_string(test_get(s, "from", NULL)), "AB24") == 0);
			CHECK(strcmp(json_object_get_string(test_get(s, "to", NULL)), "AR24") == 0);
			subs++;
		}
		/* the converted pixels compose to the recorded content's picture */
		CHECK_MSG(json_object_equal(test_get(fn, "checksum", NULL), test_get(fe, "checksum", NULL)),
			"frame %zu: the substituted formats changed the picture", i);
		/* no plane of the primary-only board takes ARGB8888 either: nothing substituted */
		CHECK(test_get(fb, "format_substitutions", NULL) == NULL);
		CHECK(placed(fb) == 0);
	}
	CHECK_MSG(on_planes > n, "only %zu layers on planes with the fallback", on_planes);
	CHECK(total(rn, "format_only_client_layers") == refused);
	CHECK(total(rn, "format_substituted_layers") == 0);
	CHECK(total(re, "format_substituted_layers") == subs);
	CHECK(total(rb, "format_substituted_layers") == 0);

	/* the summary says how many were refused for their format and names the option */
	test_replay(fx, &run, with_none);
	CHECK(run.status == 0);
	CHECK_MSG(test_contains(run.err, "for their format alone") && test_contains(run.err, "--format-fallback equivalent"),
		"%s", run.err);
	test_run_finish(&run);
	json_object_put(rn);
	json_object_put(re);
	json_object_put(rb);
	return 0;
}

/* One 32-bit pixel of a 1x1 image converted from `from` to its equivalent. */
static uint32_t convert_pixel(uint32_t from, uint32_t pixel)
{
	uint8_t src[4] = { (uint8_t)pixel, (uint8_t)(pixel >> 8), (uint8_t)(pixel >> 16), (uint8_t)(pixel >> 24) };
	uint8_t dst[4];
	struct scene_image img = {
		.fourcc = from, .width = 1, .height = 1, .plane_count = 1, .stride = { 4 }, .data = src, .size = 4,
	};

	CHECK(replay_fallback_convert(&img, replay_fallback_equivalent(from), dst) == 0);
	return (uint32_t)dst[0] | (uint32_t)dst[1] << 8 | (uint32_t)dst[2] << 16 | (uint32_t)dst[3] << 24;
}

int test_format_fallback_convert(const struct fixture *fx)
{
	static const uint32_t paired[][2] = {
		{ DRM_FORMAT_ABGR8888, DRM_FORMAT_ARGB8888 }, { DRM_FORMAT_XBGR8888, DRM_FORMAT_XRGB8888 },
		{ DRM_FORMAT_ABGR2101010, DRM_FORMAT_ARGB2101010 }, { DRM_FORMAT_XBGR2101010, DRM_FORMAT_XRGB2101010 },
	};
	uint8_t src[2 * 4 + 4] = { 0 }, dst[sizeof(src)];
	struct scene_image img = {
		.fourcc = DRM_FORMAT_ABGR8888, .width = 2, .height = 1, .plane_count = 1, .stride = { 12 },
		.data = src, .size = sizeof(src),
	};

	(void)fx;
	for (size_t i = 0; i < sizeof(paired) / sizeof(paired[0]); i++) {
		CHECK(replay_fallback_equivalent(paired[i][0]) == paired[i][1]);
		CHECK(replay_fallback_equivalent(paired[i][1]) == paired[i][0]);
	}
	CHECK(replay_fallback_equivalent(DRM_FORMAT_NV12) == 0);
	CHECK(replay_fallback_equivalent(DRM_FORMAT_RGB565) == 0);
	/* ABGR8888 little-endian bytes R, G, B, A; ARGB8888 bytes B, G, R, A */
	CHECK(convert_pixel(DRM_FORMAT_ABGR8888, 0x80112233) == 0x80332211);
	CHECK(convert_pixel(DRM_FORMAT_ARGB8888, 0x80332211) == 0x80112233);
	CHECK(convert_pixel(DRM_FORMAT_XBGR8888, 0x7f0000ff) == 0x7fff0000);	/* X kept as it was */
	/* 2101010: A in bits 31-30, the 10-bit fields at 20, 10, 0; red and blue exchanged */
	CHECK(convert_pixel(DRM_FORMAT_ABGR2101010, 2u << 30 | 0x3ffu << 20 | 0x155u << 10 | 0x001u) ==
		(2u << 30 | 0x001u << 20 | 0x155u << 10 | 0x3ffu));
	CHECK(convert_pixel(DRM_FORMAT_XRGB2101010, 0x2aau << 20 | 0x0ffu) == (0x0ffu << 20 | 0x2aau));
	/* stride padding is copied, pixels converted */
	memcpy(src, (uint8_t[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, 12);
	CHECK(replay_fallback_convert(&img, DRM_FORMAT_ARGB8888, dst) == 0);
	CHECK(memcmp(dst, (uint8_t[]){ 3, 2, 1, 4, 7, 6, 5, 8, 9, 10, 11, 12 }, 12) == 0);
	/* refused: a format that is not the equivalent, a layout that does not fit */
	CHECK(replay_fallback_convert(&img, DRM_FORMAT_XRGB8888, dst) == -EINVAL);
	img.stride[0] = 4;
	CHECK(replay_fallback_convert(&img, DRM_FORMAT_ARGB8888, dst) == -EINVAL);
	img.stride[0] = 12;
	img.height = 2;
	CHECK(replay_fallback_convert(&img, DRM_FORMAT_ARGB8888, dst) == -EINVAL);
	return 0;
}

int test_mode(const struct fixture *fx)
{
	const char *home = test_reference_trace(fx, "home");
	const char *own[] = { home, "--profile", fx->overlays, "--frames", "0-1", "--quiet", NULL };
	const char *given[] = { home, "--profile", fx->overlays, "--frames", "0-1", "--quiet", "--mode", "540x1200", NULL };
	static const char *const bad[] = { "0x768", "1024x", "x768", "1024x768@0", "1024x768@241", "20000x10",
		"1024*768", "-5x5", "1024x768@", "" };
	struct json_object *ro = test_replay_ok(fx, test_path("own.json"), own);
	struct json_object *rg = test_replay_ok(fx, test_path("given.json"), given);
	struct test_run run;

	/* the board's own 1024x768: the 540x1200 recording is letterboxed; --mode 540x1200: shown as recorded */
	CHECK(json_object_get_boolean(test_get(ro, "mode_map", "active", NULL)));
	CHECK(!json_object_get_boolean(test_get(rg, "mode_map", "active", NULL)));
	CHECK(json_object_get_int(json_object_array_get_idx(test_get(rg, "mode_map", "to", NULL), 0)) == 540);
	CHECK(json_object_get_int(json_object_array_get_idx(test_get(rg, "mode_map", "to", NULL), 1)) == 1200);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { home, "--profile", fx->overlays, "--mode", bad[i], NULL };

		test_replay(fx, &run, args);
		CHECK_MSG(run.status == 2 && test_contains(run.err, "--mode"), "--mode '%s': exit %d: %s", bad[i],
			run.status, run.err);
		test_run_finish(&run);
	}
	{
		const char *args[] = { home, "--hwc2", "/nonexistent.so", "--mode", "640x480", NULL };
		const char *fb[] = { home, "--hwc2", "/nonexistent.so", "--format-fallback", "equivalent", NULL };
		const char *unknown[] = { home, "--profile", fx->overlays, "--format-fallback", "nearest", NULL };

		test_replay(fx, &run, args);
		CHECK_MSG(run.status == 2, "exit %d: %s", run.status, run.err);
		test_run_finish(&run);
		test_replay(fx, &run, fb);
		CHECK_MSG(run.status == 2, "exit %d: %s", run.status, run.err);
		test_run_finish(&run);
		test_replay(fx, &run, unknown);
		CHECK_MSG(run.status == 2 && test_contains(run.err, "nearest"), "exit %d: %s", run.status, run.err);
		test_run_finish(&run);
	}
	json_object_put(ro);
	json_object_put(rg);
	return 0;
}

/* Whether the layer's "assumed" list holds code. */
static bool has_assumed(struct json_object *layer, const char *code)
{
	struct json_object *list = test_get(layer, "assumed", NULL);

	CHECK_MSG(list && json_object_is_type(list, json_type_array), "a profile layer without \"assumed\"");
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		if (strcmp(json_object_get_string(json_object_array_get_idx(list, i)), code) == 0) {
			return true;
		}
	}
	return false;
}

int test_assumed(const struct fixture *fx)
{
	const char *home = test_reference_trace(fx, "home");
	char board[600];
	const char *letterbox[] = { home, "--profile", board, "--frames", "0-4", "--quiet", NULL };
	const char *as_recorded[] = { home, "--profile", fx->overlays, "--frames", "0-4", "--quiet", "--mode", "540x1200",
		"--format-fallback", "equivalent", NULL };
	struct json_object *rl, *rr;
	size_t scaled = 0, placed = 0;

	snprintf(board, sizeof(board), "%s/tests/data/boards/real/i915-display-top.txt", fx->source_root);
	rl = test_replay_ok(fx, test_path("letterbox.json"), letterbox);
	rr = test_replay_ok(fx, test_path("recorded.json"), as_recorded);
	/* letterboxed x0.9: a dump cannot say whether i915's planes scale, so a scaling refusal is an assumption */
	for (size_t i = 0; i < test_frame_count(rl); i++) {
		struct json_object *plan = test_get(test_frame_at(rl, i), "plan", NULL);

		for (size_t l = 0; l < json_object_array_length(plan); l++) {
			struct json_object *layer = json_object_array_get_idx(plan, l);
			bool on_plane = json_object_get_type(test_get(layer, "plane", NULL)) != json_type_null;
			bool scaling = false;
			struct json_object *reasons = test_get(layer, "reasons", NULL);

			for (size_t k = 0; k < json_object_array_length(reasons); k++) {
				scaling |= strcmp(json_object_get_string(json_object_array_get_idx(reasons, k)), "scaling") == 0;
			}
			CHECK(!scaling || has_assumed(layer, "assumed-scaling"));
			CHECK(on_plane == has_assumed(layer, "assumed-bandwidth"));
			scaled += scaling;
		}
	}
	CHECK_MSG(scaled > 0, "no layer refused for scaling on the letterboxed i915 replay");
	/* 1:1 on planes: no scaling assumed, every placed layer rests on the bandwidth assumption */
	for (size_t i = 0; i < test_frame_count(rr); i++) {
		struct json_object *plan = test_get(test_frame_at(rr, i), "plan", NULL);

		for (size_t l = 0; l < json_object_array_length(plan); l++) {
			struct json_object *layer = json_object_array_get_idx(plan, l);

			CHECK(!has_assumed(layer, "assumed-scaling"));
			if (json_object_get_type(test_get(layer, "plane", NULL)) != json_type_null) {
				CHECK(has_assumed(layer, "assumed-bandwidth"));
				placed++;
			}
		}
	}
	CHECK(placed > 0);
	json_object_put(rl);
	json_object_put(rr);
	return 0;
}
