/*
 * The CPU compositor, the reference the others are tested against: one
 * pixman OVER per layer, the source under a pixman transform with bilinear
 * filtering and PAD repeat (comp_layer_matrix), plane alpha as a solid mask.
 * Sources pixman cannot read as they are (NV12, P01x, COVERAGE, unaligned
 * rows) are converted into a scratch ARGB8888 buffer first, YUV by the
 * compositor's YUV model (yuv.h or yuv_vkms.h).
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <pixman.h>

#include "compositor_impls.h"
#include "format.h"
#include "fourcc.h"
#include "layer.h"
#include "yuv.h"
#include "yuv_vkms.h"

struct pixman_compositor {
	struct compositor base;
	uint32_t *scratch;		/* conversions, ARGB8888, owned */
	size_t scratch_size;		/* bytes */
	uint8_t *narrow;		/* P01x read as NV12 by the bilinear model, owned */
	size_t narrow_size;		/* bytes */
};

static struct pixman_compositor *pixman_compositor_from(struct compositor *c)
{
	assert(c->impl == &comp_pixman_impl);
	return COMP_CONTAINER_OF(c, struct pixman_compositor, base);
}

static struct compositor *pixman_create(void)
{
	struct pixman_compositor *pc = calloc(1, sizeof(*pc));

	if (!pc) {
		return NULL;
	}
	pc->base.impl = &comp_pixman_impl;
	return &pc->base;
}

static void pixman_destroy(struct compositor *c)
{
	struct pixman_compositor *pc = pixman_compositor_from(c);

	free(pc->scratch);
	free(pc->narrow);
	free(pc);
}

static uint32_t *scratch(struct pixman_compositor *pc, size_t size)
{
	if (size > pc->scratch_size) {
		uint32_t *p = malloc(size);

		if (!p) {
			return NULL;
		}
		free(pc->scratch);
		pc->scratch = p;
		pc->scratch_size = size;
	}
	return pc->scratch;
}

/* The pixman format reading f's memory as it is; x8 variants for blend NONE. */
static pixman_format_code_t pixman_format(const struct comp_format *f, bool opaque)
{
	switch (f->fourcc) {
	case DRM_FORMAT_RGB565:
		return PIXMAN_r5g6b5;
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XBGR8888:
		return opaque || !f->alpha ? PIXMAN_x8b8g8r8 : PIXMAN_a8b8g8r8;
	default:
		return opaque || !f->alpha ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8;
	}
}

/* img (YUV) into buf as ARGB8888 by the compositor's model. Returns 0 or -ENOMEM. */
static int convert_yuv(struct pixman_compositor *pc, const struct scene_image *img,
	const struct comp_format *f, uint32_t *buf, uint32_t stride)
{
	struct scene_image nv12;

	if (pc->base.yuv_model == COMP_YUV_VKMS) {
		comp_yuv_vkms_to_argb(img, buf, stride);
		return 0;
	}
	if (f->cpp == 1) {
		comp_yuv_nv12_to_argb(&comp_yuv_bt601_limited, img, buf, stride);
		return 0;
	}
	if (comp_yuv_narrow_size(img) > pc->narrow_size) {
		uint8_t *p = malloc(comp_yuv_narrow_size(img));

		if (!p) {
			return -ENOMEM;
		}
		free(pc->narrow);
		pc->narrow = p;
		pc->narrow_size = comp_yuv_narrow_size(img);
	}
	comp_yuv_narrow(img, pc->narrow, &nv12);
	comp_yuv_nv12_to_argb(&comp_yuv_bt601_limited, &nv12, buf, stride);
	return 0;
}

/* Copies (premultiplying when asked) img into the scratch buffer. */
static pixman_image_t *convert(struct pixman_compositor *pc, const struct scene_image *img,
	const struct comp_format *f, bool premultiply, bool opaque)
{
	uint32_t cpp = f->planes == 2 ? 4 : f->cpp;	/* YUV becomes ARGB8888 */
	uint32_t stride = (img->width * cpp + 3) & ~3u;
	uint32_t *buf = scratch(pc, (size_t)stride * img->height);

	if (!buf) {
		return NULL;
	}
	if (f->planes == 2) {
		if (convert_yuv(pc, img, f, buf, stride) < 0) {
			return NULL;
		}
		return pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, (int)img->width,
			(int)img->height, buf, (int)stride);
	}
	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *src = img->data + img->offset[0] + (size_t)y * img->stride[0];
		uint32_t *dst = (uint32_t *)(void *)((uint8_t *)buf + (size_t)y * stride);

		memcpy(dst, src, (size_t)img->width * f->cpp);
		if (premultiply) {
			comp_premultiply_row(dst, dst, img->width);
		}
	}
	return pixman_image_create_bits_no_clear(pixman_format(f, opaque), (int)img->width,
		(int)img->height, buf, (int)stride);
}

static pixman_image_t *source_image(struct pixman_compositor *pc, const struct scene_layer *l)
{
	const struct scene_image *img = l->image;
	const struct comp_format *f = comp_format_get(img->fourcc);
	int32_t blend = comp_layer_blend(l);
	bool premultiply = blend == HWC2_BLEND_MODE_COVERAGE && f->alpha;
	bool opaque = blend == HWC2_BLEND_MODE_NONE;
	const uint8_t *bits = img->data + img->offset[0];

	if (f->planes > 1 || premultiply || img->stride[0] % 4 || (uintptr_t)bits % 4) {
		return convert(pc, img, f, premultiply, opaque);
	}
	/* pixman only reads a source: the cast drops const for its API. */
	return pixman_image_create_bits_no_clear(pixman_format(f, opaque), (int)img->width,
		(int)img->height, (uint32_t *)(uintptr_t)bits, (int)img->stride[0]);
}

static pixman_image_t *solid_image(uint32_t rgba)
{
	pixman_color_t color = {
		.red = (uint16_t)((rgba & 0xff) * 257),
		.green = (uint16_t)(((rgba >> 8) & 0xff) * 257),
		.blue = (uint16_t)(((rgba >> 16) & 0xff) * 257),
		.alpha = (uint16_t)((rgba >> 24) * 257),
	};

	return pixman_image_create_solid_fill(&color);
}

/*
 * The layer's matrix relative to the clipped frame's origin (the source
 * position of target pixel (x0 + i, y0 + j) is m * (i + 0.5, j + 0.5)):
 * keeps the translation within the buffer's size, inside pixman's 16.16
 * range and precise. Fails with -ERANGE beyond that range (a scale factor
 * over 32767).
 */
static int set_geometry(pixman_image_t *src, const struct scene_layer *l, int32_t x0,
	int32_t y0)
{
	struct comp_matrix m;
	struct pixman_f_transform ft;
	struct pixman_transform t;

	comp_layer_matrix(&l->crop, &l->frame, l->transform, &m);
	for (int i = 0; i < 2; i++) {
		m.m[i][2] += m.m[i][0] * x0 + m.m[i][1] * y0;
	}
	memcpy(ft.m, m.m, sizeof(ft.m));
	if (!pixman_transform_from_pixman_f_transform(&t, &ft)) {
		return -ERANGE;
	}
	if (!pixman_image_set_transform(src, &t) ||
			!pixman_image_set_filter(src, PIXMAN_FILTER_BILINEAR, NULL, 0)) {
		return -ENOMEM;
	}
	pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD);
	return 0;
}

static int draw_layer(struct pixman_compositor *pc, pixman_image_t *dst,
	const struct scene_layer *l, const struct comp_target *target)
{
	struct hwct_rect clip;
	pixman_image_t *src, *mask = NULL;
	uint8_t alpha = comp_layer_alpha8(l);
	int ret = 0;

	if (!comp_frame_clip(&l->frame, target->width, target->height, &clip)) {
		return 0;
	}
	src = comp_layer_is_solid(l) ? solid_image(comp_layer_solid_premultiplied(l)) :
		source_image(pc, l);
	if (!src) {
		return -ENOMEM;
	}
	if (!comp_layer_is_solid(l)) {
		ret = set_geometry(src, l, clip.left, clip.top);
	}
	if (ret == 0 && alpha < 255) {
		mask = solid_image((uint32_t)alpha << 24);
		ret = mask ? 0 : -ENOMEM;
	}
	if (ret == 0) {
		pixman_image_composite32(PIXMAN_OP_OVER, src, mask, dst, 0, 0, 0, 0,
			clip.left, clip.top, clip.right - clip.left, clip.bottom - clip.top);
	}
	if (mask) {
		pixman_image_unref(mask);
	}
	pixman_image_unref(src);
	return ret;
}

static int pixman_compose(struct compositor *c, const struct scene *scene,
	const struct scene_layer *const *layers, size_t count,
	uint32_t background_rgba, struct comp_target *target)
{
	struct pixman_compositor *pc = pixman_compositor_from(c);
	/*
	 * X targets are cleared with alpha 255 and composed as A: OVER keeps
	 * an opaque destination opaque, so every X byte ends up 0xff.
	 */
	bool rgb = target->fourcc == DRM_FORMAT_XRGB8888 || target->fourcc == DRM_FORMAT_ARGB8888;
	pixman_image_t *dst;
	int ret = 0;

	comp_target_clear(target, background_rgba);
	dst = pixman_image_create_bits_no_clear(rgb ? PIXMAN_a8r8g8b8 : PIXMAN_a8b8g8r8,
		(int)target->width, (int)target->height, (uint32_t *)(void *)target->data,
		(int)target->stride);
	if (!dst) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < count && ret == 0; i++) {
		ret = draw_layer(pc, dst, layers[i], target);
	}
	pixman_image_unref(dst);
	return ret;
}

const struct compositor_impl comp_pixman_impl = {
	.name = "pixman",
	.yuv_models = 1u << COMP_YUV_BILINEAR | 1u << COMP_YUV_VKMS,
	.create = pixman_create,
	.destroy = pixman_destroy,
	.compose = pixman_compose,
};
