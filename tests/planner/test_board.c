/*
 * Board profiles: the vkms 6.1 dumps parse to the facts docs/platform.md §3
 * states (read from the 6.1.192 source), the rules and the "hwctrace"
 * overrides apply, properties vkms lacks parse from edited dumps, and
 * hostile JSON ends in an error naming the file and the JSON path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static bool has_formats(const struct board_plane *plane, const uint32_t *want, size_t count)
{
	if (plane->format_count != count) {
		return false;
	}
	for (size_t i = 0; i < count; i++) {
		const struct board_format *f = board_plane_find_format(plane, want[i]);

		/* vkms passes no modifiers: the DRM core lists LINEAR alone. */
		if (!f || f->modifier_count != 1 || f->modifiers[0] != BOARD_MOD_LINEAR) {
			return false;
		}
	}
	return true;
}

/* What both vkms dumps share: no rotation, alpha, blend or zpos, LINEAR only, the rules. */
static void check_vkms_plane(const struct board_plane *plane)
{
	CHECK(plane->has_in_formats);
	CHECK(!plane->has_rotation);
	CHECK_INT(plane->rotations, BOARD_ROTATE_0);
	CHECK(!plane->has_alpha);
	CHECK_INT(plane->blend_modes, 0);
	CHECK(!plane->has_zpos);
	CHECK(!plane->has_scaling_filter);
	CHECK(!plane->can_scale);
	CHECK(!plane->solid_fill);
	CHECK(!plane->cursor_size_limit);
	CHECK_INT(plane->possible_crtcs, 1);
}

static void check_vkms_board(const struct board *board, uint32_t crtc_id, size_t planes)
{
	static const uint32_t wb[] = { XR24, XR48, AR48, RG16 };

	CHECK_STR(board->driver, "vkms");
	CHECK_INT(board->crtc_id, crtc_id);
	CHECK_INT(board->crtc_index, 0);
	CHECK_INT(board->width, 1024);
	CHECK_INT(board->height, 768);
	CHECK_INT(board->cursor_width, 512);
	CHECK_INT(board->cursor_height, 512);
	CHECK_INT(board->plane_count, planes);
	CHECK(board->primary_full_screen);
	CHECK(!board->primary_required);
	CHECK_INT(board->max_active_planes, 0);
	CHECK(board->has_writeback);
	CHECK_INT(board->writeback_format_count, 4);
	for (size_t i = 0; i < 4 && i < board->writeback_format_count; i++) {
		CHECK_INT(board->writeback_formats[i], wb[i]);
	}
	for (size_t i = 1; i < board->plane_count; i++) {
		CHECK(board->planes[i - 1].id < board->planes[i].id);
	}
}

static const uint32_t primary_formats[] = { XR24, XR48, RG16 };
static const uint32_t overlay_formats[] = { AR24, XR24, XR48, AR48, RG16 };

static void case_vkms_overlays(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_OVERLAYS);
	size_t overlays = 0;

	check_vkms_board(board, 51, 10);
	CHECK(board_primary(board) && board_primary(board)->id == 31);
	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *p = &board->planes[i];

		check_vkms_plane(p);
		if (p->type == BOARD_PLANE_PRIMARY) {
			CHECK_INT(p->id, 31);
			CHECK(has_formats(p, primary_formats, 3));
		} else {
			CHECK(has_formats(p, overlay_formats, 5));
			overlays += p->type == BOARD_PLANE_OVERLAY;
			if (p->type == BOARD_PLANE_CURSOR) {
				CHECK_INT(p->id, 49);
			}
		}
	}
	CHECK_INT(overlays, 8);
	CHECK(!board_plane_has_format(board_find_plane(board, 33), AB24, BOARD_MOD_LINEAR));
	CHECK(!board_any_plane_has_format(board, AB24, BOARD_MOD_LINEAR));
	CHECK(!board_any_plane_has_format(board, NV12, BOARD_MOD_LINEAR));
	CHECK(!board_any_plane_has_format(board, AR24, 0x0100000000000001ull));
	CHECK(board_any_plane_has_format(board, AR24, BOARD_MOD_INVALID));
	board_destroy(board);
}

static void case_vkms_no_overlays(const char *dir)
{
	struct board *board = tl_board(dir, VKMS_NO_OVERLAYS);

	check_vkms_board(board, 35, 2);
	if (board->plane_count == 2) {
		check_vkms_plane(&board->planes[0]);
		check_vkms_plane(&board->planes[1]);
		CHECK_INT(board->planes[0].id, 31);
		CHECK_INT(board->planes[0].type, BOARD_PLANE_PRIMARY);
		CHECK(has_formats(&board->planes[0], primary_formats, 3));
		CHECK_INT(board->planes[1].id, 33);
		CHECK_INT(board->planes[1].type, BOARD_PLANE_CURSOR);
		CHECK(has_formats(&board->planes[1], overlay_formats, 5));
	}
	board_destroy(board);
}

static void case_node(const char *dir)
{
	char path[4096];
	struct hwct_error err;
	struct board *board;

	snprintf(path, sizeof(path), "%s/%s", dir, VKMS_OVERLAYS);
	board = board_from_drm_info_json(path, "/dev/dri/card0", &err);
	CHECK(board != NULL);
	board_destroy(board);
	board = board_from_drm_info_json(path, "/dev/dri/card9", &err);
	CHECK(board == NULL);
	CHECK_INT(err.code, -ENOENT);
	CHECK(tl_contains(err.message, "/dev/dri/card9"));
	CHECK(tl_contains(err.message, path));
	board = board_from_drm_info_json("/nonexistent/board.json", NULL, &err);
	CHECK(board == NULL);
	CHECK_INT(err.code, -ENOENT);
	CHECK(tl_contains(err.message, "/nonexistent/board.json"));
}

/* An IN_FORMATS entry with an empty formats list: the modifier is kept, with no format. */
static void case_empty_modifier(const char *dir)
{
	struct json_object *root = tl_json(dir, VKMS_OVERLAYS);
	struct json_object *node = tl_node(root);
	const uint64_t afbc = 0x0800000000001056ull;
	struct hwct_error err;
	struct board *board;

	CHECK(tl_set(node, "planes[1].properties.IN_FORMATS.data", json_tokener_parse(
		"[{\"modifier\": 0, \"formats\": [875713089]},"
		" {\"modifier\": 576460752303427670, \"formats\": []}]")));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board != NULL, "%s", err.message);
	if (board) {
		const struct board_plane *p = board_find_plane(board, 33);

		CHECK(p && p->has_in_formats);
		CHECK_INT(p->format_count, 1);
		CHECK(board_plane_has_format(p, AR24, BOARD_MOD_LINEAR));
		CHECK(!board_plane_has_format(p, AR24, afbc));
		CHECK_INT(p->empty_modifier_count, 1);
		CHECK(p->empty_modifier_count == 1 && p->empty_modifiers[0] == afbc);
		CHECK_INT(board->planes[0].empty_modifier_count, 0);
	}
	board_destroy(board);
	json_object_put(root);
}

/*
 * Two nodes, the first with its only connected connector marked
 * non-desktop: the second is taken by default, either when asked.
 */
static void case_non_desktop(const char *dir)
{
	struct json_object *root = tl_json(dir, VKMS_OVERLAYS);
	struct json_object *second = tl_json(dir, VKMS_NO_OVERLAYS);
	struct json_object *node = tl_node(root);
	struct hwct_error err;
	struct board *board;

	json_object_object_add(root, "/dev/dri/card1", json_object_get(tl_node(second)));
	CHECK(tl_set(node, "connectors[0].properties.non-desktop.value", json_object_new_int(1)));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board != NULL, "%s", err.message);
	if (board) {
		CHECK_INT(board->plane_count, 2);
		CHECK_INT(board->device_count, 2);
		CHECK_INT(board->device_index, 1);
		CHECK_INT(board->device_pick, BOARD_PICK_DESKTOP);
		CHECK_INT(board->devices[0].connected_non_desktop, 1);
	}
	board_destroy(board);
	board = board_from_drm_info_object(root, "edited", "/dev/dri/card0", &err);
	CHECK(board && board->plane_count == 10 && board->device_pick == BOARD_PICK_ASKED);
	board_destroy(board);
	board = board_from_drm_info_object(root, "edited", "1", &err);
	CHECK(board && board->plane_count == 10 && board->device_index == 0);
	board_destroy(board);
	/* Nothing desktop anywhere: the first with a connected connector. */
	CHECK(tl_set(tl_node(second), "connectors[0].properties.non-desktop.value",
		json_object_new_int(1)));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board && board->device_index == 0 && board->device_pick == BOARD_PICK_NON_DESKTOP);
	board_destroy(board);
	json_object_put(second);
	json_object_put(root);
}

/* board_pick_device over devices of {CRTCs, connected, of them non-desktop}, by table. */
static void case_pick_device(const char *dir)
{
	static const struct {
		const char *what;
		uint32_t dev[3][3];		/* crtcs, connected, connected_non_desktop */
		size_t count;
		const char *asked;
		int want;			/* index, or -ENOENT */
		enum board_device_pick pick;
	} cases[] = {
		{ "one device, nothing connected", { { 1, 0, 0 } }, 1, NULL, 0, BOARD_PICK_ONLY },
		{ "headset first, desktop second", { { 1, 1, 1 }, { 3, 1, 0 } }, 2, NULL, 1,
			BOARD_PICK_DESKTOP },
		{ "desktop and headset on one device", { { 2, 2, 1 }, { 3, 1, 0 } }, 2, NULL, 0,
			BOARD_PICK_DESKTOP },
		{ "only headsets", { { 1, 0, 0 }, { 1, 1, 1 }, { 1, 1, 1 } }, 3, NULL, 1,
			BOARD_PICK_NON_DESKTOP },
		{ "nothing connected, render-only GPU first", { { 0, 0, 0 }, { 2, 0, 0 } }, 2, NULL, 1,
			BOARD_PICK_FIRST },
		{ "nothing at all", { { 0, 0, 0 }, { 0, 0, 0 } }, 2, NULL, 0, BOARD_PICK_FIRST },
		{ "asked by position", { { 1, 1, 1 }, { 3, 1, 0 } }, 2, "1", 0, BOARD_PICK_ASKED },
		{ "asked by node", { { 1, 1, 1 }, { 3, 1, 0 } }, 2, "/dev/dri/card1", 1,
			BOARD_PICK_ASKED },
		{ "asked by the node's last part", { { 1, 1, 1 }, { 3, 1, 0 } }, 2, "card0", 0,
			BOARD_PICK_ASKED },
		{ "asked past the end", { { 1, 1, 0 }, { 1, 1, 0 } }, 2, "3", -ENOENT, BOARD_PICK_ASKED },
		{ "asked position 0", { { 1, 1, 0 } }, 1, "0", -ENOENT, BOARD_PICK_ASKED },
		{ "asked an unknown node", { { 1, 1, 0 } }, 1, "/dev/dri/card7", -ENOENT,
			BOARD_PICK_ASKED },
		{ "no devices", { { 0 } }, 0, NULL, -ENOENT, BOARD_PICK_ONLY },
	};
	char *nodes[] = { "/dev/dri/card0", "/dev/dri/card1", "/dev/dri/card2" };

	(void)dir;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct board_device devices[3] = { { 0 } };
		enum board_device_pick pick = BOARD_PICK_ONLY;
		int got;

		for (size_t d = 0; d < 3; d++) {
			devices[d] = (struct board_device){ .node = nodes[d], .driver = "",
				.crtcs = cases[i].dev[d][0], .connected = cases[i].dev[d][1],
				.connected_non_desktop = cases[i].dev[d][2] };
		}
		got = board_pick_device(devices, cases[i].count, cases[i].asked, &pick);
		CHECK(got == cases[i].want, "%s: got %d, want %d", cases[i].what, got, cases[i].want);
		CHECK(got < 0 || pick == cases[i].pick, "%s: pick %d, want %d", cases[i].what,
			(int)pick, (int)cases[i].pick);
	}
}

/* Properties vkms 6.1 lacks, put into plane 1 (overlay 33) of the dump. */
static void case_properties(const char *dir)
{
	struct json_object *root = tl_json(dir, VKMS_OVERLAYS);
	struct json_object *node = tl_node(root);
	struct hwct_error err;
	struct board *board;
	const struct board_plane *p;

	CHECK(tl_set(node, "planes[1].properties.rotation", json_tokener_parse(
		"{\"id\": 60, \"type\": 32, \"immutable\": false, \"value\": 1, \"spec\": ["
		"{\"name\": \"rotate-0\", \"value\": 0}, {\"name\": \"rotate-90\", \"value\": 1},"
		"{\"name\": \"rotate-180\", \"value\": 2}, {\"name\": \"rotate-270\", \"value\": 3},"
		"{\"name\": \"reflect-x\", \"value\": 4}, {\"name\": \"reflect-y\", \"value\": 5}],"
		"\"data\": null}")));
	CHECK(tl_set(node, "planes[1].properties.alpha", json_tokener_parse(
		"{\"id\": 61, \"type\": 2, \"value\": 65535, \"spec\": {\"min\": 0, \"max\": 65535}}")));
	CHECK(tl_set(node, "planes[1].properties.pixel blend mode", json_tokener_parse(
		"{\"id\": 62, \"type\": 8, \"value\": 1, \"spec\": [{\"name\": \"None\", \"value\": 0},"
		"{\"name\": \"Pre-multiplied\", \"value\": 1}, {\"name\": \"Coverage\", \"value\": 2}]}")));
	CHECK(tl_set(node, "planes[1].properties.zpos", json_tokener_parse(
		"{\"id\": 63, \"type\": 2, \"immutable\": false, \"value\": 3,"
		"\"spec\": {\"min\": 0, \"max\": 7}}")));
	CHECK(tl_set(node, "planes[1].properties.SCALING_FILTER", json_tokener_parse(
		"{\"id\": 64, \"type\": 8, \"value\": 0, \"spec\": [{\"name\": \"Default\", \"value\": 0}]}")));
	/* No IN_FORMATS on plane 2: formats with LINEAR. */
	json_object_object_del(tl_get(node, "planes[2].properties"), "IN_FORMATS");
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board != NULL);
	if (!board) {
		fprintf(stderr, "%s\n", err.message);
		json_object_put(root);
		return;
	}
	p = board_find_plane(board, 33);
	CHECK(p->has_rotation);
	CHECK_INT(p->rotations, 0x3f);
	CHECK(p->has_alpha);
	CHECK_INT(p->alpha_max, 65535);
	CHECK_INT(p->blend_modes, BOARD_BLEND_NONE | BOARD_BLEND_PREMULTI | BOARD_BLEND_COVERAGE);
	CHECK(p->has_zpos);
	CHECK(!p->zpos_immutable);
	CHECK_INT(p->zpos_min, 0);
	CHECK_INT(p->zpos_max, 7);
	CHECK_INT(p->zpos, 3);
	CHECK_INT(board_plane_rank(p), 3);
	CHECK(p->has_scaling_filter);
	CHECK(p->can_scale);	/* SCALING_FILTER turns scaling on */
	p = board_find_plane(board, 35);
	CHECK(!p->has_in_formats);
	CHECK(has_formats(p, overlay_formats, 5));
	CHECK(!p->can_scale);
	board_destroy(board);
	json_object_put(root);
}

/* The "hwctrace" overrides (README.md). */
static void case_overrides(const char *dir)
{
	struct json_object *root = tl_json(dir, VKMS_OVERLAYS);
	struct json_object *node = tl_node(root);
	struct hwct_error err;
	struct board *board;

	CHECK(tl_set(node, "hwctrace", json_tokener_parse(
		"{\"can_scale\": true, \"primary_full_screen\": false, \"primary_required\": true,"
		" \"max_active_planes\": 4, \"cursor_size_limit\": true}")));
	CHECK(tl_set(node, "planes[1].hwctrace", json_tokener_parse(
		"{\"can_scale\": false, \"solid_fill\": true}")));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board != NULL);
	if (board) {
		CHECK(!board->primary_full_screen);
		CHECK(board->primary_required);
		CHECK_INT(board->max_active_planes, 4);
		CHECK(board_find_plane(board, 31)->can_scale);
		CHECK(!board_find_plane(board, 33)->can_scale);
		CHECK(board_find_plane(board, 33)->solid_fill);
		CHECK(!board_find_plane(board, 35)->solid_fill);
		CHECK(board_find_plane(board, 49)->cursor_size_limit);
		CHECK(!board_find_plane(board, 47)->cursor_size_limit);
	}
	board_destroy(board);

	CHECK(tl_set(node, "hwctrace", json_tokener_parse("{\"bogus\": 1}")));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board == NULL);
	CHECK(tl_contains(err.message, "edited: hwctrace.bogus: unknown hwctrace key"));
	CHECK(tl_set(node, "hwctrace", json_tokener_parse("{\"can_scale\": 1}")));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board == NULL);
	CHECK(tl_contains(err.message, "hwctrace.can_scale: expected boolean"));
	CHECK(tl_set(node, "hwctrace", json_tokener_parse("{}")));
	CHECK(tl_set(node, "planes[3].hwctrace", json_tokener_parse("{\"max_active_planes\": 2}")));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board == NULL);
	CHECK(tl_contains(err.message, "planes[3].hwctrace.max_active_planes: unknown hwctrace key"));
	json_object_put(root);
}

/* The construction helpers the KMS device uses, and their limits. */
static void case_construct(const char *dir)
{
	struct board *board = board_create(NULL);
	struct board_plane *plane;
	int ret = 0;

	(void)dir;
	CHECK(board != NULL);
	CHECK_STR(board->name, "");
	CHECK_INT(board_set_driver(board, "vkms"), 0);
	plane = board_add_plane(board, 7, BOARD_PLANE_PRIMARY);
	CHECK(plane != NULL);
	CHECK_INT(plane->rotations, BOARD_ROTATE_0);
	plane->possible_crtcs = 1;
	CHECK_INT(board_plane_add_format(plane, XR24, BOARD_MOD_LINEAR), 0);
	CHECK_INT(board_plane_add_format(plane, XR24, BOARD_MOD_LINEAR), 0);
	CHECK_INT(board_plane_add_format(plane, XR24, 5), 0);
	CHECK_INT(plane->format_count, 1);
	CHECK_INT(plane->formats[0].modifier_count, 2);
	CHECK(board_plane_has_format(plane, XR24, 5));
	CHECK(!board_plane_has_format(plane, XR24, 6));
	CHECK(board_plane_has_format(plane, XR24, BOARD_MOD_INVALID));
	for (uint32_t f = 0; f < BOARD_MAX_FORMATS + 1 && ret == 0; f++) {
		ret = board_plane_add_format(plane, 1000 + f, BOARD_MOD_LINEAR);
	}
	CHECK_INT(ret, -E2BIG);
	CHECK_INT(plane->format_count, BOARD_MAX_FORMATS);
	board_apply_rules(board);
	CHECK(board->primary_full_screen);
	CHECK(board_primary(board) == &board->planes[0]);
	CHECK(board_find_plane(board, 8) == NULL);
	while (board->plane_count < BOARD_MAX_PLANES) {
		CHECK(board_add_plane(board, (uint32_t)board->plane_count + 100, BOARD_PLANE_OVERLAY));
	}
	CHECK(board_add_plane(board, 1, BOARD_PLANE_OVERLAY) == NULL);
	/* Unknown drivers: cursors limited, primaries positionable. */
	CHECK_INT(board_set_driver(board, "unknown-drm"), 0);
	board->planes[1].type = BOARD_PLANE_CURSOR;
	board_apply_rules(board);
	CHECK(!board->primary_full_screen);
	CHECK(board->planes[1].cursor_size_limit);
	CHECK(!board->planes[2].cursor_size_limit);
	CHECK_STR(board_plane_type_name(BOARD_PLANE_CURSOR), "cursor");
	board_destroy(board);
	board_destroy(NULL);
}

/* One edit of the overlays dump and the JSON path its error must name. */
struct bad_field {
	const char *path;
	const char *json;	/* the new value */
	const char *want;	/* in the message */
};

static const struct bad_field bad_fields[] = {
	{ "planes[3].properties.IN_FORMATS.data", "\"x\"",
		"planes[3].properties.IN_FORMATS.data: expected array, found string" },
	{ "planes[3].properties.IN_FORMATS.data[0].modifier", "-1",
		"planes[3].properties.IN_FORMATS.data[0].modifier: negative value -1" },
	{ "planes[3].properties.IN_FORMATS.data[0].formats[2]", "4294967296",
		"planes[3].properties.IN_FORMATS.data[0].formats[2]: value 4294967296 out of range" },
	{ "planes[0].formats", "{}", "planes[0].formats: expected array, found object" },
	{ "planes[0].formats[1]", "1.5", "planes[0].formats[1]: expected int, found double" },
	{ "planes[2].id", "\"35\"", "planes[2].id: expected int, found string" },
	{ "planes[2].id", "31", "planes[2].id: duplicate plane id 31" },
	{ "planes[2].id", "0", "planes[2].id: invalid plane id 0" },
	{ "planes[4].possible_crtcs", "1099511627776", "planes[4].possible_crtcs: value" },
	{ "planes[1].properties.type.value", "7", "planes[1].properties.type.value: unknown plane type 7" },
	{ "planes[1].properties.type", "null", "planes[1].properties.type: missing (expected object)" },
	{ "planes[1].properties", "[]", "planes[1].properties: expected object, found array" },
	{ "planes", "5", "planes: expected array, found int" },
	{ "planes[6]", "\"plane\"", "planes[6]: expected object, found string" },
	{ "crtcs", "[]", "crtcs: no CRTC" },
	{ "crtcs[0].mode.hdisplay", "1.5", "crtcs[0].mode.hdisplay: expected int, found double" },
	{ "crtcs[0].mode.vdisplay", "100000", "crtcs[0].mode: mode 1024x100000 out of range" },
	{ "crtcs[0].id", "null", "crtcs[0].id: missing (expected int)" },
	{ "driver.name", "3", "driver.name: expected string, found int" },
	{ "driver.caps.CURSOR_WIDTH", "\"wide\"", "driver.caps.CURSOR_WIDTH: expected int" },
	{ "connectors[1].properties.WRITEBACK_PIXEL_FORMATS.data[0]", "-5",
		"connectors[1].properties.WRITEBACK_PIXEL_FORMATS.data[0]: negative value -5" },
	{ "connectors[0].type", "true", "connectors[0].type: expected int, found boolean" },
	{ "planes[5].properties.zpos", "{\"value\": 1, \"spec\": {\"min\": 5, \"max\": 1}}",
		"planes[5].properties.zpos.spec: min 5 > max 1" },
	{ "planes[5].properties.zpos", "{\"value\": 1, \"spec\": []}",
		"planes[5].properties.zpos.spec: expected object, found array" },
	{ "planes[5].properties.rotation", "{\"spec\": [{\"name\": 1, \"value\": 0}]}",
		"planes[5].properties.rotation.spec[0].name: expected string, found int" },
	{ "planes[5].properties.alpha", "{\"spec\": {\"min\": 0, \"max\": 0}}",
		"planes[5].properties.alpha: empty alpha range" },
	{ "planes[5].properties.pixel blend mode", "{\"spec\": {}}",
		"planes[5].properties.pixel blend mode.spec: expected array, found object" },
};

static void case_bad_fields(const char *dir)
{
	for (size_t i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++) {
		const struct bad_field *b = &bad_fields[i];
		struct json_object *root = tl_json(dir, VKMS_OVERLAYS);
		struct json_object *value = json_tokener_parse(b->json);
		struct hwct_error err;
		struct board *board;

		if (!tl_set(tl_node(root), b->path, value) && strcmp(b->json, "null") != 0) {
			FAIL("cannot edit %s", b->path);
		}
		board = board_from_drm_info_object(root, "bad.json", NULL, &err);
		if (board || !tl_contains(err.message, b->want) || err.code >= 0 ||
			!tl_contains(err.message, "bad.json: ")) {
			FAIL("%s = %s: got \"%s\", want \"%s\"", b->path, b->json,
				board ? "(a board)" : err.message, b->want);
		}
		board_destroy(board);
		json_object_put(root);
	}
}

static char *read_file(const char *dir, const char *file, size_t *size)
{
	char path[4096];
	FILE *f;
	char *data;
	long len;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		abort();
	}
	data = malloc((size_t)len + 1);
	if (!data || fread(data, 1, (size_t)len, f) != (size_t)len) {
		abort();
	}
	fclose(f);
	*size = (size_t)len;
	return data;
}

static void case_truncated(const char *dir)
{
	size_t size, cuts = 0;
	char *data = read_file(dir, VKMS_OVERLAYS, &size);

	for (size_t cut = 0; cut < size; cut += cut < 64 ? 1 : 997) {
		struct hwct_error err;
		struct board *board = board_from_drm_info_buffer(data, cut, "cut.json", NULL, &err);

		if (board || err.code != -EINVAL || !tl_contains(err.message, "cut.json: ")) {
			FAIL("cut at %zu: %s", cut, board ? "loaded" : err.message);
		}
		board_destroy(board);
		cuts++;
	}
	CHECK(cuts > 100);
	{
		struct hwct_error err;
		struct board *board = board_from_drm_info_buffer(data, size - 2, "cut.json", NULL, &err);

		CHECK(board == NULL);
		CHECK(tl_contains(err.message, "truncated JSON"));
		board = board_from_drm_info_buffer(data, size, "whole.json", NULL, &err);
		CHECK(board != NULL);
		board_destroy(board);
	}
	free(data);
}

/* Builds "{"n": {"planes": [ITEM, ITEM, ...]}}" with count items. */
static char *repeated(const char *head, const char *item, size_t count, const char *tail)
{
	size_t hl = strlen(head), il = strlen(item), tl = strlen(tail);
	char *s = malloc(hl + count * (il + 1) + tl + 1);
	char *p = s;

	if (!s) {
		abort();
	}
	memcpy(p, head, hl);
	p += hl;
	for (size_t i = 0; i < count; i++) {
		if (i) {
			*p++ = ',';
		}
		memcpy(p, item, il);
		p += il;
	}
	memcpy(p, tail, tl + 1);
	return s;
}

/* A plane whose IN_FORMATS gives one format count different modifiers. */
static char *modifiers(size_t count)
{
	static const char head[] = "{\"n\": {\"crtcs\": [{\"id\": 1}], \"planes\": [{\"id\": 1,"
		"\"possible_crtcs\": 1, \"formats\": [], \"properties\": {\"type\": {\"value\": 1},"
		"\"IN_FORMATS\": {\"data\": [";
	static const char tail[] = "]}}}]}}";
	size_t size = sizeof(head) + count * 48 + sizeof(tail);
	char *s = malloc(size);
	size_t len;

	if (!s) {
		abort();
	}
	len = (size_t)snprintf(s, size, "%s", head);
	for (size_t i = 0; i < count; i++) {
		len += (size_t)snprintf(s + len, size - len, "%s{\"modifier\": %zu, \"formats\": [1]}",
			i ? "," : "", i);
	}
	snprintf(s + len, size - len, "%s", tail);
	return s;
}

struct hostile {
	const char *name;
	char *json;
	const char *want;
};

static void case_hostile(const char *dir)
{
	struct hostile cases[] = {
		{ "planes", repeated("{\"n\": {\"crtcs\": [{\"id\": 1}], \"planes\": [", "{}", 100000,
			"]}}"), "planes: 100000 entries, at most 256" },
		{ "formats", repeated("{\"n\": {\"crtcs\": [{\"id\": 1}], \"planes\": [{\"id\": 1,"
			"\"possible_crtcs\": 1, \"properties\": {\"type\": {\"value\": 1}},"
			"\"formats\": [", "1", 100000, "]}]}}"), "planes[0].formats: 100000 entries, at most 1024" },
		{ "in-formats", repeated("{\"n\": {\"crtcs\": [{\"id\": 1}], \"planes\": [{\"id\": 1,"
			"\"possible_crtcs\": 1, \"formats\": [], \"properties\": {\"type\": {\"value\": 1},"
			"\"IN_FORMATS\": {\"data\": [", "{\"modifier\": 0, \"formats\": [1]}", 5000, "]}}}]}}"),
			"planes[0].properties.IN_FORMATS.data: 5000 entries, at most 1024" },
		{ "modifiers", modifiers(300),
			"planes[0].properties.IN_FORMATS.data[256].formats: more than 1024 formats or 256 "
			"modifiers per format" },
		{ "crtcs", repeated("{\"n\": {\"crtcs\": [", "{\"id\": 1}", 33, "]}}"),
			"crtcs: 33 entries, at most 32" },
		{ "deep", repeated("", "[", 100000, ""), "JSON: " },
		{ "trailing", repeated("{\"n\": {}}", "", 0, " x"), "JSON: " },
		{ "top-array", repeated("[", "1", 3, "]"), "(top level): expected object, found array" },
		{ "empty-object", repeated("{", "", 0, "}"), "no device node" },
		{ "node-string", repeated("{\"n\": \"card\"}", "", 0, ""), "n: expected object, found string" },
		{ "no-planes", repeated("{\"n\": {\"crtcs\": [{\"id\": 1}]}}", "", 0, ""),
			"planes: missing (expected array)" },
		{ "not-json", repeated("drm_info: ", "", 0, "no"), "JSON: " },
	};

	(void)dir;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hwct_error err;
		struct board *board = board_from_drm_info_buffer(cases[i].json, strlen(cases[i].json),
			"hostile.json", NULL, &err);

		if (board || !tl_contains(err.message, cases[i].want) ||
			!tl_contains(err.message, "hostile.json: ") || err.code >= 0) {
			FAIL("%s: got \"%s\", want \"%s\"", cases[i].name,
				board ? "(a board)" : err.message, cases[i].want);
		}
		board_destroy(board);
		free(cases[i].json);
	}
	{
		/* A NUL inside the text. */
		static const char nul[] = "{\"n\": \0 {}}";
		struct hwct_error err;
		struct board *board = board_from_drm_info_buffer(nul, sizeof(nul) - 1, "nul.json", NULL,
			&err);

		CHECK(board == NULL);
		CHECK(tl_contains(err.message, "nul.json: "));
		board_destroy(board);
	}
}

/*
 * Every member of a few planes, the CRTC, the writeback connector and the
 * driver, at every depth, replaced by each value of the wrong kind, or
 * deleted: a board or a clean error, nothing else (run it under
 * ASan/UBSan).
 */
static const char *const wrong_values[] = {
	"null", "\"s\"", "-1", "1e300", "[]", "{}", "18446744073709551615", "true",
	"[{\"modifier\": 0, \"formats\": [\"x\"]}]", "{\"min\": 9, \"max\": 1}",
};

struct sweep {
	struct json_object *root;	/* the dump, edited in place and restored */
	struct json_object *values[sizeof(wrong_values) / sizeof(wrong_values[0])];
	size_t runs, errors;
};

static void load(struct sweep *sw, const char *path)
{
	struct hwct_error err;
	struct board *board = board_from_drm_info_object(sw->root, "sweep.json", NULL, &err);

	sw->runs++;
	if (!board) {
		sw->errors++;
		if (err.code >= 0 || !tl_contains(err.message, "sweep.json: ")) {
			FAIL("%s: bad error \"%s\"", path, err.message);
		}
	}
	board_destroy(board);
}

/* Each wrong value in place of obj's member key, then no member key; obj is left as found. */
static void edit_member(struct sweep *sw, struct json_object *obj, const char *key, const char *path)
{
	struct json_object *old = json_object_get(json_object_object_get(obj, key));

	for (size_t v = 0; v < sizeof(wrong_values) / sizeof(wrong_values[0]); v++) {
		json_object_object_add(obj, key, json_object_get(sw->values[v]));
		load(sw, path);
	}
	json_object_object_del(obj, key);
	load(sw, path);
	json_object_object_add(obj, key, old);
}

static void sweep_object(struct sweep *sw, const char *path)
{
	struct json_object *obj = tl_get(tl_node(sw->root), path);
	char **keys;
	size_t n = 0;

	if (!obj || !json_object_is_type(obj, json_type_object)) {
		return;
	}
	/* The keys first: editing an object while walking it is not allowed. */
	keys = calloc((size_t)json_object_object_length(obj) + 1, sizeof(*keys));
	if (!keys) {
		abort();
	}
	json_object_object_foreach(obj, key, value) {
		(void)value;
		keys[n++] = strdup(key);
	}
	for (size_t i = 0; i < n; i++) {
		char child[512];
		struct json_object *member;

		snprintf(child, sizeof(child), "%s.%s", path, keys[i]);
		edit_member(sw, obj, keys[i], child);
		member = json_object_object_get(obj, keys[i]);
		if (member && json_object_is_type(member, json_type_object) && strlen(child) < 200) {
			sweep_object(sw, child);
		}
		free(keys[i]);
	}
	free(keys);
}

static void case_sweep(const char *dir)
{
	static const char *const roots[] = {
		"planes[0]", "planes[3]", "crtcs[0]", "connectors[1]", "driver",
	};
	struct sweep sw = { .root = tl_json(dir, VKMS_OVERLAYS) };
	struct board *board;

	for (size_t v = 0; v < sizeof(wrong_values) / sizeof(wrong_values[0]); v++) {
		sw.values[v] = json_tokener_parse(wrong_values[v]);
	}
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		sweep_object(&sw, roots[i]);
	}
	fprintf(stderr, "%zu edits, %zu refused\n", sw.runs, sw.errors);
	CHECK(sw.runs > 1000);
	CHECK(sw.errors > 100);
	/* Restored: the dump loads again. */
	board = board_from_drm_info_object(sw.root, "sweep.json", NULL, NULL);
	CHECK(board != NULL && board->plane_count == 10);
	board_destroy(board);
	for (size_t v = 0; v < sizeof(wrong_values) / sizeof(wrong_values[0]); v++) {
		json_object_put(sw.values[v]);
	}
	json_object_put(sw.root);
}

/*
 * A dump whose "planes" list is empty loads as a board of no plane, as
 * `hwc-trace board` shows it (it once sorted the zero planes of a NULL
 * array: qsort, board_json.c; under ASan+UBSan a report fails the test).
 */
static void case_empty_planes(const char *dir)
{
	struct json_object *root = tl_json(dir, VKMS_OVERLAYS);
	struct hwct_error err;
	struct board *board;

	CHECK(tl_set(tl_node(root), "planes", json_object_new_array()));
	board = board_from_drm_info_object(root, "edited", NULL, &err);
	CHECK(board != NULL);
	if (board) {
		CHECK_INT(board->plane_count, 0);
	} else {
		fprintf(stderr, "%s\n", err.message);
	}
	board_destroy(board);
	json_object_put(root);
}

static const struct tl_case cases[] = {
	{ "vkms-overlays", case_vkms_overlays },
	{ "vkms-no-overlays", case_vkms_no_overlays },
	{ "node", case_node },
	{ "properties", case_properties },
	{ "overrides", case_overrides },
	{ "construct", case_construct },
	{ "empty-modifier", case_empty_modifier },
	{ "non-desktop", case_non_desktop },
	{ "pick-device", case_pick_device },
	{ "bad-fields", case_bad_fields },
	{ "truncated", case_truncated },
	{ "hostile", case_hostile },
	{ "sweep", case_sweep },
	{ "empty-planes", case_empty_planes },
};

int main(int argc, char **argv)
{
	return tl_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
