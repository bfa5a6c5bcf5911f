/*
 * Bounds on what the readers accept (docs/format.md, "Limits"). Every reader
 * checks what a file claims against these before it allocates, so hostile
 * input gets a clear error naming the limit instead of exhausting memory.
 *
 * Each limit has a default and an environment variable that replaces it,
 * HWCT_LIMIT_<NAME> (the upper-case name, e.g. HWCT_LIMIT_FRAME_BYTES=1G).
 * Values are decimal with an optional K, M or G suffix (powers of 1024).
 */
#ifndef HWCT_LIMITS_H
#define HWCT_LIMITS_H

#include <stdint.h>

/* The defaults. */
#define HWCT_LIMIT_DEFAULT_FRAME_BYTES (512ull << 20)	/* decoded content of one zstd frame */
#define HWCT_LIMIT_DEFAULT_RECORD_BYTES (512ull << 20)	/* one record message */
#define HWCT_LIMIT_DEFAULT_BLOB_BYTES (256ull << 20)	/* one decoded blob payload */
#define HWCT_LIMIT_DEFAULT_DIMENSION 16384u		/* layer/buffer width or height (DRM's largest) */
#define HWCT_LIMIT_DEFAULT_DELTA_DEPTH 64u		/* delta links from a blob to its full payload */
#define HWCT_LIMIT_DEFAULT_JSON_BYTES (64ull << 20)	/* one JSON input file */
#define HWCT_LIMIT_DEFAULT_JSON_DEPTH 64u		/* nesting of JSON objects and arrays */
#define HWCT_LIMIT_DEFAULT_JSON_VALUES 200000u	/* values (members, elements) in one JSON file */

struct hwct_limits {
	uint64_t frame_bytes;	/* FRAME_BYTES: bytes */
	uint64_t record_bytes;	/* RECORD_BYTES: bytes */
	uint64_t blob_bytes;	/* BLOB_BYTES: bytes */
	uint64_t dimension;	/* DIMENSION: pixels */
	uint64_t delta_depth;	/* DELTA_DEPTH: links */
	uint64_t json_bytes;	/* JSON_BYTES: bytes */
	uint64_t json_depth;	/* JSON_DEPTH: levels */
	uint64_t json_values;	/* JSON_VALUES: values */
};

/*
 * The limits of this process: those given to hwct_limits_set(), else the
 * defaults with the HWCT_LIMIT_* variables applied, read once on the first
 * call (thread-safe; a wrong value keeps the default). Never NULL; the
 * struct is owned by the library.
 */
const struct hwct_limits *hwct_limits(void);

/*
 * Fills out with the defaults, each replaced by its HWCT_LIMIT_* variable
 * when set. Returns 0, or -EINVAL with msg (of size len) saying which
 * variable is wrong and why (out then holds the defaults for the rest).
 * Tools call this at start so a typo is a usage error, not a silent default.
 */
int hwct_limits_from_env(struct hwct_limits *out, char *msg, unsigned len);

/*
 * Replaces the limits of this process by a copy of lim. Call before any
 * reader or writer runs: not synchronised with them.
 */
void hwct_limits_set(const struct hwct_limits *lim);

/*
 * Checks a JSON text against the JSON limits before a parser builds a tree
 * of it (whose memory can be hundreds of times the text's): size, nesting
 * of objects and arrays, and the number of values (the root, object
 * members and array elements, counted from the commas and the first entry
 * of each container, outside strings). A lexical scan only: the text may
 * still be invalid JSON. Returns 0, or -EFBIG with *offset set to the byte
 * where a limit is passed and msg (of size len) naming the limit.
 */
int hwct_json_check_bounds(const char *data, uint64_t size, uint64_t *offset, char *msg, unsigned len);

#endif
