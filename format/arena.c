/* Bump allocator (arena.h). */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define CHUNK_SIZE (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	alignas(max_align_t) unsigned char data[];
};

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c = a->chunks;
	size_t aligned = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	void *p;

	if (aligned < size) {
		return NULL;
	}
	if (!c || c->cap - c->used < aligned) {
		size_t cap = aligned > CHUNK_SIZE ? aligned : CHUNK_SIZE;

		c = malloc(sizeof(*c) + cap);
		if (!c) {
			return NULL;
		}
		c->used = 0;
		c->cap = cap;
		c->next = a->chunks;
		a->chunks = c;
	}
	p = c->data + c->used;
	c->used += aligned;
	memset(p, 0, size);
	return p;
}

void *arena_dup(struct arena *a, const void *data, size_t size)
{
	void *p = arena_alloc(a, size ? size : 1);

	if (p && size) {
		memcpy(p, data, size);
	}
	return p;
}

void arena_finish(struct arena *a)
{
	struct arena_chunk *c = a->chunks;

	while (c) {
		struct arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	a->chunks = NULL;
}
