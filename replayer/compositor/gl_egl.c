/*
 * The GL compositor's EGL display and context (gl.h): GBM on a DRM node
 * when there is one that works, else Mesa's surfaceless platform (hosts
 * without /dev/dri get llvmpipe). The context has no surface: it renders
 * into framebuffer objects only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "hwct_config.h"

#if HWCT_HAVE_GBM
#include <gbm.h>
#endif

#include "gl.h"

#define RENDER_NODES 64		/* renderD128.. */
#define CARD_NODES 16

bool comp_gl_has_extension(const char *list, const char *name)
{
	size_t len = strlen(name);

	while (list && *list) {
		const char *end = strchr(list, ' ');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		if (n == len && strncmp(list, name, len) == 0) {
			return true;
		}
		list = end ? end + 1 : NULL;
	}
	return false;
}

#if HWCT_HAVE_GBM
static bool try_gbm_node(struct comp_gl_egl *egl, PFNEGLGETPLATFORMDISPLAYEXTPROC get_display,
	const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	struct gbm_device *gbm;

	if (fd < 0) {
		return false;
	}
	gbm = gbm_create_device(fd);
	if (!gbm) {
		goto error_gbm;
	}
	egl->display = get_display(EGL_PLATFORM_GBM_KHR, gbm, NULL);
	if (egl->display == EGL_NO_DISPLAY) {
		goto error_display;
	}
	if (!eglInitialize(egl->display, NULL, NULL)) {
		goto error_initialize;
	}
	egl->drm_fd = fd;
	egl->gbm = gbm;
	egl->own_display = true;
	return true;

error_initialize:
	egl->display = EGL_NO_DISPLAY;
error_display:
	gbm_device_destroy(gbm);
error_gbm:
	close(fd);
	return false;
}

static bool try_gbm(struct comp_gl_egl *egl, PFNEGLGETPLATFORMDISPLAYEXTPROC get_display)
{
	char path[64];

	for (int i = 0; i < RENDER_NODES; i++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", 128 + i);
		if (access(path, F_OK) == 0 && try_gbm_node(egl, get_display, path)) {
			return true;
		}
	}
	for (int i = 0; i < CARD_NODES; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		if (access(path, F_OK) == 0 && try_gbm_node(egl, get_display, path)) {
			return true;
		}
	}
	return false;
}
#endif

/*
 * The surfaceless display is one per process (EGL_DEFAULT_DISPLAY), maybe
 * shared with other users: it is never terminated.
 */
static bool try_surfaceless(struct comp_gl_egl *egl, PFNEGLGETPLATFORMDISPLAYEXTPROC get_display)
{
	egl->display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (egl->display == EGL_NO_DISPLAY) {
		return false;
	}
	if (!eglInitialize(egl->display, NULL, NULL)) {
		egl->display = EGL_NO_DISPLAY;
		return false;
	}
	return true;
}

static bool create_context(struct comp_gl_egl *egl)
{
	static const EGLint context_attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	static const EGLint config_attribs[] = {
		EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
		EGL_SURFACE_TYPE, 0,
		EGL_NONE,
	};
	const char *exts = eglQueryString(egl->display, EGL_EXTENSIONS);
	EGLConfig config = EGL_NO_CONFIG_KHR;
	EGLint n = 0;

	if (!comp_gl_has_extension(exts, "EGL_KHR_surfaceless_context") ||
			!eglBindAPI(EGL_OPENGL_ES_API)) {
		return false;
	}
	if (!comp_gl_has_extension(exts, "EGL_KHR_no_config_context") &&
			(!eglChooseConfig(egl->display, config_attribs, &config, 1, &n) || n < 1)) {
		return false;
	}
	egl->context = eglCreateContext(egl->display, config, EGL_NO_CONTEXT, context_attribs);
	return egl->context != EGL_NO_CONTEXT;
}

static void close_display(struct comp_gl_egl *egl)
{
	if (egl->own_display) {
		eglTerminate(egl->display);
	}
#if HWCT_HAVE_GBM
	if (egl->gbm) {
		gbm_device_destroy(egl->gbm);
	}
#endif
	if (egl->drm_fd >= 0) {
		close(egl->drm_fd);
	}
	egl->display = EGL_NO_DISPLAY;
	egl->own_display = false;
	egl->gbm = NULL;
	egl->drm_fd = -1;
}

int comp_gl_egl_init(struct comp_gl_egl *egl)
{
	const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;

	memset(egl, 0, sizeof(*egl));
	egl->display = EGL_NO_DISPLAY;
	egl->context = EGL_NO_CONTEXT;
	egl->drm_fd = -1;
	if (!comp_gl_has_extension(client, "EGL_EXT_platform_base")) {
		return -ENODEV;
	}
	get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display) {
		return -ENODEV;
	}
#if HWCT_HAVE_GBM
	if ((comp_gl_has_extension(client, "EGL_KHR_platform_gbm") ||
			comp_gl_has_extension(client, "EGL_MESA_platform_gbm")) &&
			try_gbm(egl, get_display)) {
		if (create_context(egl)) {
			return 0;
		}
		close_display(egl);
	}
#endif
	if (comp_gl_has_extension(client, "EGL_MESA_platform_surfaceless") &&
			try_surfaceless(egl, get_display)) {
		if (create_context(egl)) {
			return 0;
		}
		close_display(egl);
	}
	return -ENODEV;
}

void comp_gl_egl_finish(struct comp_gl_egl *egl)
{
	if (egl->context != EGL_NO_CONTEXT) {
		eglDestroyContext(egl->display, egl->context);
		egl->context = EGL_NO_CONTEXT;
	}
	if (egl->display != EGL_NO_DISPLAY) {
		close_display(egl);
	}
}

int comp_gl_egl_begin(struct comp_gl_egl *egl)
{
	/* the bound API is per thread: compose may run on another thread than create */
	egl->saved_api = eglQueryAPI();
	eglBindAPI(EGL_OPENGL_ES_API);
	egl->saved_display = eglGetCurrentDisplay();
	egl->saved_context = eglGetCurrentContext();
	egl->saved_draw = eglGetCurrentSurface(EGL_DRAW);
	egl->saved_read = eglGetCurrentSurface(EGL_READ);
	if (!eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
		return -EIO;
	}
	return 0;
}

void comp_gl_egl_end(struct comp_gl_egl *egl)
{
	if (egl->saved_context == egl->context) {
		return;
	}
	if (egl->saved_context != EGL_NO_CONTEXT) {
		eglBindAPI(egl->saved_api);
		eglMakeCurrent(egl->saved_display, egl->saved_draw, egl->saved_read,
			egl->saved_context);
	} else {
		eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		eglBindAPI(egl->saved_api);
	}
}
