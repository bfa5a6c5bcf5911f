/* Per-buffer memory of the worker (buffers.h). */
#include <stdlib.h>
#include <string.h>

#include "buffers.h"

static void forget(struct rec_buffer_state *s)
{
	free(s->tiles);
	*s = (struct rec_buffer_state){ 0 };
}

struct rec_buffer_state *rec_buffers_get(struct rec_buffers *b, uint64_t id)
{
	struct rec_buffer_state *free_slot = NULL, *oldest = NULL;

	b->clock++;
	for (size_t i = 0; i < REC_MAX_BUFFERS; i++) {
		struct rec_buffer_state *s = &b->items[i];

		if (s->used && s->id == id) {
			s->last_use = b->clock;
			return s;
		}
		if (!s->used) {
			free_slot = free_slot ? free_slot : s;
		} else if (!oldest || s->last_use < oldest->last_use) {
			oldest = s;
		}
	}
	if (!free_slot) {
		forget(oldest);
		free_slot = oldest;
	}
	free_slot->used = true;
	free_slot->id = id;
	free_slot->last_use = b->clock;
	return free_slot;
}

void rec_buffers_reset(struct rec_buffers *b)
{
	for (size_t i = 0; i < REC_MAX_BUFFERS; i++) {
		forget(&b->items[i]);
	}
}

void rec_buffers_finish(struct rec_buffers *b)
{
	rec_buffers_reset(b);
}

bool rec_layout_equal(const struct rec_buffer_layout *a, const struct rec_buffer_layout *b)
{
	if (a->width != b->width || a->height != b->height || a->drm_format != b->drm_format ||
			a->has_hal_format != b->has_hal_format || a->hal_format != b->hal_format ||
			a->has_modifier != b->has_modifier || a->modifier != b->modifier ||
			a->has_usage != b->has_usage || a->usage != b->usage ||
			a->plane_count != b->plane_count) {
		return false;
	}
	if ((a->allocator == NULL) != (b->allocator == NULL) ||
			(a->allocator && strcmp(a->allocator, b->allocator) != 0)) {
		return false;
	}
	for (uint32_t p = 0; p < a->plane_count && p < REC_MAX_PLANES; p++) {
		if (a->planes[p].offset != b->planes[p].offset || a->planes[p].stride != b->planes[p].stride) {
			return false;
		}
	}
	return true;
}
