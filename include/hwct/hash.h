/*
 * Content hashes: XXH3-128 of a payload (docs/format.md, "Blobs").
 */
#ifndef HWCT_HASH_H
#define HWCT_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hwct_hash {
	uint64_t high;
	uint64_t low;
};

#define HWCT_HASH_BYTES 16
#define HWCT_HASH_HEX 33	/* 32 hex digits and a NUL */

/* Hashes size bytes at data. data may be NULL when size is 0. */
struct hwct_hash hwct_hash_compute(const void *data, size_t size);

/* Writes the 16-byte big-endian form (high, then low) into out. */
void hwct_hash_to_bytes(const struct hwct_hash *hash, uint8_t out[HWCT_HASH_BYTES]);

/* Reads the 16-byte form. Returns false when size is not 16 (out untouched). */
bool hwct_hash_from_bytes(struct hwct_hash *out, const uint8_t *bytes, size_t size);

/* Writes 32 lower-case hex digits and a NUL into out; returns out. */
char *hwct_hash_to_hex(const struct hwct_hash *hash, char out[HWCT_HASH_HEX]);

/* Parses 32 hex digits. Returns false on any other input (out untouched). */
bool hwct_hash_from_hex(struct hwct_hash *out, const char *hex);

static inline bool hwct_hash_equal(const struct hwct_hash *a, const struct hwct_hash *b)
{
	return a->high == b->high && a->low == b->low;
}

#endif
