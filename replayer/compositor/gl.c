/*
 * The GL compositor: EGL + GLES2 (Mesa; llvmpipe on hosts). Layers are
 * drawn as quads over their clipped frame into a framebuffer object of the
 * target's size, texture coordinates from comp_layer_matrix at the corners
 * (the same mapping as the pixman reference), then read back into the
 * target. Window y = display y: row 0 of glReadPixels is the top row.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include <hardware/hwcomposer2.h>

#include "compositor_impls.h"
#include "format.h"
#include "fourcc.h"
#include "gl.h"
#include "layer.h"

#define CACHE_ENTRIES 32
#define CACHE_BYTES (256u << 20)

struct gl_compositor {
	struct compositor base;
	struct comp_gl_egl egl;
	struct comp_gl_program programs[COMP_GL_PROGRAM_COUNT];
	struct comp_gl_cache *cache;
	GLint max_size;			/* GL_MAX_TEXTURE_SIZE */
	struct comp_gl_target target;
};

static struct gl_compositor *gl_compositor_from(struct compositor *c)
{
	assert(c->impl == &comp_gl_impl);
	return COMP_CONTAINER_OF(c, struct gl_compositor, base);
}

static void release_gl(struct gl_compositor *gc)
{
	comp_gl_cache_destroy(gc->cache);
	gc->cache = NULL;
	comp_gl_programs_finish(gc->programs);
	comp_gl_target_finish(&gc->target);
}

static struct compositor *gl_create(void)
{
	struct gl_compositor *gc = calloc(1, sizeof(*gc));
	const char *exts;
	int err = ENODEV;

	if (!gc) {
		return NULL;
	}
	gc->base.impl = &comp_gl_impl;
	if (comp_gl_egl_init(&gc->egl) < 0) {
		goto error_egl;
	}
	if (comp_gl_egl_begin(&gc->egl) < 0) {
		goto error_current;
	}
	exts = (const char *)glGetString(GL_EXTENSIONS);
	gc->cache = comp_gl_cache_create(CACHE_ENTRIES, CACHE_BYTES,
		comp_gl_has_extension(exts, "GL_EXT_unpack_subimage"));
	if (!gc->cache) {
		err = ENOMEM;
		goto error_gl;
	}
	if (comp_gl_programs_init(gc->programs, &comp_yuv_bt601_limited) < 0) {
		goto error_gl;
	}
	glGetIntegerv(GL_MAX_TEXTURE_SIZE, &gc->max_size);
	comp_gl_egl_end(&gc->egl);
	return &gc->base;

error_gl:
	release_gl(gc);
	comp_gl_egl_end(&gc->egl);
error_current:
	comp_gl_egl_finish(&gc->egl);
error_egl:
	free(gc);
	errno = err;
	return NULL;
}

static void gl_destroy(struct compositor *c)
{
	struct gl_compositor *gc = gl_compositor_from(c);

	if (comp_gl_egl_begin(&gc->egl) == 0) {
		release_gl(gc);
		comp_gl_egl_end(&gc->egl);
	}
	comp_gl_egl_finish(&gc->egl);
	free(gc);
}

/* The program and its uniforms for one layer; binds its textures. */
static int prepare(struct gl_compositor *gc, const struct scene_layer *l,
	const struct comp_gl_program **out)
{
	const struct comp_gl_program *p;
	const struct comp_gl_texture *t;
	int32_t blend = comp_layer_blend(l);
	int ret;

	if (comp_layer_is_solid(l)) {
		uint32_t c = comp_layer_solid_premultiplied(l);

		p = &gc->programs[COMP_GL_PROGRAM_SOLID];
		glUseProgram(p->id);
		glUniform4f(p->color, (float)(c & 0xff) / 255.0f, (float)((c >> 8) & 0xff) / 255.0f,
			(float)((c >> 16) & 0xff) / 255.0f, (float)(c >> 24) / 255.0f);
		*out = p;
		return 0;
	}
	if (l->image->width > (uint32_t)gc->max_size || l->image->height > (uint32_t)gc->max_size) {
		return -E2BIG;
	}
	/* straight alpha is premultiplied on upload, so that it is filtered premultiplied */
	ret = comp_gl_cache_get(gc->cache, l->image, blend == HWC2_BLEND_MODE_COVERAGE &&
		comp_format_get(l->image->fourcc)->alpha, &t);
	if (ret < 0) {
		return ret;
	}
	for (uint32_t i = 0; i < t->count; i++) {
		glActiveTexture(GL_TEXTURE0 + i);
		glBindTexture(GL_TEXTURE_2D, t->tex[i]);
	}
	glActiveTexture(GL_TEXTURE0);
	if (t->nv12) {
		p = &gc->programs[COMP_GL_PROGRAM_NV12];
		glUseProgram(p->id);
		glUniform2f(p->chroma_scale, t->chroma_scale[0], t->chroma_scale[1]);
		glUniform2f(p->size, t->size[0], t->size[1]);
	} else {
		p = &gc->programs[COMP_GL_PROGRAM_RGBA];
		glUseProgram(p->id);
		glUniform1f(p->swap_rb, t->swap_rb ? 1.0f : 0.0f);
		glUniform1f(p->opaque, t->opaque || blend == HWC2_BLEND_MODE_NONE ? 1.0f : 0.0f);
	}
	*out = p;
	return 0;
}

static int draw_layer(struct gl_compositor *gc, const struct scene_layer *l,
	const struct comp_target *target)
{
	const struct comp_gl_program *p;
	struct hwct_rect clip;
	GLfloat pos[8], tex[8];
	uint8_t alpha = comp_layer_alpha8(l);
	int ret;

	if (!comp_frame_clip(&l->frame, target->width, target->height, &clip)) {
		return 0;
	}
	ret = prepare(gc, l, &p);
	if (ret < 0) {
		return ret;
	}
	/* Triangle strip over the clipped frame: (l, t), (r, t), (l, b), (r, b). */
	for (int i = 0; i < 4; i++) {
		double x = i & 1 ? clip.right : clip.left, y = i & 2 ? clip.bottom : clip.top;

		pos[2 * i] = (GLfloat)(2.0 * x / target->width - 1.0);
		pos[2 * i + 1] = (GLfloat)(2.0 * y / target->height - 1.0);
		tex[2 * i] = tex[2 * i + 1] = 0.0f;
		if (!comp_layer_is_solid(l)) {
			struct comp_matrix m;
			double bx, by;

			comp_layer_matrix(&l->crop, &l->frame, l->transform, &m);
			comp_matrix_apply(&m, x, y, &bx, &by);
			tex[2 * i] = (GLfloat)(bx / l->image->width);
			tex[2 * i + 1] = (GLfloat)(by / l->image->height);
		}
	}
	glUniform1f(p->alpha, (float)alpha / 255.0f);
	if (comp_layer_blend(l) == HWC2_BLEND_MODE_NONE && alpha == 255) {
		glDisable(GL_BLEND);
	} else {
		glEnable(GL_BLEND);
		glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
	}
	glVertexAttribPointer((GLuint)p->pos, 2, GL_FLOAT, GL_FALSE, 0, pos);
	glEnableVertexAttribArray((GLuint)p->pos);
	if (p->tex >= 0) {
		glVertexAttribPointer((GLuint)p->tex, 2, GL_FLOAT, GL_FALSE, 0, tex);
		glEnableVertexAttribArray((GLuint)p->tex);
	}
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glDisableVertexAttribArray((GLuint)p->pos);
	if (p->tex >= 0) {
		glDisableVertexAttribArray((GLuint)p->tex);
	}
	return 0;
}

static int gl_compose(struct compositor *c, const struct scene *scene,
	const struct scene_layer *const *layers, size_t count,
	uint32_t background_rgba, struct comp_target *target)
{
	struct gl_compositor *gc = gl_compositor_from(c);
	bool opaque = target->fourcc == DRM_FORMAT_XRGB8888 || target->fourcc == DRM_FORMAT_XBGR8888;
	uint32_t bg = opaque ? background_rgba | 0xffu << 24 : background_rgba;
	int ret;

	if (target->width > (uint32_t)gc->max_size || target->height > (uint32_t)gc->max_size) {
		return -E2BIG;
	}
	ret = comp_gl_egl_begin(&gc->egl);
	if (ret < 0) {
		return ret;
	}
	while (glGetError() != GL_NO_ERROR) {
		/* errors of earlier users of the context are not ours */
	}
	ret = comp_gl_target_bind(&gc->target, target->width, target->height);
	if (ret == 0) {
		glViewport(0, 0, (GLsizei)target->width, (GLsizei)target->height);
		glClearColor((float)(bg & 0xff) / 255.0f, (float)((bg >> 8) & 0xff) / 255.0f,
			(float)((bg >> 16) & 0xff) / 255.0f, (float)(bg >> 24) / 255.0f);
		glClear(GL_COLOR_BUFFER_BIT);
	}
	for (size_t i = 0; i < count && ret == 0; i++) {
		ret = draw_layer(gc, layers[i], target);
	}
	if (ret == 0) {
		ret = comp_gl_target_read(&gc->target, target);
	}
	if (ret == 0 && glGetError() != GL_NO_ERROR) {
		ret = -EIO;
	}
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glUseProgram(0);
	comp_gl_egl_end(&gc->egl);
	return ret;
}

const struct compositor_impl comp_gl_impl = {
	.name = "gl",
	.yuv_models = 1u << COMP_YUV_BILINEAR,
	.create = gl_create,
	.destroy = gl_destroy,
	.compose = gl_compose,
};
