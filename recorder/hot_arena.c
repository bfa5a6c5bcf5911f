/* The hot arena (hot_arena.h). */
#define _DEFAULT_SOURCE	/* MAP_ANONYMOUS, madvise(), MADV_HUGEPAGE (Linux), this file only */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "hot.h"
#include "hot_arena.h"

/*
 * Under AddressSanitizer a block given back is poisoned until it is handed
 * out again, so a use after rec_hot_free is reported as it would be after
 * free() (the tests' races rely on it). The leak checker scans only the
 * heap, globals, stacks and TLS for pointers: the arena is registered as a
 * region to scan too, or every heap block that only the arena points to
 * (the queue's first node, an event's extra bytes) would be reported as leaked.
 */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#if defined(ARENA_ASAN) || defined(__SANITIZE_LEAK__)
#define ARENA_LSAN 1
#elif defined(__has_feature)
#if __has_feature(leak_sanitizer)
#define ARENA_LSAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, size) ASAN_POISON_MEMORY_REGION((p), (size))
#define UNPOISON(p, size) ASAN_UNPOISON_MEMORY_REGION((p), (size))
#else
#define POISON(p, size) ((void)(p), (void)(size))
#define UNPOISON(p, size) ((void)(p), (void)(size))
#endif
#ifdef ARENA_LSAN
#include <sanitizer/lsan_interface.h>
#define SCAN_FOR_LEAKS(p, size) __lsan_register_root_region((p), (size))
#else
#define SCAN_FOR_LEAKS(p, size) ((void)(p), (void)(size))
#endif

#define LINES(size) (((size) + REC_LINE - 1) / REC_LINE)
#define CLASSES (LINES(REC_HOT_ARENA_MAX_BLOCK) + 1)

/* A freed block, kept for the next block of its size. */
struct free_block {
	struct free_block *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char *base;			/* the arena, NULL when it could not be mapped */
static size_t used;			/* bytes handed out from base, a multiple of REC_LINE */
static struct free_block *freed[CLASSES];	/* by size in lines */

static void before_fork(void)
{
	pthread_mutex_lock(&lock);
}

static void after_fork(void)
{
	pthread_mutex_unlock(&lock);
}

/*
 * Maps twice the arena and keeps the aligned half: a huge page needs its
 * virtual address aligned to its size. The first touch, here in the thread
 * that opens a device rather than in a call, makes the kernel allocate the
 * huge page (or one small page, without THP).
 */
static void map_arena(void)
{
	size_t span = 2 * (size_t)REC_HOT_ARENA_SIZE;
	char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;
	size_t head, tail;

	pthread_atfork(before_fork, after_fork, after_fork);
	if (m == MAP_FAILED) {
		return;
	}
	a = (char *)(((uintptr_t)m + REC_HOT_ARENA_SIZE - 1) & ~(uintptr_t)(REC_HOT_ARENA_SIZE - 1));
	head = (size_t)(a - m);
	tail = span - head - REC_HOT_ARENA_SIZE;
	if (head) {
		munmap(m, head);
	}
	if (tail) {
		munmap(a + REC_HOT_ARENA_SIZE, tail);
	}
#ifdef MADV_HUGEPAGE
	/* a kernel without THP says EINVAL: the arena is then small pages, side by side */
	(void)madvise(a, REC_HOT_ARENA_SIZE, MADV_HUGEPAGE);
#endif
	*(volatile char *)a = 0;
	SCAN_FOR_LEAKS(a, REC_HOT_ARENA_SIZE);
	base = a;
}

void *rec_hot_alloc(size_t size)
{
	size_t lines = LINES(size ? size : 1);
	void *p = NULL;

	if (size > REC_HOT_ARENA_MAX_BLOCK) {
		return aligned_alloc(REC_LINE, lines * REC_LINE);
	}
	pthread_once(&once, map_arena);
	pthread_mutex_lock(&lock);
	if (freed[lines]) {
		UNPOISON(freed[lines], lines * REC_LINE);
		p = freed[lines];
		freed[lines] = freed[lines]->next;
	} else if (base && used + lines * REC_LINE <= REC_HOT_ARENA_SIZE) {
		p = base + used;
		used += lines * REC_LINE;
	}
	pthread_mutex_unlock(&lock);
	return p ? p : aligned_alloc(REC_LINE, lines * REC_LINE);
}

bool rec_hot_arena_holds(const void *p)
{
	const char *c = p;

	pthread_once(&once, map_arena);
	return base && c >= base && c < base + REC_HOT_ARENA_SIZE;
}

void rec_hot_free(void *p, size_t size)
{
	struct free_block *b = p;
	size_t lines = LINES(size ? size : 1);

	if (!p) {
		return;
	}
	if (!rec_hot_arena_holds(p)) {
		free(p);
		return;
	}
	pthread_mutex_lock(&lock);
	b->next = freed[lines];
	freed[lines] = b;
	POISON(b, lines * REC_LINE);	/* the link included: rec_hot_alloc unpoisons before it reads it */
	pthread_mutex_unlock(&lock);
}

size_t rec_hot_arena_used(void)
{
	size_t n;

	pthread_mutex_lock(&lock);
	n = used;
	pthread_mutex_unlock(&lock);
	return n;
}
