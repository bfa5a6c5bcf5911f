/*
 * Open-addressing hash map from a 128-bit key to a pointer-sized value.
 * 64-bit ids use the key {0, id}. Internal to the format library.
 */
#ifndef HWCT_HMAP_H
#define HWCT_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>

struct hmap_slot {
	struct hwct_hash key;
	uintptr_t value;
	bool used;
};

struct hmap {
	struct hmap_slot *slots;	/* owned */
	size_t cap;			/* power of two or 0 */
	size_t count;
};

/* Finds key; returns true and sets *value (may be NULL) when present. */
bool hmap_get(const struct hmap *m, const struct hwct_hash *key, uintptr_t *value);

/* Inserts or replaces. Returns 0 or -ENOMEM. */
int hmap_put(struct hmap *m, const struct hwct_hash *key, uintptr_t value);

/* Removes key if present; returns whether it was. */
bool hmap_remove(struct hmap *m, const struct hwct_hash *key);

/* Frees the table (not the values). */
void hmap_finish(struct hmap *m);

static inline struct hwct_hash hmap_id(uint64_t id)
{
	return (struct hwct_hash){ .high = 0, .low = id };
}

#endif
