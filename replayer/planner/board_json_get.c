/* Checked JSON getters and paths of the profile loader (board_json.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "board_json.h"

int board_json_fail(struct board_json *l, int code, const char *path, const char *fmt, ...)
{
	char what[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	if (path && path[0]) {
		return hwct_error_set(l->err, code, l->name, UINT64_MAX, "%s: %s", path, what);
	}
	return hwct_error_set(l->err, code, l->name, UINT64_MAX, "%s", what);
}

/* Marks a path cut short by the buffer's size with a trailing "...". */
static const char *path_done(char *out, int n)
{
	if (n < 0 || n >= BOARD_JSON_PATH_SIZE) {
		memcpy(out + BOARD_JSON_PATH_SIZE - 4, "...", 4);
	}
	return out;
}

const char *board_json_join(char *out, const char *parent, const char *key)
{
	const char *dot = parent[0] && key[0] != '[' ? "." : "";

	return path_done(out, snprintf(out, BOARD_JSON_PATH_SIZE, "%s%s%s", parent, dot, key));
}

const char *board_json_index(char *out, const char *parent, size_t i)
{
	return path_done(out, snprintf(out, BOARD_JSON_PATH_SIZE, "%s[%zu]", parent, i));
}

static const char *type_name(struct json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

struct json_object *board_json_member(struct json_object *obj, const char *key)
{
	struct json_object *value = NULL;

	if (!obj || !json_object_is_type(obj, json_type_object) ||
		!json_object_object_get_ex(obj, key, &value)) {
		return NULL;
	}
	return value;
}

int board_json_want(struct board_json *l, struct json_object *o, json_type type, const char *path)
{
	if (!o) {
		return board_json_fail(l, -EINVAL, path, "missing (expected %s)",
			json_type_to_name(type));
	}
	if (!json_object_is_type(o, type)) {
		return board_json_fail(l, -EINVAL, path, "expected %s, found %s",
			json_type_to_name(type), type_name(o));
	}
	return 0;
}

int board_json_u64(struct board_json *l, struct json_object *o, const char *path, uint64_t *out)
{
	int ret = board_json_want(l, o, json_type_int, path);
	int64_t i;

	if (ret) {
		return ret;
	}
	i = json_object_get_int64(o);
	if (i < 0) {
		return board_json_fail(l, -EINVAL, path, "negative value %" PRId64, i);
	}
	/* json-c keeps what does not fit int64 as uint64 and clamps get_int64. */
	*out = i == INT64_MAX ? json_object_get_uint64(o) : (uint64_t)i;
	return 0;
}

int board_json_i64(struct board_json *l, struct json_object *o, const char *path, int64_t *out)
{
	int ret = board_json_want(l, o, json_type_int, path);

	if (ret) {
		return ret;
	}
	*out = json_object_get_int64(o);
	if (*out == INT64_MAX && json_object_get_uint64(o) > (uint64_t)INT64_MAX) {
		return board_json_fail(l, -EINVAL, path, "value out of range");
	}
	return 0;
}

int board_json_u32(struct board_json *l, struct json_object *o, const char *path, uint32_t *out)
{
	uint64_t v = 0;
	int ret = board_json_u64(l, o, path, &v);

	if (ret) {
		return ret;
	}
	if (v > UINT32_MAX) {
		return board_json_fail(l, -EINVAL, path, "value %" PRIu64 " out of range", v);
	}
	*out = (uint32_t)v;
	return 0;
}

int board_json_bool(struct board_json *l, struct json_object *o, const char *path, bool *out)
{
	int ret = board_json_want(l, o, json_type_boolean, path);

	if (!ret) {
		*out = json_object_get_boolean(o);
	}
	return ret;
}

int board_json_key_u64(struct board_json *l, struct json_object *obj, const char *path,
	const char *key, uint64_t *out)
{
	char p[BOARD_JSON_PATH_SIZE];

	return board_json_u64(l, board_json_member(obj, key), board_json_join(p, path, key), out);
}

int board_json_key_i64(struct board_json *l, struct json_object *obj, const char *path,
	const char *key, int64_t *out)
{
	char p[BOARD_JSON_PATH_SIZE];

	return board_json_i64(l, board_json_member(obj, key), board_json_join(p, path, key), out);
}

int board_json_key_u32(struct board_json *l, struct json_object *obj, const char *path,
	const char *key, uint32_t *out)
{
	char p[BOARD_JSON_PATH_SIZE];

	return board_json_u32(l, board_json_member(obj, key), board_json_join(p, path, key), out);
}

int board_json_array(struct board_json *l, struct json_object *o, const char *path, size_t max,
	size_t *len)
{
	int ret = board_json_want(l, o, json_type_array, path);

	if (ret) {
		return ret;
	}
	*len = json_object_array_length(o);
	if (*len > max) {
		return board_json_fail(l, -E2BIG, path, "%zu entries, at most %zu", *len, max);
	}
	return 0;
}
