/* Mappings of captured buffers kept between captures (capture_map.h). */
#define _DEFAULT_SOURCE	/* MAP_POPULATE (Linux), this file only */
#include <sys/mman.h>

#include "capture_map.h"

static void drop(struct rec_mapping *m)
{
	if (m->used) {
		munmap(m->map, m->len);
	}
	*m = (struct rec_mapping){ 0 };
}

const uint8_t *rec_map_cache_get(struct rec_map_cache *c, int fd, uint64_t dev, uint64_t ino, size_t len,
	uint64_t now)
{
	struct rec_mapping *slot = NULL, *oldest = NULL;
	void *map;

	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		struct rec_mapping *m = &c->items[i];

		/* idle (its buffer may be gone but for us), or too short for this layout */
		if (m->used && (now - m->last_ns > REC_MAP_IDLE_NS || (m->dev == dev && m->ino == ino && m->len < len))) {
			drop(m);
		}
	}
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		struct rec_mapping *m = &c->items[i];

		if (m->used && m->dev == dev && m->ino == ino) {
			m->last_ns = now;
			return m->map;
		}
		if (!m->used) {
			slot = slot ? slot : m;
		} else if (!oldest || m->last_ns < oldest->last_ns) {
			oldest = m;
		}
	}
	slot = slot ? slot : oldest;
	/* all its pages at once: one call instead of a fault per page on the first read */
	map = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (map == MAP_FAILED) {
		return NULL;
	}
	drop(slot);
	*slot = (struct rec_mapping){ .used = true, .dev = dev, .ino = ino, .map = map, .len = len, .last_ns = now };
	return slot->map;
}

void rec_map_cache_buffer_set(struct rec_map_cache *c, uint64_t display, bool client_target, uint64_t layer,
	uint64_t dev, uint64_t ino, uint64_t now)
{
	layer = client_target ? 0 : layer;
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		struct rec_mapping *m = &c->items[i];

		if (!m->used) {
			continue;
		}
		if (m->dev == dev && m->ino == ino) {
			m->owned = true;
			m->display = display;
			m->client_target = client_target;
			m->layer = layer;
			m->replaced = 0;
			m->last_ns = now;
		} else if (m->owned && m->display == display && m->client_target == client_target &&
				m->layer == layer && ++m->replaced > REC_MAP_REPLACED) {
			drop(m);
		}
	}
	rec_map_cache_expire(c, now);
}

void rec_map_cache_forget(struct rec_map_cache *c, uint64_t display, bool whole_display, uint64_t layer)
{
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		struct rec_mapping *m = &c->items[i];

		if (m->used && m->owned && m->display == display &&
				(whole_display || (!m->client_target && m->layer == layer))) {
			drop(m);
		}
	}
}

void rec_map_cache_expire(struct rec_map_cache *c, uint64_t now)
{
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		struct rec_mapping *m = &c->items[i];

		/* now may be earlier than last_ns: a capture of a later call ran before this call was written */
		if (m->used && now > m->last_ns && now - m->last_ns > REC_MAP_IDLE_NS) {
			drop(m);
		}
	}
}

uint8_t *rec_pages_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		return NULL;
	}
	/* advice: huge pages where the kernel has them (a handful of faults), else populated in one call */
	madvise(p, size, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
	madvise(p, size, MADV_POPULATE_WRITE);	/* Linux 5.14; older kernels fault on first use */
#endif
	return p;
}

void rec_pages_free(uint8_t *p, size_t size)
{
	if (p) {
		munmap(p, size);
	}
}

void rec_map_cache_clear(struct rec_map_cache *c)
{
	for (size_t i = 0; i < REC_MAP_CACHE; i++) {
		drop(&c->items[i]);
	}
}
