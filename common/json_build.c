/* A json-c tree built with one failure flag (json_build.h). */
#include "json_build.h"

void hwct_json_put(bool *ok, struct json_object *obj, const char *key, struct json_object *value)
{
	if (!*ok || !obj || !value || json_object_object_add(obj, key, value) < 0) {
		json_object_put(value);
		*ok = false;
	}
}

void hwct_json_put_null(bool *ok, struct json_object *obj, const char *key)
{
	if (!*ok || !obj || json_object_object_add(obj, key, NULL) < 0) {
		*ok = false;
	}
}
