/*
 * kms_probe: smoke test of the VM harness (tests/vm/vm-run, docs/vm-tests.md).
 *
 * Inside the VM it checks what hwctrace relies on from vkms in Linux 6.1: the driver and its
 * planes (printed, then compared with the expected counts), one real atomic commit of a gbm
 * buffer on the primary plane whose OUT_FENCE_PTR fence must signal, and GLES2 through EGL on
 * gbm. Prints what it finds on stdout; exits 1 with a "kms_probe: " message on the first
 * failed check, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <drm_fourcc.h>
#include <gbm.h>
#include <linux/sync_file.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "fence_wait.h"

// The buffer is shown 1:1 (vkms cannot scale) through a custom mode of the same size.
#define PROBE_SIZE 256
#define FENCE_TIMEOUT_MS 2000

struct probe_options {
	const char *device; // NULL: the first /dev/dri/card*
	int expect_overlays;
	int expect_cursors;
};

struct probe {
	int fd;
	uint32_t crtc_id;
	uint32_t connector_id; // the connected, non-writeback connector
	uint32_t primary_id;
	struct gbm_device *gbm; // NULL until created
};

static bool fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// Prints "kms_probe: <message>" to stderr; returns false.
static bool fail(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	fputs("kms_probe: ", stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
	va_end(args);
	return false;
}

static const char *fourcc_str(uint32_t format, char buf[static 5])
{
	for (int i = 0; i < 4; i++) {
		buf[i] = (char)((format >> (8 * i)) & 0xff);
	}
	buf[4] = '\0';
	return buf;
}

// Looks up the property `name` of a KMS object; id and value may be NULL.
static bool get_prop(int fd, uint32_t obj_id, uint32_t obj_type, const char *name,
		uint32_t *id, uint64_t *value)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj_id, obj_type);
	bool found = false;
	for (uint32_t i = 0; props != NULL && i < props->count_props && !found; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(fd, props->props[i]);
		if (prop != NULL && strcmp(prop->name, name) == 0) {
			found = true;
			if (id != NULL) {
				*id = prop->prop_id;
			}
			if (value != NULL) {
				*value = props->prop_values[i];
			}
		}
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	if (!found) {
		return fail("object %" PRIu32 " has no property %s", obj_id, name);
	}
	return true;
}

// Opens path (NULL: the first card node), checks that it is vkms and sets the client caps.
static bool open_device(struct probe *probe, const char *path)
{
	glob_t cards = {0};
	if (path == NULL) {
		if (glob("/dev/dri/card*", 0, NULL, &cards) != 0) {
			return fail("no /dev/dri/card* node");
		}
		path = cards.gl_pathv[0];
	}
	probe->fd = open(path, O_RDWR | O_CLOEXEC);
	if (probe->fd < 0) {
		fail("cannot open %s: %s", path, strerror(errno));
		globfree(&cards);
		return false;
	}
	drmVersion *version = drmGetVersion(probe->fd);
	bool is_vkms = version != NULL && strcmp(version->name, "vkms") == 0;
	printf("device: %s, driver %s\n", path, version != NULL ? version->name : "(unknown)");
	drmFreeVersion(version);
	globfree(&cards);
	if (!is_vkms) {
		return fail("the driver is not vkms");
	}
	if (drmSetClientCap(probe->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) != 0 ||
			drmSetClientCap(probe->fd, DRM_CLIENT_CAP_ATOMIC, 1) != 0 ||
			drmSetClientCap(probe->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) != 0) {
		return fail("client caps universal planes/atomic/writeback refused: %s",
			strerror(errno));
	}
	return true;
}

// Checks 1 CRTC, a writeback connector and a connected connector for the commit.
static bool check_outputs(struct probe *probe)
{
	drmModeRes *res = drmModeGetResources(probe->fd);
	if (res == NULL) {
		return fail("drmModeGetResources: %s", strerror(errno));
	}
	printf("crtcs: %d, connectors: %d\n", res->count_crtcs, res->count_connectors);
	bool ok = res->count_crtcs == 1 || fail("expected 1 CRTC, found %d", res->count_crtcs);
	if (ok) {
		probe->crtc_id = res->crtcs[0];
	}
	int writebacks = 0;
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *conn = drmModeGetConnector(probe->fd, res->connectors[i]);
		if (conn == NULL) {
			continue;
		}
		if (conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			writebacks++;
		} else if (conn->connection == DRM_MODE_CONNECTED && probe->connector_id == 0) {
			probe->connector_id = conn->connector_id;
		}
		const char *type = drmModeGetConnectorTypeName(conn->connector_type);
		printf("connector %" PRIu32 ": %s, %s\n", conn->connector_id,
			type != NULL ? type : "unknown type",
			conn->connection == DRM_MODE_CONNECTED ? "connected" : "not connected");
		drmModeFreeConnector(conn);
	}
	drmModeFreeResources(res);
	ok = (writebacks == 1 || fail("expected 1 writeback connector, found %d", writebacks)) && ok;
	return (probe->connector_id != 0 || fail("no connected connector")) && ok;
}

static bool has_format(const drmModePlane *plane, uint32_t format)
{
	for (uint32_t i = 0; i < plane->count_formats; i++) {
		if (plane->formats[i] == format) {
			return true;
		}
	}
	return false;
}

// Prints every plane; checks 1 primary plane with XRGB8888 and the overlay/cursor counts.
static bool check_planes(struct probe *probe, const struct probe_options *opts)
{
	static const char *const type_names[] = {
		[DRM_PLANE_TYPE_OVERLAY] = "overlay",
		[DRM_PLANE_TYPE_PRIMARY] = "primary",
		[DRM_PLANE_TYPE_CURSOR] = "cursor",
	};
	drmModePlaneRes *res = drmModeGetPlaneResources(probe->fd);
	if (res == NULL) {
		return fail("drmModeGetPlaneResources: %s", strerror(errno));
	}
	int count[3] = {0};
	bool primary_xr24 = false;
	for (uint32_t i = 0; i < res->count_planes; i++) {
		drmModePlane *plane = drmModeGetPlane(probe->fd, res->planes[i]);
		uint64_t type = 0;
		if (plane == NULL || !get_prop(probe->fd, plane->plane_id, DRM_MODE_OBJECT_PLANE,
				"type", NULL, &type) || type > DRM_PLANE_TYPE_CURSOR) {
			drmModeFreePlane(plane);
			drmModeFreePlaneResources(res);
			return fail("cannot read plane %" PRIu32, res->planes[i]);
		}
		count[type]++;
		printf("plane %" PRIu32 ": %-7s formats", plane->plane_id, type_names[type]);
		for (uint32_t f = 0; f < plane->count_formats; f++) {
			char name[5];
			printf(" %s", fourcc_str(plane->formats[f], name));
		}
		printf("\n");
		if (type == DRM_PLANE_TYPE_PRIMARY) {
			probe->primary_id = plane->plane_id;
			primary_xr24 = has_format(plane, DRM_FORMAT_XRGB8888);
		}
		drmModeFreePlane(plane);
	}
	drmModeFreePlaneResources(res);

	int overlays = count[DRM_PLANE_TYPE_OVERLAY];
	int cursors = count[DRM_PLANE_TYPE_CURSOR];
	bool ok = count[DRM_PLANE_TYPE_PRIMARY] == 1 ||
		fail("expected 1 primary plane, found %d", count[DRM_PLANE_TYPE_PRIMARY]);
	ok = (primary_xr24 || fail("the primary plane lacks XR24")) && ok;
	ok = (overlays == opts->expect_overlays ||
		fail("expected %d overlay planes, found %d", opts->expect_overlays, overlays)) && ok;
	return (cursors == opts->expect_cursors ||
		fail("expected %d cursor planes, found %d", opts->expect_cursors, cursors)) && ok;
}

// A 60 Hz mode of PROBE_SIZE x PROBE_SIZE (vkms accepts any size from 20x20 up).
static drmModeModeInfo probe_mode(void)
{
	drmModeModeInfo mode = {
		.hdisplay = PROBE_SIZE, .hsync_start = PROBE_SIZE + 16,
		.hsync_end = PROBE_SIZE + 48, .htotal = PROBE_SIZE + 64,
		.vdisplay = PROBE_SIZE, .vsync_start = PROBE_SIZE + 3,
		.vsync_end = PROBE_SIZE + 6, .vtotal = PROBE_SIZE + 14,
		.vrefresh = 60, .type = DRM_MODE_TYPE_USERDEF,
	};
	mode.clock = (uint32_t)mode.htotal * mode.vtotal * mode.vrefresh / 1000; // kHz
	snprintf(mode.name, sizeof(mode.name), "%dx%d", PROBE_SIZE, PROBE_SIZE);
	return mode;
}

// Adds the properties that show fb_id full-screen on the primary plane.
static bool fill_request(const struct probe *probe, drmModeAtomicReq *req, uint32_t mode_blob,
		uint32_t fb_id, int32_t *out_fence)
{
	struct {
		uint32_t obj_id, obj_type;
		const char *name;
		uint64_t value;
	} props[] = {
		{probe->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", probe->crtc_id},
		{probe->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", mode_blob},
		{probe->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1},
		{probe->crtc_id, DRM_MODE_OBJECT_CRTC, "OUT_FENCE_PTR", (uint64_t)(uintptr_t)out_fence},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "FB_ID", fb_id},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", probe->crtc_id},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "SRC_X", 0},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)PROBE_SIZE << 16},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)PROBE_SIZE << 16},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "CRTC_W", PROBE_SIZE},
		{probe->primary_id, DRM_MODE_OBJECT_PLANE, "CRTC_H", PROBE_SIZE},
	};
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
		uint32_t prop_id;
		if (out_fence == NULL && strcmp(props[i].name, "OUT_FENCE_PTR") == 0) {
			continue;
		}
		if (!get_prop(probe->fd, props[i].obj_id, props[i].obj_type, props[i].name,
				&prop_id, NULL) ||
				drmModeAtomicAddProperty(req, props[i].obj_id, prop_id, props[i].value) < 0) {
			return fail("cannot add property %s", props[i].name);
		}
	}
	return true;
}

// Commits fb_id (TEST_ONLY first, then for real); waits for the out-fence and checks it.
static bool commit(const struct probe *probe, uint32_t fb_id)
{
	drmModeModeInfo mode = probe_mode();
	uint32_t blob = 0;
	if (drmModeCreatePropertyBlob(probe->fd, &mode, sizeof(mode), &blob) != 0) {
		return fail("cannot create the mode blob: %s", strerror(errno));
	}
	int32_t out_fence = -1;
	drmModeAtomicReq *test = drmModeAtomicAlloc();
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	bool ok = test != NULL && req != NULL &&
		fill_request(probe, test, blob, fb_id, NULL) &&
		fill_request(probe, req, blob, fb_id, &out_fence);
	uint32_t flags = DRM_MODE_ATOMIC_ALLOW_MODESET;
	if (ok && drmModeAtomicCommit(probe->fd, test, flags | DRM_MODE_ATOMIC_TEST_ONLY, NULL) != 0) {
		ok = fail("TEST_ONLY commit refused: %s", strerror(errno));
	}
	// Non-blocking, so the out-fence signals later, at the simulated vblank.
	if (ok && drmModeAtomicCommit(probe->fd, req, flags | DRM_MODE_ATOMIC_NONBLOCK, NULL) != 0) {
		ok = fail("atomic commit failed: %s", strerror(errno));
	}
	drmModeAtomicFree(test);
	drmModeAtomicFree(req);
	drmModeDestroyPropertyBlob(probe->fd, blob);
	if (!ok) {
		return false;
	}
	if (out_fence < 0) {
		return fail("the commit returned no out-fence");
	}

	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	int ready = hwct_fence_wait(out_fence, FENCE_TIMEOUT_MS);
	clock_gettime(CLOCK_MONOTONIC, &end);
	struct sync_file_info info = {0};
	int info_ret = ioctl(out_fence, SYNC_IOC_FILE_INFO, &info);
	close(out_fence);
	if (ready != 0) {
		return fail("the out-fence did not signal within %d ms", FENCE_TIMEOUT_MS);
	}
	if (info_ret != 0 || info.status != 1) {
		return fail("the out-fence is not signalled (status %d)", info.status);
	}
	long waited_us = (end.tv_sec - start.tv_sec) * 1000000L + (end.tv_nsec - start.tv_nsec) / 1000;
	printf("commit: %dx%d XR24 on plane %" PRIu32 ", out-fence signalled after %ld us\n",
		PROBE_SIZE, PROBE_SIZE, probe->primary_id, waited_us);
	return true;
}

// Creates a LINEAR scanout buffer, fills it with a colour, and commits it.
static bool show_buffer(struct probe *probe)
{
	probe->gbm = gbm_create_device(probe->fd);
	if (probe->gbm == NULL) {
		return fail("gbm_create_device failed");
	}
	struct gbm_bo *bo = gbm_bo_create(probe->gbm, PROBE_SIZE, PROBE_SIZE, GBM_FORMAT_XRGB8888,
		GBM_BO_USE_SCANOUT | GBM_BO_USE_LINEAR);
	if (bo == NULL) {
		return fail("gbm_bo_create failed: %s", strerror(errno));
	}
	uint32_t stride = 0;
	void *map_data = NULL;
	uint32_t *pixels = gbm_bo_map(bo, 0, 0, PROBE_SIZE, PROBE_SIZE, GBM_BO_TRANSFER_WRITE,
		&stride, &map_data);
	if (pixels == NULL) {
		gbm_bo_destroy(bo);
		return fail("gbm_bo_map failed");
	}
	for (uint32_t y = 0; y < PROBE_SIZE; y++) {
		for (uint32_t x = 0; x < PROBE_SIZE; x++) {
			pixels[y * (stride / 4) + x] = 0xff3060c0;
		}
	}
	gbm_bo_unmap(bo, map_data);
	printf("gbm: backend %s, bo %dx%d XR24 stride %" PRIu32 "\n",
		gbm_device_get_backend_name(probe->gbm), PROBE_SIZE, PROBE_SIZE, gbm_bo_get_stride(bo));

	uint32_t handles[4] = {gbm_bo_get_handle(bo).u32};
	uint32_t strides[4] = {gbm_bo_get_stride(bo)};
	uint32_t offsets[4] = {0};
	uint32_t fb_id = 0;
	bool ok = drmModeAddFB2(probe->fd, PROBE_SIZE, PROBE_SIZE, DRM_FORMAT_XRGB8888, handles,
		strides, offsets, &fb_id, 0) == 0 || fail("drmModeAddFB2: %s", strerror(errno));
	ok = ok && commit(probe, fb_id);
	if (fb_id != 0) {
		drmModeRmFB(probe->fd, fb_id);
	}
	gbm_bo_destroy(bo);
	return ok;
}

// Makes a GLES2 context on the gbm device current, prints GL_RENDERER and clears a pixel.
static bool check_gl(const struct probe *probe)
{
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, probe->gbm, NULL);
	EGLint major, minor;
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
		return fail("no EGL display on gbm (0x%x)", eglGetError());
	}
	const char *exts = eglQueryString(dpy, EGL_EXTENSIONS);
	static const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
	static const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
	EGLConfig config;
	EGLint n = 0;
	EGLContext ctx = EGL_NO_CONTEXT;
	bool ok = (exts != NULL && strstr(exts, "EGL_KHR_surfaceless_context") != NULL) ||
		fail("EGL lacks EGL_KHR_surfaceless_context");
	ok = ok && eglBindAPI(EGL_OPENGL_ES_API) &&
		eglChooseConfig(dpy, config_attribs, &config, 1, &n) && n == 1;
	if (ok) {
		ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
	}
	ok = ok && ctx != EGL_NO_CONTEXT &&
		eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx);
	if (!ok) {
		eglTerminate(dpy);
		return fail("no current GLES2 context (EGL error 0x%x)", eglGetError());
	}
	printf("egl: %d.%d, GL_RENDERER %s, GL_VERSION %s\n", major, minor,
		(const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));

	GLuint rb, fbo;
	uint8_t pixel[4] = {0};
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA4, 1, 1);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glClearColor(1.0f, 0.0f, 1.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
	ok = (pixel[0] == 255 && pixel[1] == 0 && pixel[2] == 255) ||
		fail("glClear gave %d,%d,%d, expected 255,0,255", pixel[0], pixel[1], pixel[2]);
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
	return ok;
}

static bool parse_count(const char *arg, int *out)
{
	char *end;
	errno = 0;
	long value = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || value < 0 || value > 64) {
		return false;
	}
	*out = (int)value;
	return true;
}

static bool parse_options(int argc, char *argv[], struct probe_options *opts)
{
	for (int i = 1; i < argc; i++) {
		bool has_value = i + 1 < argc;
		if (strcmp(argv[i], "--device") == 0 && has_value) {
			opts->device = argv[++i];
		} else if (strcmp(argv[i], "--expect-overlays") == 0 && has_value) {
			if (!parse_count(argv[++i], &opts->expect_overlays)) {
				return false;
			}
		} else if (strcmp(argv[i], "--expect-cursors") == 0 && has_value) {
			if (!parse_count(argv[++i], &opts->expect_cursors)) {
				return false;
			}
		} else {
			return false;
		}
	}
	return true;
}

int main(int argc, char *argv[])
{
	struct probe_options opts = {.expect_overlays = 0, .expect_cursors = 1};
	if (!parse_options(argc, argv, &opts)) {
		fprintf(stderr, "usage: kms_probe [--device /dev/dri/cardN] [--expect-overlays N] "
			"[--expect-cursors N]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct probe probe = {.fd = -1};
	bool ok = open_device(&probe, opts.device) && check_outputs(&probe) &&
		check_planes(&probe, &opts) && show_buffer(&probe) && check_gl(&probe);
	if (probe.gbm != NULL) {
		gbm_device_destroy(probe.gbm);
	}
	if (probe.fd >= 0) {
		close(probe.fd);
	}
	printf("kms_probe: %s\n", ok ? "all checks passed" : "FAILED");
	return ok ? 0 : 1;
}
