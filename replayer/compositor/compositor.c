/*
 * The compositor front: picks an implementation, checks every argument
 * before anything is drawn, and hands the layers that draw something to the
 * implementation (compositor.h).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "hwct_config.h"
#include "compositor.h"
#include "compositor_impls.h"
#include "format.h"
#include "layer.h"

#define STACK_LAYERS 32

const struct compositor_impl *const compositor_impls[] = {
#if HWCT_HAVE_GL
	&comp_gl_impl,
#endif
	&comp_pixman_impl,
	NULL,
};

/* Names that exist in some build, to tell ENOTSUP from ENOENT. */
static const char *const known_names[] = { "pixman", "gl" };

struct compositor *compositor_create(const char *name)
{
	int err = ENOENT;

	for (size_t i = 0; compositor_impls[i]; i++) {
		const struct compositor_impl *impl = compositor_impls[i];

		if (name && strcmp(name, impl->name) != 0) {
			continue;
		}
		struct compositor *c = impl->create();
		if (c) {
			c->impl = impl;
			c->yuv_model = COMP_YUV_BILINEAR;
			return c;
		}
		err = errno;
		if (name) {
			break;
		}
	}
	if (name && err == ENOENT) {
		for (size_t i = 0; i < sizeof(known_names) / sizeof(known_names[0]); i++) {
			if (strcmp(name, known_names[i]) == 0) {
				err = ENOTSUP;
			}
		}
	}
	errno = err;
	return NULL;
}

void compositor_destroy(struct compositor *c)
{
	if (c) {
		c->impl->destroy(c);
	}
}

const char *compositor_name(const struct compositor *c)
{
	return c->impl->name;
}

static const char *const yuv_model_names[] = {
	[COMP_YUV_BILINEAR] = "bilinear",
	[COMP_YUV_VKMS] = "vkms",
};

int compositor_set_yuv_model(struct compositor *c, enum comp_yuv_model model)
{
	if ((unsigned)model >= sizeof(yuv_model_names) / sizeof(yuv_model_names[0]) ||
			!(c->impl->yuv_models & 1u << model)) {
		return -ENOTSUP;
	}
	c->yuv_model = model;
	return 0;
}

enum comp_yuv_model compositor_yuv_model(const struct compositor *c)
{
	return c->yuv_model;
}

const char *comp_yuv_model_name(enum comp_yuv_model model)
{
	return (unsigned)model < sizeof(yuv_model_names) / sizeof(yuv_model_names[0]) ?
		yuv_model_names[model] : "unknown";
}

int comp_yuv_model_parse(const char *name, enum comp_yuv_model *model)
{
	for (size_t i = 0; i < sizeof(yuv_model_names) / sizeof(yuv_model_names[0]); i++) {
		if (strcmp(name, yuv_model_names[i]) == 0) {
			*model = (enum comp_yuv_model)i;
			return 0;
		}
	}
	return -ENOENT;
}

static int check_layer(const struct scene_layer *l)
{
	const struct hwct_frect *crop = &l->crop;

	if (isnan(l->alpha) || l->transform < 0 || l->transform > 7) {
		return -EINVAL;
	}
	switch (l->blend) {
	case HWC2_BLEND_MODE_INVALID:
	case HWC2_BLEND_MODE_NONE:
	case HWC2_BLEND_MODE_PREMULTIPLIED:
	case HWC2_BLEND_MODE_COVERAGE:
		break;
	default:
		return -EINVAL;
	}
	if (comp_layer_is_solid(l)) {
		return 0;
	}
	if (!l->image || comp_image_check(l->image) < 0) {
		return -EINVAL;
	}
	/* Written so that NaN fails too. */
	if (!(isfinite(crop->left) && isfinite(crop->top) && isfinite(crop->right) &&
			isfinite(crop->bottom) && crop->right > crop->left &&
			crop->bottom > crop->top)) {
		return -EINVAL;
	}
	return 0;
}

static bool draws(const struct scene_layer *l, const struct comp_target *t)
{
	struct hwct_rect clip;

	return comp_layer_alpha8(l) > 0 && l->frame.right > l->frame.left &&
		l->frame.bottom > l->frame.top &&
		comp_frame_clip(&l->frame, t->width, t->height, &clip);
}

int compositor_compose(struct compositor *c, const struct scene *scene,
	const struct scene_layer *const *layers, size_t count,
	uint32_t background_rgba, struct comp_target *target)
{
	const struct scene_layer *stack[STACK_LAYERS];
	const struct scene_layer **drawn = stack;
	size_t n = 0;
	int ret;

	if (!c || !target || (count && !layers) || comp_target_check(target) < 0) {
		return -EINVAL;
	}
	for (size_t i = 0; i < count; i++) {
		if (!layers[i] || check_layer(layers[i]) < 0) {
			return -EINVAL;
		}
	}
	if (count > STACK_LAYERS) {
		drawn = calloc(count, sizeof(*drawn));
		if (!drawn) {
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < count; i++) {
		if (draws(layers[i], target)) {
			drawn[n++] = layers[i];
		}
	}
	ret = c->impl->compose(c, scene, drawn, n, background_rgba, target);
	if (drawn != stack) {
		free(drawn);
	}
	return ret;
}
