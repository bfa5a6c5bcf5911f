/* The --frames range (frame_range.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frame_range.h"

/* A decimal number filling [s, end): at least one digit, nothing else. */
static bool parse_u64(const char *s, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	if (s == end) {
		return false;
	}
	for (const char *p = s; p < end; p++) {
		unsigned d;

		if (*p < '0' || *p > '9') {
			return false;
		}
		d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10) {
			return false;
		}
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

bool frame_range_parse(const char *s, struct frame_range *r)
{
	const char *dash = strchr(s, '-'), *end = s + strlen(s);
	struct frame_range v = { 0, UINT64_MAX };

	if (!dash) {
		if (!parse_u64(s, end, &v.first)) {
			return false;
		}
		v.last = v.first;
	} else if (dash == s && dash + 1 == end) {
		return false;	/* "-" alone */
	} else if ((dash > s && !parse_u64(s, dash, &v.first)) ||
			(dash + 1 < end && !parse_u64(dash + 1, end, &v.last))) {
		return false;	/* also a second '-' */
	}
	if (v.first > v.last) {
		return false;
	}
	*r = v;
	return true;
}

bool frame_range_within(const struct frame_range *r, uint64_t frame_count)
{
	return r->first < frame_count;
}
