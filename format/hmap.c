/* Open-addressing hash map (hmap.h), linear probing, backward-shift deletion. */
#include <errno.h>
#include <stdlib.h>

#include "hmap.h"

static size_t slot_of(const struct hwct_hash *key, size_t cap)
{
	uint64_t h = key->low ^ (key->high * 0x9E3779B97F4A7C15ull);

	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 32;
	return (size_t)h & (cap - 1);
}

static struct hmap_slot *find(const struct hmap *m, const struct hwct_hash *key)
{
	if (!m->cap) {
		return NULL;
	}
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		struct hmap_slot *s = &m->slots[i];

		if (!s->used) {
			return NULL;
		}
		if (hwct_hash_equal(&s->key, key)) {
			return s;
		}
	}
}

bool hmap_get(const struct hmap *m, const struct hwct_hash *key, uintptr_t *value)
{
	struct hmap_slot *s = find(m, key);

	if (s && value) {
		*value = s->value;
	}
	return s != NULL;
}

static int grow(struct hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct hmap_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		struct hmap_slot *old = &m->slots[i];
		size_t j;

		if (!old->used) {
			continue;
		}
		for (j = slot_of(&old->key, cap); slots[j].used; j = (j + 1) & (cap - 1)) {
		}
		slots[j] = *old;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int hmap_put(struct hmap *m, const struct hwct_hash *key, uintptr_t value)
{
	struct hmap_slot *s = find(m, key);
	size_t i;

	if (s) {
		s->value = value;
		return 0;
	}
	if ((m->count + 1) * 4 > m->cap * 3) {
		int ret = grow(m);

		if (ret < 0) {
			return ret;
		}
	}
	for (i = slot_of(key, m->cap); m->slots[i].used; i = (i + 1) & (m->cap - 1)) {
	}
	m->slots[i] = (struct hmap_slot){ .key = *key, .value = value, .used = true };
	m->count++;
	return 0;
}

bool hmap_remove(struct hmap *m, const struct hwct_hash *key)
{
	struct hmap_slot *s = find(m, key);
	size_t hole, i;

	if (!s) {
		return false;
	}
	hole = (size_t)(s - m->slots);
	m->slots[hole].used = false;
	m->count--;
	for (i = (hole + 1) & (m->cap - 1); m->slots[i].used; i = (i + 1) & (m->cap - 1)) {
		size_t home = slot_of(&m->slots[i].key, m->cap);

		/* move back entries whose probe path crosses the hole */
		if (((i - home) & (m->cap - 1)) >= ((i - hole) & (m->cap - 1))) {
			m->slots[hole] = m->slots[i];
			m->slots[i].used = false;
			hole = i;
		}
	}
	return true;
}

void hmap_finish(struct hmap *m)
{
	free(m->slots);
	*m = (struct hmap){ 0 };
}
