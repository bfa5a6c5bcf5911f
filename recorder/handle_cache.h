/*
 * The buffer fds a device's calls have seen, so that a buffer call of a
 * buffer seen before takes no dup on the caller's thread
 * (recorder/README.md, "What each call class costs, and why").
 *
 * A buffer call keeps the buffer's first fd for its capture and for the
 * buffer's identity (its inode). The first call of a buffer dups it, as
 * before, and the cache keeps that dup (`struct rec_kept_fd`) under the
 * handle's address and words. A later call whose handle has the same
 * address and words takes a reference to the kept dup instead; the worker,
 * when it takes the event (rec_handle_resolve), checks that the handle's
 * fd still names the kept dup's inode (fstat: device and inode) and only
 * then gives the event its own dup of the kept one. When it does not (the
 * fd was closed, or its number now names another file), the event has no
 * buffer fd: its capture is dropped and counted as one without fds
 * (captures_no_fd), its buffer named by the handle's address.
 *
 * A kept dup holds its buffer's memory. So that a buffer the composer has
 * freed is not held by the recorder, the worker sweeps the caches of the
 * devices open (rec_handle_cache_sweep_all, a few slots each turn of its
 * loop, recording or not): a slot whose handle fd no longer names the kept
 * dup's inode (closed, or its number reused) is emptied and the dup closed
 * once no event holds it.
 */
#ifndef REC_HANDLE_CACHE_H
#define REC_HANDLE_CACHE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <cutils/native_handle.h>

#include "hot.h"

#define REC_HANDLE_CACHE_SLOTS 32u	/* per device; a key may sit in either of two, by its hash */

/*
 * A dup of a buffer's fd from its first call, shared by the cache and the
 * events. No line of it is written by both a calling thread and the
 * worker: the calls count the references they hand out (`taken`, under the
 * cache's lock), the events' holders count those they drop (`state`), and
 * the dup is closed once its slot let it go (retired) and every reference
 * taken was dropped (recorder/README.md, "The frame's first call, line by
 * line").
 */
struct rec_kept_fd {
	/* the calls' line */
	_Alignas(REC_LINE) atomic_uint taken;	/* references handed to events; final once retired */
	/* the droppers' line (the worker's, nearly always) */
	_Alignas(REC_LINE) atomic_uint state;	/* references dropped << 1 | retired */
	int32_t fd;			/* rec_fds_dup of the handle's data[0] */
	/* worker only (rec_handle_resolve, the sweep): the dup's inode, read once */
	bool stat_done, stat_ok;
	uint64_t dev, ino;
};

struct rec_handle_cache_slot {
	uint64_t hash;			/* of the handle's address, counts and words; 0 = empty */
	const native_handle_t *handle;
	atomic_int fd0;			/* data[0] when the slot was filled; the sweep reads it */
	uint32_t used;			/* the cache's `tick` at its last hit or fill */
	struct rec_kept_fd *kept;	/* NULL = empty */
	atomic_uint gen;		/* the fill's number, 0 = empty; the sweep reads it without the lock */
};

/* What the sweep knows of a slot's kept dup: the worker's alone. */
struct rec_handle_cache_seen {
	uint32_t gen;			/* the fill it describes */
	bool ok;			/* fstat of the kept dup worked */
	uint64_t dev, ino;
};

struct rec_handle_cache {
	/* the calls' lines: the sweep reads the slots, and writes only to empty a stale one */
	atomic_flag lock;		/* taken without waiting: busy means "no cache this call" */
	uint32_t tick;			/* lookups so far */
	uint32_t fills;			/* slots filled so far: the next fill's gen - 1 */
	_Alignas(REC_LINE) struct rec_handle_cache_slot slots[REC_HANDLE_CACHE_SLOTS];
	/* the worker's */
	_Alignas(REC_LINE) uint32_t sweep_next;	/* the slot its next sweep starts at */
	struct rec_handle_cache_seen seen[REC_HANDLE_CACHE_SLOTS];
};

/* An empty cache. */
void rec_handle_cache_init(struct rec_handle_cache *c);

/*
 * The kept dup for handle (words = how many of its data[] the call copies,
 * numFds > 0), with a reference for the caller: the slot's when the handle
 * was seen (*exact false: the worker must check it), else a new dup of
 * data[0] made now, kept in the slot (*exact true). NULL when the cache is
 * in use by another thread, or no dup could be made (fd budget, fds.h), or
 * out of memory: the caller then dups on its own. Never blocks.
 */
struct rec_kept_fd *rec_handle_cache_get(struct rec_handle_cache *c, const native_handle_t *handle,
	int32_t words, bool *exact);

/* Empties every slot (closing the dups no event holds). Waits for a call using it. */
void rec_handle_cache_flush(struct rec_handle_cache *c);

/*
 * Puts c in (or takes it out of) the list rec_handle_cache_sweep_all
 * sweeps; c is borrowed until it is taken out. Out of the list, no sweep
 * is using c once this returns. Returns false when the list is full
 * (32 caches, more than devices can be open): c is then never swept, its slots still
 * emptied by later buffers and at its flush.
 */
bool rec_handle_cache_watch(struct rec_handle_cache *c);
void rec_handle_cache_unwatch(struct rec_handle_cache *c);

/*
 * Worker: checks the next `slots` slots of c (round robin) and empties
 * those whose handle fd no longer names the kept dup's inode. A slot is
 * read without the lock; the lock is taken (without waiting: a call holding
 * it leaves the slot for the next turn) only to learn a new fill's inode
 * and to empty a slot. Returns the slots emptied.
 */
unsigned rec_handle_cache_sweep(struct rec_handle_cache *c, unsigned slots);

/* Worker: rec_handle_cache_sweep of `slots` slots in every watched cache. Returns the slots emptied. */
unsigned rec_handle_cache_sweep_all(unsigned slots);

/*
 * Drops one reference an event holds to k; the dup is closed (and k freed)
 * when it is the last and the slot let k go. k may be NULL. Any thread.
 */
void rec_kept_fd_put(struct rec_kept_fd *k);

struct rec_handle;

/*
 * Worker: gives h its own fd from its kept dup, if any (h->kept): a dup of
 * it when the kept dup was made by this call (kept_exact) or when the
 * handle's data[0] still names the kept dup's inode now, else none (-1);
 * then drops h's reference. Returns whether h had a kept dup that could not
 * be confirmed.
 */
bool rec_handle_resolve(struct rec_handle *h);

#endif
