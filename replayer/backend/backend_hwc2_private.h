/*
 * Inside the hwc2 backend (backend_hwc2.h): the loaded module and its
 * functions (backend_hwc2_module.c), the buffers handed to it
 * (backend_hwc2_buffer.c), the layers it holds and the state sent to them
 * (backend_hwc2_layer.c), and the frame sequence (backend_hwc2.c).
 */
#ifndef HWCT_BACKEND_HWC2_PRIVATE_H
#define HWCT_BACKEND_HWC2_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>
#include <hwct/error.h>
#include <hwct/hash.h>
#include <hwct/hwc2_kms.h>
#include <hwct/test_buffer.h>

#include "backend.h"
#include "backend_hwc2.h"
#include "backend_watch.h"
#include "hwc2_load.h"

/*
 * The function field of m, called as HWC2_FN(m, present_display)(...): the
 * call is named in the watch record (backend_watch.h) before it starts;
 * hwc2_checked and the end of each step mark it returned.
 */
#define HWC2_FN(m, field) (backend_watch_enter(#field), (m)->fn.field)

#define HWC2_MAX_DISPLAYS 16	/* connected displays of a module kept track of */

/*
 * The module, opened as libhardware and the HIDL passthrough open it, as
 * seen by one backend: the first display's owns it (loaded, opened, the
 * callbacks registered with it as their data); another display's is a
 * borrowed copy (hwc2_module_open_display) with that display, its mode and
 * dl NULL.
 */
struct hwc2_module {
	void *dl;			/* NULL in a borrowed copy */
	struct hwc2_module *owner;	/* a borrowed copy's (the first display's); NULL in the owner */
	bool callbacks_off;		/* the owner's: unregistered at the end (hwc2_end_android) */
	hwc2_device_t *dev;
	struct hwct_hwc2_fns fn;	/* the replayer's functions (hwc2_load.h: up to OPTIONAL) */
	hwct_hwc2_kms_last_frame_fn last_frame;	/* hwcomposer.kms's readback export, or NULL */
	pthread_mutex_t lock;		/* guards what the callbacks write */
	pthread_cond_t hotplugged;
	bool has_display;
	hwc2_display_t display;		/* the first display hotplugged as connected; a copy's own */
	hwc2_display_t displays[HWC2_MAX_DISPLAYS];	/* every display hotplugged as connected, in order */
	size_t display_count;
	bool ready;			/* opened: every required function, a display, its mode */
	uint64_t hotplugs, refreshes, vsyncs;
	uint32_t width, height;		/* the active config */
	int64_t vsync_period_ns;
};

/*
 * Loads path and opens its device, resolves the functions, registers the
 * callbacks, waits for the first hotplug and reads the active config.
 * Returns 0, or -errno with err naming the module and what failed.
 */
int hwc2_module_open(struct hwc2_module *m, const char *path, struct hwct_error *err);

/*
 * Makes m (zeroed by the call) a borrowed copy of owner, an open module, for
 * the index-th display it hotplugged as connected (0 is owner's own), and
 * reads that display's active config. owner must outlive m. Returns 0, or
 * -ENODEV with err saying which displays the module has.
 */
int hwc2_module_open_display(struct hwc2_module *m, struct hwc2_module *owner, size_t index, const char *path,
	struct hwct_error *err);

/* Switches the display on as SurfaceFlinger does at boot (power, vsync). */
void hwc2_module_power_on(struct hwc2_module *m);

/*
 * Closes the device and unloads the module; a borrowed copy only has its
 * display's vsync switched off. m may be zeroed.
 */
void hwc2_module_close(struct hwc2_module *m);

#define HWC2_KEY_RETIRED UINT64_MAX	/* replaced under its key while a layer still showed it */

/* A buffer handed to the module: a test_buffer handle over a dma-buf or memfd. */
struct hwc2_buffer {
	uint64_t key;			/* pool key: the recorded buffer id, or the content hash; HWC2_KEY_RETIRED */
	int fd;				/* owned */
	void *bo;			/* struct gbm_bo *, owned; NULL for a memfd */
	struct hwct_test_buffer tb;
	native_handle_t *handle;	/* owned (free) */
	size_t size;			/* bytes of the fd */
	bool has_content;
	struct hwct_hash content;	/* what was last written */
	int release_fence;		/* owned; -1 none: signals when the module stops reading it */
	bool release_due;		/* a present has followed the one that handed release_fence out */
	uint64_t last_frame;		/* the last present that used it */
	unsigned holders;		/* layers showing it now */
};

/* Where buffers come from: gbm on a DRM node when one opens, else memfds. */
struct hwc2_alloc {
	int drm_fd;
	void *gbm;			/* struct gbm_device * */
};

/* Opens node (NULL: the first /dev/dri/card* gbm accepts; none is fine). */
void hwc2_alloc_open(struct hwc2_alloc *a, const char *node);

void hwc2_alloc_close(struct hwc2_alloc *a);

/* Whether a allocates on a vkms node (the device an HWC2 module on this machine drives). */
bool hwc2_alloc_is_vkms(const struct hwc2_alloc *a);

/* "gbm (/dev/dri/card0)" or "memfd"; static or a's storage. */
const char *hwc2_alloc_name(const struct hwc2_alloc *a);

/*
 * Makes b (zeroed by the call) for fourcc at width x height. Returns 0 or
 * -errno (-ENOTSUP for a format neither gbm nor the memfd layout knows).
 */
int hwc2_buffer_create(struct hwc2_alloc *a, uint32_t fourcc, uint32_t width, uint32_t height,
	struct hwc2_buffer *b);

/* Frees what b owns (waits for its release fence first). */
void hwc2_buffer_destroy(struct hwc2_buffer *b);

/*
 * Waits for b's release fence, then closes it. Returns false when it did
 * not signal in time: HWC2_FENCE_WAIT_MS once a present has followed the
 * one that handed it out (release_due), else HWC2_FENCE_SHORT_MS. A
 * buffer leaves the screen at a present, so a release fence with no
 * present after its own (the frame's validate or present failed) signals
 * only after the next one: a module may release sooner on its own, but a
 * long wait would wait for the frame this wait holds up.
 */
bool hwc2_buffer_wait_release(struct hwc2_buffer *b);

/* Gives b fence (taken) as its release fence, replacing an older one. */
void hwc2_buffer_set_release(struct hwc2_buffer *b, int fence);

/* After a present that succeeded: b's release fence, if any, is due (release_due). */
void hwc2_buffer_presented(struct hwc2_buffer *b);

/*
 * Copies img's planes into b (after its release fence). img's format and
 * size are b's. Returns 0 or -errno.
 */
int hwc2_buffer_write(struct hwc2_buffer *b, const struct scene_image *img);

/* Copies target's rows into b (same size; 4-byte formats). Returns 0 or -errno. */
int hwc2_buffer_write_target(struct hwc2_buffer *b, const struct comp_target *target);

#define HWC2_FENCE_WAIT_MS 3000
#define HWC2_FENCE_SHORT_MS 34	/* two periods at 60 Hz */

/* The buffers of the layers, found by key. */
struct hwc2_pool {
	struct hwc2_buffer **buffers;	/* owned */
	size_t count, cap;
};

/*
 * The buffer for img under key: the existing one when format and size
 * match, else a new one (an old one of that key is dropped when nothing
 * holds it). Returns it, or NULL with errno.
 */
struct hwc2_buffer *hwc2_pool_get(struct hwc2_pool *p, struct hwc2_alloc *a, uint64_t key,
	const struct scene_image *img);

/* Frees buffers no layer holds that were last used before frame - age. */
void hwc2_pool_trim(struct hwc2_pool *p, uint64_t frame, uint64_t age);

/* hwc2_buffer_presented on every buffer of p. */
void hwc2_pool_presented(struct hwc2_pool *p);

void hwc2_pool_finish(struct hwc2_pool *p);

/* What the backend last sent to one module layer (SurfaceFlinger's HWC layer state). */
struct hwc2_layer {
	uint64_t scene_id;		/* scene_layer.id it replays */
	hwc2_layer_t id;		/* the module's */
	bool seen;			/* in the current frame */
	bool sent_any;			/* properties sent at least once */
	struct scene_layer sent;	/* the last values sent (image and fence not used) */
	int32_t sent_dataspace;
	struct hwct_hash sent_visible;	/* hash of the visible region's rects last sent */
	bool sent_visible_any;
	struct hwct_hash sent_damage;	/* hash of the surface damage's rects last sent */
	bool sent_damage_any;
	struct hwc2_buffer *buffer;	/* shown now (held); NULL none */
	struct hwc2_buffer *previous;	/* replaced this frame: gets the release fence; NULL none */
	bool buffer_sent;		/* setLayerBuffer this frame */
	int32_t device_type;		/* composition after the last validate */
	int32_t final;			/* this frame's composition after validate */
	int32_t request;		/* this frame's HWC2_LAYER_REQUEST_* */
};

struct hwc2_counters {
	uint64_t call_errors;		/* calls that returned an error (not HAS_CHANGES) */
	uint64_t changed_types;		/* layers the module changed at validate */
	uint64_t decisions_differ;	/* layers whose final type differs from the recording */
};

/* The backend. */
struct hwc2_backend {
	struct backend base;
	struct hwc2_module module;
	struct hwc2_alloc alloc;
	struct hwc2_pool pool;
	struct compositor *compositor;	/* borrowed; NULL: no pixels */
	struct hwc2_layer *layers;	/* owned, count of them, in no order */
	size_t layer_count, layer_cap;
	struct hwc2_buffer targets[3];	/* client targets, in turn */
	unsigned next_target;
	uint32_t target_fourcc;		/* DRM_FORMAT_* of the client targets */
	int32_t target_hal_format;
	struct comp_target client;	/* CPU client target (data owned) */
	struct comp_target reference;	/* CPU reference image (data owned) */
	uint64_t frames;		/* presents so far */
	int32_t display_requests;	/* HWC2_DISPLAY_REQUEST_* of the last validate */
	struct hwc2_counters counters;
	char note[BACKEND_NOTE_MAX];	/* the first report not yet taken */
	bool readback;			/* hwcomposer.kms readback is on */
	bool end_close;			/* end with close() (backend_hwc2_options.end_close) */
	struct hwc2_backend *left_open;	/* the next ended session whose device stays open, NULL none */
	/*
	 * The present fence is waited for after presentDisplay for at most two
	 * vsync periods; a module whose fences signal later (at its next
	 * present) gets them waited for after the next presentDisplay instead.
	 */
	bool defer_present;
	int pending_present;		/* owned; -1 none */
};

/* Records a report (the first of a frame is kept). */
void hwc2_note(struct hwc2_backend *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A call's result: counts and notes an error other than NONE (and HAS_CHANGES when allowed). */
int32_t hwc2_checked(struct hwc2_backend *h, int32_t ret, const char *what, uint64_t layer);

/*
 * Makes the module's layers match scene: creates, destroys, and sends each
 * property that changed since it was last sent, buffers included. Returns
 * 0 or -errno (out of memory, buffers).
 */
int hwc2_layers_sync(struct hwc2_backend *h, const struct scene *scene);

/* The module layer replaying scene layer id, or NULL. */
struct hwc2_layer *hwc2_layers_find(struct hwc2_backend *h, uint64_t scene_id);

/* Destroys every module layer. */
void hwc2_layers_clear(struct hwc2_backend *h);

/*
 * Ends the session as Android ends a composer client (backend_hwc2_end.c):
 * callbacks unregistered, layers destroyed, one empty validate, accept and
 * present. The device stays open.
 */
void hwc2_end_android(struct hwc2_backend *h);

#endif
