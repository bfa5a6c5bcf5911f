/*
 * The GL compositor's render target (gl.h): a framebuffer object with an
 * RGBA texture of the target's size, read back with glReadPixels. Window y
 * is display y, so row 0 of the read-back is the target's top row.
 */
#include <errno.h>
#include <stdlib.h>

#include "fourcc.h"

#include "format.h"
#include "gl.h"

int comp_gl_target_bind(struct comp_gl_target *t, uint32_t width, uint32_t height)
{
	if (t->fbo && t->width == width && t->height == height) {
		glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
		return 0;
	}
	if (!t->fbo) {
		glGenFramebuffers(1, &t->fbo);
		glGenTextures(1, &t->tex);
	}
	glBindTexture(GL_TEXTURE_2D, t->tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, (GLsizei)width, (GLsizei)height, 0, GL_RGBA,
		GL_UNSIGNED_BYTE, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glBindTexture(GL_TEXTURE_2D, 0);
	glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->tex, 0);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		t->width = t->height = 0;
		return -EIO;
	}
	t->width = width;
	t->height = height;
	return 0;
}

int comp_gl_target_read(struct comp_gl_target *t, struct comp_target *out)
{
	size_t row = (size_t)out->width * 4, size = row * out->height;
	/* GL's RGBA bytes are ABGR8888: read straight into a tight target */
	bool direct = out->fourcc == DRM_FORMAT_ABGR8888 && out->stride == row;

	if (!direct && size > t->readback_size) {
		free(t->readback);
		t->readback_size = 0;
		t->readback = malloc(size);
		if (!t->readback) {
			return -ENOMEM;
		}
		t->readback_size = size;
	}
	glPixelStorei(GL_PACK_ALIGNMENT, 4);
	glReadPixels(0, 0, (GLsizei)out->width, (GLsizei)out->height, GL_RGBA, GL_UNSIGNED_BYTE,
		direct ? out->data : t->readback);
	if (direct) {
		return 0;
	}
	for (uint32_t y = 0; y < out->height; y++) {
		const uint8_t *src = t->readback + y * row;
		uint32_t *dst = (uint32_t *)(void *)(out->data + (size_t)y * out->stride);

		for (uint32_t x = 0; x < out->width; x++, src += 4) {
			dst[x] = comp_target_pixel(out->fourcc, (uint32_t)src[0] |
				(uint32_t)src[1] << 8 | (uint32_t)src[2] << 16 |
				(uint32_t)src[3] << 24);
		}
	}
	return 0;
}

void comp_gl_target_finish(struct comp_gl_target *t)
{
	if (t->fbo) {
		glDeleteFramebuffers(1, &t->fbo);
		glDeleteTextures(1, &t->tex);
	}
	free(t->readback);
	*t = (struct comp_gl_target){ .fbo = 0 };
}
