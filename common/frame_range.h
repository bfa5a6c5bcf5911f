/*
 * The --frames range of hwc-trace dump and trim and hwc-replay: "A-B",
 * "A-" (to the end), "-B" (from frame 0) or "N", decimal display frame
 * numbers (FrameEnd.frame), inclusive, A <= B. One parser, so the three
 * programs take and refuse the same strings.
 */
#ifndef HWCT_COMMON_FRAME_RANGE_H
#define HWCT_COMMON_FRAME_RANGE_H

#include <stdbool.h>
#include <stdint.h>

/* The syntax, for usage messages. */
#define FRAME_RANGE_SYNTAX "A-B, A-, -B or N with A <= B"

struct frame_range {
	uint64_t first, last;	/* inclusive; last UINT64_MAX: to the end */
};

/*
 * Parses s (borrowed) into *r. Digits only around the one '-': no sign,
 * space, or number past UINT64_MAX. Returns false, *r untouched, when s is
 * malformed or A > B.
 */
bool frame_range_parse(const char *s, struct frame_range *r);

/*
 * Whether r selects any of frame_count frames (0 .. frame_count - 1): its
 * first frame exists. A range running past the last frame is cut there.
 */
bool frame_range_within(const struct frame_range *r, uint64_t frame_count);

#endif
