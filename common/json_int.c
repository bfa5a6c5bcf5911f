/* 64-bit integers in JSON, one rule (json_int.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "json_int.h"

struct json_object *hwct_json_u64(uint64_t v)
{
	char buf[24];

	if (v <= HWCT_JSON_EXACT_MAX) {
		return json_object_new_int64((int64_t)v);
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return json_object_new_string(buf);
}

struct json_object *hwct_json_i64(int64_t v)
{
	char buf[24];

	if (v >= -(int64_t)HWCT_JSON_EXACT_MAX && v <= (int64_t)HWCT_JSON_EXACT_MAX) {
		return json_object_new_int64(v);
	}
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return json_object_new_string(buf);
}

char *hwct_json_u64_text(uint64_t v, char buf[24])
{
	snprintf(buf, 24, v <= HWCT_JSON_EXACT_MAX ? "%llu" : "\"%llu\"", (unsigned long long)v);
	return buf;
}

bool hwct_json_get_u64(struct json_object *o, uint64_t *out)
{
	const char *s;
	char *end;
	unsigned long long v;

	if (json_object_is_type(o, json_type_int)) {
		/* json-c keeps values above INT64_MAX as unsigned; negative ones read back below 0 */
		if (json_object_get_int64(o) < 0 && json_object_get_uint64(o) <= INT64_MAX) {
			return false;
		}
		*out = json_object_get_uint64(o);
		return true;
	}
	if (!json_object_is_type(o, json_type_string)) {
		return false;
	}
	s = json_object_get_string(o);
	if (s[0] < '0' || s[0] > '9') {
		return false;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v <= HWCT_JSON_EXACT_MAX) {	/* the rule writes those as numbers */
		return false;
	}
	*out = v;
	return true;
}
