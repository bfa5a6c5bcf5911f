/*
 * A streaming JSON writer for results files: members are written as they
 * come, so a replay of any length holds no tree in memory. Objects and
 * arrays nested at `compact_depth` or deeper go on one line (one frame per
 * line in results.json); indentation is two spaces (.editorconfig's JSON).
 * Write errors stick in the FILE (ferror).
 */
#ifndef HWCT_REPLAY_JSON_H
#define HWCT_REPLAY_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RJSON_MAX_DEPTH 16

struct rjson {
	FILE *f;			/* borrowed */
	unsigned depth;			/* open containers */
	unsigned compact_depth;		/* containers opened at this depth or deeper are on one line */
	bool has_members[RJSON_MAX_DEPTH];	/* the container at each depth has a member already */
};

/* Starts writing into f (borrowed); compact_depth as above (0: everything on one line). */
void rjson_init(struct rjson *j, FILE *f, unsigned compact_depth);

/*
 * Each value call takes the member's key inside an object and NULL inside
 * an array or at the top level.
 */
void rjson_object_begin(struct rjson *j, const char *key);
void rjson_object_end(struct rjson *j);
void rjson_array_begin(struct rjson *j, const char *key);
void rjson_array_end(struct rjson *j);
void rjson_string(struct rjson *j, const char *key, const char *value);	/* NULL value: null */
void rjson_int(struct rjson *j, const char *key, int64_t value);
void rjson_uint(struct rjson *j, const char *key, uint64_t value);
void rjson_double(struct rjson *j, const char *key, double value);	/* not finite: null */
void rjson_bool(struct rjson *j, const char *key, bool value);
void rjson_null(struct rjson *j, const char *key);

/* An integer, or null when value < 0 (timings: -1 unknown). */
void rjson_int_or_null(struct rjson *j, const char *key, int64_t value);

#endif
