/*
 * The hwc2 backend: an HWC2 module (any hwcomposer.*.so: a vendor's,
 * drm_hwcomposer, the project's hwcomposer.kms.so, or libhwc-record.so
 * wrapping one) driven the way SurfaceFlinger drives it, frame by frame:
 *
 *   layers created and destroyed as the scene's come and go; each setLayer*
 *   sent when its value changed since it was last sent (buffers with their
 *   surface damage when the content changed); validateDisplay, the changed
 *   types and the requests read with the two-call pattern, accepted; the
 *   CLIENT layers composed by the compositor into a client target (one of
 *   three, in turn) set with setClientTarget; presentDisplay; the release
 *   fences taken and honoured before a buffer is written again; the present
 *   fence waited for (its signal ends present_ns).
 *
 * Buffers are the project's test_buffer handles (include/hwct/test_buffer.h)
 * over gbm BOs (dma-bufs) when a DRM node opens, else memfds: a module must
 * understand that handle (hwcomposer.kms.so and the recorder do).
 *
 * The plan is the module's decision per layer (plan_layer.composition, no
 * plane ids): reasons CLIENT_REQUESTED, or MODULE when validate changed the
 * layer to CLIENT. Where it differs from the recorded decision (the scene
 * layer's recorded final type) the result counts it and says so in its
 * note; call errors likewise. The checksum is the module's own readback when
 * it has one (hwcomposer.kms.so, "writeback"), else the client target when
 * every layer went to the client ("client-target"), else the compositor's
 * reference of the whole scene ("reference"); none without a compositor.
 */
#ifndef HWCT_BACKEND_HWC2_H
#define HWCT_BACKEND_HWC2_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

#include "backend.h"

struct backend_hwc2_options {
	const char *module;		/* path of the HWC2 module */
	const char *alloc_node;		/* DRM node for gbm buffers; NULL: the first that works, else memfds */
	struct compositor *compositor;	/* borrowed; NULL: nothing composed, no checksum */
	bool readback;			/* ask hwcomposer.kms.so to read frames back (HWCT_KMS_READBACK) */
	bool end_close;			/* end with close() (docs/hwc2-sequence.md), not as Android does */
	/*
	 * The caller chose the compositor's YUV model. Otherwise, when buffers
	 * are allocated on a vkms node, the backend sets COMP_YUV_VKMS, as
	 * hwcomposer.kms.so and the KMS backend do there (the client target it
	 * composes then shows a YUV layer as vkms's plane would).
	 */
	bool yuv_model_asked;
};

/*
 * Loads and opens the module, powers its first display on. Returns the
 * backend, or NULL with err naming the module and what failed (errno-style
 * code in err->code: -ENOENT no such file, -ENOEXEC not an HWC2 module,
 * -ENODEV its open failed or no display came).
 */
struct backend *backend_hwc2_create(const struct backend_hwc2_options *opts, struct hwct_error *err);

/*
 * Another display of the module that first (an hwc2 backend, which must
 * outlive the result) drives: the index-th it hotplugged as connected (1
 * the second), powered on, with its own layers, buffers and client
 * targets, ended as first is (options.end_close) but never closing the
 * device, and without readback (hwcomposer.kms.so's writeback serves its
 * first display). Returns the backend, or NULL with err (-ENODEV: the
 * module has no such display, err says which it has; path names the
 * module in it).
 */
struct backend *backend_hwc2_create_display(struct backend *first, size_t index, const char *path,
	struct hwct_error *err);

/* The display's active mode and vsync period (0 unknown) of b, an hwc2 backend. */
void backend_hwc2_mode(const struct backend *b, uint32_t *width, uint32_t *height, int64_t *vsync_period_ns);

/* How buffers are allocated ("gbm (/dev/dri/card0)", "memfd"); static or b's storage. */
const char *backend_hwc2_allocator(const struct backend *b);

#endif
