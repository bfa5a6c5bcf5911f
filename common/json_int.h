/*
 * The one rule for 64-bit integers in hwctrace's JSON (docs/results.md,
 * "Integers"): a value whose magnitude is at most 2^53 is a JSON number;
 * a larger one is a string of its decimal digits, because JSON readers
 * that hold numbers as doubles (JavaScript, jq, Python's json with floats)
 * would silently round it. Readers accept both forms. drm_info-format
 * snapshots are the one exception: they follow drm_info (full numbers).
 */
#ifndef HWCT_COMMON_JSON_INT_H
#define HWCT_COMMON_JSON_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#define HWCT_JSON_EXACT_MAX (1ull << 53)	/* larger magnitudes are written as strings */

/* v by the rule. Returns a new reference (NULL when out of memory). */
struct json_object *hwct_json_u64(uint64_t v);
struct json_object *hwct_json_i64(int64_t v);

/*
 * Writes v by the rule into buf (at least 24 bytes): digits, quoted when
 * beyond 2^53 in magnitude. For writers that print JSON themselves.
 * Returns buf.
 */
char *hwct_json_u64_text(uint64_t v, char buf[24]);

/*
 * Reads a non-negative integer written by the rule: a JSON integer, or a
 * string of decimal digits above 2^53 that fits 64 bits. False for
 * anything else ("31" included: the rule writes it as a number).
 */
bool hwct_json_get_u64(struct json_object *o, uint64_t *out);

#endif
