/*
 * A synthetic HWC2 session: the scenarios describe layers and their content,
 * the session writes the records a recorder would have written between
 * SurfaceFlinger and a composer — the boot-time queries, CREATE_LAYER, and
 * per display frame the setLayer* calls that changed, validateDisplay and
 * its outputs, the client target, presentDisplay, getReleaseFences, the
 * fences with their timings and a FrameEnd (docs/format.md section 3;
 * call order of docs/platform.md §1.5-1.6).
 *
 * Time is synthetic: display frame f is composed after the vsync at
 * (f + 1) * vsync_period ns; the boot-time calls run before it.
 */
#ifndef SCENARIO_SESSION_H
#define SCENARIO_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/frame.h>
#include <hwct/writer.h>

#include "device.h"
#include "pattern.h"

#define SESSION_QUEUE_DEPTH 3	/* buffers per layer (a triple-buffered BufferQueue) */
#define SESSION_WAKEUP_NS 1000000u	/* SurfaceFlinger starts a frame 1 ms after its vsync */

struct session;

struct session_config {
	const char *name;		/* scenario name: Environment.source "scenario:NAME" */
	uint32_t width, height;		/* display mode, pixels */
	uint32_t vsync_period_ns;
	int32_t dpi;			/* dots per 1000 inches */
	struct device_rules device;
	const char *note;		/* what the scenario shows, appended to the Note record */
	/* imports (NULL/false for scenarios): */
	const Hwct__Environment *environment;	/* written instead of the scenario's own; borrowed */
	bool note_replaces;		/* note is the Note's whole text */
	const char *display_name;	/* Display.name and GET_DISPLAY_NAME; NULL: "scenario-panel" */
	uint64_t start_ns;		/* when the boot-time calls start; 0: 100 us */
	/*
	 * No pixels: layer images are shells (pattern_image_create_shell), the
	 * client target is not composed, no blob is stored, and buffers and
	 * calls carry no content (as a recording with pixel capture off).
	 */
	bool no_pixels;
};

/* What the client sets on a layer; the session sends what changed. */
struct session_layer_props {
	int32_t composition;		/* requested HWC2_COMPOSITION_* */
	int32_t z;
	struct hwct_rect display_frame;
	struct hwct_frect source_crop;
	int32_t transform;		/* HAL_TRANSFORM_* */
	int32_t blend;			/* HWC2_BLEND_MODE_* */
	float plane_alpha;		/* 0..1 */
	int32_t dataspace;		/* HAL_DATASPACE_* */
	uint32_t color;			/* SOLID_COLOR: r | g << 8 | b << 16 | a << 24 */
};

struct session_layer {
	/* set by the scenario, read at each session_frame() */
	struct session_layer_props props;
	struct pattern_image *image;	/* content the app draws into; NULL for SOLID_COLOR; owned */
	/*
	 * The decision a real device made for this layer (imports), taken
	 * instead of the device rule's; HWC2_COMPOSITION_INVALID (0): the rule.
	 */
	int32_t recorded_type;

	/* the session's */
	uint64_t id;			/* hwc2_layer_t from CREATE_LAYER */
	const char *name;		/* borrowed */
	struct session_layer_props sent;
	bool sent_any;
	bool sent_visible_any;
	struct hwct_rect sent_visible;
	int32_t device_type;		/* the device's type after acceptDisplayChanges */
	int32_t final_type;		/* this frame's decision */
	uint64_t buffers[SESSION_QUEUE_DEPTH];	/* Buffer.id per slot */
	bool announced[SESSION_QUEUE_DEPTH];	/* its Buffer record is written */
	unsigned slot;			/* slot of the buffer on screen */
	bool has_buffer;		/* a buffer was ever set */
	bool has_content;
	struct hwct_hash content;	/* content of the buffer on screen */
	bool queued;			/* a new buffer this frame */
	bool released;			/* this frame replaced an earlier buffer */
	bool full_damage;		/* the whole buffer changed */
	struct hwct_rect *damage;	/* this frame's damage, buffer pixels */
	size_t damage_count, damage_cap;
	bool sent_damage_any;
	struct hwct_rect *sent_damage;	/* last region sent; count 0 = whole buffer */
	size_t sent_damage_count;
	bool in_target;			/* drawn in the client target as it stands */
	struct session_layer_props target_props;
};

/*
 * Writes the session start into w (borrowed; must outlive the session):
 * Environment, Note, the callbacks registered with hotplug, the Display and
 * the queries SurfaceFlinger makes on a new display. cfg is copied, its
 * strings borrowed. Returns NULL with errno set.
 */
struct session *session_create(struct hwct_writer *w, const struct session_config *cfg);

/*
 * Writes the Fence records still owed (pending ones as such) and frees s,
 * its layers and their images. s may be NULL. Returns 0 or the first -errno
 * any session call met.
 */
int session_destroy(struct session *s);

/*
 * CREATE_LAYER. props are the layer's initial properties; image (NULL for a
 * solid colour layer) becomes the layer's. The first frame sends every
 * property. Returns the layer (owned by s) or NULL with errno set.
 */
struct session_layer *session_layer_create(struct session *s, const char *name,
	const struct session_layer_props *props, struct pattern_image *image);

/* DESTROY_LAYER; frees l. */
void session_layer_destroy(struct session *s, struct session_layer *l);

/*
 * The layer's buffers are reallocated with another size or format: image
 * (not NULL) replaces l->image, which is freed; their Buffer records are
 * written again. Queue a whole-buffer update after it.
 */
void session_layer_set_image(struct session_layer *l, struct pattern_image *image);

/*
 * The app queued a new buffer this frame whose content is l->image as it
 * is now: rects (count 0 = the whole buffer) say what changed since the
 * previous buffer. Returns 0 or -ENOMEM.
 */
int session_layer_queue(struct session_layer *l, const struct hwct_rect *rects, size_t count);

/*
 * Composes one display frame: its vsync callback, the calls, the client
 * target when a layer is CLIENT, presentDisplay, release fences, FrameEnd.
 * Returns 0 or -errno (sticky: later calls return it too).
 */
int session_frame(struct session *s);

/*
 * session_frame() for the vsync at vsync_ns (CLOCK_MONOTONIC) instead of the
 * next one of the synthetic clock; the frame's calls start SESSION_WAKEUP_NS
 * after it. A vsync earlier than the end of the previous frame is moved to
 * it. Returns 0 or -errno (sticky).
 */
int session_frame_at(struct session *s, uint64_t vsync_ns);

/* A display after the first (which session_create() makes from its config). */
struct session_display_config {
	uint64_t id;			/* hwc2_display_t; the first display is 0 */
	uint32_t width, height;		/* mode, pixels */
	int32_t dpi;			/* dots per 1000 inches */
	const char *name;		/* borrowed; NULL: "scenario-panel" */
	bool is_virtual;		/* Display.type VIRTUAL */
	bool external;			/* a physical display: connection EXTERNAL */
};

/*
 * Hotplugs a display at the session clock: the hotplug callback, its
 * Display record and SurfaceFlinger's queries of it. It becomes the current
 * display. Returns its index (the first display is 0), or -EEXIST (its id
 * is taken), -ENOSPC (16 displays), -ENOMEM or the session's error.
 */
int session_display_add(struct session *s, const struct session_display_config *cfg);

/*
 * The current display is unplugged: the composer's hotplug callback
 * (DISCONNECTED) at the session clock. Its layers stay the caller's to
 * destroy (SurfaceFlinger then destroys them: session_layer_destroy).
 * session_display_replug() connects it again. Returns 0 or the session's
 * error.
 */
int session_display_unplug(struct session *s);

/*
 * The current display, unplugged earlier, is connected again: the hotplug
 * callback, its Display record and SurfaceFlinger's queries, as for a new
 * display. Returns 0 or the session's error.
 */
int session_display_replug(struct session *s);

/*
 * Makes display `index` current: session_layer_create/destroy and
 * session_frame* go to it (each display has its own layers and client
 * target). Returns 0 or -EINVAL (no such display).
 */
int session_display_use(struct session *s, size_t index);

/* Display frames presented so far (the next FrameEnd.frame). */
uint64_t session_frame_count(const struct session *s);

#endif
