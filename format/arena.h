/* A bump allocator freed all at once (for building nested messages). */
#ifndef HWCT_ARENA_H
#define HWCT_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunks;	/* owned list */
};

/* Zeroed memory, aligned for any type, or NULL. */
void *arena_alloc(struct arena *a, size_t size);

/* Copies size bytes into the arena, or NULL. */
void *arena_dup(struct arena *a, const void *data, size_t size);

/* Frees everything allocated from a. */
void arena_finish(struct arena *a);

#endif
