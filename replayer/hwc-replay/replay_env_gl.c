/*
 * EGL and GL strings of the replay host (replay_env.h): a display and
 * context opened by the gl compositor's own code (comp_gl_egl_init, same
 * platform order: gbm on a DRM node, else surfaceless), read, and closed.
 */
#include <errno.h>
#include <stdio.h>

#include "hwct_config.h"
#include "replay_env.h"

#if HWCT_HAVE_GL
#include "gl.h"

static void copy(char *dst, size_t size, const void *s)
{
	snprintf(dst, size, "%s", s ? (const char *)s : "");
}

int replay_host_gl_strings(struct replay_host *h)
{
	struct comp_gl_egl egl;
	int ret = comp_gl_egl_init(&egl);

	if (ret < 0) {
		return ret;
	}
	copy(h->egl_vendor, sizeof(h->egl_vendor), eglQueryString(egl.display, EGL_VENDOR));
	copy(h->egl_version, sizeof(h->egl_version), eglQueryString(egl.display, EGL_VERSION));
	ret = comp_gl_egl_begin(&egl);
	if (ret == 0) {
		copy(h->gl_vendor, sizeof(h->gl_vendor), glGetString(GL_VENDOR));
		copy(h->gl_renderer, sizeof(h->gl_renderer), glGetString(GL_RENDERER));
		copy(h->gl_version, sizeof(h->gl_version), glGetString(GL_VERSION));
		comp_gl_egl_end(&egl);
	}
	comp_gl_egl_finish(&egl);
	return ret;
}
#else
int replay_host_gl_strings(struct replay_host *h)
{
	return -ENOTSUP;
}
#endif
