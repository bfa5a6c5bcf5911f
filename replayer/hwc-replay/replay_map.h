/*
 * Display mode mapping: when the target's mode differs from the recorded
 * one, every layer's display frame is moved into the target's mode
 * (letterbox: scaled uniformly and centred; scale: stretched; none: left
 * as recorded, clipped by the target). Source crops are untouched.
 */
#ifndef HWCT_REPLAY_MAP_H
#define HWCT_REPLAY_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/writer.h>

#include "replay.h"

struct replay_map {
	enum replay_mode_map mode;
	bool active;			/* frames are changed (the modes differ and mode is not none) */
	uint32_t from_width, from_height;	/* recorded mode, pixels; 0 unknown */
	uint32_t to_width, to_height;	/* the scene's (target's) mode, pixels */
	double scale_x, scale_y;	/* target pixels per recorded pixel */
	double offset_x, offset_y;	/* target pixels */
	struct hwct_rect output;	/* where the recorded display lands in the target */
};

/*
 * Sets m up for a recorded from_w x from_h display shown on a to_w x to_h
 * target. A zero target size means "unknown": the scene keeps the recorded
 * size. A zero recorded size leaves frames as they are.
 */
void replay_map_init(struct replay_map *m, enum replay_mode_map mode, uint32_t from_w, uint32_t from_h,
	uint32_t to_w, uint32_t to_h);

/* Whether two mappings do the same. */
bool replay_map_same(const struct replay_map *a, const struct replay_map *b);

/* A recorded display frame in target pixels (rounded to the nearest pixel edge). */
struct hwct_rect replay_map_rect(const struct replay_map *m, struct hwct_rect r);

/* "letterbox", "scale", "none". */
const char *replay_map_name(enum replay_mode_map mode);

/* One line: "540x1200 -> 1024x768: letterbox, scale 0.640 x 0.640, offset (339, 0)". */
void replay_map_describe(const struct replay_map *m, char *buf, size_t size);

#endif
