/*
 * The fences of the kept frames (trim.h): a set of ids, each referred to
 * by a kept call or FrameEnd and then, once, written with its Fence record.
 */
#include <errno.h>
#include <stdlib.h>

#include "trim.h"

static size_t slot(const struct trim_fences *s, uint64_t id)
{
	size_t i = (size_t)(id * 0x9E3779B97F4A7C15ull) & (s->cap - 1);

	while (s->state[i] && s->ids[i] != id) {
		i = (i + 1) & (s->cap - 1);
	}
	return i;
}

int trim_fences_refer(struct trim_fences *s, uint64_t id)
{
	size_t i;

	if (!id) {
		return 0;	/* "no fence" */
	}
	if ((s->count + 1) * 2 > s->cap) {
		struct trim_fences bigger = { .cap = s->cap ? s->cap * 2 : 256 };

		bigger.ids = calloc(bigger.cap, sizeof(*bigger.ids));
		bigger.state = calloc(bigger.cap, 1);
		if (!bigger.ids || !bigger.state) {
			free(bigger.ids);
			free(bigger.state);
			return -ENOMEM;
		}
		for (size_t k = 0; k < s->cap; k++) {
			if (s->state[k]) {
				size_t j = slot(&bigger, s->ids[k]);

				bigger.ids[j] = s->ids[k];
				bigger.state[j] = s->state[k];
			}
		}
		bigger.count = s->count;
		bigger.pending = s->pending;
		free(s->ids);
		free(s->state);
		*s = bigger;
	}
	i = slot(s, id);
	if (!s->state[i]) {
		s->ids[i] = id;
		s->state[i] = 1;
		s->count++;
		s->pending++;
	}
	return 0;
}

bool trim_fences_take(struct trim_fences *s, uint64_t id)
{
	size_t i;

	if (!s->cap) {
		return false;
	}
	i = slot(s, id);
	if (s->state[i] != 1) {
		return false;
	}
	s->state[i] = 2;
	s->pending--;
	return true;
}

void trim_fences_finish(struct trim_fences *s)
{
	free(s->ids);
	free(s->state);
	*s = (struct trim_fences){ 0 };
}
