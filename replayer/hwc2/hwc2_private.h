/*
 * What the files of hwcomposer.kms.so share: the device object behind the
 * hwc2_device_t callers hold, its layers, the buffers they show and the
 * function tables each file contributes to getFunction. Names carry the
 * hwc2_kms_ prefix. Every HWC2 entry point takes dev->lock; callbacks into
 * the client are made without it.
 */
#ifndef HWCT_HWC2_KMS_PRIVATE_H
#define HWCT_HWC2_KMS_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <hardware/hwcomposer2.h>
#include <hwct/test_buffer.h>

#include "backend_kms.h"
#include "scene.h"

#define HWC2_KMS_DISPLAY 0		/* the one (physical) display */
#define HWC2_KMS_CONFIG 1		/* its one config */
#define HWC2_KMS_FENCE_WAIT_MS 3000	/* acquire fences waited for before CPU reads */

/* One getFunction entry; the _Generic checks fn against the HWC2_PFN_* type at compile time. */
struct hwc2_kms_fn {
	int32_t descriptor;
	hwc2_function_pointer_t fn;
};

#define HWC2_KMS_FN(desc, pfn, fn) \
	{ (desc), _Generic((fn), pfn: (hwc2_function_pointer_t)(fn)) }

/* The tables, each ended by { 0, NULL }. */
extern const struct hwc2_kms_fn hwc2_kms_display_fns[];	/* display.c */
extern const struct hwc2_kms_fn hwc2_kms_callback_fns[];	/* callbacks.c */
extern const struct hwc2_kms_fn hwc2_kms_layer_fns[];	/* layer.c */
extern const struct hwc2_kms_fn hwc2_kms_validate_fns[];	/* validate.c */
extern const struct hwc2_kms_fn hwc2_kms_present_fns[];	/* present.c */
extern const struct hwc2_kms_fn hwc2_kms_dump_fns[];	/* dump.c */

/*
 * A buffer the client showed, by dma-buf/memfd identity and layout
 * (buffer.c). Cached across frames (the client reuses its buffers); held by
 * the layers and the client target that show it.
 */
struct hwc2_kms_buffer {
	dev_t st_dev;
	ino_t st_ino;
	struct hwct_test_buffer layout;	/* layout.fd is fd below */
	int fd;				/* owned dup of the handle's fd */
	const uint8_t *map;		/* read-only mapping of the whole fd; NULL when it failed */
	size_t map_size;
	bool dmabuf;			/* DMA_BUF_IOCTL_SYNC brackets CPU reads */
	struct kms_fb *fb;		/* zero-copy framebuffer in layout.fourcc; NULL: none */
	struct kms_fb *alias_fb;	/* the same memory as the alpha-less alias; NULL: none */
	uint32_t alias_fourcc;		/* XRGB8888 for ARGB8888, ...; 0 none */
	uint64_t generation;		/* bumped by every setLayerBuffer / setClientTarget with it */
	uint64_t registered;		/* generation whose keys are in the backend's cache; 0 none */
	struct scene_image image;	/* CPU view; hash = identity + generation */
	unsigned refs;			/* layers / client target holding it */
	uint64_t last_use;		/* dev->frame when last held */
};

struct hwc2_kms_layer {
	hwc2_layer_t id;
	int32_t requested;		/* HWC2_COMPOSITION_* the client set (after accept: the validated one) */
	int32_t validated;		/* what validateDisplay decided */
	struct hwc2_kms_buffer *buffer;	/* held; NULL none */
	int acquire_fence;		/* owned, -1 none */
	struct hwct_frect crop;		/* buffer pixels */
	struct hwct_rect frame;		/* display pixels */
	int32_t transform;		/* HAL_TRANSFORM_* */
	int32_t blend;			/* HWC2_BLEND_MODE_* */
	float alpha;			/* 0..1 */
	uint32_t color;			/* r | g << 8 | b << 16 | a << 24 */
	uint32_t z;
	int32_t dataspace;		/* recorded, not used */
	bool color_transform;		/* a non-identity layer color transform: the client composes it */
};

struct hwc2_kms_stats {
	uint64_t validates, presents, test_commits;
	uint64_t client_frames;		/* presents with a client target */
	uint64_t module_composed;	/* ... that the module composed (no usable client target) */
	uint64_t zero_copy, cpu_imports;	/* buffer imports */
	uint64_t present_errors;
};

struct hwc2_kms_device {
	hwc2_device_t base;		/* first: what callers hold */
	pthread_mutex_t lock;

	/* configuration (environment, read at open) */
	const struct planner_impl *planner;
	struct compositor *compositor;	/* owned: composes when the client gave no target */
	struct backend *backend;	/* owned */
	struct kms_device *kms;		/* the backend's */
	const struct board *board;	/* the backend's */
	struct kms_fb_cache *cache;	/* the backend's */
	uint32_t width, height;		/* the mode, pixels */
	uint32_t refresh_mhz;
	bool readback;			/* HWCT_KMS_READBACK=1 */
	char name[128];			/* getDisplayName */

	/* layers (pointers stay put while the array grows) */
	struct hwc2_kms_layer **layers;
	size_t layer_count, layer_cap;
	hwc2_layer_t next_id;

	/* buffers */
	struct hwc2_kms_buffer **buffers;
	size_t buffer_count, buffer_cap;

	/* client target */
	struct hwc2_kms_buffer *target;	/* held; NULL none */
	int target_fence;		/* owned, -1 none */

	/* display state */
	bool power_on;
	bool ctm_identity;		/* setColorTransform: identity (else all layers are CLIENT) */
	int32_t color_mode;

	/* the frame being built: validateDisplay fills it, presentDisplay shows it */
	bool validated;
	uint64_t frame;			/* presents so far */
	struct plan *plan;		/* owned; the last validate's */
	struct scene scene;
	struct scene_layer *scene_layers;	/* scene.layers */
	struct scene_image *scene_images;
	struct hwc2_kms_layer **scene_src;	/* the layer of each scene layer */
	size_t scene_cap;

	/* fences */
	int present_fence;		/* owned copy of the last present fence, -1 */
	hwc2_layer_t *shown;		/* layers on planes in the last presented frame */
	size_t shown_count, shown_cap;
	hwc2_layer_t *release;		/* getReleaseFences: layers shown in the frame before */
	size_t release_count, release_cap;

	/* last frame, for dump and the test helper */
	char last_target[16];		/* "caller", "module", "none" */
	bool has_checksum;
	struct hwct_hash checksum;	/* writeback checksum of the last present */
	struct comp_target image;	/* its pixels (readback on), data owned */
	char *dump_text;		/* owned; made by dump's size call */
	size_t dump_len;
	struct hwc2_kms_stats stats;

	/* callbacks and the worker thread (callbacks.c) */
	HWC2_PFN_HOTPLUG hotplug;
	hwc2_callback_data_t hotplug_data;
	HWC2_PFN_REFRESH refresh;
	hwc2_callback_data_t refresh_data;
	HWC2_PFN_VSYNC vsync;
	hwc2_callback_data_t vsync_data;
	pthread_t worker;
	bool worker_started;
	pthread_cond_t cond;		/* wakes the worker */
	bool quit, vsync_enabled, refresh_pending;
	bool crtc_on;			/* a frame is on screen: drmWaitVBlank works */
};

/* device.c: the device behind a caller's pointer; NULL when it is NULL or not ours. */
struct hwc2_kms_device *hwc2_kms_device_from(hwc2_device_t *device);

/* Locks d (from a caller's pointer) and checks display; returns an HWC2_ERROR_*. */
int32_t hwc2_kms_enter(hwc2_device_t *device, hwc2_display_t display, struct hwc2_kms_device **d);

/* Unlocks d. Returns ret, for `return hwc2_kms_leave(d, ret);`. */
int32_t hwc2_kms_leave(struct hwc2_kms_device *d, int32_t ret);

/* device.c: creates the device for module from the environment; NULL with errno. */
struct hwc2_kms_device *hwc2_kms_device_create(const struct hw_module_t *module);

/* layer.c: the layer with that id, or NULL. */
struct hwc2_kms_layer *hwc2_kms_layer_find(struct hwc2_kms_device *d, hwc2_layer_t id);

/* layer.c: frees every layer. */
void hwc2_kms_layers_destroy(struct hwc2_kms_device *d);

/* buffer.c */

/*
 * The buffer of handle (cached by dma-buf/memfd identity and layout,
 * imported zero-copy when the device takes it, mapped for CPU reads),
 * held once more and its generation bumped. Returns 0, -EINVAL for a
 * handle that is no test buffer or whose fd is unusable, -ENOMEM.
 */
int hwc2_kms_buffer_get(struct hwc2_kms_device *d, buffer_handle_t handle,
	struct hwc2_kms_buffer **out);

/* Drops a hold. Accepts NULL. Unheld buffers stay cached (bounded, least recently used out). */
void hwc2_kms_buffer_put(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b);

/* Frees every buffer (device close). */
void hwc2_kms_buffers_destroy(struct hwc2_kms_device *d);

/*
 * Puts b's zero-copy framebuffers into the backend's cache under the
 * current generation's hash (dropping the previous generation's), so that
 * planning and presenting use them as they are.
 */
void hwc2_kms_buffer_register(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b);

/*
 * Whether showing b (with a layer of blend mode blend) may need its pixels
 * read by the CPU: no zero-copy framebuffer in a format some plane takes.
 */
bool hwc2_kms_buffer_needs_cpu(const struct hwc2_kms_device *d, const struct hwc2_kms_buffer *b,
	int32_t blend);

/* Brackets CPU reads of b (DMA_BUF_IOCTL_SYNC START/END | READ; nothing for a memfd). */
void hwc2_kms_buffer_begin_cpu(struct hwc2_kms_buffer *b);
void hwc2_kms_buffer_end_cpu(struct hwc2_kms_buffer *b);

/*
 * A framebuffer showing b as the client target on state's plane: the
 * zero-copy one, its alpha-less alias where the plan wants no alpha, else
 * a CPU import. Returns 0 with *out (a reference: kms_fb_unref), -EINVAL
 * when b's size is not the target's, or the import's -errno.
 */
int hwc2_kms_buffer_target_fb(struct hwc2_kms_device *d, struct hwc2_kms_buffer *b,
	const struct plan_plane_state *state, struct kms_fb **out);

/* validate.c: the (zero) frame state after a present or a state change. */
void hwc2_kms_invalidate(struct hwc2_kms_device *d);

/* callbacks.c: starts / stops the vsync and refresh worker. */
int hwc2_kms_worker_start(struct hwc2_kms_device *d);
void hwc2_kms_worker_stop(struct hwc2_kms_device *d);

/* callbacks.c: asks the worker to call REFRESH (with d locked). */
void hwc2_kms_request_refresh(struct hwc2_kms_device *d);

/* Closes *fd when it is one and sets it to -1. */
void hwc2_kms_fence_close(int *fd);

#endif
