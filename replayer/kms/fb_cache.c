/*
 * The framebuffer cache (fb.h): a small array searched linearly (capacity is
 * tens of entries), least recently used first out, never freeing a
 * framebuffer someone else still references (on screen, or held by the
 * caller).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fb.h"

struct entry {
	struct kms_fb_key key;
	struct kms_fb *fb;		/* the cache's reference */
	uint64_t last_use;		/* cache->clock at the last get or put */
};

struct kms_fb_cache {
	size_t capacity;
	size_t count, size;		/* entries used, allocated */
	struct entry *entries;
	uint64_t clock;
	struct kms_fb_cache_stats stats;
};

static bool key_equal(const struct kms_fb_key *a, const struct kms_fb_key *b)
{
	return hwct_hash_equal(&a->hash, &b->hash) && a->src_fourcc == b->src_fourcc &&
		a->fourcc == b->fourcc && a->modifier == b->modifier &&
		a->width == b->width && a->height == b->height;
}

struct kms_fb_cache *kms_fb_cache_create(size_t capacity)
{
	struct kms_fb_cache *cache = calloc(1, sizeof(*cache));

	if (!cache) {
		return NULL;
	}
	cache->capacity = capacity ? capacity : 1;
	return cache;
}

void kms_fb_cache_destroy(struct kms_fb_cache *cache)
{
	if (!cache) {
		return;
	}
	for (size_t i = 0; i < cache->count; i++) {
		kms_fb_unref(cache->entries[i].fb);
	}
	free(cache->entries);
	free(cache);
}

struct kms_fb *kms_fb_cache_get(struct kms_fb_cache *cache, const struct kms_fb_key *key)
{
	for (size_t i = 0; i < cache->count; i++) {
		struct entry *e = &cache->entries[i];

		if (key_equal(&e->key, key)) {
			e->last_use = ++cache->clock;
			cache->stats.hits++;
			return kms_fb_ref(e->fb);
		}
	}
	cache->stats.misses++;
	return NULL;
}

/* Removes the least recently used entry only the cache holds. Returns whether one went. */
static bool evict_one(struct kms_fb_cache *cache)
{
	size_t victim = cache->count;

	for (size_t i = 0; i < cache->count; i++) {
		const struct entry *e = &cache->entries[i];

		if (e->fb->refs == 1 &&
			(victim == cache->count || e->last_use < cache->entries[victim].last_use)) {
			victim = i;
		}
	}
	if (victim == cache->count) {
		return false;
	}
	kms_fb_unref(cache->entries[victim].fb);
	cache->entries[victim] = cache->entries[--cache->count];
	cache->stats.evictions++;
	return true;
}

int kms_fb_cache_put(struct kms_fb_cache *cache, const struct kms_fb_key *key, struct kms_fb *fb)
{
	struct entry *e;

	for (size_t i = 0; i < cache->count; i++) {
		e = &cache->entries[i];
		if (key_equal(&e->key, key)) {
			/* replace: the older framebuffer lives on with whoever holds it */
			kms_fb_unref(e->fb);
			e->fb = kms_fb_ref(fb);
			e->last_use = ++cache->clock;
			return 0;
		}
	}
	while (cache->count >= cache->capacity && evict_one(cache)) {
	}
	if (cache->count == cache->size) {
		size_t size = cache->size ? cache->size * 2 : cache->capacity;
		struct entry *entries = realloc(cache->entries, size * sizeof(*entries));

		if (!entries) {
			return -ENOMEM;
		}
		cache->entries = entries;
		cache->size = size;
	}
	e = &cache->entries[cache->count++];
	e->key = *key;
	e->fb = kms_fb_ref(fb);
	e->last_use = ++cache->clock;
	return 0;
}

bool kms_fb_cache_drop(struct kms_fb_cache *cache, const struct kms_fb_key *key)
{
	for (size_t i = 0; i < cache->count; i++) {
		if (key_equal(&cache->entries[i].key, key)) {
			kms_fb_unref(cache->entries[i].fb);
			cache->entries[i] = cache->entries[--cache->count];
			return true;
		}
	}
	return false;
}

size_t kms_fb_cache_count(const struct kms_fb_cache *cache)
{
	return cache->count;
}

struct kms_fb_cache_stats kms_fb_cache_stats(const struct kms_fb_cache *cache)
{
	return cache->stats;
}
