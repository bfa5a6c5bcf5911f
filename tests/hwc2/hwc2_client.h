/*
 * hwc2_client: drives an HWC2 module the way SurfaceFlinger does
 * (docs/platform.md §1.6) with buffers of its own (gbm BOs as dma-bufs,
 * memfds for what gbm cannot make) wrapped in test_buffer handles, and
 * composes CLIENT layers itself with the pixman compositor. The parts:
 *   client_module.c   dlopen, HMI, open, every function by getFunction, callbacks
 *   client_buffers.c  buffers, their handles, fences that release them
 *   client_frame.c    one frame: setLayer*, validate, accept, client target, present
 *   client_cases.c    the checks the VM tests run
 *   client_record.c   the case the recorder's VM test records (tests/recorder-vm)
 *   hwc2_client.c     options and the case loop
 */
#ifndef HWCT_TESTS_HWC2_CLIENT_H
#define HWCT_TESTS_HWC2_CLIENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwc2_kms.h>
#include <hwct/test_buffer.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "compositor.h"
#include "hwc2_load.h"
#include "scene.h"
#include "vm_stack.h"

#define HC_FENCE_MS 3000	/* how long a fence may take under TCG */
#define HC_TARGETS 3		/* client target buffers, rotated */

/* ---------------------------------------------------------- the module */

struct hc_module {
	void *dl;			/* dlopen handle */
	hw_module_t *hmi;
	hwc2_device_t *dev;		/* NULL while closed */
	hwct_hwc2_kms_last_frame_fn last_frame;	/* hwcomposer.kms.so's test helper; NULL elsewhere */
	struct hwct_hwc2_fns fn;	/* every function of hwc2_load.h's table */
	/* what the callbacks saw (lock) */
	pthread_mutex_t lock;
	unsigned hotplugs;		/* HOTPLUG CONNECTED for display 0 */
	bool hotplug_in_register;	/* ... delivered inside registerCallback */
	bool in_register;
	unsigned vsyncs, refreshes;
	int64_t last_vsync_ns;
	bool vsync_backwards;		/* a timestamp went back */
};

/* dlopens path and checks HMI (tag, id). Returns false after reporting. */
bool hc_module_load(struct hc_module *m, const char *path);

/*
 * Opens the composer device, resolves every function (reporting missing
 * 2.1 ones) and registers the callbacks. Returns false after reporting.
 */
bool hc_module_open(struct hc_module *m);

/* Closes the device (keeps the module loaded). */
void hc_module_close(struct hc_module *m);

/* dlcloses. */
void hc_module_unload(struct hc_module *m);

/* The dump text (two-call pattern), malloc'd; NULL on failure. */
char *hc_module_dump(struct hc_module *m);

/* ---------------------------------------------------------- buffers */

struct hc_alloc {
	int drm_fd;			/* the node gbm allocates on; -1: memfds only */
	struct gbm_device *gbm;
};

bool hc_alloc_open(struct hc_alloc *a, const char *path);
void hc_alloc_close(struct hc_alloc *a);

struct hc_buffer {
	struct gbm_bo *bo;		/* NULL: a memfd */
	int fd;				/* dma-buf or memfd; owned */
	struct hwct_test_buffer tb;
	native_handle_t *handle;	/* owned (free) */
	struct scene_image cpu;		/* what the buffer holds, as a CPU copy (data owned) */
	int release_fence;		/* owned, -1: the device no longer reads it */
};

/* An empty buffer (no fd): what hc_buffer_destroy leaves too. */
void hc_buffer_init(struct hc_buffer *b);

/* A buffer of fourcc and size (gbm when it can, else a memfd). Returns false after reporting. */
bool hc_buffer_create(struct hc_alloc *a, uint32_t fourcc, uint32_t width, uint32_t height,
	struct hc_buffer *b);
void hc_buffer_destroy(struct hc_buffer *b);

/* Waits for and closes the release fence; then writes l's pixels of frame into b. */
bool hc_buffer_fill(struct hc_buffer *b, const struct vs_layer *l, uint32_t frame);

/*
 * Waits for and closes the release fence, then composes layers into b (a
 * display-sized ARGB8888 buffer) with c, and keeps a CPU copy.
 */
bool hc_buffer_compose(struct hc_buffer *b, struct compositor *c, const struct scene *scene,
	const struct scene_layer *const *layers, size_t count);

/* Takes fence (owned) as b's release fence, closing the previous one. */
void hc_buffer_set_release(struct hc_buffer *b, int fence);

/* Prints every open fd and what it is on stderr, each line prefixed by what (leak reports). */
void hc_print_fds(const char *what);

/* CLOCK_MONOTONIC now, ms. */
double hc_now_ms(void);

/* Sleeps ms milliseconds. */
void hc_sleep_ms(unsigned ms);

/* ---------------------------------------------------------- frames */

struct hc_layer {
	hwc2_layer_t id;
	const struct vs_layer *spec;
	struct hc_buffer bufs[2];	/* double-buffered; none for SOLID_COLOR */
	int32_t sf_type;		/* the type the client last sent (SurfaceFlinger's cache) */
	int32_t validated;		/* after this frame's validate + accept */
	bool shown_prev;		/* DEVICE in the previous frame */
};

struct hc_frame;

struct hc_session {
	struct hc_module *m;
	struct hc_alloc *alloc;
	const struct vs_stack *stack;
	uint32_t width, height;
	size_t count;
	struct hc_layer layers[VS_MAX_LAYERS];
	struct hc_buffer targets[HC_TARGETS];
	unsigned next_target;
	int target_last;		/* index of the target presented last, -1 */
	struct compositor *pixman;
	uint32_t frame;			/* frames presented */
	int present_fence;		/* owned: the last one */
	/* called after validate (and accept), before the client composes; NULL: none */
	void (*after_validate)(struct hc_session *s, const struct hc_frame *f, void *data);
	void *hook_data;
};

/* One frame's outcome. */
struct hc_frame {
	int32_t validate_ret;		/* NONE or HAS_CHANGES */
	int32_t requested[VS_MAX_LAYERS];	/* type each layer had when validated, by index */
	uint32_t changed;		/* changed composition types */
	hwc2_layer_t changed_layers[VS_MAX_LAYERS];	/* ... as getChangedCompositionTypes gave them */
	int32_t changed_types[VS_MAX_LAYERS];
	uint32_t client;		/* layers composed by the client */
	bool client_target;		/* setClientTarget was called */
	int present_fence;		/* a dup the caller owns (close), -1 */
	uint32_t releases;		/* release fences returned */
	uint32_t release_unexpected;	/* ... for layers not DEVICE last frame */
	int release_fence;		/* a dup of one of them (owned), -1 */
	struct scene scene;		/* the whole stack of this frame, for a reference */
	struct scene_layer scene_layers[VS_MAX_LAYERS];
};

/* Creates the stack's layers on m, display-sized w x h. Returns false after reporting. */
bool hc_session_start(struct hc_session *s, struct hc_module *m, struct hc_alloc *a,
	const struct vs_stack *stack);

/*
 * Destroys the layers and buffers (waiting for their release). Accepts a
 * zero-initialised session that never started, and a finished one.
 */
void hc_session_finish(struct hc_session *s);

/*
 * One SurfaceFlinger frame. acquire (NULL: none) gives a fence per layer
 * (borrowed, -1 none). Returns false after reporting.
 */
bool hc_session_frame(struct hc_session *s, const int *acquire, struct hc_frame *out);

/* Frees what out holds. */
void hc_frame_finish(struct hc_frame *out);

/* ---------------------------------------------------------- cases */

struct hc_options {
	const char *module;
	const char *device;		/* where buffers are allocated (gbm) */
	const char *vgem;
	const char *stack;		/* "run" */
	unsigned frames;
	bool check_fds;
	size_t expect_overlays;
	const char *log;		/* record: where the client logs what it did */
};

bool hc_case_api(struct hc_module *m, const struct hc_options *o);
bool hc_case_stack(struct hc_module *m, const struct hc_options *o);
bool hc_case_refuse(struct hc_module *m, const struct hc_options *o);
bool hc_case_frames(struct hc_module *m, const struct hc_options *o);
bool hc_case_fences(struct hc_module *m, const struct hc_options *o);
bool hc_case_run(struct hc_module *m, const struct hc_options *o);
bool hc_case_record(struct hc_module *m, const struct hc_options *o);

#endif
