/*
 * Delta chains of the writer (writer_private.h): what each delta's chain
 * changed since its full payload, so that a delta at the chain limit is
 * stored against that full payload instead of as a full payload again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "writer_private.h"

void writer_chains_finish(struct hmap *chains)
{
	for (size_t i = 0; i < chains->cap; i++) {
		if (chains->slots[i].used) {
			free((void *)chains->slots[i].value);
		}
	}
	hmap_finish(chains);
}

struct writer_chain *writer_chain_take(struct hmap *chains, const struct hwct_hash *hash)
{
	uintptr_t v;

	if (!hmap_get(chains, hash, &v)) {
		return NULL;
	}
	hmap_remove(chains, hash);
	return (struct writer_chain *)v;
}

struct writer_chain *writer_chain_extend(struct writer_chain *prev, const struct hwct_hash *root,
	const struct hwct_rect *rects, size_t count)
{
	size_t have = prev ? prev->count : 0;
	struct writer_chain *c;

	if (have + count > WRITER_CHAIN_RECTS) {
		free(prev);
		return NULL;
	}
	c = realloc(prev, sizeof(*c) + (have + count) * sizeof(c->rects[0]));
	if (!c) {
		free(prev);
		return NULL;
	}
	if (!prev) {
		c->root = *root;
		c->count = 0;
	}
	for (size_t i = 0; i < count; i++) {
		bool seen = false;

		for (size_t k = 0; k < c->count && !seen; k++) {
			seen = memcmp(&c->rects[k], &rects[i], sizeof(rects[i])) == 0;
		}
		if (!seen) {
			c->rects[c->count++] = rects[i];
		}
	}
	return c;
}
