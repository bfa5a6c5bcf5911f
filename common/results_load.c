/* Reading hwc-replay's results.json back (results_load.h): the typed getters; results_stream.c reads. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "results_load.h"

struct json_object *results_member(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

const char *results_type_name(struct json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

int results_fail(const struct results_file *rf, const char *path, const char *fmt, ...)
{
	char what[192];
	va_list args;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	return hwct_error_set(rf->err, -EINVAL, rf->name, UINT64_MAX, "%s: %s", path, what);
}

int results_get_u64(const struct results_file *rf, struct json_object *o, const char *path, uint64_t max,
	bool null_ok, uint64_t *out, bool *present)
{
	int64_t i;

	*out = 0;
	if (present) {
		*present = o != NULL;
	}
	if (!o) {
		return null_ok ? 0 : results_fail(rf, path, "missing (expected an integer)");
	}
	if (!hwct_json_get_u64(o, out)) {
		if (json_object_is_type(o, json_type_int) && (i = json_object_get_int64(o)) < 0) {
			return results_fail(rf, path, "%" PRId64 " is negative", i);
		}
		return results_fail(rf, path, "expected an integer%s, found %s", null_ok ? " or null" : "",
			results_type_name(o));
	}
	if (*out > max) {
		return results_fail(rf, path, "%" PRIu64 " is out of range (at most %" PRIu64 ")", *out, max);
	}
	return 0;
}

int results_get_string(const struct results_file *rf, struct json_object *o, const char *path, bool null_ok,
	const char **out)
{
	*out = NULL;
	if (!o) {
		return null_ok ? 0 : results_fail(rf, path, "missing (expected a string)");
	}
	if (!json_object_is_type(o, json_type_string)) {
		return results_fail(rf, path, "expected a string%s, found %s", null_ok ? " or null" : "",
			results_type_name(o));
	}
	*out = json_object_get_string(o);
	return 0;
}
