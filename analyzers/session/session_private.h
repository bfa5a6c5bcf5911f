/* Internals of the session shared by its files (session*.c). */
#ifndef SCENARIO_SESSION_PRIVATE_H
#define SCENARIO_SESSION_PRIVATE_H

#include <hwct/hwctrace.pb-c.h>

#include "session.h"

#define SESSION_MAX_DISPLAYS 16
#define SESSION_SF_TID 500	/* SurfaceFlinger's main thread */
#define SESSION_HWC_TID 510	/* the composer's callback thread */

/* A fence that crossed the boundary; its Fence record is written once it signalled. */
struct session_fence {
	uint64_t id;
	int32_t kind;			/* HWCT_FENCE_* */
	uint64_t layer;			/* 0: not a layer's */
	uint64_t created_ns, signal_ns;
	uint64_t frame;			/* FrameEnd.frame it belongs to */
	uint64_t display;		/* hwc2_display_t */
	const char *timeline;		/* static string */
};

/* What belongs to one display. */
struct session_screen {
	uint64_t id;			/* hwc2_display_t */
	uint32_t width, height;		/* mode, pixels */
	int32_t dpi;			/* dots per 1000 inches */
	const char *name;		/* borrowed */
	bool is_virtual;
	bool external;			/* a physical display after the first */
	uint64_t frames;		/* next FrameEnd.display_frame */
	struct session_layer **layers;	/* creation order, owned; NULL before the first layer */
	size_t layer_count, layer_cap;

	/* the client target: SurfaceFlinger's framebuffer surface */
	struct pattern_image *target;	/* owned, display size */
	uint64_t target_buffers[SESSION_QUEUE_DEPTH];
	bool target_announced[SESSION_QUEUE_DEPTH];
	unsigned target_slot;
	bool target_has_content;
	struct hwct_hash target_content;
	bool target_stale;		/* a layer drawn in it was destroyed */
};

struct session {
	struct hwct_writer *w;		/* borrowed */
	struct session_config cfg;
	int error;			/* first failure, sticky */
	uint64_t seq;			/* last Call.seq */
	uint64_t now;			/* the synthetic clock, ns */
	uint64_t next_fence;		/* next Fence.id, from 1 */
	uint64_t next_layer;		/* next hwc2_layer_t */
	uint64_t next_buffer;		/* next Buffer.id */
	uint64_t frame;			/* next FrameEnd.frame, across displays */
	struct session_fence *fences;	/* not yet written, in id order */
	size_t fence_count, fence_cap;

	struct session_screen d;	/* the current display: calls, layers and frames go to it */
	struct session_screen screens[SESSION_MAX_DISPLAYS];	/* every display; the current one's entry is stale */
	size_t screen_count, current;
};

/*
 * Writes the Environment and Note records, the callbacks registered (with
 * the hotplug and the Display record), and SurfaceFlinger's queries of the
 * new display (session_boot.c). Returns 0 or -errno.
 */
int session_boot(struct session *s);

/*
 * A display hotplugged after the boot: the hotplug callback, its Display
 * record and SurfaceFlinger's queries of it, for s->d (session_boot.c).
 * Returns 0 or -errno.
 */
int session_boot_display(struct session *s);

/* The composer's hotplug callback for s->d (HWC2_CONNECTION_*) at s->now. Returns 0 or -errno. */
int session_hotplug(struct session *s, int32_t connection);

/* Records a failure (the first one sticks). Returns s->error. */
int session_fail(struct session *s, int err);

/* Writes one record. Returns 0 or -errno. */
int session_put(struct session *s, Hwct__Record *rec);

/*
 * Fills the common fields of c (seq, thread, times from s->now lasting
 * duration_ns, function, display, layer when not 0, error) and writes it.
 * Advances the clock past the call. Returns 0 or -errno.
 */
int session_call(struct session *s, Hwct__Call *c, int32_t function, uint64_t layer, int32_t error,
	uint64_t duration_ns);

/* A call whose args are one integer (ValueArgs). */
int session_value_call(struct session *s, int32_t function, uint64_t layer, int64_t value);

/* Starts tracking a fence; returns its id. */
uint64_t session_fence(struct session *s, int32_t kind, uint64_t layer, uint64_t created_ns, uint64_t signal_ns,
	const char *timeline);

/*
 * Writes the Fence records of fences signalled by `until`; with final, all
 * of them (those signalling later as pending). Returns 0 or -errno.
 */
int session_write_fences(struct session *s, uint64_t until, bool final);

/*
 * Stores img's content as a blob: a delta against base when base is not
 * NULL and rects count > 0 (RGBA only), else whole. *out gets the hash.
 * Returns 0 or -errno.
 */
int session_store(struct session *s, const struct pattern_image *img, const struct hwct_hash *base,
	const struct hwct_rect *rects, size_t count, struct hwct_hash *out);

/* Writes the Buffer record of buffer id holding img's layout and content. Returns 0 or -errno. */
int session_buffer_record(struct session *s, uint64_t id, const struct pattern_image *img,
	const struct hwct_hash *content);

/* Fills a LayerBufferArgs-shaped region from rects (count 0: no rects). rect_msgs/ptrs hold count entries. */
void session_region(Hwct__Region *region, Hwct__Rect *rect_msgs, Hwct__Rect **ptrs,
	const struct hwct_rect *rects, size_t count);

/*
 * The client target of this frame: when any layer's decision is CLIENT,
 * composes the changed area, stores it and sends setClientTarget.
 * Returns 0 or -errno.
 */
int session_client_target(struct session *s, struct session_layer **sorted, size_t count);

#endif
