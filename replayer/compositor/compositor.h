/*
 * Compositors: draw the layers the board cannot put on planes into a
 * client-target buffer, with the semantics of HWC2 client composition as
 * SurfaceFlinger performs it. Two implementations sit behind one
 * compositor_impl table: "pixman" (CPU, the reference) and "gl" (EGL +
 * GLES2, built when HWCT_HAVE_GL).
 *
 * Semantics shared by every implementation:
 *  - Geometry: the layer's source crop (float, buffer pixels) is rotated
 *    and flipped by the HAL transform (flips first, then 90 degrees
 *    clockwise) and scaled onto the display frame (integer, display
 *    pixels). Pixel centres sit at +0.5 on both sides; filtering is
 *    bilinear. Samples near the crop edge may read buffer pixels just
 *    outside the crop and clamp at the buffer edge (like a GL texture with
 *    CLAMP_TO_EDGE, as SurfaceFlinger's GLES RenderEngine samples).
 *  - Only target pixels whose centres are inside the frame are drawn;
 *    frames partly or fully outside the target are clipped.
 *  - Blending (out = destination): NONE: the source is opaque (its alpha is
 *    ignored), out = src * pa + dst * (1 - pa). PREMULTIPLIED: out = src * pa
 *    + dst * (1 - src.a * pa). COVERAGE: the source is not premultiplied,
 *    out = src.rgb * src.a * pa + dst * (1 - src.a * pa); the source is
 *    premultiplied before filtering. pa is the plane alpha (clamped to 0..1).
 *    INVALID is treated as NONE. Plane alpha is quantised to 8 bits.
 *  - SOLID_COLOR layers (composition == HWC2_COMPOSITION_SOLID_COLOR) fill
 *    their frame with scene_layer.color, read like one source pixel of the
 *    layer's blend mode (premultiplied for PREMULTIPLIED, straight for
 *    COVERAGE, alpha ignored for NONE).
 *  - Sources: DRM_FORMAT_ABGR8888 (Android RGBA_8888), XBGR8888 (RGBX_8888),
 *    ARGB8888 (BGRA_8888), XRGB8888, RGB565, NV12 and P010/P012/P016
 *    (16-bit words, the sample in the high bits). scene_layer carries no
 *    dataspace, so YUV is always converted as BT.601 limited range; how,
 *    the compositor's YUV model says (enum comp_yuv_model): by default
 *    chroma sited at the centre of each 2x2 luma block and upsampled
 *    bilinearly, P01x read at 8 bits (yuv.h); the image is converted at
 *    luma resolution and that RGB is what the bilinear filter reads.
 *  - The target holds premultiplied alpha; X formats get 0xff in every X
 *    byte (composition runs as over an opaque background).
 */
#ifndef HWCT_COMPOSITOR_H
#define HWCT_COMPOSITOR_H

#include <stddef.h>
#include <stdint.h>

#include "hwct_config.h"
#include "scene.h"

/*
 * The buffer to compose into: CPU memory the caller owns (a mapped gbm BO,
 * a dumb buffer, malloc). fourcc is DRM_FORMAT_XRGB8888, ARGB8888,
 * XBGR8888 or ABGR8888; stride is a multiple of 4 and at least width * 4;
 * data is 4-byte aligned and holds height * stride bytes.
 */
struct comp_target {
	uint32_t fourcc;		/* DRM_FORMAT_* */
	uint32_t width, height;		/* pixels */
	uint32_t stride;		/* bytes per row */
	uint8_t *data;			/* borrowed; written by compositor_compose */
};

struct compositor;

/*
 * How a compositor turns YUV sources into RGB (docs/yuv-models.md): the
 * arithmetic of the scanout the picture is checked against.
 */
enum comp_yuv_model {
	/* Q14 matrix, chroma upsampled bilinearly (yuv.h), as a GL sampler reads it */
	COMP_YUV_BILINEAR,
	/* vkms of Linux 7.x bit for bit: unfiltered chroma, its fixed point (yuv_vkms.h) */
	COMP_YUV_VKMS,
};

/* One implementation. */
struct compositor_impl {
	const char *name;		/* "pixman", "gl" */
	unsigned yuv_models;		/* bit 1 << comp_yuv_model per model it implements */
	/* Returns a new instance, or NULL with errno set (ENODEV: no EGL...). */
	struct compositor *(*create)(void);
	/* Frees c and everything it holds. c is never NULL. */
	void (*destroy)(struct compositor *c);
	/*
	 * Clears the target to the background and draws the layers. Called
	 * with arguments checked by compositor_compose (formats, sizes, crops,
	 * transforms, blend modes) and only layers that draw something (frame
	 * meeting the target, plane alpha not 0). Returns 0 or -errno.
	 */
	int (*compose)(struct compositor *c, const struct scene *scene,
		const struct scene_layer *const *layers, size_t count,
		uint32_t background_rgba, struct comp_target *target);
};

/*
 * The base every implementation embeds (struct pixman_compositor { struct
 * compositor base; ... }) and downcasts with COMP_CONTAINER_OF after
 * checking impl.
 */
struct compositor {
	const struct compositor_impl *impl;
	enum comp_yuv_model yuv_model;	/* COMP_YUV_BILINEAR unless set */
};

#define COMP_CONTAINER_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* The built implementations, in order of preference, NULL-terminated. */
extern const struct compositor_impl *const compositor_impls[];

/*
 * Creates the implementation called name ("pixman" or "gl"); NULL name
 * takes the first of compositor_impls that can be created. Returns the
 * compositor (the caller owns it: compositor_destroy), or NULL with errno:
 * ENOENT for an unknown name, ENOTSUP for one not built, ENODEV when the
 * implementation cannot run here (no EGL display), ENOMEM. A compositor
 * serves one thread at a time; "gl" makes its own EGL context current for
 * each call and gives the caller's back (MESA_SHADER_CACHE_DISABLE, when
 * HOME is not writable, is the caller's to set).
 */
struct compositor *compositor_create(const char *name);

/* Frees c. c may be NULL. */
void compositor_destroy(struct compositor *c);

/* The implementation's name ("pixman", "gl"); a static string. */
const char *compositor_name(const struct compositor *c);

/*
 * Makes c convert YUV sources as model says from the next compose on.
 * Returns 0, or -ENOTSUP when c's implementation has no such model ("gl"
 * implements only COMP_YUV_BILINEAR), c unchanged.
 */
int compositor_set_yuv_model(struct compositor *c, enum comp_yuv_model model);

/* c's YUV model. */
enum comp_yuv_model compositor_yuv_model(const struct compositor *c);

/* The model's name ("bilinear", "vkms"); a static string. */
const char *comp_yuv_model_name(enum comp_yuv_model model);

/* The model called name into *model. Returns 0, or -ENOENT for an unknown name. */
int comp_yuv_model_parse(const char *name, enum comp_yuv_model *model);

/*
 * Clears target to background_rgba (r | g << 8 | b << 16 | a << 24,
 * premultiplied, written as is; usually 0, transparent black) and draws the
 * count layers in array order (ascending z; the caller picks the CLIENT
 * ones, and they need not be in scene->layers). scene gives the display
 * size and may be NULL. layers and their images are borrowed for the call;
 * acquire fences are the caller's to wait for beforehand.
 *
 * Returns 0, or -EINVAL when any argument is invalid (target format, size
 * or stride; a layer with an unsupported source format, a modifier other
 * than LINEAR (INVALID is taken as linear), an image too small for its
 * format, a crop that is empty or not finite, a NaN plane alpha, an
 * unknown transform or blend mode, no image and not SOLID_COLOR). -EINVAL
 * is decided before anything is drawn: the target is left untouched. Other
 * errors (-ENOMEM; -EIO from the GPU; -E2BIG beyond the GPU's texture size;
 * -ERANGE for a scale factor beyond pixman's 16.16 fixed point, over 32767)
 * may leave the target partly drawn.
 */
int compositor_compose(struct compositor *c, const struct scene *scene,
	const struct scene_layer *const *layers, size_t count,
	uint32_t background_rgba, struct comp_target *target);

#endif
