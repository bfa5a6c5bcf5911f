/*
 * Board profiles from plain drm_info output (board.h): the tree of
 * board_text_tree.c read into the same board the JSON loader builds. What
 * is read, per device: "Driver: NAME ..." and its DRM_CAP_CURSOR_* lines;
 * "CRTCs" (each "Object ID", the mode under "Legacy info" or the MODE_ID
 * blob); "Connectors" (type, status, non-desktop, CRTC_ID, first mode,
 * WRITEBACK_PIXEL_FORMATS); "Planes" (id, "CRTCs: {i, ...}", the
 * "Formats:" list, then the properties type, IN_FORMATS (a modifier with
 * no format under it kept as such), rotation, alpha, pixel blend mode,
 * zpos, SCALING_FILTER and SIZE_HINTS). Entries and properties not listed
 * here are skipped, whatever they hold. Older drm_info versions print
 * "Formats:" and "Mode:" directly under the object rather than under
 * "Legacy info", and modifiers without leading zeros; both read the same.
 * A value that does not parse is an error naming its line and what was
 * expected.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_text.h"

struct reader {
	const struct btext_tree *tree;
	const char *name;
	struct hwct_error *err;
	struct board *board;
};

/* A property line: "NAME" (flags): SPEC = VALUE. */
struct prop {
	char name[64];
	bool immutable;
	const char *spec;		/* after "): " or ": " */
	const char *value;		/* after the last " = ", or NULL */
};

static int fail(struct reader *r, const struct btext_node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct reader *r, const struct btext_node *at, const char *fmt, ...)
{
	char what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return hwct_error_set(r->err, -EINVAL, r->name, UINT64_MAX, "line %zu: %s",
		at ? at->line : 0, what);
}

static const struct {
	const char *name;
	bool negative;
	uint64_t value;
} named_numbers[] = {
	{ "UINT8_MAX", false, UINT8_MAX }, { "UINT16_MAX", false, UINT16_MAX },
	{ "INT16_MAX", false, INT16_MAX }, { "UINT32_MAX", false, UINT32_MAX },
	{ "INT32_MAX", false, INT32_MAX }, { "INT32_MIN", true, (uint64_t)INT32_MAX + 1 },
	{ "UINT64_MAX", false, UINT64_MAX }, { "INT64_MAX", false, INT64_MAX },
	{ "INT64_MIN", true, (uint64_t)INT64_MAX + 1 },
};

/*
 * A number at *s: decimal, 0x hex, or a limit name drm_info prints
 * (UINT32_MAX...), optionally negative. Advances *s. Returns false when
 * there is none or it overflows.
 */
static bool parse_number(const char **s, bool *negative, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	int base = 10;
	bool any = false;

	*negative = false;
	for (size_t i = 0; i < sizeof(named_numbers) / sizeof(named_numbers[0]); i++) {
		size_t len = strlen(named_numbers[i].name);

		if (strncmp(p, named_numbers[i].name, len) == 0) {
			*negative = named_numbers[i].negative;
			*out = named_numbers[i].value;
			*s = p + len;
			return true;
		}
	}
	if (*p == '-') {
		*negative = true;
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		int d;

		if (*p >= '0' && *p <= '9') {
			d = *p - '0';
		} else if (base == 16 && *p >= 'a' && *p <= 'f') {
			d = *p - 'a' + 10;
		} else if (base == 16 && *p >= 'A' && *p <= 'F') {
			d = *p - 'A' + 10;
		} else {
			break;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
			return false;
		}
		v = v * (uint64_t)base + (uint64_t)d;
		any = true;
	}
	if (!any) {
		return false;
	}
	*out = v;
	*s = p;
	return true;
}

/* The whole of s as an unsigned number below limit. */
static bool parse_whole_u64(const char *s, uint64_t limit, uint64_t *out)
{
	bool negative;

	return parse_number(&s, &negative, out) && !negative && *s == '\0' && *out <= limit;
}

/* The whole of s as a signed number. */
static bool parse_whole_i64(const char *s, int64_t *out)
{
	bool negative;
	uint64_t v;

	if (!parse_number(&s, &negative, &v) || *s != '\0' ||
		v > (negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) {
		return false;
	}
	*out = negative ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static bool parse_prop(const char *text, struct prop *prop)
{
	const char *end, *p, *eq;
	size_t len;

	memset(prop, 0, sizeof(*prop));
	if (text[0] != '"' || !(end = strchr(text + 1, '"'))) {
		return false;
	}
	len = (size_t)(end - text - 1);
	if (len >= sizeof(prop->name)) {
		len = sizeof(prop->name) - 1;
	}
	memcpy(prop->name, text + 1, len);
	p = end + 1;
	if (strncmp(p, " (", 2) == 0) {
		const char *close = strchr(p, ')');

		if (!close) {
			return false;
		}
		prop->immutable = strstr(p, "immutable") && strstr(p, "immutable") < close;
		p = close + 1;
	}
	if (*p != ':') {
		return false;
	}
	prop->spec = p[1] == ' ' ? p + 2 : p + 1;
	for (eq = strstr(prop->spec, " = "); eq; eq = strstr(eq + 3, " = ")) {
		prop->value = eq + 3;
	}
	return true;
}

/* "KEY: NUMBER" (the text of node) into out. */
static int key_u32(struct reader *r, const struct btext_node *n, uint32_t *out)
{
	const char *colon = n ? strchr(n->text, ':') : NULL;
	uint64_t v;

	if (!colon || colon[1] != ' ' || !parse_whole_u64(colon + 2, UINT32_MAX, &v)) {
		return fail(r, n, "expected \"%.40s\" followed by a number", n ? n->text : "");
	}
	*out = (uint32_t)v;
	return 0;
}

/* The child "Object ID: N" of node (required). */
static int object_id(struct reader *r, const struct btext_node *node, uint32_t *id)
{
	const struct btext_node *n = btext_child(r->tree, node, "Object ID:", false);

	if (!n) {
		return fail(r, node, "\"%.40s\" has no \"Object ID:\" entry", node->text);
	}
	return key_u32(r, n, id);
}

/* "NAME (0xHEX)" or "0xHEX": a fourcc or a modifier. */
static bool parse_code(const char *text, uint64_t limit, uint64_t *out)
{
	const char *open = strrchr(text, '(');
	size_t len = strlen(text);
	char hex[24];

	if (strncmp(text, "0x", 2) == 0 && !strchr(text, ' ')) {
		return parse_whole_u64(text, limit, out);
	}
	if (!open || len == 0 || text[len - 1] != ')' || (size_t)(text + len - 1 - open - 1) >=
		sizeof(hex)) {
		return false;
	}
	memcpy(hex, open + 1, (size_t)(text + len - 1 - open - 1));
	hex[text + len - 1 - open - 1] = '\0';
	return strncmp(hex, "0x", 2) == 0 && parse_whole_u64(hex, limit, out);
}

static int add_format(struct reader *r, struct board_plane *plane, const struct btext_node *n,
	uint64_t modifier)
{
	uint64_t fourcc;
	int ret;

	if (!parse_code(n->text, UINT32_MAX, &fourcc)) {
		return fail(r, n, "expected a format \"NAME (0xFOURCC)\", got \"%.40s\"", n->text);
	}
	ret = board_plane_add_format(plane, (uint32_t)fourcc, modifier);
	if (ret == -E2BIG) {
		return fail(r, n, "more than %d formats or %d modifiers per format", BOARD_MAX_FORMATS,
			BOARD_MAX_MODIFIERS);
	}
	return ret ? hwct_error_set(r->err, ret, r->name, UINT64_MAX, "out of memory") : 0;
}

/* Every child of list as a format with modifier. */
static int add_formats(struct reader *r, struct board_plane *plane, const struct btext_node *list,
	uint64_t modifier)
{
	int ret;

	for (const struct btext_node *n = btext_at(r->tree, list->first_child); n;
		n = btext_at(r->tree, n->next)) {
		if ((ret = add_format(r, plane, n, modifier))) {
			return ret;
		}
	}
	return 0;
}

/* "W x H@..." with "x" or "×" (newer drm_info). */
static bool parse_mode(const char *text, uint32_t *w, uint32_t *h)
{
	const char *p = text;
	bool negative;
	uint64_t a, b;

	if (!parse_number(&p, &negative, &a) || negative) {
		return false;
	}
	if (*p == 'x') {
		p++;
	} else if (strncmp(p, "\xc3\x97", 2) == 0) {
		p += 2;
	} else {
		return false;
	}
	if (!parse_number(&p, &negative, &b) || negative || (*p != '@' && *p != ' ' && *p) ||
		a == 0 || b == 0 || a > 65535 || b > 65535) {
		return false;
	}
	*w = (uint32_t)a;
	*h = (uint32_t)b;
	return true;
}

static int set_mode(struct reader *r, const struct btext_node *n, const char *text)
{
	if (!parse_mode(text, &r->board->width, &r->board->height)) {
		return fail(r, n, "expected a mode \"WxH@RATE\", got \"%.40s\"", text);
	}
	return 0;
}

/* The mode line of a CRTC: "Mode: ..." (under "Legacy info" or not) or MODE_ID's child. */
static const struct btext_node *crtc_mode(const struct btext_tree *t, const struct btext_node *crtc,
	const char **text)
{
	const struct btext_node *legacy = btext_child(t, crtc, "Legacy info", true);
	const struct btext_node *m = btext_child(t, legacy ? legacy : crtc, "Mode:", false);
	const struct btext_node *props;

	if (!m && legacy) {
		m = btext_child(t, crtc, "Mode:", false);
	}
	if (m) {
		*text = m->text[5] == ' ' ? m->text + 6 : m->text + 5;
		return m;
	}
	props = btext_child(t, crtc, "Properties", true);
	m = btext_at(t, btext_child(t, props, "\"MODE_ID\"", false) ?
		btext_child(t, props, "\"MODE_ID\"", false)->first_child : BTEXT_NONE);
	if (m) {
		*text = m->text;
	}
	return m;
}

/* Whether a connected non-desktop connector of the device is on the CRTC with object id crtc_id. */
static bool drives_non_desktop(const struct reader *r, const struct btext_node *root,
	uint32_t crtc_id)
{
	const struct btext_node *list = btext_child(r->tree, root, "Connectors", true);

	for (const struct btext_node *c = btext_at(r->tree, list ? list->first_child : BTEXT_NONE);
		c; c = btext_at(r->tree, c->next)) {
		const struct btext_node *props = btext_child(r->tree, c, "Properties", true);
		const struct btext_node *n = btext_child(r->tree, props, "\"CRTC_ID\"", false);
		struct prop prop;
		uint64_t id;

		if (n && btext_connected(r->tree, c) && btext_non_desktop(r->tree, c) &&
			parse_prop(n->text, &prop) && prop.value &&
			parse_whole_u64(prop.value, UINT32_MAX, &id) && id == crtc_id) {
			return true;
		}
	}
	return false;
}

/*
 * Every CRTC's id, and the one modelled: the first with a mode that does
 * not drive a non-desktop connector (a headset's CRTC is not the desktop),
 * else the first with a mode, else the first.
 */
static int read_crtcs(struct reader *r, const struct btext_node *root)
{
	const struct btext_node *list = btext_child(r->tree, root, "CRTCs", true);
	const struct btext_node *mode = NULL;
	const char *mode_text = NULL;
	bool mode_desktop = false;
	size_t i = 0;
	int ret;

	if (!list || list->child_count == 0) {
		return fail(r, list ? list : root, "expected a \"CRTCs\" list with at least one CRTC");
	}
	for (const struct btext_node *c = btext_at(r->tree, list->first_child); c;
		c = btext_at(r->tree, c->next), i++) {
		const struct btext_node *m;
		const char *text;
		bool desktop;

		if (i >= BOARD_MAX_CRTCS) {
			return fail(r, c, "more than %d CRTCs", BOARD_MAX_CRTCS);
		}
		if ((ret = object_id(r, c, &r->board->crtc_ids[i]))) {
			return ret;
		}
		r->board->crtc_count = i + 1;
		if (mode_desktop || !(m = crtc_mode(r->tree, c, &text))) {
			continue;
		}
		desktop = !drives_non_desktop(r, root, r->board->crtc_ids[i]);
		if (!mode || desktop) {
			mode = m;
			mode_text = text;
			mode_desktop = desktop;
			r->board->crtc_index = (uint32_t)i;
		}
	}
	r->board->crtc_id = r->board->crtc_ids[r->board->crtc_index];
	return mode ? set_mode(r, mode, mode_text) : 0;
}

static int read_writeback(struct reader *r, const struct btext_node *conn)
{
	const struct btext_node *props = btext_child(r->tree, conn, "Properties", true);
	const struct btext_node *wb = btext_child(r->tree, props, "\"WRITEBACK_PIXEL_FORMATS\"", false);
	uint64_t fourcc;

	r->board->has_writeback = true;
	if (!wb || r->board->writeback_format_count) {
		return 0;
	}
	for (const struct btext_node *n = btext_at(r->tree, wb->first_child); n;
		n = btext_at(r->tree, n->next)) {
		if (!parse_code(n->text, UINT32_MAX, &fourcc)) {
			return fail(r, n, "expected a format \"NAME (0xFOURCC)\", got \"%.40s\"", n->text);
		}
		if (board_add_writeback_format(r->board, (uint32_t)fourcc)) {
			return fail(r, n, "too many writeback formats");
		}
	}
	return 0;
}

bool btext_connected(const struct btext_tree *tree, const struct btext_node *conn)
{
	const struct btext_node *s = btext_child(tree, conn, "Status:", false);

	return s && strcmp(s->text, "Status: connected") == 0;
}

bool btext_non_desktop(const struct btext_tree *tree, const struct btext_node *conn)
{
	const struct btext_node *props = btext_child(tree, conn, "Properties", true);
	const struct btext_node *n = btext_child(tree, props, "\"non-desktop\"", false);
	struct prop prop;
	uint64_t v;

	return n && parse_prop(n->text, &prop) && prop.value &&
		parse_whole_u64(prop.value, UINT64_MAX, &v) && v != 0;
}

/*
 * Writeback formats, and the size when no CRTC has a mode: the first mode of
 * the first connected desktop connector, else of any connected one (a
 * device read on purpose may have only a headset).
 */
static int read_connectors(struct reader *r, const struct btext_node *root)
{
	const struct btext_node *list = btext_child(r->tree, root, "Connectors", true);
	const struct btext_node *desktop_mode = NULL, *any_mode = NULL, *mode;
	int ret;

	if (!list || list->child_count == 0) {
		r->board->mode_from_crtc_only = r->board->width != 0;
		return 0;
	}
	for (const struct btext_node *c = btext_at(r->tree, list->first_child); c;
		c = btext_at(r->tree, c->next)) {
		const struct btext_node *type = btext_child(r->tree, c, "Type:", false);
		const struct btext_node *modes = btext_child(r->tree, c, "Modes", true);
		const struct btext_node *first = btext_at(r->tree, modes ? modes->first_child :
			BTEXT_NONE);

		/* A connector without a type line is read as one that is not writeback. */
		if (type && (strcmp(type->text, "Type: writeback") == 0 ||
			strcmp(type->text, "Type: Writeback") == 0) && (ret = read_writeback(r, c))) {
			return ret;
		}
		if (!first || !btext_connected(r->tree, c)) {
			continue;
		}
		if (!any_mode) {
			any_mode = first;
		}
		if (!desktop_mode && !btext_non_desktop(r->tree, c)) {
			desktop_mode = first;
		}
	}
	mode = desktop_mode ? desktop_mode : any_mode;
	if (r->board->width == 0 && mode) {
		return set_mode(r, mode, mode->text);
	}
	return 0;
}

static int read_driver(struct reader *r, const struct btext_node *root)
{
	const struct btext_node *d = btext_child(r->tree, root, "Driver:", false);
	char name[64];
	size_t len;

	if (!d) {
		return 0;
	}
	len = strcspn(d->text + 7, " ") ;
	if (d->text[7] != ' ' || d->text[8] == '\0') {
		return fail(r, d, "expected \"Driver: NAME ...\"");
	}
	len = strcspn(d->text + 8, " ");
	if (len >= sizeof(name)) {
		len = sizeof(name) - 1;
	}
	memcpy(name, d->text + 8, len);
	name[len] = '\0';
	if (board_set_driver(r->board, name)) {
		return hwct_error_set(r->err, -ENOMEM, r->name, UINT64_MAX, "out of memory");
	}
	for (const struct btext_node *n = btext_at(r->tree, d->first_child); n;
		n = btext_at(r->tree, n->next)) {
		uint32_t *out = strncmp(n->text, "DRM_CAP_CURSOR_WIDTH =", 22) == 0 ?
			&r->board->cursor_width : strncmp(n->text, "DRM_CAP_CURSOR_HEIGHT =", 23) == 0 ?
			&r->board->cursor_height : NULL;
		const char *v = strchr(n->text, '=');
		uint64_t value;

		if (!out) {
			continue;
		}
		if (!parse_whole_u64(v + 2 > n->text + strlen(n->text) ? "" : v + 2, UINT32_MAX,
			&value)) {
			return fail(r, n, "expected \"DRM_CAP_CURSOR_*: = NUMBER\"");
		}
		*out = (uint32_t)value;
	}
	return 0;
}

/* "{0, 1, 2}" into a mask of CRTC indices (bits past the CRTC count kept, as drivers print them). */
static int read_possible_crtcs(struct reader *r, const struct btext_node *n, uint32_t *mask)
{
	const char *p = strchr(n->text, '{');

	*mask = 0;
	if (!p) {
		return fail(r, n, "expected \"CRTCs: {INDEX, ...}\"");
	}
	for (p++; *p != '}';) {
		bool negative;
		uint64_t i;

		if (!parse_number(&p, &negative, &i) || negative || i >= 32) {
			return fail(r, n, "expected CRTC indices 0..31 in \"{...}\"");
		}
		*mask |= 1u << i;
		if (strncmp(p, ", ", 2) == 0) {
			p += 2;
		} else if (*p != '}') {
			return fail(r, n, "expected \", \" or \"}\" in the CRTC list");
		}
	}
	return 0;
}

/* "{a, b, c}" of an enum or bitmask spec: calls fn for each name. */
static int read_names(struct reader *r, const struct btext_node *n, const char *spec,
	struct board_plane *plane, void (*fn)(struct board_plane *plane, const char *name))
{
	const char *p = strchr(spec, '{');
	const char *end = p ? strchr(p, '}') : NULL;
	char name[48];

	if (!p || !end) {
		return fail(r, n, "expected \"{NAME, ...}\"");
	}
	for (p++; p < end;) {
		size_t len = strcspn(p, ",}");

		if (len >= sizeof(name)) {
			len = sizeof(name) - 1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		fn(plane, name);
		p += strcspn(p, ",}");
		p += *p == ',' ? 1 : 0;
		p += *p == ' ' ? 1 : 0;
	}
	return 0;
}

static void rotation_name(struct board_plane *plane, const char *name)
{
	static const char *const names[] = { "rotate-0", "rotate-90", "rotate-180", "rotate-270",
		"reflect-x", "reflect-y" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i]) == 0) {
			plane->rotations |= 1u << i;
		}
	}
}

static void blend_name(struct board_plane *plane, const char *name)
{
	if (strcmp(name, "None") == 0) {
		plane->blend_modes |= BOARD_BLEND_NONE;
	} else if (strcmp(name, "Pre-multiplied") == 0) {
		plane->blend_modes |= BOARD_BLEND_PREMULTI;
	} else if (strcmp(name, "Coverage") == 0) {
		plane->blend_modes |= BOARD_BLEND_COVERAGE;
	}
}

/* "range [MIN, MAX]" or "srange [...]". */
static int read_range(struct reader *r, const struct btext_node *n, const struct prop *prop,
	int64_t *min, int64_t *max)
{
	const char *open = strchr(prop->spec, '[');
	const char *comma = open ? strstr(open, ", ") : NULL;
	const char *close = comma ? strchr(comma, ']') : NULL;
	char a[32], b[32];

	if (!close || (size_t)(comma - open - 1) >= sizeof(a) || (size_t)(close - comma - 2) >=
		sizeof(b)) {
		return fail(r, n, "expected \"range [MIN, MAX]\"");
	}
	memcpy(a, open + 1, (size_t)(comma - open - 1));
	a[comma - open - 1] = '\0';
	memcpy(b, comma + 2, (size_t)(close - comma - 2));
	b[close - comma - 2] = '\0';
	if (!parse_whole_i64(a, min)) {
		*min = 0;
		if (strcmp(a, "0") != 0) {
			return fail(r, n, "expected a range minimum, got \"%s\"", a);
		}
	}
	if (!parse_whole_i64(b, max)) {
		uint64_t u;

		/* Unsigned maxima past INT64_MAX clamp, as json-c does for the JSON loader. */
		if (!parse_whole_u64(b, UINT64_MAX, &u)) {
			return fail(r, n, "expected a range maximum, got \"%s\"", b);
		}
		*max = INT64_MAX;
	}
	if (*min > *max) {
		return fail(r, n, "range min %" PRId64 " > max %" PRId64, *min, *max);
	}
	return 0;
}

static int read_in_formats(struct reader *r, struct board_plane *plane, const struct btext_node *n,
	const struct prop *prop)
{
	int ret;

	if (n->child_count == 0) {
		if (!prop->value) {
			return fail(r, n, "expected \"blob = ID\" (paste cut short?)");
		}
		if (strcmp(prop->value, "0") != 0) {
			return fail(r, n, "expected the modifiers of IN_FORMATS blob %s under it "
				"(paste cut short?)", prop->value);
		}
		return 0;	/* a null blob: keep the plain list */
	}
	for (size_t i = 0; i < plane->format_count; i++) {
		free(plane->formats[i].modifiers);
	}
	free(plane->formats);
	plane->formats = NULL;
	plane->format_count = 0;
	for (const struct btext_node *m = btext_at(r->tree, n->first_child); m;
		m = btext_at(r->tree, m->next)) {
		uint64_t modifier;

		if (!parse_code(m->text, UINT64_MAX, &modifier)) {
			return fail(r, m, "expected a modifier \"NAME (0xVALUE)\", got \"%.40s\"",
				m->text);
		}
		/*
		 * Some drivers list a modifier (a compression) for no format: keep it
		 * as such, unless the text stops right there, without a line end,
		 * where a paste cut short looks the same.
		 */
		if (m->child_count == 0 && m->line == r->tree->open_line) {
			return fail(r, m, "expected the formats of modifier \"%.40s\" under it, or a "
				"line end after it (paste cut short?)", m->text);
		}
		if (m->child_count) {
			ret = add_formats(r, plane, m, modifier);
		} else if ((ret = board_plane_add_empty_modifier(plane, modifier))) {
			ret = ret == -E2BIG ? fail(r, m, "more than %d modifiers with no format",
				BOARD_MAX_MODIFIERS) : hwct_error_set(r->err, ret, r->name, UINT64_MAX,
				"out of memory");
		}
		if (ret) {
			return ret;
		}
	}
	plane->has_in_formats = true;
	return 0;
}

static int read_size_hints(struct reader *r, struct board_plane *plane, const struct btext_node *n)
{
	for (const struct btext_node *h = btext_at(r->tree, n->first_child); h;
		h = btext_at(r->tree, h->next)) {
		uint32_t w, hh;

		if (!parse_mode(h->text, &w, &hh)) {
			return fail(r, h, "expected a size \"WxH\", got \"%.40s\"", h->text);
		}
		if (plane->size_hint_count < BOARD_MAX_SIZE_HINTS) {
			plane->size_hints[plane->size_hint_count][0] = (uint16_t)w;
			plane->size_hints[plane->size_hint_count][1] = (uint16_t)hh;
			plane->size_hint_count++;
		}
	}
	return 0;
}

static int read_property(struct reader *r, struct board_plane *plane, const struct btext_node *n,
	bool *typed)
{
	struct prop prop;
	int64_t min, max;
	int ret;

	if (!parse_prop(n->text, &prop)) {
		return fail(r, n, "expected a property \"NAME\" (FLAGS): TYPE = VALUE, got \"%.40s\"",
			n->text);
	}
	if (strcmp(prop.name, "type") == 0) {
		if (!prop.value) {
			return fail(r, n, "expected \"= Overlay|Primary|Cursor\"");
		}
		if (strcmp(prop.value, "Overlay") == 0) {
			plane->type = BOARD_PLANE_OVERLAY;
		} else if (strcmp(prop.value, "Primary") == 0) {
			plane->type = BOARD_PLANE_PRIMARY;
		} else if (strcmp(prop.value, "Cursor") == 0) {
			plane->type = BOARD_PLANE_CURSOR;
		} else {
			return fail(r, n, "unknown plane type \"%.20s\"", prop.value);
		}
		*typed = true;
	} else if (strcmp(prop.name, "IN_FORMATS") == 0) {
		return read_in_formats(r, plane, n, &prop);
	} else if (strcmp(prop.name, "rotation") == 0) {
		if ((ret = read_names(r, n, prop.spec, plane, rotation_name))) {
			return ret;
		}
		plane->has_rotation = true;
		plane->rotations |= BOARD_ROTATE_0;
	} else if (strcmp(prop.name, "pixel blend mode") == 0) {
		return read_names(r, n, prop.spec, plane, blend_name);
	} else if (strcmp(prop.name, "alpha") == 0) {
		if ((ret = read_range(r, n, &prop, &min, &max))) {
			return ret;
		}
		if (max <= 0) {
			return fail(r, n, "empty alpha range");
		}
		plane->has_alpha = true;
		plane->alpha_max = (uint64_t)max;
	} else if (strcmp(prop.name, "zpos") == 0) {
		if ((ret = read_range(r, n, &prop, &plane->zpos_min, &plane->zpos_max))) {
			return ret;
		}
		if (!prop.value || !parse_whole_i64(prop.value, &plane->zpos)) {
			return fail(r, n, "expected \"= VALUE\" after the zpos range");
		}
		plane->has_zpos = true;
		plane->zpos_immutable = prop.immutable;
	} else if (strcmp(prop.name, "SCALING_FILTER") == 0) {
		plane->has_scaling_filter = true;
	} else if (strcmp(prop.name, "SIZE_HINTS") == 0) {
		return read_size_hints(r, plane, n);
	}
	return 0;
}

static int read_plane(struct reader *r, const struct btext_node *p)
{
	const struct btext_node *crtcs = btext_child(r->tree, p, "CRTCs:", false);
	const struct btext_node *props = btext_child(r->tree, p, "Properties", true);
	const struct btext_node *legacy = btext_child(r->tree, p, "Legacy info", true);
	const struct btext_node *formats = btext_child(r->tree, legacy ? legacy : p, "Formats:", false);
	struct board_plane *plane;
	bool typed = false;
	uint32_t id, mask;
	int ret;

	if ((ret = object_id(r, p, &id))) {
		return ret;
	}
	if (!crtcs) {
		return fail(r, p, "\"%.40s\" has no \"CRTCs:\" entry", p->text);
	}
	if ((ret = read_possible_crtcs(r, crtcs, &mask))) {
		return ret;
	}
	if (!props || props->child_count == 0) {
		return fail(r, props ? props : p, "expected the properties of \"%.40s\"", p->text);
	}
	if (id == 0 || board_find_plane(r->board, id)) {
		return fail(r, p, "%s plane id %" PRIu32, id ? "duplicate" : "invalid", id);
	}
	plane = board_add_plane(r->board, id, BOARD_PLANE_OVERLAY);
	if (!plane) {
		return fail(r, p, "more than %d planes (or out of memory)", BOARD_MAX_PLANES);
	}
	plane->possible_crtcs = mask;
	if (formats && (ret = add_formats(r, plane, formats, BOARD_MOD_LINEAR))) {
		return ret;
	}
	for (const struct btext_node *n = btext_at(r->tree, props->first_child); n;
		n = btext_at(r->tree, n->next)) {
		if ((ret = read_property(r, plane, n, &typed))) {
			return ret;
		}
	}
	if (!typed) {
		return fail(r, props, "\"%.40s\" has no \"type\" property", p->text);
	}
	return 0;
}

static int compare_planes(const void *a, const void *b)
{
	const struct board_plane *pa = a, *pb = b;

	return pa->id < pb->id ? -1 : pa->id > pb->id;
}

static int read_planes(struct reader *r, const struct btext_node *root)
{
	const struct btext_node *list = btext_child(r->tree, root, "Planes", true);
	int ret;

	if (!list || list->child_count == 0) {
		return fail(r, list ? list : root, "expected a \"Planes\" list with at least one plane");
	}
	for (const struct btext_node *p = btext_at(r->tree, list->first_child); p;
		p = btext_at(r->tree, p->next)) {
		if ((ret = read_plane(r, p))) {
			return ret;
		}
	}
	qsort(r->board->planes, r->board->plane_count, sizeof(*r->board->planes), compare_planes);
	return 0;
}

struct board *btext_read_device(const struct btext_tree *tree, const struct btext_node *root,
	const char *name, struct hwct_error *err)
{
	struct reader r = { .tree = tree, .name = name, .err = err };

	r.board = board_create(name);
	if (!r.board) {
		hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
		return NULL;
	}
	if (read_driver(&r, root) || read_crtcs(&r, root) || read_connectors(&r, root) ||
		read_planes(&r, root)) {
		board_destroy(r.board);
		return NULL;
	}
	board_apply_rules(r.board);
	return r.board;
}
