/* Display mode mapping (replay_map.h). */
#include <stdio.h>

#include "replay_map.h"

const char *replay_map_name(enum replay_mode_map mode)
{
	switch (mode) {
	case REPLAY_MAP_LETTERBOX:
		return "letterbox";
	case REPLAY_MAP_SCALE:
		return "scale";
	case REPLAY_MAP_NONE:
		return "none";
	}
	return "?";
}

/* v rounded half away from zero, clamped to int32_t. */
static int32_t round_edge(double v)
{
	if (!(v > (double)INT32_MIN)) {
		return INT32_MIN;	/* also NaN */
	}
	if (v >= (double)INT32_MAX) {
		return INT32_MAX;
	}
	return (int32_t)(v >= 0 ? v + 0.5 : v - 0.5);
}

void replay_map_init(struct replay_map *m, enum replay_mode_map mode, uint32_t from_w, uint32_t from_h,
	uint32_t to_w, uint32_t to_h)
{
	*m = (struct replay_map){
		.mode = mode,
		.from_width = from_w,
		.from_height = from_h,
		.to_width = to_w ? to_w : from_w,
		.to_height = to_h ? to_h : from_h,
		.scale_x = 1.0,
		.scale_y = 1.0,
	};
	if (from_w && from_h && to_w && to_h && (from_w != to_w || from_h != to_h)) {
		double sx = (double)to_w / from_w, sy = (double)to_h / from_h;

		switch (mode) {
		case REPLAY_MAP_LETTERBOX:
			m->scale_x = m->scale_y = sx < sy ? sx : sy;
			m->offset_x = ((double)to_w - from_w * m->scale_x) / 2.0;
			m->offset_y = ((double)to_h - from_h * m->scale_y) / 2.0;
			m->active = true;
			break;
		case REPLAY_MAP_SCALE:
			m->scale_x = sx;
			m->scale_y = sy;
			m->active = true;
			break;
		case REPLAY_MAP_NONE:
			break;
		}
	}
	m->output = replay_map_rect(m, (struct hwct_rect){ 0, 0, (int32_t)(from_w ? from_w : m->to_width),
		(int32_t)(from_h ? from_h : m->to_height) });
}

bool replay_map_same(const struct replay_map *a, const struct replay_map *b)
{
	return a->mode == b->mode && a->from_width == b->from_width && a->from_height == b->from_height &&
		a->to_width == b->to_width && a->to_height == b->to_height;
}

struct hwct_rect replay_map_rect(const struct replay_map *m, struct hwct_rect r)
{
	if (!m->active) {
		return r;
	}
	return (struct hwct_rect){
		round_edge(m->offset_x + r.left * m->scale_x),
		round_edge(m->offset_y + r.top * m->scale_y),
		round_edge(m->offset_x + r.right * m->scale_x),
		round_edge(m->offset_y + r.bottom * m->scale_y),
	};
}

void replay_map_describe(const struct replay_map *m, char *buf, size_t size)
{
	if (!m->from_width || !m->from_height) {
		snprintf(buf, size, "recorded mode unknown: frames shown as recorded on %ux%u", m->to_width,
			m->to_height);
	} else if (m->from_width == m->to_width && m->from_height == m->to_height) {
		snprintf(buf, size, "%ux%u: same mode, no mapping", m->to_width, m->to_height);
	} else if (!m->active) {
		snprintf(buf, size, "%ux%u -> %ux%u: none (frames as recorded, clipped)", m->from_width,
			m->from_height, m->to_width, m->to_height);
	} else {
		snprintf(buf, size, "%ux%u -> %ux%u: %s, scale %.4f x %.4f, output [%d,%d,%d,%d]", m->from_width,
			m->from_height, m->to_width, m->to_height, replay_map_name(m->mode), m->scale_x, m->scale_y,
			m->output.left, m->output.top, m->output.right, m->output.bottom);
	}
}
