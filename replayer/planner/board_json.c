/*
 * Board profiles: a board (board.h) from a drm_info JSON dump. drm_info's
 * json.c writes a top-level object keyed by device node; per node "driver",
 * "crtcs", "planes", "connectors"; each property as {id, flags, type,
 * atomic, immutable, raw_value, spec, value, data}, where spec is {min,max}
 * for ranges and [{name, value}] for enums and bitmasks, and data decodes
 * IN_FORMATS, MODE_ID and WRITEBACK_PIXEL_FORMATS. This file reads the
 * node, its driver, CRTC and connectors and the "hwctrace" overrides;
 * board_json_plane.c the planes. Anything may be hostile: every field is
 * type- and range-checked, and an error names the file and the JSON path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hwct/limits.h>

#include "board_json.h"

#define MAX_CRTCS BOARD_MAX_CRTCS
#define MAX_CONNECTORS 256

/* A mode object ({hdisplay, vdisplay, ...}) into the board's size. */
static int parse_mode(struct board_json *l, struct json_object *mode, const char *path)
{
	uint32_t w, h;
	int ret;

	if ((ret = board_json_want(l, mode, json_type_object, path)) ||
		(ret = board_json_key_u32(l, mode, path, "hdisplay", &w)) ||
		(ret = board_json_key_u32(l, mode, path, "vdisplay", &h))) {
		return ret;
	}
	if (w > 65535 || h > 65535) {
		return board_json_fail(l, -EINVAL, path, "mode %" PRIu32 "x%" PRIu32 " out of range",
			w, h);
	}
	l->board->width = w;
	l->board->height = h;
	return 0;
}

static struct json_object *crtc_mode(struct json_object *crtc, const char **key)
{
	struct json_object *mode = board_json_member(crtc, "mode");

	*key = "mode";
	if (!mode) {
		*key = "properties.MODE_ID.data";
		mode = board_json_member(board_json_member(board_json_member(crtc, "properties"),
			"MODE_ID"), "data");
	}
	return mode;
}

/* Whether connector conn is connected (status DRM_MODE_CONNECTED, 1). */
static bool connected(struct json_object *conn)
{
	struct json_object *status = board_json_member(conn, "status");

	return status && json_object_is_type(status, json_type_int) &&
		json_object_get_int64(status) == 1;
}

/* Whether connector conn has the property "non-desktop" = 1 (a VR headset, a touch bar). */
static bool non_desktop(struct json_object *conn)
{
	struct json_object *v = board_json_member(board_json_member(board_json_member(conn,
		"properties"), "non-desktop"), "value");

	return v && json_object_is_type(v, json_type_int) && json_object_get_int64(v) != 0;
}

/* Whether a connected non-desktop connector of node is on the CRTC with object id crtc_id. */
static bool drives_non_desktop(struct json_object *node, uint32_t crtc_id)
{
	struct json_object *connectors = board_json_member(node, "connectors");
	size_t n = json_object_is_type(connectors, json_type_array) ?
		json_object_array_length(connectors) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *conn = json_object_array_get_idx(connectors, i);
		struct json_object *crtc = board_json_member(board_json_member(board_json_member(conn,
			"properties"), "CRTC_ID"), "value");

		if (connected(conn) && non_desktop(conn) && crtc &&
			json_object_is_type(crtc, json_type_int) &&
			json_object_get_int64(crtc) == (int64_t)crtc_id) {
			return true;
		}
	}
	return false;
}

/*
 * The board's CRTC: the first with a mode (an active one) that does not
 * drive a non-desktop connector, else the first with a mode, else the first.
 */
static int parse_crtcs(struct board_json *l, struct json_object *node)
{
	struct json_object *crtcs = board_json_member(node, "crtcs");
	struct json_object *crtc, *mode = NULL;
	char p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	const char *key = "mode";
	bool mode_desktop = false;
	size_t n, pick = 0;
	int ret;

	if ((ret = board_json_array(l, crtcs, "crtcs", MAX_CRTCS, &n))) {
		return ret;
	}
	if (n == 0) {
		return board_json_fail(l, -EINVAL, "crtcs", "no CRTC");
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *m;
		const char *k;
		bool desktop;

		crtc = json_object_array_get_idx(crtcs, i);
		board_json_index(p, "crtcs", i);
		if ((ret = board_json_want(l, crtc, json_type_object, p)) ||
			(ret = board_json_key_u32(l, crtc, p, "id", &l->board->crtc_ids[i]))) {
			return ret;
		}
		l->board->crtc_count = i + 1;
		if (mode_desktop || !(m = crtc_mode(crtc, &k))) {
			continue;
		}
		desktop = !drives_non_desktop(node, l->board->crtc_ids[i]);
		if (!mode || desktop) {
			mode = m;
			key = k;
			pick = i;
			mode_desktop = desktop;
		}
	}
	crtc = json_object_array_get_idx(crtcs, pick);
	board_json_index(p, "crtcs", pick);
	l->board->crtc_index = (uint32_t)pick;
	if ((ret = board_json_key_u32(l, crtc, p, "id", &l->board->crtc_id))) {
		return ret;
	}
	return mode ? parse_mode(l, mode, board_json_join(q, p, key)) : 0;
}

/*
 * No active CRTC: the first mode of the first connected desktop connector,
 * else of any connected one.
 */
static int mode_from_connectors(struct board_json *l, struct json_object *connectors)
{
	char p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	size_t n = json_object_array_length(connectors);

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			struct json_object *conn = json_object_array_get_idx(connectors, i);
			struct json_object *modes = board_json_member(conn, "modes");

			if (!modes || !json_object_is_type(modes, json_type_array) ||
				json_object_array_length(modes) == 0 || !connected(conn) ||
				(pass == 0 && non_desktop(conn))) {
				continue;
			}
			board_json_join(q, board_json_index(p, "connectors", i), "modes[0]");
			return parse_mode(l, json_object_array_get_idx(modes, 0), q);
		}
	}
	return 0;
}

static int parse_writeback(struct board_json *l, struct json_object *conn, const char *path)
{
	struct json_object *formats = board_json_member(board_json_member(board_json_member(conn,
		"properties"), "WRITEBACK_PIXEL_FORMATS"), "data");
	char p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	size_t count;
	int ret;

	l->board->has_writeback = true;
	if (!formats || l->board->writeback_format_count) {
		return 0;
	}
	board_json_join(p, path, "properties.WRITEBACK_PIXEL_FORMATS.data");
	if ((ret = board_json_array(l, formats, p, BOARD_MAX_FORMATS, &count))) {
		return ret;
	}
	for (size_t j = 0; j < count; j++) {
		uint32_t fourcc;

		if ((ret = board_json_u32(l, json_object_array_get_idx(formats, j),
			board_json_index(q, p, j), &fourcc))) {
			return ret;
		}
		if (board_add_writeback_format(l->board, fourcc)) {
			return board_json_fail(l, -ENOMEM, p, "out of memory");
		}
	}
	return 0;
}

static int parse_connectors(struct board_json *l, struct json_object *node)
{
	struct json_object *connectors = board_json_member(node, "connectors");
	char p[BOARD_JSON_PATH_SIZE];
	size_t n;
	int ret;

	if (!connectors) {
		l->board->mode_from_crtc_only = l->board->width != 0;
		return 0;
	}
	if ((ret = board_json_array(l, connectors, "connectors", MAX_CONNECTORS, &n))) {
		return ret;
	}
	l->board->mode_from_crtc_only = n == 0 && l->board->width != 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *conn = json_object_array_get_idx(connectors, i);
		uint32_t type;

		board_json_index(p, "connectors", i);
		if ((ret = board_json_want(l, conn, json_type_object, p)) ||
			(ret = board_json_key_u32(l, conn, p, "type", &type))) {
			return ret;
		}
		if (type == BOARD_CONNECTOR_WRITEBACK && (ret = parse_writeback(l, conn, p))) {
			return ret;
		}
	}
	return l->board->width == 0 ? mode_from_connectors(l, connectors) : 0;
}

static int parse_driver(struct board_json *l, struct json_object *node)
{
	struct json_object *driver = board_json_member(node, "driver");
	struct json_object *name, *caps;
	int ret;

	if (!driver) {
		return 0;
	}
	if ((ret = board_json_want(l, driver, json_type_object, "driver"))) {
		return ret;
	}
	if ((name = board_json_member(driver, "name"))) {
		if ((ret = board_json_want(l, name, json_type_string, "driver.name"))) {
			return ret;
		}
		if (board_set_driver(l->board, json_object_get_string(name))) {
			return board_json_fail(l, -ENOMEM, "driver.name", "out of memory");
		}
	}
	caps = board_json_member(driver, "caps");
	if (board_json_member(caps, "CURSOR_WIDTH") && board_json_member(caps, "CURSOR_HEIGHT") &&
		((ret = board_json_key_u32(l, caps, "driver.caps", "CURSOR_WIDTH",
			&l->board->cursor_width)) ||
		(ret = board_json_key_u32(l, caps, "driver.caps", "CURSOR_HEIGHT",
			&l->board->cursor_height)))) {
		return ret;
	}
	return 0;
}

/* Sets one per-plane rule on plane (or on every plane when plane is NULL). */
static void set_plane_rule(struct board *board, struct board_plane *plane, const char *key,
	bool flag)
{
	for (size_t i = 0; i < board->plane_count; i++) {
		struct board_plane *target = plane ? plane : &board->planes[i];

		if (strcmp(key, "can_scale") == 0) {
			target->can_scale = flag;
		} else if (strcmp(key, "solid_fill") == 0) {
			target->solid_fill = flag;
		} else {
			target->cursor_size_limit = flag && target->type == BOARD_PLANE_CURSOR;
		}
		if (plane) {
			return;
		}
	}
}

/*
 * The "hwctrace" rule overrides (README.md) of a node (plane NULL: the
 * board's rules, and can_scale / solid_fill / cursor_size_limit for every
 * plane) or of one plane. Unknown keys are errors: a typo must not pass.
 */
static int parse_overrides(struct board_json *l, struct json_object *ext,
	struct board_plane *plane, const char *path)
{
	struct board *board = l->board;
	char p[BOARD_JSON_PATH_SIZE];
	int ret;

	if ((ret = board_json_want(l, ext, json_type_object, path))) {
		return ret;
	}
	json_object_object_foreach(ext, key, value) {
		bool flag = false;

		board_json_join(p, path, key);
		if (strcmp(key, "can_scale") == 0 || strcmp(key, "solid_fill") == 0 ||
			strcmp(key, "cursor_size_limit") == 0) {
			if (!(ret = board_json_bool(l, value, p, &flag))) {
				set_plane_rule(board, plane, key, flag);
			}
		} else if (!plane && strcmp(key, "primary_full_screen") == 0) {
			ret = board_json_bool(l, value, p, &board->primary_full_screen);
		} else if (!plane && strcmp(key, "primary_required") == 0) {
			ret = board_json_bool(l, value, p, &board->primary_required);
		} else if (!plane && strcmp(key, "max_active_planes") == 0) {
			ret = board_json_u32(l, value, p, &board->max_active_planes);
		} else if (!plane && strcmp(key, "addfb_checks_format") == 0) {
			ret = board_json_bool(l, value, p, &board->addfb_checks_format);
		} else {
			ret = board_json_fail(l, -EINVAL, p, "unknown hwctrace key");
		}
		if (ret) {
			return ret;
		}
	}
	return 0;
}

static int compare_planes(const void *a, const void *b)
{
	const struct board_plane *pa = a, *pb = b;

	return pa->id < pb->id ? -1 : pa->id > pb->id;
}

static int parse_node(struct board_json *l, struct json_object *node)
{
	struct json_object *planes = board_json_member(node, "planes");
	struct json_object *ext;
	char p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	int ret;

	if ((ret = parse_driver(l, node)) ||
		(ret = parse_crtcs(l, node)) ||
		(ret = parse_connectors(l, node)) ||
		(ret = board_json_planes(l, planes))) {
		return ret;
	}
	board_apply_rules(l->board);
	if ((ext = board_json_member(node, "hwctrace")) &&
		(ret = parse_overrides(l, ext, NULL, "hwctrace"))) {
		return ret;
	}
	/* Planes are still in array order here. */
	for (size_t i = 0; i < l->board->plane_count; i++) {
		ext = board_json_member(json_object_array_get_idx(planes, i), "hwctrace");
		if (ext && (ret = parse_overrides(l, ext, &l->board->planes[i],
			board_json_join(q, board_json_index(p, "planes", i), "hwctrace")))) {
			return ret;
		}
	}
	if (l->board->plane_count > 0) {	/* "planes": [] leaves the array NULL */
		qsort(l->board->planes, l->board->plane_count, sizeof(*l->board->planes), compare_planes);
	}
	return 0;
}

/* The node key, driver and connected connectors of one device (a summary: nothing is checked). */
static int summarize(struct board_device *d, const char *key, struct json_object *node)
{
	struct json_object *name = board_json_member(board_json_member(node, "driver"), "name");
	struct json_object *connectors = board_json_member(node, "connectors");
	struct json_object *crtcs = board_json_member(node, "crtcs");
	size_t n = json_object_is_type(connectors, json_type_array) ?
		json_object_array_length(connectors) : 0;

	d->node = strdup(key);
	d->driver = strdup(json_object_is_type(name, json_type_string) ?
		json_object_get_string(name) : "");
	if (!d->node || !d->driver) {
		return -ENOMEM;
	}
	d->crtcs = json_object_is_type(crtcs, json_type_array) ?
		(uint32_t)json_object_array_length(crtcs) : 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *conn = json_object_array_get_idx(connectors, i);

		if (connected(conn)) {
			d->connected++;
			d->connected_non_desktop += non_desktop(conn);
		}
	}
	return 0;
}

struct board *board_from_drm_info_object(struct json_object *root, const char *name,
	const char *node, struct hwct_error *err)
{
	struct board_json l = { .name = name ? name : "board", .err = err };
	struct board_device *devices;
	enum board_device_pick pick;
	struct json_object *obj = NULL;
	size_t count = 0, i = 0;
	int index;

	hwct_error_clear(err);
	if (board_json_want(&l, root, json_type_object, "(top level)")) {
		return NULL;
	}
	count = (size_t)json_object_object_length(root);
	if (count == 0) {
		board_json_fail(&l, -EINVAL, NULL, "no device node");
		return NULL;
	}
	devices = calloc(count, sizeof(*devices));
	if (!devices) {
		board_json_fail(&l, -ENOMEM, NULL, "out of memory");
		return NULL;
	}
	json_object_object_foreach(root, key, value) {
		if (summarize(&devices[i++], key, value)) {
			board_json_fail(&l, -ENOMEM, NULL, "out of memory");
			goto error;
		}
	}
	index = board_pick_device(devices, count, node, &pick);
	if (index < 0) {
		char list[200];

		board_device_list(devices, count, list, sizeof(list));
		board_json_fail(&l, -ENOENT, NULL, "no device node \"%s\" (the dump holds %s)",
			node ? node : "", list);
		goto error;
	}
	node = devices[index].node;
	obj = board_json_member(root, node);
	if (board_json_want(&l, obj, json_type_object, node)) {
		goto error;
	}
	l.board = board_create(l.name);
	if (!l.board) {
		board_json_fail(&l, -ENOMEM, NULL, "out of memory");
		goto error;
	}
	if (parse_node(&l, obj)) {
		board_destroy(l.board);
		goto error;
	}
	board_set_devices(l.board, devices, count, (size_t)index, pick);
	return l.board;

error:
	board_devices_free(devices, count);
	return NULL;
}

struct board *board_from_drm_info_buffer(const char *data, size_t size, const char *name,
	const char *node, struct hwct_error *err)
{
	struct board_json l = { .name = name ? name : "board", .err = err };
	char msg[HWCT_ERROR_MESSAGE_MAX];
	struct json_tokener *tok;
	struct json_object *root;
	struct board *board;
	uint64_t limit_at;
	size_t end;

	hwct_error_clear(err);
	/* json-c's tree of a text can take hundreds of times its size: bound it first */
	if (hwct_json_check_bounds(data, size, &limit_at, msg, sizeof(msg)) < 0) {
		hwct_error_set(err, -EFBIG, l.name, limit_at, "%s", msg);
		return NULL;
	}
	if (size > INT32_MAX) {
		hwct_error_set(err, -EFBIG, l.name, 0, "JSON: %zu bytes, more than json-c reads", size);
		return NULL;
	}
	tok = json_tokener_new_ex((int)hwct_limits()->json_depth + 1);
	if (!tok) {
		board_json_fail(&l, -ENOMEM, NULL, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, data, (int)size);
	end = json_tokener_get_parse_end(tok);
	if (!root) {
		enum json_tokener_error jerr = json_tokener_get_error(tok);

		if (jerr == json_tokener_continue && end < size) {
			/* json-c stops early only when it cannot allocate */
			hwct_error_set(err, -ENOMEM, l.name, end, "JSON: out of memory while parsing");
		} else if (jerr == json_tokener_continue || jerr == json_tokener_success) {
			hwct_error_set(err, -EINVAL, l.name, size, "truncated JSON");
		} else {
			hwct_error_set(err, -EINVAL, l.name, end, "JSON: %s",
				json_tokener_error_desc(jerr));
		}
		json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	for (; end < size; end++) {
		if (!strchr(" \t\r\n", data[end]) || data[end] == '\0') {
			hwct_error_set(err, -EINVAL, l.name, end, "JSON: trailing data");
			json_object_put(root);
			return NULL;
		}
	}
	board = board_from_drm_info_object(root, l.name, node, err);
	json_object_put(root);
	return board;
}

struct board *board_from_drm_info_json(const char *path, const char *node, struct hwct_error *err)
{
	struct board_json l = { .name = path, .err = err };
	struct board *board;
	struct stat st;
	char *data;
	size_t got;
	FILE *f;

	hwct_error_clear(err);
	f = fopen(path, "rb");
	if (!f) {
		int code = -errno;

		board_json_fail(&l, code, NULL, "%s", strerror(-code));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) {
		board_json_fail(&l, -EINVAL, NULL, "not a regular file");
		fclose(f);
		return NULL;
	}
	if ((uint64_t)st.st_size > hwct_limits()->json_bytes) {
		board_json_fail(&l, -EFBIG, NULL, "%lld bytes exceed the limit of %llu (HWCT_LIMIT_JSON_BYTES)",
			(long long)st.st_size, (unsigned long long)hwct_limits()->json_bytes);
		fclose(f);
		return NULL;
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data) {
		board_json_fail(&l, -ENOMEM, NULL, "out of memory");
		fclose(f);
		return NULL;
	}
	got = fread(data, 1, (size_t)st.st_size, f);
	fclose(f);
	if (got != (size_t)st.st_size) {
		board_json_fail(&l, -EIO, NULL, "short read");
		free(data);
		return NULL;
	}
	board = board_from_drm_info_buffer(data, got, path, node, err);
	free(data);
	return board;
}
