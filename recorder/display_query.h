/*
 * Display facts the recorder asks the real module for itself after a
 * hotplug (configs and their attributes, name, type, ...). These calls are
 * recorder-internal: they go straight to the real functions, are never
 * recorded as Call records, and the Display record they produce is followed
 * by a Note (topic "recorder-internal") naming them.
 */
#ifndef REC_DISPLAY_QUERY_H
#define REC_DISPLAY_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#define REC_MAX_CONFIGS 64
#define REC_MAX_COLOR_MODES 32
#define REC_MAX_DISPLAY_CAPS 16

struct rec_device;

struct rec_display_config {
	uint32_t id;
	int32_t width, height;		/* pixels, -1 unknown */
	int32_t vsync_period;		/* ns, -1 unknown */
	int32_t dpi_x, dpi_y;		/* DPI * 1000, -1 unknown */
	int32_t config_group;		/* -1 unknown (composer < 2.4) */
};

struct rec_display_info {
	uint64_t display;
	bool connected;
	bool has_type, has_connection_type, has_active_config, has_name, has_brightness;
	int32_t type;			/* HWC2_DISPLAY_TYPE_* */
	int32_t connection_type;	/* HWC2_DISPLAY_CONNECTION_TYPE_* */
	uint32_t active_config;
	bool brightness_supported;
	char name[128];
	uint32_t config_count;
	struct rec_display_config configs[REC_MAX_CONFIGS];
	uint32_t color_mode_count;
	int32_t color_modes[REC_MAX_COLOR_MODES];
	uint32_t capability_count;
	uint32_t capabilities[REC_MAX_DISPLAY_CAPS];
	char queried[512];		/* the functions called, for the Note */
	bool from_create;		/* a virtual display: facts from its createVirtualDisplay call, none queried */
};

/*
 * Queries display on the calling thread (the client's, just before one of
 * its own calls on that display, so the module sees no new concurrency)
 * and hands the facts to the worker. Never fails: what could not be read
 * stays unknown.
 */
void rec_display_query(struct rec_device *d, uint64_t display);

struct rec_event;

/*
 * The facts of the virtual display a successful createVirtualDisplay call
 * (ev) made: type VIRTUAL, connected, one config (id 0, active) of the
 * call's size, nothing queried from the module (a virtual display has no
 * hotplug, and its size is the call's). Returns a malloc'd info (free()),
 * or NULL when ev gave no display or memory ran out.
 */
struct rec_display_info *rec_display_virtual(const struct rec_event *ev);

#endif
