/* Reading the tools' JSON in the tests. */
#ifndef HWCT_TESTS_ANALYZERS_TESTJSON_H
#define HWCT_TESTS_ANALYZERS_TESTJSON_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

/* Parses text that must hold exactly one JSON object (whitespace around allowed). */
struct json_object *tj_parse_object(const char *text);

/* The member at a dotted path ("counts.records", "displays.1.name"); NULL when absent or null. */
struct json_object *tj_get(struct json_object *obj, const char *path);

/* Parses text as any one JSON value; exits the test naming what when it is not. The caller puts it. */
struct json_object *tj_parse(const char *text, const char *what);

/* Whether the member exists (even as null). */
bool tj_has(struct json_object *obj, const char *key);

/* An unsigned integer member: a JSON number, or a string of digits (64-bit values beyond 2^53). */
uint64_t tj_u64(struct json_object *obj, const char *path);

/* A string member, or NULL. */
const char *tj_str(struct json_object *obj, const char *path);

/* A member that must be a JSON integer. */
int64_t tj_i64(struct json_object *obj, const char *path);

/* A member that must be a JSON number. */
double tj_double(struct json_object *obj, const char *path);

/* Whether member path is a JSON integer (not a string). */
bool tj_is_int(struct json_object *obj, const char *path);

#endif
