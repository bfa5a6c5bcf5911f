/*
 * The hot arena: one 2 MiB region, aligned to 2 MiB and offered to the
 * kernel for a transparent huge page (MADV_HUGEPAGE), that holds what a
 * call reads after the hot line: the recorder, the wrapped devices (their
 * function tables and handle caches), the calling threads' event pools and
 * their events, and the kept buffer dups. A composer's first call of a frame
 * comes after the host touched megabytes, so each of those objects on a page
 * of its own was a TLB miss of its own (a page walk, nested under a
 * hypervisor) one after the other; on one huge page they share one TLB
 * entry, and without one (THP off, no free huge page) they still sit on
 * neighbouring pages, whose page-table entries share lines
 * (recorder/README.md, "The hot arena").
 *
 * Memory is handed out line-aligned and never given back to the system;
 * freed blocks are kept per size for the next of that size. When the arena
 * is full, could not be mapped, or a block is larger than
 * REC_HOT_ARENA_MAX_BLOCK, the blocks come from aligned_alloc instead
 * (rec_hot_free tells the two apart). All functions are thread-safe and
 * keep working in a fork() child. Under AddressSanitizer a block given back
 * is poisoned until it is handed out again: a use after rec_hot_free is
 * reported as one after free() would be.
 */
#ifndef REC_HOT_ARENA_H
#define REC_HOT_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#define REC_HOT_ARENA_SIZE (2u << 20)		/* one huge page on x86-64 and arm64 (4 KiB pages) */
#define REC_HOT_ARENA_MAX_BLOCK (32u << 10)	/* larger blocks always come from aligned_alloc */

/*
 * size bytes aligned to a cache line (REC_LINE), uninitialised; NULL when
 * out of memory. The caller owns it and gives it back with rec_hot_free(p,
 * size), the same size. Maps the arena on first use.
 */
void *rec_hot_alloc(size_t size);

/* Gives back p from rec_hot_alloc(size); p may be NULL. */
void rec_hot_free(void *p, size_t size);

/* Whether p lies in the arena (for the tests and the stats). */
bool rec_hot_arena_holds(const void *p);

/* Bytes of the arena handed out so far (freed blocks kept for reuse included). */
size_t rec_hot_arena_used(void);

#endif
