/* Reading the tools' JSON in the tests (testjson.h). */
#include <errno.h>
#include <string.h>

#include "testjson.h"
#include "testutil.h"

struct json_object *tj_parse_object(const char *text)
{
	struct json_tokener *tok = json_tokener_new();
	size_t len = strlen(text), end;
	struct json_object *obj;

	CHECK(tok);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	CHECK_MSG(obj && json_tokener_get_error(tok) == json_tokener_success, "not JSON: %.200s", text);
	end = json_tokener_get_parse_end(tok);
	while (end < len && strchr(" \t\r\n", text[end])) {
		end++;
	}
	CHECK_MSG(end == len, "more than one JSON value: %.200s", text);
	CHECK_MSG(json_object_is_type(obj, json_type_object), "not an object: %.200s", text);
	json_tokener_free(tok);
	return obj;
}

struct json_object *tj_get(struct json_object *obj, const char *path)
{
	char key[128];

	while (obj && *path) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);
		struct json_object *next = NULL;

		CHECK(len < sizeof(key));
		memcpy(key, path, len);
		key[len] = 0;
		if (json_object_is_type(obj, json_type_array)) {
			size_t i = strtoul(key, NULL, 10);

			next = i < json_object_array_length(obj) ? json_object_array_get_idx(obj, i) : NULL;
		} else if (!json_object_object_get_ex(obj, key, &next)) {
			next = NULL;
		}
		obj = next;
		path += len + (dot ? 1 : 0);
	}
	return obj;
}

bool tj_has(struct json_object *obj, const char *key)
{
	return json_object_object_get_ex(obj, key, NULL);
}

uint64_t tj_u64(struct json_object *obj, const char *path)
{
	struct json_object *v = tj_get(obj, path);
	const char *s;
	char *end;
	uint64_t u;

	CHECK_MSG(v, "no member %s", path);
	if (json_object_is_type(v, json_type_int)) {
		CHECK_MSG(json_object_get_int64(v) >= 0, "%s is negative", path);
		return (uint64_t)json_object_get_int64(v);
	}
	CHECK_MSG(json_object_is_type(v, json_type_string), "%s is neither a number nor a string", path);
	s = json_object_get_string(v);
	errno = 0;
	u = strtoull(s, &end, 10);
	CHECK_MSG(*s && !*end && errno == 0, "%s = \"%s\" is not an integer", path, s);
	return u;
}

const char *tj_str(struct json_object *obj, const char *path)
{
	struct json_object *v = tj_get(obj, path);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool tj_is_int(struct json_object *obj, const char *path)
{
	struct json_object *v = tj_get(obj, path);

	return v && json_object_is_type(v, json_type_int);
}

struct json_object *tj_parse(const char *text, const char *what)
{
	enum json_tokener_error e;
	struct json_object *o = json_tokener_parse_verbose(text, &e);

	CHECK_MSG(o, "%s is not JSON (%s):\n%.400s", what, json_tokener_error_desc(e), text);
	return o;
}

int64_t tj_i64(struct json_object *obj, const char *path)
{
	struct json_object *v = tj_get(obj, path);

	CHECK_MSG(json_object_is_type(v, json_type_int), "%s: not an integer", path);
	return json_object_get_int64(v);
}

double tj_double(struct json_object *obj, const char *path)
{
	struct json_object *v = tj_get(obj, path);

	CHECK_MSG(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int),
		"%s: not a number", path);
	return json_object_get_double(v);
}
