/*
 * Building a json-c tree without checking every allocation on the spot: a
 * builder's ok flag goes false at the first failure, every later call does
 * nothing, and the caller checks the flag once at the end.
 */
#ifndef HWCT_COMMON_JSON_BUILD_H
#define HWCT_COMMON_JSON_BUILD_H

#include <stdbool.h>

#include <json-c/json.h>

/*
 * Adds value under key of obj, taking value's reference (NULL value: its
 * allocation failed). On any failure (*ok already false, obj or value NULL,
 * the add failed) value is released and *ok set false.
 */
void hwct_json_put(bool *ok, struct json_object *obj, const char *key, struct json_object *value);

/* Adds JSON null under key of obj (json-c spells null as a NULL object); *ok as above. */
void hwct_json_put_null(bool *ok, struct json_object *obj, const char *key);

#endif
