/*
 * Planes of a drm_info dump (board_json.h): id, type, possible_crtcs, the
 * formats (IN_FORMATS [{modifier, formats[]}] when present, a modifier with
 * an empty formats[] kept as such, else "formats" with LINEAR), and the
 * properties the planners use: rotation (bitmask spec; values are bit
 * indices, drm_property_add_enum), alpha (range),
 * "pixel blend mode" (enum, by name as drm_hwcomposer maps it), zpos
 * (range, value, immutable), SCALING_FILTER (presence).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "board_json.h"

#define MAX_IN_FORMATS 1024	/* IN_FORMATS entries (one per modifier) */

static int add_format(struct board_json *l, struct board_plane *plane, uint32_t fourcc,
	uint64_t modifier, const char *path)
{
	int ret = board_plane_add_format(plane, fourcc, modifier);

	if (ret == -E2BIG) {
		return board_json_fail(l, ret, path, "more than %d formats or %d modifiers per format",
			BOARD_MAX_FORMATS, BOARD_MAX_MODIFIERS);
	}
	if (ret) {
		return board_json_fail(l, ret, path, "out of memory");
	}
	return 0;
}

/* Every entry of the array formats (at path) with modifier. */
static int add_formats(struct board_json *l, struct board_plane *plane,
	struct json_object *formats, const char *path, uint64_t modifier)
{
	char p[BOARD_JSON_PATH_SIZE];
	size_t n;
	int ret;

	if ((ret = board_json_array(l, formats, path, BOARD_MAX_FORMATS, &n))) {
		return ret;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t fourcc;

		if ((ret = board_json_u32(l, json_object_array_get_idx(formats, i),
			board_json_index(p, path, i), &fourcc)) ||
			(ret = add_format(l, plane, fourcc, modifier, path))) {
			return ret;
		}
	}
	return 0;
}

static int parse_in_formats(struct board_json *l, struct board_plane *plane,
	struct json_object *data, const char *path)
{
	char p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	size_t n;
	int ret;

	if ((ret = board_json_array(l, data, path, MAX_IN_FORMATS, &n))) {
		return ret;
	}
	for (size_t i = 0; i < plane->format_count; i++) {
		free(plane->formats[i].modifiers);
	}
	free(plane->formats);
	plane->formats = NULL;
	plane->format_count = 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *entry = json_object_array_get_idx(data, i);
		uint64_t modifier;

		struct json_object *formats = board_json_member(entry, "formats");

		board_json_index(p, path, i);
		board_json_join(q, p, "formats");
		if ((ret = board_json_want(l, entry, json_type_object, p)) ||
			(ret = board_json_key_u64(l, entry, p, "modifier", &modifier)) ||
			(ret = add_formats(l, plane, formats, q, modifier))) {
			return ret;
		}
		/* Some drivers list a modifier (a compression) for no format: keep it as such. */
		if (json_object_array_length(formats) == 0 &&
			(ret = board_plane_add_empty_modifier(plane, modifier))) {
			return ret == -E2BIG ? board_json_fail(l, ret, p, "more than %d modifiers with "
				"no format", BOARD_MAX_MODIFIERS) : board_json_fail(l, ret, p, "out of memory");
		}
	}
	plane->has_in_formats = true;
	return 0;
}

/* Each {name, value} of the enum or bitmask spec of prop (at path), through fn. */
static int parse_enum_spec(struct board_json *l, struct json_object *prop, const char *path,
	void (*fn)(struct board_plane *plane, const char *name, uint64_t value),
	struct board_plane *plane)
{
	char spec_path[BOARD_JSON_PATH_SIZE], p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	struct json_object *spec = board_json_member(prop, "spec");
	size_t n;
	int ret;

	board_json_join(spec_path, path, "spec");
	if ((ret = board_json_want(l, prop, json_type_object, path)) ||
		(ret = board_json_array(l, spec, spec_path, 64, &n))) {
		return ret;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *item = json_object_array_get_idx(spec, i);
		struct json_object *name = board_json_member(item, "name");
		uint64_t value;

		board_json_index(p, spec_path, i);
		if ((ret = board_json_want(l, item, json_type_object, p)) ||
			(ret = board_json_want(l, name, json_type_string, board_json_join(q, p, "name"))) ||
			(ret = board_json_key_u64(l, item, p, "value", &value))) {
			return ret;
		}
		fn(plane, json_object_get_string(name), value);
	}
	return 0;
}

static void rotation_bit(struct board_plane *plane, const char *name, uint64_t value)
{
	(void)name;
	if (value < 6) {
		plane->rotations |= 1u << value;
	}
}

static void blend_mode(struct board_plane *plane, const char *name, uint64_t value)
{
	(void)value;
	if (strcmp(name, "None") == 0) {
		plane->blend_modes |= BOARD_BLEND_NONE;
	} else if (strcmp(name, "Pre-multiplied") == 0) {
		plane->blend_modes |= BOARD_BLEND_PREMULTI;
	} else if (strcmp(name, "Coverage") == 0) {
		plane->blend_modes |= BOARD_BLEND_COVERAGE;
	}
}

/* The {min, max} spec of the range property prop (at path). */
static int parse_range(struct board_json *l, struct json_object *prop, const char *path,
	int64_t *min, int64_t *max)
{
	struct json_object *spec = board_json_member(prop, "spec");
	char p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	int ret;

	board_json_join(p, path, "spec");
	if ((ret = board_json_want(l, prop, json_type_object, path)) ||
		(ret = board_json_want(l, spec, json_type_object, p))) {
		return ret;
	}
	/* Unsigned ranges reach UINT64_MAX: json-c clamps what does not fit int64. */
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "max" : "min";
		struct json_object *o = board_json_member(spec, key);

		if ((ret = board_json_want(l, o, json_type_int, board_json_join(q, p, key)))) {
			return ret;
		}
		*(i ? max : min) = json_object_get_int64(o);
	}
	if (*min > *max) {
		return board_json_fail(l, -EINVAL, p, "min %" PRId64 " > max %" PRId64, *min, *max);
	}
	return 0;
}

static int parse_zpos(struct board_json *l, struct board_plane *plane, struct json_object *prop,
	const char *path)
{
	struct json_object *immutable = board_json_member(prop, "immutable");
	char p[BOARD_JSON_PATH_SIZE];
	bool fixed = false;
	int ret;

	if ((ret = parse_range(l, prop, path, &plane->zpos_min, &plane->zpos_max)) ||
		(ret = board_json_key_i64(l, prop, path, "value", &plane->zpos)) ||
		(immutable && (ret = board_json_bool(l, immutable, board_json_join(p, path, "immutable"),
			&fixed)))) {
		return ret;
	}
	plane->has_zpos = true;
	plane->zpos_immutable = fixed;
	return 0;
}

static int parse_properties(struct board_json *l, struct board_plane *plane,
	struct json_object *props, const char *path)
{
	char p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	struct json_object *prop;
	int64_t min, max;
	int ret;

	if ((prop = board_json_member(props, "rotation"))) {
		if ((ret = parse_enum_spec(l, prop, board_json_join(p, path, "rotation"), rotation_bit,
			plane))) {
			return ret;
		}
		plane->has_rotation = true;
		plane->rotations |= BOARD_ROTATE_0;
	}
	if ((prop = board_json_member(props, "alpha"))) {
		if ((ret = parse_range(l, prop, board_json_join(p, path, "alpha"), &min, &max))) {
			return ret;
		}
		if (max <= 0) {
			return board_json_fail(l, -EINVAL, p, "empty alpha range");
		}
		plane->has_alpha = true;
		plane->alpha_max = (uint64_t)max;
	}
	if ((prop = board_json_member(props, "pixel blend mode")) &&
		(ret = parse_enum_spec(l, prop, board_json_join(p, path, "pixel blend mode"), blend_mode,
			plane))) {
		return ret;
	}
	if ((prop = board_json_member(props, "zpos")) &&
		(ret = parse_zpos(l, plane, prop, board_json_join(p, path, "zpos")))) {
		return ret;
	}
	plane->has_scaling_filter = board_json_member(props, "SCALING_FILTER") != NULL;
	if ((prop = board_json_member(props, "IN_FORMATS"))) {
		struct json_object *data = board_json_member(prop, "data");

		board_json_join(p, path, "IN_FORMATS");
		if ((ret = board_json_want(l, prop, json_type_object, p))) {
			return ret;
		}
		/* A null blob (value 0) says nothing: keep the plain list. */
		if (data) {
			return parse_in_formats(l, plane, data, board_json_join(q, p, "data"));
		}
	}
	return 0;
}

static int parse_plane(struct board_json *l, struct json_object *obj, const char *path)
{
	struct json_object *props = board_json_member(obj, "properties");
	struct json_object *type_prop = board_json_member(props, "type");
	char props_path[BOARD_JSON_PATH_SIZE], p[BOARD_JSON_PATH_SIZE], q[BOARD_JSON_PATH_SIZE];
	struct board_plane *plane;
	uint32_t id, possible;
	uint64_t type;
	int ret;

	board_json_join(props_path, path, "properties");
	board_json_join(p, props_path, "type");
	if ((ret = board_json_want(l, obj, json_type_object, path)) ||
		(ret = board_json_key_u32(l, obj, path, "id", &id)) ||
		(ret = board_json_key_u32(l, obj, path, "possible_crtcs", &possible)) ||
		(ret = board_json_want(l, props, json_type_object, props_path)) ||
		(ret = board_json_want(l, type_prop, json_type_object, p)) ||
		(ret = board_json_key_u64(l, type_prop, p, "value", &type))) {
		return ret;
	}
	if (type > BOARD_PLANE_CURSOR) {
		return board_json_fail(l, -EINVAL, board_json_join(q, p, "value"),
			"unknown plane type %" PRIu64, type);
	}
	if (id == 0 || board_find_plane(l->board, id)) {
		return board_json_fail(l, -EINVAL, board_json_join(p, path, "id"), "%s plane id %" PRIu32,
			id ? "duplicate" : "invalid", id);
	}
	plane = board_add_plane(l->board, id, (enum board_plane_type)type);
	if (!plane) {
		return board_json_fail(l, -ENOMEM, path, "out of memory");
	}
	plane->possible_crtcs = possible;
	if ((ret = add_formats(l, plane, board_json_member(obj, "formats"),
		board_json_join(p, path, "formats"), BOARD_MOD_LINEAR))) {
		return ret;
	}
	return parse_properties(l, plane, props, props_path);
}

int board_json_planes(struct board_json *l, struct json_object *planes)
{
	char p[BOARD_JSON_PATH_SIZE];
	size_t n;
	int ret;

	if ((ret = board_json_array(l, planes, "planes", BOARD_MAX_PLANES, &n))) {
		return ret;
	}
	for (size_t i = 0; i < n; i++) {
		if ((ret = parse_plane(l, json_object_array_get_idx(planes, i),
			board_json_index(p, "planes", i)))) {
			return ret;
		}
	}
	return 0;
}
