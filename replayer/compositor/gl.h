/*
 * Internals of the GL compositor, shared by its files: the EGL display and
 * context (gl_egl.c), the shader programs (gl_shaders.c), the texture
 * cache (gl_textures.c) and the framebuffer drawn into (gl_target.c).
 * gl.c composes with them.
 */
#ifndef HWCT_COMP_GL_H
#define HWCT_COMP_GL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <EGL/egl.h>
#include <GLES2/gl2.h>

#include "compositor.h"
#include "scene.h"
#include "yuv.h"

struct comp_gl_egl {
	EGLDisplay display;
	EGLContext context;
	bool own_display;		/* ours alone (gbm): terminated by finish */
	int drm_fd;			/* render/card node under the gbm device, -1 */
	void *gbm;			/* struct gbm_device *, NULL when surfaceless */
	/* The caller's API and current context, restored by comp_gl_egl_end. */
	EGLenum saved_api;
	EGLDisplay saved_display;
	EGLContext saved_context;
	EGLSurface saved_draw, saved_read;
};

/*
 * Opens a display (EGL_PLATFORM_GBM_KHR on the first DRM render node, then
 * card node, that works; else EGL_PLATFORM_SURFACELESS_MESA) and creates a
 * GLES2 context on it. Returns 0, or -ENODEV when EGL cannot give one.
 */
int comp_gl_egl_init(struct comp_gl_egl *egl);

/* Destroys the context and, when ours, the display. */
void comp_gl_egl_finish(struct comp_gl_egl *egl);

/* Whether the space-separated list (may be NULL) holds the extension name. */
bool comp_gl_has_extension(const char *list, const char *name);

/* Makes the context current, remembering the caller's. Returns 0 or -EIO. */
int comp_gl_egl_begin(struct comp_gl_egl *egl);

/* Gives the caller's context back (or none). */
void comp_gl_egl_end(struct comp_gl_egl *egl);

enum comp_gl_program_kind {
	COMP_GL_PROGRAM_RGBA,		/* one RGBA texture, swizzles by uniform */
	COMP_GL_PROGRAM_NV12,		/* luminance + luminance-alpha textures, filtered by hand */
	COMP_GL_PROGRAM_SOLID,		/* a uniform colour */
	COMP_GL_PROGRAM_COUNT,
};

struct comp_gl_program {
	GLuint id;
	GLint pos, tex;			/* attributes: NDC, normalised texture coordinates; -1 unused */
	GLint alpha;			/* float: plane alpha, multiplies the premultiplied output */
	GLint swap_rb, opaque;		/* float 0/1 (RGBA): BGRA memory order; ignore alpha */
	GLint color;			/* vec4, premultiplied (SOLID) */
	GLint chroma_scale;		/* vec2: luma to chroma texture coordinates (NV12) */
	GLint size;			/* vec2: luma texture size in texels (NV12) */
};

/*
 * Compiles and links the programs (the context current); the NV12 one gets
 * the matrix m. Returns 0 or -EIO (the compile log is dropped).
 */
int comp_gl_programs_init(struct comp_gl_program programs[COMP_GL_PROGRAM_COUNT],
	const struct comp_yuv_matrix *m);

/* Deletes them (the context current). */
void comp_gl_programs_finish(struct comp_gl_program programs[COMP_GL_PROGRAM_COUNT]);

/* One uploaded image. */
struct comp_gl_texture {
	GLuint tex[2];			/* RGBA or RGB565; NV12: luma, chroma */
	uint32_t count;			/* textures used: 1 or 2 */
	bool nv12;
	bool swap_rb;			/* 32-bit words in B, G, R, A memory order */
	bool opaque;			/* no alpha channel */
	float chroma_scale[2];		/* NV12: width / (2 * chroma width), same for height */
	float size[2];			/* NV12: luma width, height */
};

struct comp_gl_cache;

/*
 * A cache of uploaded images keyed by scene_image.hash (with format, size
 * and premultiplication), least recently used out first beyond max_entries
 * or max_bytes of texels. row_length: GL_UNPACK_ROW_LENGTH is available.
 * Returns NULL with errno set.
 */
struct comp_gl_cache *comp_gl_cache_create(size_t max_entries, size_t max_bytes, bool row_length);

/* Deletes its textures (the context current) and frees it. cache may be NULL. */
void comp_gl_cache_destroy(struct comp_gl_cache *cache);

/*
 * The texture of img (checked by comp_image_check), uploading it unless
 * cached; premultiply converts straight alpha (COVERAGE) on upload. An
 * all-zero hash means "unknown content": uploaded every time. *out is the
 * cache's, valid until the next call. Returns 0, -ENOMEM or -EIO.
 */
int comp_gl_cache_get(struct comp_gl_cache *cache, const struct scene_image *img,
	bool premultiply, const struct comp_gl_texture **out);

/* The framebuffer object layers are drawn into, and its read-back buffer. */
struct comp_gl_target {
	GLuint fbo, tex;		/* 0 until the first bind */
	uint32_t width, height;		/* of tex; 0 when unusable */
	uint8_t *readback;		/* RGBA rows, owned */
	size_t readback_size;		/* bytes */
};

/*
 * Binds the framebuffer, (re)allocating it at width x height (the context
 * current). Returns 0 or -EIO (incomplete framebuffer).
 */
int comp_gl_target_bind(struct comp_gl_target *t, uint32_t width, uint32_t height);

/*
 * Reads the bound framebuffer into out (same size), converting RGBA to
 * out's format. Returns 0 or -ENOMEM.
 */
int comp_gl_target_read(struct comp_gl_target *t, struct comp_target *out);

/* Deletes the framebuffer (the context current) and frees the buffer. */
void comp_gl_target_finish(struct comp_gl_target *t);

#endif
