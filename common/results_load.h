/*
 * The one reader of hwc-replay's results.json (docs/results.md) for the
 * programs that read it back: hwc-replay --expect, hwc-trace diff and
 * report. It reads the file whole within RESULTS_MAX_BYTES, parses strict
 * JSON with nothing after the top-level object, and checks that the object
 * has the results_version this build writes (HWCT_RESULTS_VERSION) and a
 * "frames" array. Each reader then takes the members it needs through the
 * typed getters below, whose errors name the file and the JSON path
 * ("good.json: frames[3].plan[1].plane: expected an integer or null, found
 * string"); syntax errors name the byte offset.
 */
#ifndef HWCT_COMMON_RESULTS_LOAD_H
#define HWCT_COMMON_RESULTS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include <hwct/error.h>

#define RESULTS_MAX_BYTES (1u << 30)	/* larger files are refused */

struct results_file {
	const char *name;		/* the file, for messages; borrowed */
	struct hwct_error *err;		/* where errors go; may be NULL */
	struct json_object *root;	/* the top-level object; owned */
	struct json_object *frames;	/* its "frames" array; borrowed from root */
};

/*
 * Parses size bytes of data as results named name (borrowed for the life
 * of rf). Returns 0, or -EINVAL, -EFBIG or -ENOMEM with err set; rf then
 * holds nothing. Finish rf with results_file_finish() either way.
 */
int results_file_parse(struct results_file *rf, const char *data, size_t size, const char *name,
	struct hwct_error *err);

/* The same from the regular file at path (borrowed): -errno when it cannot be read. */
int results_file_read(struct results_file *rf, const char *path, struct hwct_error *err);

/* Frees the parsed document. rf may hold nothing. */
void results_file_finish(struct results_file *rf);

/* obj's member key, NULL when absent or null (json-c's null). */
struct json_object *results_member(struct json_object *obj, const char *key);

/* The JSON type of o for messages ("null" for NULL). */
const char *results_type_name(struct json_object *o);

/* Sets err to "NAME: PATH: <message>". Returns -EINVAL. */
int results_fail(const struct results_file *rf, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * o as an unsigned integer at most max (docs/results.md, "Integers": a
 * number, or a string beyond 2^53). A NULL o (absent or null) fails unless
 * null_ok: then *out is 0. *present (may be NULL) says whether o was there.
 * Returns 0 or -EINVAL after results_fail().
 */
int results_get_u64(const struct results_file *rf, struct json_object *o, const char *path, uint64_t max,
	bool null_ok, uint64_t *out, bool *present);

/* o as a string (borrowed from rf); a NULL o gives *out NULL when null_ok. Returns 0 or -EINVAL. */
int results_get_string(const struct results_file *rf, struct json_object *o, const char *path, bool null_ok,
	const char **out);

#endif
