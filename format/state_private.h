/* Internals of the state module shared by state.c and state_keyframe.c. */
#ifndef HWCT_STATE_PRIVATE_H
#define HWCT_STATE_PRIVATE_H

#include "hmap.h"
#include "state.h"

/* Buffers a layer or client target used lately: its BufferQueue, for keyframes. */
#define STATE_RECENT_BUFFERS 8

struct state_recent {
	uint64_t ids[STATE_RECENT_BUFFERS];	/* oldest first */
	size_t count;
};

struct state_layer {
	struct hwct_layer pub;		/* regions point at the arrays below */
	struct hwct_rect *damage;	/* owned */
	struct hwct_rect *visible;	/* owned */
	int32_t validate_requested;	/* composition when validateDisplay ran */
	struct state_recent recent;
};

struct state_display {
	uint64_t id;
	Hwct__Display *info;		/* owned copy, may be NULL */
	bool has_active_config;
	uint32_t active_config;
	int32_t power_mode, vsync_enabled, color_mode, render_intent, content_type;
	int32_t color_transform_hint;
	bool auto_low_latency;
	bool has_color_transform;
	float color_transform[16];
	float brightness;		/* -1 unknown */
	bool has_client_target;
	struct hwct_buffer_ref client_target;
	int32_t client_target_dataspace;
	struct hwct_rect *client_target_damage;	/* owned */
	size_t client_target_damage_count;
	struct state_recent client_target_recent;
	bool has_output;
	struct hwct_buffer_ref output;
	struct state_layer *layers;	/* owned, creation order */
	size_t layer_count, layer_cap;
	uint64_t frames;

	/* the frame being built */
	bool frame_done;		/* a FrameEnd came: reset before the next call */
	bool validated;
	int32_t validate_error, present_error, display_requests;
	uint64_t present_fence, first_call, last_call;
};

struct state {
	bool track_fences;
	struct state_display *displays;	/* owned */
	size_t display_count, display_cap;
	struct hmap buffers;		/* id -> Hwct__Buffer * (owned copy) */
	struct hmap fences;		/* id -> struct hwct_fence_time * (owned) */
	Hwct__Environment *environment;	/* owned copy */
	uint64_t next_frame, next_call_seq, next_fence_id;
};

struct state_display *state_find_display(const struct state *s, uint64_t id);
struct state_display *state_get_display(struct state *s, uint64_t id);
struct state_layer *state_add_layer(struct state_display *d, uint64_t id);
int state_copy_region(struct hwct_rect **rects, size_t *count, const Hwct__Region *region);

/* Notes that buffer id (not 0) was just used. */
void state_recent_add(struct state_recent *r, uint64_t id);

/* Frees displays, layers and buffers; keeps fences and the environment. */
void state_drop_composition(struct state *s);

/* Replaces the whole state by the keyframe's. Returns 0 or -ENOMEM. */
int state_load_keyframe(struct state *s, const Hwct__Keyframe *kf);

#endif
