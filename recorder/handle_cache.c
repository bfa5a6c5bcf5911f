/* The buffer fds a device's calls have seen (handle_cache.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "event.h"
#include "fds.h"
#include "handle_cache.h"
#include "hot.h"
#include "hot_arena.h"

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

static REC_HOT uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * FNV_PRIME;
}

/* The key: the handle's address, its counts and the words a call copies; never 0. */
static REC_HOT uint64_t key_hash(const native_handle_t *handle, int32_t words)
{
	uint64_t h = FNV_OFFSET;

	h = mix(h, (uint64_t)(uintptr_t)handle);
	h = mix(h, (uint64_t)(uint32_t)handle->numFds << 32 | (uint32_t)handle->numInts);
	for (int32_t i = 0; i < words; i++) {
		h = mix(h, (uint32_t)handle->data[i]);
	}
	return h ? h : 1;
}

void rec_handle_cache_init(struct rec_handle_cache *c)
{
	memset(c, 0, sizeof(*c));
	atomic_flag_clear(&c->lock);
}

static void kept_close(struct rec_kept_fd *k)
{
	rec_fds_close(k->fd);
	rec_hot_free(k, sizeof(*k));
}

/*
 * Every reference was dropped and the slot let k go: exactly one drop or
 * retirement finds that, the one whose change of `state` made it so, and
 * nothing else touches k after its own change.
 */
void rec_kept_fd_put(struct rec_kept_fd *k)
{
	unsigned st;

	if (!k) {
		return;
	}
	st = atomic_fetch_add_explicit(&k->state, 2, memory_order_acq_rel) + 2;
	/* retired: `taken` is final, and no one else closes k while this reference was not dropped */
	if ((st & 1) && st >> 1 == atomic_load_explicit(&k->taken, memory_order_relaxed)) {
		kept_close(k);
	}
}

/* The slot let k go; taken: k's `taken`, read under the lock that gave out the last reference. */
static void kept_retire(struct rec_kept_fd *k, unsigned taken)
{
	if (k && atomic_fetch_or_explicit(&k->state, 1, memory_order_acq_rel) >> 1 == taken) {
		kept_close(k);
	}
}

_Static_assert(_Alignof(struct rec_kept_fd) <= REC_LINE, "rec_hot_alloc aligns to a line");

static struct rec_kept_fd *kept_new(int fd)
{
	struct rec_kept_fd *k = rec_hot_alloc(sizeof(*k));

	if (!k) {
		return NULL;
	}
	memset(k, 0, sizeof(*k));
	k->fd = rec_fds_dup(fd);
	if (k->fd < 0) {
		rec_hot_free(k, sizeof(*k));
		return NULL;
	}
	atomic_init(&k->taken, 1);	/* the caller's */
	atomic_init(&k->state, 0);
	return k;
}

/* Empties s (lock held); *taken gets what kept_retire needs. Returns the kept dup it held. */
static struct rec_kept_fd *slot_empty(struct rec_handle_cache_slot *s, unsigned *taken)
{
	struct rec_kept_fd *k = s->kept;

	*taken = k ? atomic_load_explicit(&k->taken, memory_order_relaxed) : 0;
	atomic_store_explicit(&s->gen, 0, memory_order_relaxed);
	/* a sweep that reads a field written after this reads gen 0 or the next fill's afterwards */
	atomic_thread_fence(memory_order_release);
	s->kept = NULL;
	s->hash = 0;
	s->handle = NULL;
	atomic_store_explicit(&s->fd0, -1, memory_order_relaxed);
	return k;
}

static REC_HOT bool slot_holds(const struct rec_handle_cache_slot *s, uint64_t hash, const native_handle_t *handle)
{
	return s->kept && s->hash == hash && s->handle == handle &&
		atomic_load_explicit(&s->fd0, memory_order_relaxed) == handle->data[0];
}

REC_HOT struct rec_kept_fd *rec_handle_cache_get(struct rec_handle_cache *c, const native_handle_t *handle,
	int32_t words, bool *exact)
{
	uint64_t hash;
	struct rec_handle_cache_slot *a, *b, *s;
	struct rec_kept_fd *k = NULL, *old = NULL;
	unsigned old_taken = 0;

	if (atomic_flag_test_and_set_explicit(&c->lock, memory_order_acquire)) {
		return NULL;
	}
	hash = key_hash(handle, words);
	c->tick++;
	/* two places per key: buffers whose keys share one do not push each other out every call */
	a = &c->slots[hash % REC_HANDLE_CACHE_SLOTS];
	b = &c->slots[(hash >> 32) % REC_HANDLE_CACHE_SLOTS];
	s = slot_holds(a, hash, handle) ? a : slot_holds(b, hash, handle) ? b : NULL;
	if (s) {
		k = s->kept;
		atomic_store_explicit(&k->taken, atomic_load_explicit(&k->taken, memory_order_relaxed) + 1,
			memory_order_relaxed);
		s->used = c->tick;
		*exact = false;
	} else if ((k = kept_new(handle->data[0]))) {
		/* the empty one, else the one used longer ago */
		s = !a->kept ? a : !b->kept ? b : c->tick - a->used >= c->tick - b->used ? a : b;
		old = slot_empty(s, &old_taken);
		s->hash = hash;
		s->handle = handle;
		atomic_store_explicit(&s->fd0, handle->data[0], memory_order_relaxed);
		s->used = c->tick;
		s->kept = k;
		/* last: the sweep reads gen, then fd0, then gen again */
		atomic_store_explicit(&s->gen, ++c->fills ? c->fills : ++c->fills, memory_order_release);
		*exact = true;
	}
	atomic_flag_clear_explicit(&c->lock, memory_order_release);
	/* a buffer no event holds any more: its dup is closed here, once per buffer that leaves the slot */
	kept_retire(old, old_taken);
	return k;
}

void rec_handle_cache_flush(struct rec_handle_cache *c)
{
	struct rec_kept_fd *gone[REC_HANDLE_CACHE_SLOTS];
	unsigned taken[REC_HANDLE_CACHE_SLOTS];

	while (atomic_flag_test_and_set_explicit(&c->lock, memory_order_acquire)) {
		/* a call holds it for a lookup and at most one dup */
	}
	for (unsigned i = 0; i < REC_HANDLE_CACHE_SLOTS; i++) {
		gone[i] = slot_empty(&c->slots[i], &taken[i]);
	}
	atomic_flag_clear_explicit(&c->lock, memory_order_release);
	for (unsigned i = 0; i < REC_HANDLE_CACHE_SLOTS; i++) {
		kept_retire(gone[i], taken[i]);
	}
}

/* The caches of the devices open, for the worker's sweep; under watch_lock. */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
#define WATCHED_MAX 32	/* devices open at once; the device registry holds fewer */
static struct rec_handle_cache *watched[WATCHED_MAX];

bool rec_handle_cache_watch(struct rec_handle_cache *c)
{
	bool done = false;

	pthread_mutex_lock(&watch_lock);
	for (unsigned i = 0; i < WATCHED_MAX && !done; i++) {
		if (!watched[i]) {
			watched[i] = c;
			done = true;
		}
	}
	pthread_mutex_unlock(&watch_lock);
	return done;
}

void rec_handle_cache_unwatch(struct rec_handle_cache *c)
{
	pthread_mutex_lock(&watch_lock);
	for (unsigned i = 0; i < WATCHED_MAX; i++) {
		if (watched[i] == c) {
			watched[i] = NULL;
		}
	}
	pthread_mutex_unlock(&watch_lock);
}

/* Worker: the kept dup's inode, read once (rec_handle_resolve reads it too). */
static void kept_stat(struct rec_kept_fd *k)
{
	struct stat st;

	if (!k->stat_done) {
		k->stat_done = true;
		k->stat_ok = fstat(k->fd, &st) == 0;
		k->dev = k->stat_ok ? (uint64_t)st.st_dev : 0;
		k->ino = k->stat_ok ? (uint64_t)st.st_ino : 0;
	}
}

/* Worker: whether fd names the file of device dev, inode ino now. */
static bool fd_names(int fd, uint64_t dev, uint64_t ino)
{
	struct stat st;

	return fstat(fd, &st) == 0 && (uint64_t)st.st_dev == dev && (uint64_t)st.st_ino == ino;
}

/* Worker: whether fd names the kept dup's buffer now. */
static bool names_kept(struct rec_kept_fd *k, int fd)
{
	kept_stat(k);
	return k->stat_ok && fd_names(fd, k->dev, k->ino);
}

/* Worker: learns the inode of the kept dup of slot i's fill gen (lock taken here). False: try later. */
static bool learn(struct rec_handle_cache *c, unsigned i, uint32_t gen)
{
	struct rec_handle_cache_slot *s = &c->slots[i];
	struct rec_handle_cache_seen *seen = &c->seen[i];

	if (atomic_flag_test_and_set_explicit(&c->lock, memory_order_acquire)) {
		return false;	/* a call is using it: the next turn */
	}
	if (atomic_load_explicit(&s->gen, memory_order_relaxed) == gen && s->kept) {
		kept_stat(s->kept);
		*seen = (struct rec_handle_cache_seen){ .gen = gen, .ok = s->kept->stat_ok, .dev = s->kept->dev,
			.ino = s->kept->ino };
	}
	atomic_flag_clear_explicit(&c->lock, memory_order_release);
	return seen->gen == gen;
}

/* Worker: empties slot i if it still holds fill gen (lock taken here). Returns whether it did. */
static bool drop_stale(struct rec_handle_cache *c, unsigned i, uint32_t gen)
{
	struct rec_kept_fd *k = NULL;
	unsigned taken = 0;

	if (atomic_flag_test_and_set_explicit(&c->lock, memory_order_acquire)) {
		return false;	/* a call is using it: the next turn */
	}
	if (atomic_load_explicit(&c->slots[i].gen, memory_order_relaxed) == gen) {
		k = slot_empty(&c->slots[i], &taken);
	}
	atomic_flag_clear_explicit(&c->lock, memory_order_release);
	kept_retire(k, taken);	/* closed here unless an event still holds it */
	return k != NULL;
}

unsigned rec_handle_cache_sweep(struct rec_handle_cache *c, unsigned slots)
{
	unsigned n = 0;

	for (unsigned k = 0; k < slots && k < REC_HANDLE_CACHE_SLOTS; k++) {
		unsigned i = c->sweep_next++ % REC_HANDLE_CACHE_SLOTS;
		struct rec_handle_cache_slot *s = &c->slots[i];
		const struct rec_handle_cache_seen *seen = &c->seen[i];
		uint32_t gen = atomic_load_explicit(&s->gen, memory_order_acquire);
		int fd0 = atomic_load_explicit(&s->fd0, memory_order_relaxed);

		/* read without the lock: a fill between the two reads of gen is looked at next turn */
		atomic_thread_fence(memory_order_acquire);
		if (!gen || atomic_load_explicit(&s->gen, memory_order_relaxed) != gen ||
				(seen->gen != gen && !learn(c, i, gen))) {
			continue;
		}
		/* the composer's fd may be closed or reused while this looks: either way it empties the slot */
		if (seen->ok && fd_names(fd0, seen->dev, seen->ino)) {
			continue;
		}
		n += drop_stale(c, i, gen);
	}
	return n;
}

unsigned rec_handle_cache_sweep_all(unsigned slots)
{
	unsigned n = 0;

	pthread_mutex_lock(&watch_lock);
	for (unsigned i = 0; i < WATCHED_MAX; i++) {
		if (watched[i]) {
			n += rec_handle_cache_sweep(watched[i], slots);
		}
	}
	pthread_mutex_unlock(&watch_lock);
	return n;
}

bool rec_handle_resolve(struct rec_handle *h)
{
	struct rec_kept_fd *k = h->kept;
	bool same;

	if (!k) {
		return false;
	}
	h->kept = NULL;
	kept_stat(k);
	/*
	 * The same inode is the same buffer, whichever file it was opened as
	 * (a buffer imported twice): its pixels are the kept dup's.
	 */
	same = h->kept_exact || (h->num_fds > 0 && names_kept(k, h->data[0]));
	h->fd = same ? rec_fds_dup(k->fd) : -1;
	if (same && h->fd < 0 && k->stat_ok) {
		/* no dup (fd budget spent): the capture is dropped, the buffer keeps its identity */
		h->ino = k->ino;
	}
	rec_kept_fd_put(k);
	return !same;
}
