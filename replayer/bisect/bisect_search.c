/* The search of hwc-bisect (bisect.h): binary search with git bisect's skip. */
#include <errno.h>
#include <stdlib.h>

#include "bisect.h"

int bisect_search_init(struct bisect_search *s, size_t n)
{
	*s = (struct bisect_search){ .n = n, .lo = -1, .hi = (long)n };
	s->state = calloc(n ? n : 1, sizeof(*s->state));
	return s->state ? 0 : -ENOMEM;
}

void bisect_search_finish(struct bisect_search *s)
{
	free(s->state);
	s->state = NULL;
}

long bisect_search_next(const struct bisect_search *s)
{
	long mid = (s->lo + s->hi + 1) / 2;

	if (s->hi - s->lo < 2) {
		return -1;
	}
	for (long d = 0; d < s->hi - s->lo; d++) {
		if (mid - d > s->lo && s->state[mid - d] == BISECT_UNTESTED) {
			return mid - d;
		}
		if (mid + d < s->hi && s->state[mid + d] == BISECT_UNTESTED) {
			return mid + d;
		}
	}
	return -1;
}

void bisect_search_mark(struct bisect_search *s, size_t i, enum bisect_state st)
{
	if (i >= s->n) {
		return;
	}
	s->state[i] = st;
	if (st == BISECT_SAME && (long)i > s->lo) {
		s->lo = (long)i;
	} else if (st == BISECT_DIFFERS && (long)i < s->hi) {
		s->hi = (long)i;
	}
}

enum bisect_outcome bisect_search_outcome(const struct bisect_search *s)
{
	for (long i = s->lo + 1; i < s->hi; i++) {
		if (s->state[i] == BISECT_SKIPPED) {
			return BISECT_AMBIGUOUS;
		}
	}
	return s->hi < (long)s->n ? BISECT_FOUND : BISECT_NONE;
}
