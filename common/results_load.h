/*
 * The one reader of hwc-replay's results.json (docs/results.md) for the
 * programs that read it back: hwc-replay --expect, hwc-trace diff and
 * report. It streams: the top-level members other than "frames" are parsed
 * into one small object, and the frames are handed out one at a time, each
 * parsed on its own, so that memory follows the largest frame, not the file
 * (hwc-replay writes one frame per line; the reader does not rely on it).
 * The JSON is strict, with nothing after the top-level object; the object
 * must carry the results_version this build writes (HWCT_RESULTS_VERSION)
 * before its "frames" array, as hwc-replay writes it. Syntax errors name the
 * line and byte offset (and the frame); each reader takes the members it
 * needs through the typed getters below, whose errors name the file and the
 * JSON path ("good.json: frames[3].plan[1].plane: expected an integer or
 * null, found string").
 */
#ifndef HWCT_COMMON_RESULTS_LOAD_H
#define HWCT_COMMON_RESULTS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include <hwct/error.h>

#define RESULTS_MAX_VALUE (16u << 20)	/* one frame or top-level member: larger ones are refused */

struct results_file {
	const char *name;		/* the file, for messages; borrowed */
	struct hwct_error *err;		/* where errors go; may be NULL */
	/*
	 * The top-level members other than "frames": those before the array
	 * once opened, all of them once results_file_next() returned 0. Owned.
	 */
	struct json_object *root;
	size_t frame_index;		/* frames handed out so far */
	uint64_t frame_line;		/* line (from 1) where the last frame handed out starts */

	/* the reader's state; internal */
	FILE *file;			/* owned; NULL when reading memory */
	const char *data;		/* the memory read, or the file's chunk */
	size_t size, pos;		/* bytes in data, bytes of it consumed */
	uint64_t offset, line;		/* of data[pos] in the input; line from 1 */
	char *value;			/* the raw text of the value being read; owned */
	size_t value_len, value_size;
	struct json_tokener *tok;	/* owned */
	int state;			/* where in the document the reader is */
	size_t members;			/* top-level members read, "frames" included */
	char *chunk;			/* the file's read buffer; owned */
};

/*
 * Opens path (borrowed for the life of rf) and reads up to the first frame.
 * Returns 0, or -errno / -EINVAL / -ENOMEM with err set. Finish rf with
 * results_file_finish() either way.
 */
int results_file_open(struct results_file *rf, const char *path, struct hwct_error *err);

/* The same over size bytes of data named name (both borrowed for the life of rf). */
int results_file_open_buffer(struct results_file *rf, const char *data, size_t size, const char *name,
	struct hwct_error *err);

/*
 * The next frame of the "frames" array in *frame (owned by the caller:
 * json_object_put() it). Returns 1 with a frame; 0 after the last one, when
 * the rest of the document has been read and checked and rf->root holds
 * every top-level member; or -EINVAL / -ENOMEM with err set.
 */
int results_file_next(struct results_file *rf, struct json_object **frame);

/* Frees the reader and what it parsed. rf may hold nothing. */
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
