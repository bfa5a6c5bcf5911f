/*
 * The GL compositor's texture cache (gl.h): images uploaded once per
 * content hash and kept, least recently used out first. Memory formats map
 * to GLES2 texture formats without conversion (the shaders swizzle), except
 * COVERAGE sources, premultiplied on upload so that filtering happens on
 * premultiplied texels as in the pixman compositor.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "format.h"
#include "fourcc.h"
#include "gl.h"

struct entry {
	struct comp_gl_texture texture;
	bool live;			/* holds textures */
	bool keyed;			/* may be found again (hash known) */
	struct hwct_hash hash;
	uint32_t fourcc, width, height;
	bool premultiplied;
	uint64_t last_use;
	size_t bytes;
};

struct comp_gl_cache {
	struct entry *entries;		/* max_entries */
	size_t max_entries, max_bytes;
	size_t bytes;			/* in live entries */
	uint64_t clock;
	bool row_length;
	uint32_t *staging;		/* premultiplied copies; P01x narrowed to NV12 */
	size_t staging_size;		/* bytes */
};

struct comp_gl_cache *comp_gl_cache_create(size_t max_entries, size_t max_bytes, bool row_length)
{
	struct comp_gl_cache *cache = calloc(1, sizeof(*cache));

	if (!cache) {
		return NULL;
	}
	cache->entries = calloc(max_entries, sizeof(*cache->entries));
	if (!cache->entries) {
		free(cache);
		return NULL;
	}
	cache->max_entries = max_entries;
	cache->max_bytes = max_bytes;
	cache->row_length = row_length;
	return cache;
}

static void evict(struct comp_gl_cache *cache, struct entry *e)
{
	glDeleteTextures((GLsizei)e->texture.count, e->texture.tex);
	cache->bytes -= e->bytes;
	*e = (struct entry){ .live = false };
}

void comp_gl_cache_destroy(struct comp_gl_cache *cache)
{
	if (!cache) {
		return;
	}
	for (size_t i = 0; i < cache->max_entries; i++) {
		if (cache->entries[i].live) {
			evict(cache, &cache->entries[i]);
		}
	}
	free(cache->staging);
	free(cache->entries);
	free(cache);
}

static void upload_plane(struct comp_gl_cache *cache, GLuint tex, GLenum format, GLenum type,
	uint32_t w, uint32_t h, uint32_t cpp, const uint8_t *data, uint32_t stride)
{
	/* NV12 luma is filtered by the shader, read only at texel centres */
	GLint filter = format == GL_LUMINANCE ? GL_NEAREST : GL_LINEAR;

	glBindTexture(GL_TEXTURE_2D, tex);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	if (stride == w * cpp) {
		glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, (GLsizei)w, (GLsizei)h, 0, format,
			type, data);
	} else if (cache->row_length && stride % cpp == 0) {
		glPixelStorei(GL_UNPACK_ROW_LENGTH_EXT, (GLint)(stride / cpp));
		glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, (GLsizei)w, (GLsizei)h, 0, format,
			type, data);
		glPixelStorei(GL_UNPACK_ROW_LENGTH_EXT, 0);
	} else {
		glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, (GLsizei)w, (GLsizei)h, 0, format,
			type, NULL);
		for (uint32_t y = 0; y < h; y++) {
			glTexSubImage2D(GL_TEXTURE_2D, 0, 0, (GLint)y, (GLsizei)w, 1, format, type,
				data + (size_t)y * stride);
		}
	}
}

/* The staging buffer, at least size bytes; NULL when out of memory. */
static uint32_t *staging(struct comp_gl_cache *cache, size_t size)
{
	if (size > cache->staging_size) {
		free(cache->staging);
		cache->staging_size = 0;
		cache->staging = malloc(size);
		if (!cache->staging) {
			return NULL;
		}
		cache->staging_size = size;
	}
	return cache->staging;
}

static int upload(struct comp_gl_cache *cache, struct entry *e, const struct scene_image *img,
	bool premultiply)
{
	const struct comp_format *f = comp_format_get(img->fourcc);
	struct comp_gl_texture *t = &e->texture;
	struct scene_image nv12;
	const uint8_t *data;
	uint32_t stride;

	if (f->planes == 2 && f->cpp == 2) {	/* P01x: read at 8 bits, as the bilinear model does */
		if (!staging(cache, comp_yuv_narrow_size(img))) {
			return -ENOMEM;
		}
		comp_yuv_narrow(img, (uint8_t *)cache->staging, &nv12);
		img = &nv12;
		f = comp_format_get(DRM_FORMAT_NV12);
	}
	data = img->data + img->offset[0];
	stride = img->stride[0];
	t->nv12 = f->fourcc == DRM_FORMAT_NV12;
	t->swap_rb = f->cpp == 4 && !f->rgba_order;
	t->opaque = !f->alpha;
	t->count = t->nv12 ? 2 : 1;
	glGenTextures((GLsizei)t->count, t->tex);
	if (t->nv12) {
		uint32_t cw = (img->width + 1) / 2, ch = (img->height + 1) / 2;

		t->chroma_scale[0] = (float)img->width / (float)(2 * cw);
		t->chroma_scale[1] = (float)img->height / (float)(2 * ch);
		t->size[0] = (float)img->width;
		t->size[1] = (float)img->height;
		upload_plane(cache, t->tex[0], GL_LUMINANCE, GL_UNSIGNED_BYTE, img->width,
			img->height, 1, data, stride);
		upload_plane(cache, t->tex[1], GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, cw, ch, 2,
			img->data + img->offset[1], img->stride[1]);
		e->bytes = (size_t)img->width * img->height + (size_t)cw * ch * 2;
	} else if (f->cpp == 2) {
		upload_plane(cache, t->tex[0], GL_RGB, GL_UNSIGNED_SHORT_5_6_5, img->width,
			img->height, 2, data, stride);
		e->bytes = (size_t)img->width * img->height * 2;
	} else {
		if (premultiply) {
			if (!staging(cache, (size_t)img->width * img->height * 4)) {
				glDeleteTextures((GLsizei)t->count, t->tex);
				return -ENOMEM;
			}
			for (uint32_t y = 0; y < img->height; y++) {
				uint32_t *row = cache->staging + (size_t)y * img->width;

				/* copied first: source rows need not be 4-byte aligned */
				memcpy(row, data + (size_t)y * stride, (size_t)img->width * 4);
				comp_premultiply_row(row, row, img->width);
			}
			data = (const uint8_t *)cache->staging;
			stride = img->width * 4;
		}
		upload_plane(cache, t->tex[0], GL_RGBA, GL_UNSIGNED_BYTE, img->width, img->height,
			4, data, stride);
		e->bytes = (size_t)img->width * img->height * 4;
	}
	glBindTexture(GL_TEXTURE_2D, 0);
	GLenum err = glGetError();
	if (err != GL_NO_ERROR) {
		glDeleteTextures((GLsizei)t->count, t->tex);
		return err == GL_OUT_OF_MEMORY ? -ENOMEM : -EIO;
	}
	return 0;
}

static struct entry *find(struct comp_gl_cache *cache, const struct scene_image *img,
	bool premultiply)
{
	for (size_t i = 0; i < cache->max_entries; i++) {
		struct entry *e = &cache->entries[i];

		if (e->live && e->keyed && hwct_hash_equal(&e->hash, &img->hash) &&
				e->fourcc == img->fourcc && e->width == img->width &&
				e->height == img->height && e->premultiplied == premultiply) {
			return e;
		}
	}
	return NULL;
}

/* A free entry, evicting least recently used ones to make room for bytes. */
static struct entry *make_room(struct comp_gl_cache *cache, size_t bytes)
{
	for (;;) {
		struct entry *lru = NULL, *free_entry = NULL;

		for (size_t i = 0; i < cache->max_entries; i++) {
			struct entry *e = &cache->entries[i];

			if (!e->live) {
				free_entry = free_entry ? free_entry : e;
			} else if (!lru || e->last_use < lru->last_use) {
				lru = e;
			}
		}
		if (free_entry && (cache->bytes + bytes <= cache->max_bytes || !lru)) {
			return free_entry;
		}
		evict(cache, lru);
	}
}

int comp_gl_cache_get(struct comp_gl_cache *cache, const struct scene_image *img,
	bool premultiply, const struct comp_gl_texture **out)
{
	bool keyed = img->hash.high != 0 || img->hash.low != 0;
	struct entry *e = keyed ? find(cache, img, premultiply) : NULL;
	int ret;

	if (!e) {
		e = make_room(cache, (size_t)img->width * img->height * 4);
		ret = upload(cache, e, img, premultiply);
		if (ret < 0) {
			*e = (struct entry){ .live = false };
			return ret;
		}
		e->live = true;
		e->keyed = keyed;
		e->hash = img->hash;
		e->fourcc = img->fourcc;
		e->width = img->width;
		e->height = img->height;
		e->premultiplied = premultiply;
		cache->bytes += e->bytes;
	}
	e->last_use = ++cache->clock;
	*out = &e->texture;
	return 0;
}
