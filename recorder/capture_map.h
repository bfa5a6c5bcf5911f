/*
 * Mappings of captured buffers kept between captures (capture_map.c). A
 * buffer queue hands the same few buffers back every frame or so: mapping
 * one afresh for each capture costs a page fault per page (2 500 for a
 * 1080x2400 RGBA layer), more than reading it. A kept mapping holds its
 * buffer alive, so the cache is small and lets a mapping go as soon as the
 * worker learns that its buffer is gone for the layer that showed it (the
 * worker tells it as it writes the calls, when every capture before them is
 * done): the layer was destroyed, its display disconnected or destroyed, or
 * the layer was given REC_MAP_REPLACED other buffers since this one (a
 * buffer queue reallocated: resized, another format; a queue cycles through
 * 3 buffers, so a buffer still in it comes back sooner); and, failing all
 * those, once unused for REC_MAP_IDLE_NS. While a mapping is kept its file
 * cannot go away, so (st_dev, st_ino) names the same buffer for as long as
 * it is cached.
 */
#ifndef REC_CAPTURE_MAP_H
#define REC_CAPTURE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REC_MAP_CACHE 12			/* mappings kept at most */
#define REC_MAP_IDLE_NS 2000000000ull	/* a mapping unused this long is dropped */
#define REC_MAP_REPLACED 4		/* other buffers set on its layer since it: dropped */

struct rec_map_cache {
	struct rec_mapping {
		bool used;
		uint64_t dev, ino;
		uint8_t *map;			/* PROT_READ, MAP_SHARED, from offset 0, owned */
		size_t len;
		uint64_t last_ns;
		/* the layer its buffer was last set on (rec_map_cache_buffer_set), if any yet */
		bool owned;
		bool client_target;
		uint64_t display, layer;	/* layer: unused for a client target */
		unsigned replaced;		/* buffers set on that layer since, other than this one */
	} items[REC_MAP_CACHE];
};

/*
 * A read-only mapping of fd (whose fstat gave dev, ino) from offset 0 of at
 * least len bytes: a kept one, or a new one the cache keeps (dropping the
 * least recently used, and every one idle past REC_MAP_IDLE_NS at now).
 * The mapping stays owned by the cache and valid until the next call or
 * rec_map_cache_clear. Returns NULL when fd cannot be mapped.
 */
const uint8_t *rec_map_cache_get(struct rec_map_cache *c, int fd, uint64_t dev, uint64_t ino, size_t len,
	uint64_t now);

/*
 * The buffer (dev, ino) was set on (display, client target or layer) at
 * now, and every capture before that call is done: its mapping, if kept,
 * belongs to that layer from now on and counts as used; the layer's other
 * kept mappings count one more replacement, and go past REC_MAP_REPLACED.
 * Mappings idle past REC_MAP_IDLE_NS go too.
 */
void rec_map_cache_buffer_set(struct rec_map_cache *c, uint64_t display, bool client_target, uint64_t layer,
	uint64_t dev, uint64_t ino, uint64_t now);

/*
 * The layer (display, layer) was destroyed, or the whole display when
 * whole_display (disconnected, or a virtual display destroyed): drops the
 * mappings of buffers last set there.
 */
void rec_map_cache_forget(struct rec_map_cache *c, uint64_t display, bool whole_display, uint64_t layer);

/* Drops the mappings unused for REC_MAP_IDLE_NS at now (called every frame, captures or none). */
void rec_map_cache_expire(struct rec_map_cache *c, uint64_t now);

/* Unmaps everything the cache keeps (the session ends). */
void rec_map_cache_clear(struct rec_map_cache *c);

/*
 * size bytes of zeroed memory already backed (a capture's copy buffer: a
 * fresh 10 MB buffer read into page by page costs 2 500 page faults, more
 * than the copy; populated at once, on huge pages where the kernel gives
 * them). Returns NULL when out of memory; free with rec_pages_free.
 */
uint8_t *rec_pages_alloc(size_t size);

/* Frees what rec_pages_alloc returned for size bytes (NULL: nothing). */
void rec_pages_free(uint8_t *p, size_t size);

#endif
