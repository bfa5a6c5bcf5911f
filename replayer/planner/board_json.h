/*
 * The drm_info JSON loader's internals (board_json*.c): a loader state, JSON
 * paths for messages, and type- and range-checked getters that fail with
 * "FILE: JSON.PATH: what". Not for other modules: they use board.h.
 */
#ifndef HWCT_PLANNER_BOARD_JSON_H
#define HWCT_PLANNER_BOARD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "board.h"

#define BOARD_JSON_PATH_SIZE 160	/* longer paths are cut, ending in "..." */

struct board_json {
	const char *name;		/* file name for messages; borrowed */
	struct hwct_error *err;		/* may be NULL */
	struct board *board;		/* being filled */
};

/* Fills the error with code and "NAME: PATH: what" (no PATH when NULL or ""). Returns code. */
int board_json_fail(struct board_json *l, int code, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* out (BOARD_JSON_PATH_SIZE bytes) = parent.key, or parent[i]. Return out. */
const char *board_json_join(char *out, const char *parent, const char *key);
const char *board_json_index(char *out, const char *parent, size_t i);

/* obj's member key, or NULL when obj is not an object, or key is absent or null. */
struct json_object *board_json_member(struct json_object *obj, const char *key);

/*
 * Checks that o (found at path) has type; a missing o is an error too.
 * Returns 0 or -EINVAL (reported).
 */
int board_json_want(struct board_json *l, struct json_object *o, json_type type, const char *path);

/* o (at path) as an integer in range, or a boolean. Return 0 or -EINVAL (reported). */
int board_json_u64(struct board_json *l, struct json_object *o, const char *path, uint64_t *out);
int board_json_i64(struct board_json *l, struct json_object *o, const char *path, int64_t *out);
int board_json_u32(struct board_json *l, struct json_object *o, const char *path, uint32_t *out);
int board_json_bool(struct board_json *l, struct json_object *o, const char *path, bool *out);

/* The same for member key of obj, obj being at path. */
int board_json_key_u64(struct board_json *l, struct json_object *obj, const char *path,
	const char *key, uint64_t *out);
int board_json_key_i64(struct board_json *l, struct json_object *obj, const char *path,
	const char *key, int64_t *out);
int board_json_key_u32(struct board_json *l, struct json_object *obj, const char *path,
	const char *key, uint32_t *out);

/* o (at path) as an array of at most max entries (else -E2BIG). Returns 0 or an error (reported). */
int board_json_array(struct board_json *l, struct json_object *o, const char *path, size_t max,
	size_t *len);

/* Adds every plane of the "planes" array to the board (board_json_plane.c). Returns 0 or an error. */
int board_json_planes(struct board_json *l, struct json_object *planes);

#endif
