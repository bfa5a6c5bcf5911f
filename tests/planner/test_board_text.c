/*
 * Board profiles from pasted drm_info text: the text and the JSON of the
 * same vkms device give the same board; the real dumps read to what they
 * show (YUV-only overlays, three pipes, no IN_FORMATS); hostile and damaged
 * pastes (cut anywhere, code-fenced, CRLF, tabs, indented, a second device)
 * give a board or one error naming the line, never a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define K230 "real/canaan-drm-tdisplay-k230.txt"
#define I915 "real/i915-display-top.txt"
#define HIBMC "real/hibmc-martins3-kunpeng.txt"

static const char *const dumps[] = { "vkms-6.1-overlays.txt", "vkms-6.1-no-overlays.txt", K230,
	I915, HIBMC, "fixtures/empty-modifier.txt", "fixtures/touchbar-two-devices.txt" };

static char *slurp(const char *dir, const char *file, size_t *size)
{
	char path[4096];
	FILE *f;
	char *data;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "cannot read %s\n", path);
		abort();
	}
	data = malloc((size_t)n + 1);
	if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
		abort();
	}
	fclose(f);
	data[n] = '\0';
	*size = (size_t)n;
	return data;
}

/* The board's JSON description as a string (owned). */
static char *describe(const struct board *board)
{
	struct json_object *o = board_to_json(board);
	char *s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));

	json_object_put(o);
	return s;
}

static void same_board(const char *dir, const char *a, const char *b)
{
	struct board *ba = tl_board(dir, a), *bb = tl_board(dir, b);
	char *sa = describe(ba), *sb = describe(bb);

	if (strcmp(sa, sb) != 0) {
		FAIL("%s and %s give different boards:\n%s\n%s", a, b, sa, sb);
	}
	free(sa);
	free(sb);
	board_destroy(ba);
	board_destroy(bb);
}

static void test_equivalence(const char *dir)
{
	same_board(dir, "vkms-6.1-overlays.json", "vkms-6.1-overlays.txt");
	same_board(dir, "vkms-6.1-no-overlays.json", "vkms-6.1-no-overlays.txt");
}

static const struct board_plane *plane_by_id(const struct board *b, uint32_t id)
{
	const struct board_plane *p = board_find_plane(b, id);

	if (!p) {
		FAIL("no plane %u", (unsigned)id);
		abort();
	}
	return p;
}

static void test_k230(const char *dir)
{
	struct board *b = tl_board(dir, K230);
	const struct board_plane *yuv = plane_by_id(b, 31), *primary = plane_by_id(b, 33);
	const struct board_plane *rot = plane_by_id(b, 43);

	CHECK_STR(b->driver, "canaan-drm");
	CHECK_INT(b->plane_count, 7);
	CHECK_INT(b->width, 568);
	CHECK_INT(b->height, 1232);
	CHECK_INT(yuv->type, BOARD_PLANE_OVERLAY);
	CHECK_INT(yuv->format_count, 4);
	CHECK(board_plane_has_format(yuv, NV12, BOARD_MOD_LINEAR));
	CHECK(!board_plane_has_format(yuv, AR24, BOARD_MOD_LINEAR));
	CHECK_INT(primary->type, BOARD_PLANE_PRIMARY);
	CHECK(!board_plane_has_format(primary, XR24, BOARD_MOD_LINEAR));
	CHECK(board_plane_has_format(primary, AR24, BOARD_MOD_LINEAR));
	CHECK(rot->has_rotation);
	CHECK_INT(rot->rotations, BOARD_ROTATE_0 | BOARD_ROTATE_90 | BOARD_ROTATE_270 |
		BOARD_REFLECT_X | BOARD_REFLECT_Y);
	CHECK(!yuv->has_rotation && !yuv->has_zpos && !yuv->has_alpha);
	board_destroy(b);
}

static void test_i915(const char *dir)
{
	struct board *b = tl_board(dir, I915);
	const struct board_plane *primary = plane_by_id(b, 32), *cursor = plane_by_id(b, 48);
	const struct board_plane *pipe_c = plane_by_id(b, 76);
	const uint64_t y_ccs = 0x0100000000000004ull;

	CHECK_STR(b->driver, "i915");
	CHECK_INT(b->crtc_count, 3);
	CHECK_INT(b->crtc_ids[2], 97);
	CHECK_INT(b->crtc_index, 0);
	CHECK_INT(b->width, 1920);
	CHECK_INT(b->plane_count, 9);
	CHECK_INT(b->cursor_width, 256);
	CHECK(board_plane_has_format(primary, XR24, y_ccs));
	CHECK(!board_plane_has_format(primary, RG16, y_ccs));
	CHECK(!board_plane_has_format(pipe_c, XR24, y_ccs));
	CHECK(!board_plane_has_format(pipe_c, NV12, BOARD_MOD_LINEAR));
	CHECK(!board_plane_usable(b, pipe_c));
	CHECK(primary->has_zpos && primary->zpos_immutable);
	CHECK_INT(primary->zpos_min, 0);
	CHECK(primary->has_alpha);
	CHECK_INT(primary->alpha_max, 65535);
	CHECK_INT(primary->blend_modes, BOARD_BLEND_NONE | BOARD_BLEND_PREMULTI | BOARD_BLEND_COVERAGE);
	CHECK_INT(cursor->rotations, BOARD_ROTATE_0 | BOARD_ROTATE_180);
	CHECK_INT(cursor->size_hint_count, 3);
	CHECK_INT(cursor->size_hints[2][0], 256);
	CHECK_INT(cursor->zpos, 2);
	board_destroy(b);
}

static void test_hibmc(const char *dir)
{
	struct board *b = tl_board(dir, HIBMC);
	const struct board_plane *p = plane_by_id(b, 28);

	CHECK_INT(b->plane_count, 1);
	CHECK(!p->has_in_formats);
	CHECK_INT(p->format_count, 10);
	CHECK(board_plane_has_format(p, AB24, BOARD_MOD_LINEAR));
	CHECK(board_plane_has_format(p, AB24, BOARD_MOD_INVALID));
	CHECK(!board_plane_has_format(p, AB24, 0x0100000000000001ull));
	board_destroy(b);
}

/* Loads text; returns the board or NULL with the message checked to name a line. */
static struct board *load(const char *text, size_t size, const char *what, const char *device)
{
	struct hwct_error err;
	struct board *b = board_from_buffer(text, size, "paste", device, &err);

	if (!b && (!tl_contains(err.message, "paste: line ") || err.code == 0)) {
		FAIL("%s: error without a line: \"%s\"", what, err.message);
	}
	return b;
}

static char *replace_all(const char *s, const char *from, const char *to)
{
	size_t n = 0, fl = strlen(from), tl = strlen(to);
	char *out, *o;

	for (const char *p = strstr(s, from); p; p = strstr(p + fl, from)) {
		n++;
	}
	out = malloc(strlen(s) + n * tl + 1);
	if (!out) {
		abort();
	}
	o = out;
	for (const char *p = s, *q; ; p = q + fl) {
		q = strstr(p, from);
		if (!q) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, to, tl);
		o += tl;
	}
	return out;
}

/* Each variant of each dump gives the same board as the dump. */
static void test_variants(const char *dir)
{
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		size_t size;
		char *text = slurp(dir, dumps[i], &size);
		struct board *orig = load(text, size, dumps[i], NULL);
		char *want = orig ? describe(orig) : NULL;
		char *variants[5];

		CHECK(orig != NULL, "%s loads", dumps[i]);
		variants[0] = malloc(size + 64);
		sprintf(variants[0], "Here is my output:\n\n```\n%s```\nThanks!\n", text);
		variants[1] = replace_all(text, "\n", " \r\n");
		variants[2] = replace_all(text, "    ", "\t");
		{
			char *t = replace_all(text, "\n", "\n    ");

			variants[3] = malloc(strlen(t) + 8);
			sprintf(variants[3], "    %s", t);
			free(t);
		}
		variants[4] = replace_all(text, "   ", "\t");
		for (size_t v = 0; v < 5; v++) {
			char what[128];
			struct board *b;

			snprintf(what, sizeof(what), "%s variant %zu", dumps[i], v);
			b = load(variants[v], strlen(variants[v]), what, NULL);
			if (!b) {
				struct hwct_error err;

				board_from_buffer(variants[v], strlen(variants[v]), "paste", NULL, &err);
				FAIL("%s does not load: %s", what, err.message);
			} else {
				char *got = describe(b);

				CHECK(want && strcmp(got, want) == 0, "%s gives the same board", what);
				free(got);
				board_destroy(b);
			}
			free(variants[v]);
		}
		free(want);
		board_destroy(orig);
		free(text);
	}
}

/* A second device appended: the first with a connected connector, or the one asked for. */
static void test_devices(const char *dir)
{
	size_t a, b;
	char *vkms = slurp(dir, "vkms-6.1-no-overlays.txt", &a);
	char *k230 = slurp(dir, K230, &b);
	char *both = malloc(a + b + 1);
	char *unplugged = replace_all(k230, "Status: connected", "Status: disconnected");
	char *both2 = malloc(a + strlen(unplugged) + 1);
	struct board *board;

	memcpy(both, vkms, a);
	memcpy(both + a, k230, b + 1);
	board = load(both, a + b, "two devices", NULL);
	CHECK(board && strcmp(board->driver, "vkms") == 0);
	board_destroy(board);
	board = load(both, a + b, "two devices, 2", "2");
	CHECK(board && strcmp(board->driver, "canaan-drm") == 0);
	board_destroy(board);
	board = load(both, a + b, "two devices, node", "/dev/dri/card0");
	CHECK(board && strcmp(board->driver, "vkms") == 0);
	board_destroy(board);
	{
		struct hwct_error err;

		CHECK(board_from_buffer(both, a + b, "paste", "3", &err) == NULL);
		CHECK(tl_contains(err.message, "device 3 asked for, the paste holds 2"), "%s",
			err.message);
	}
	/* The first device has nothing connected: the second is taken. */
	sprintf(both2, "%s%s", unplugged, vkms);
	board = load(both2, strlen(both2), "unplugged first", NULL);
	CHECK(board && strcmp(board->driver, "vkms") == 0);
	board_destroy(board);
	free(both2);
	free(unplugged);
	free(both);
	free(vkms);
	free(k230);
}

/* No connectors section: the CRTC's recorded mode, flagged. */
static void test_no_connectors(const char *dir)
{
	size_t size;
	char *text = slurp(dir, HIBMC, &size);
	char *start = strstr(text, "├───Connectors");
	char *end = strstr(text, "├───Encoders");
	struct board *b;

	CHECK(start && end);
	memmove(start, end, strlen(end) + 1);
	b = load(text, strlen(text), "no connectors", NULL);
	CHECK(b != NULL);
	if (b) {
		CHECK(b->mode_from_crtc_only);
		CHECK_INT(b->width, 640);
		CHECK_INT(b->height, 480);
	}
	board_destroy(b);
	free(text);
}

/* Cut at 20 offsets (and at every line end): a board equal to the whole, or an error naming a line. */
static void test_cut(const char *dir)
{
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		size_t size;
		char *text = slurp(dir, dumps[i], &size);
		struct board *whole = load(text, size, dumps[i], NULL);
		char *want = describe(whole);
		const char *second = strstr(text, "\nNode:");
		char *first_alone = NULL;
		size_t partial = 0;

		/* Cut where a second device starts, a paste is the first device alone. */
		if (second) {
			struct board *first = load(text, (size_t)(second - text + 1), dumps[i], NULL);

			first_alone = describe(first);
			board_destroy(first);
		}

		for (size_t k = 1; k <= 20 + size; k++) {
			size_t cut = k <= 20 ? size * k / 21 : k - 21;
			char what[128], *copy;
			struct board *b;

			if (k > 20 && (cut >= size || text[cut] != '\n')) {
				continue;	/* past the 20 offsets: every line end too */
			}
			copy = malloc(cut + 1);
			memcpy(copy, text, cut);
			copy[cut] = '\0';
			snprintf(what, sizeof(what), "%s cut at %zu", dumps[i], cut);
			b = load(copy, cut, what, NULL);
			if (b) {
				char *got = describe(b);

				/*
				 * Only a cut in the last line's tail may still load, to the same
				 * board, or one between two devices, to the first alone.
				 */
				if (strcmp(got, want) != 0 && (!first_alone || strcmp(got, first_alone) != 0)) {
					partial++;
					FAIL("%s: a partial board loaded silently", what);
				}
				free(got);
				board_destroy(b);
			}
			free(copy);
		}
		CHECK_INT(partial, 0);
		free(first_alone);
		free(want);
		board_destroy(whole);
		free(text);
	}
}

/* Hostile pastes: errors that name the line and what was expected. */
static void test_hostile(const char *dir)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "", "no \"Node: ...\" line" },
		{ "hello\nworld\n", "no \"Node: ...\" line" },
		{ "Node: /dev/dri/card0\n├───Driver: x\n", "line 2: the paste ends inside" },
		{ "Node: /dev/dri/card0\n└───Planes\n", "line 1: expected a \"CRTCs\" list" },
		{ "Node: /dev/dri/card0\n├───CRTCs\n│   └───CRTC 0\n│       └───Object ID: x\n"
			"└───Planes\n", "line 4: expected \"Object ID: x\" followed by a number" },
		{ "Node: /dev/dri/card0\n├───CRTCs\n│   └───CRTC 0\n│       └───Object ID: 5\n"
			"└───Planes\n    └───Plane 0\n        ├───Object ID: 7\n"
			"        ├───CRTCs: {0, 99}\n        └───Properties\n"
			"            └───\"type\" (immutable): enum {Overlay} = Overlay\n",
			"line 8: expected CRTC indices" },
		{ "Node: /dev/dri/card0\n├───CRTCs\n│   └───CRTC 0\n│       └───Object ID: 5\n"
			"└───Planes\n    └───Plane 0\n        ├───Object ID: 7\n"
			"        ├───CRTCs: {0}\n        └───Properties\n"
			"            └───\"IN_FORMATS\" (immutable): blob = 32\n",
			"line 10: expected the modifiers of IN_FORMATS" },
		{ "Node: /dev/dri/card0\n├───CRTCs\n│   └───CRTC 0\n│       └───Object ID: 5\n"
			"└───Planes\n    └───Plane 0\n        ├───Object ID: 7\n"
			"        ├───CRTCs: {0}\n        └───Properties\n"
			"            └───\"IN_FORMATS\" (immutable): blob = 32\n"
			"                └───DRM_FORMAT_MOD_LINEAR (0x0)\n"
			"                    └───XRGB8888 (0x3432\n", "line 12: expected a format" },
		{ "Node: /dev/dri/card0\n    ├───CRTCs\n  ├───x\n", "line 3: indentation matches no" },
		{ "├───CRTCs\n", "line 1: tree entry outside a device" },
		{ "Node: /dev/dri/card0\n├───CRTCs\n│   └───CRTC 0\n│       └───Object ID: 5\n"
			"└───Planes\n    └───Plane 0\n        ├───Object ID: 7\n"
			"        └───CRTCs: {0}\n", "line 6: expected the properties" },
		{ "Node: /dev/dri/card0\n├───CRTCs\n│   └───CRTC 0\n│       └───Object ID: 5\n"
			"└───Planes\n    └───Plane 0\n        ├───Object ID: 7\n"
			"        ├───CRTCs: {0}\n        └───Properties\n"
			"            └───\"IN_FORMATS\" (immutable): blob\n",
			"line 10: expected \"blob = ID\"" },
		{ "Node: /dev/dri/card0\n├───CRTCs\n│   └───CRTC 0\n│       └───Object ID: 5\n"
			"└───Planes\n    └───Plane 0\n        ├───Object ID: 7\n"
			"        ├───CRTCs: {0}\n        └───Properties\n"
			"            ├───\"type\" (immutable): enum {Overlay} = Overlay\n"
			"            └───\"IN_FORMATS\" (immutable): blob = 32\n"
			"                └───DRM_FORMAT_MOD_LINEAR (0x0)",
			"line 12: expected the formats of modifier" },
		{ "Node: /dev/dri/card0\n└───Driver: x\nNode: /dev/dri/card1\n",
			"line 3: nothing under \"Node: /dev/dri/card1\"" },
	};

	(void)dir;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hwct_error err;
		struct board *b = board_from_drm_info_text(cases[i].text, strlen(cases[i].text),
			"paste", NULL, &err);

		CHECK(b == NULL, "case %zu fails", i);
		CHECK(tl_contains(err.message, cases[i].want), "case %zu: \"%s\" has \"%s\"", i,
			err.message, cases[i].want);
		board_destroy(b);
	}
}

#define EMPTY_MODIFIER "fixtures/empty-modifier.txt"
#define TOUCHBAR "fixtures/touchbar-two-devices.txt"
#define AFBC_32X8 0x0800000000001056ull
#define AFBC_16X16 0x0800000000000013ull

/* What `hwc-trace board` prints for board (owned string). */
static char *print(const struct board *board)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f) {
		abort();
	}
	board_print(f, board);
	fclose(f);
	return text;
}

/*
 * A modifier IN_FORMATS lists with no format under it (a compression an
 * SoC driver advertises for no format) is kept, with zero formats, in the
 * middle of a list and as the paste's last line; only a text that stops
 * right after it, without a line end, is a paste cut short.
 */
static void test_empty_modifier(const char *dir)
{
	size_t size;
	char *text = slurp(dir, EMPTY_MODIFIER, &size);
	struct board *b = load(text, size, EMPTY_MODIFIER, NULL);
	struct hwct_error err;
	char *shown;

	CHECK(b != NULL);
	if (!b) {
		free(text);
		return;
	}
	for (size_t i = 0; i < b->plane_count; i++) {
		const struct board_plane *p = &b->planes[i];

		CHECK(p->has_in_formats);
		CHECK_INT(p->empty_modifier_count, 1);
		CHECK(p->empty_modifier_count == 1 && p->empty_modifiers[0] == AFBC_32X8);
		for (size_t j = 0; j < p->format_count; j++) {
			CHECK(!board_plane_has_format(p, p->formats[j].fourcc, AFBC_32X8));
		}
	}
	CHECK(board_plane_has_format(plane_by_id(b, 32), XR24, AFBC_16X16));
	CHECK(!board_plane_has_format(plane_by_id(b, 32), NV12, AFBC_16X16));
	CHECK_INT(plane_by_id(b, 34)->format_count, 2);
	shown = print(b);
	CHECK(tl_contains(shown, "modifiers with no format (IN_FORMATS lists them empty): "
		"0x0800000000001056"), "%s", shown);
	free(shown);
	board_destroy(b);
	/* The same text without its last line end: maybe cut after the modifier. */
	CHECK(board_from_drm_info_text(text, size - 1, "paste", NULL, &err) == NULL);
	CHECK(tl_contains(err.message, "paste: line 80: expected the formats of modifier"), "%s",
		err.message);
	free(text);
}

/*
 * Two devices, the first a touch-bar panel whose only connected connector
 * is non-desktop: the default is the second; either is taken when asked,
 * and `hwc-trace board` names both and which was taken, and why.
 */
static void test_non_desktop(const char *dir)
{
	static const struct {
		const char *device;
		const char *driver;
		uint32_t width, height;
		size_t index;
		enum board_device_pick pick;
		const char *shown;
	} cases[] = {
		{ NULL, "i915", 2880, 1800, 1, BOARD_PICK_DESKTOP,
			"device  2 of 2, /dev/dri/card1: the first with a connected desktop connector\n"
			"    1 /dev/dri/card0  driver appletbdrm, 1 CRTC, 1 connected, 1 of them "
			"non-desktop\n"
			"  * 2 /dev/dri/card1  driver i915, 1 CRTC, 1 connected\n" },
		{ "1", "appletbdrm", 60, 2008, 0, BOARD_PICK_ASKED,
			"device  1 of 2, /dev/dri/card0: asked for\n" },
		{ "/dev/dri/card0", "appletbdrm", 60, 2008, 0, BOARD_PICK_ASKED,
			"  * 1 /dev/dri/card0  driver appletbdrm" },
		{ "2", "i915", 2880, 1800, 1, BOARD_PICK_ASKED, "  * 2 /dev/dri/card1" },
		{ "card0", "appletbdrm", 60, 2008, 0, BOARD_PICK_ASKED, "  * 1 /dev/dri/card0" },
	};
	size_t size;
	char *text = slurp(dir, TOUCHBAR, &size);
	struct hwct_error err;

	CHECK(board_from_drm_info_text(text, size, "paste", "card5", &err) == NULL);
	CHECK(tl_contains(err.message, "no device \"Node: card5\" (the paste holds 1 /dev/dri/card0, "
		"2 /dev/dri/card1)"), "%s", err.message);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct board *b = load(text, size, TOUCHBAR, cases[i].device);
		char *shown;

		CHECK(b != NULL, "case %zu loads", i);
		if (!b) {
			continue;
		}
		CHECK_STR(b->driver, cases[i].driver);
		CHECK_INT(b->width, cases[i].width);
		CHECK_INT(b->height, cases[i].height);
		CHECK_INT(b->device_count, 2);
		CHECK_INT(b->device_index, cases[i].index);
		CHECK_INT(b->device_pick, cases[i].pick);
		shown = print(b);
		CHECK(tl_contains(shown, cases[i].shown), "case %zu: \"%s\" in\n%s", i,
			cases[i].shown, shown);
		free(shown);
		board_destroy(b);
	}
	free(text);
}

/* One device of the shapes below: NODE, CONNECTORS, CRTCS and PLANES entries. */
#define SHAPE_CONNECTOR(id, status, non_desktop, crtc, mode) \
	"│   ├───Connector\n│   │   ├───Object ID: " id "\n│   │   ├───Type: DisplayPort\n" \
	"│   │   ├───Status: " status "\n│   │   ├───Modes\n│   │   │   └───" mode "\n" \
	"│   │   └───Properties\n" \
	"│   │       ├───\"non-desktop\" (immutable): range [0, 1] = " non_desktop "\n" \
	"│   │       └───\"CRTC_ID\" (atomic): object CRTC = " crtc "\n"
#define SHAPE_CRTC(id, mode) \
	"│   ├───CRTC\n│   │   ├───Object ID: " id "\n│   │   └───Legacy info\n" \
	"│   │       └───Mode: " mode "\n"
#define SHAPE_PLANE \
	"└───Planes\n    └───Plane 0\n        ├───Object ID: 7\n        ├───CRTCs: {0, 1}\n" \
	"        └───Properties\n" \
	"            └───\"type\" (immutable): enum {Overlay, Primary, Cursor} = Primary\n"

/*
 * Shapes a real driver or drm_info version may print, each read without an
 * error: the size and CRTC taken say it was read as meant.
 */
static void test_shapes(const char *dir)
{
	static const struct {
		const char *what, *text;
		uint32_t width, height, crtc_index;
	} cases[] = {
		{ "a headset on CRTC 0, the desktop on CRTC 1: CRTC 1",
			"Node: /dev/dri/card0\n├───Connectors\n"
			SHAPE_CONNECTOR("40", "connected", "1", "5", "2160×2160@90.00")
			"│   └───Connector\n│       ├───Object ID: 41\n│       ├───Status: connected\n"
			"│       └───Modes\n│           └───1920×1080@60.00\n"
			"├───CRTCs\n" SHAPE_CRTC("5", "2160×2160@90.00")
			"│   └───CRTC\n│       ├───Object ID: 6\n│       └───Legacy info\n"
			"│           └───Mode: 1920×1080@60.00\n" SHAPE_PLANE,
			1920, 1080, 1 },
		{ "no CRTC mode, a headset connected first: the desktop connector's mode",
			"Node: /dev/dri/card0\n├───Connectors\n"
			SHAPE_CONNECTOR("40", "connected", "1", "0", "2160×2160@90.00")
			SHAPE_CONNECTOR("41", "connected", "0", "0", "1280×720@60.00")
			"│   └───Connector\n│       └───Object ID: 42\n"
			"├───CRTCs\n│   └───CRTC\n│       └───Object ID: 5\n" SHAPE_PLANE,
			1280, 720, 0 },
		{ "only a headset: its mode (a device read on purpose)",
			"Node: /dev/dri/card0\n├───Connectors\n"
			SHAPE_CONNECTOR("40", "connected", "1", "0", "2160×2160@90.00")
			"│   └───Connector\n│       ├───Object ID: 41\n│       ├───Status: connected\n"
			"│       └───Modes\n"
			"├───CRTCs\n│   └───CRTC\n│       └───Object ID: 5\n" SHAPE_PLANE,
			2160, 2160, 0 },
		{ "connectors without modes, a plane on no CRTC, unknown sections and properties",
			"Node: /dev/dri/card0\r\n├───Connectors\r\n│   └───Connector\r\n"
			"│       ├───Object ID: 40\r\n│       └───Status: connected\r\n"
			"├───Something newer\r\n│   └───\"odd\": [1, 2]\r\n"
			"├───CRTCs\r\n│   └───CRTC\r\n│       └───Object ID: 5\r\n"
			"└───Planes\r\n    └───Plane 0\r\n        ├───Object ID: 7\r\n"
			"        ├───CRTCs: {}\r\n        └───Properties\r\n"
			"            ├───\"type\" (immutable): enum {Overlay, Primary, Cursor} = Overlay\r\n"
			"            ├───\"COLOR_PIPELINE\" (atomic): enum {Bypass} = Bypass\r\n"
			"            └───\"IN_FORMATS\" (immutable): blob = 0\r\n"
			"That was all.\r\n",
			0, 0, 0 },
	};

	(void)dir;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hwct_error err;
		struct board *b = board_from_drm_info_text(cases[i].text, strlen(cases[i].text),
			"paste", NULL, &err);

		CHECK(b != NULL, "%s: %s", cases[i].what, b ? "" : err.message);
		if (!b) {
			continue;
		}
		CHECK(b->width == cases[i].width && b->height == cases[i].height &&
			b->crtc_index == cases[i].crtc_index, "%s: got %ux%u on CRTC %u", cases[i].what,
			(unsigned)b->width, (unsigned)b->height, (unsigned)b->crtc_index);
		board_destroy(b);
	}
}

static const struct tl_case cases[] = {
	{ "equivalence", test_equivalence },
	{ "k230", test_k230 },
	{ "i915", test_i915 },
	{ "hibmc", test_hibmc },
	{ "variants", test_variants },
	{ "devices", test_devices },
	{ "no-connectors", test_no_connectors },
	{ "cut", test_cut },
	{ "hostile", test_hostile },
	{ "empty-modifier", test_empty_modifier },
	{ "non-desktop", test_non_desktop },
	{ "shapes", test_shapes },
};

int main(int argc, char **argv)
{
	return tl_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
