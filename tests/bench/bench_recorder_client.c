/*
 * The recorder benchmark's HWC2 client (bench_recorder.h): the calls
 * SurfaceFlinger (through the HIDL passthrough composer) makes every frame,
 * on two layers of the fake module's 1080x2400 display, each call timed
 * alone with CLOCK_MONOTONIC:
 *
 *  - "screen": 1080x2400 RGBA8888, full screen, opaque, DEVICE; three
 *    buffers in turn, drawn before each frame (untimed): the photo scrolled
 *    by SCROLL_ROWS rows per frame with the frame number in its first pixel,
 *    so no content repeats; damage is the whole layer; acquire fence a
 *    signalled pipe;
 *  - "bar": 1080x96, plane alpha 0.9 (the fake sends it to CLIENT, so
 *    validate has changes every frame), one buffer, empty damage, no fence.
 *
 * Per layer: setLayerBuffer, setLayerSurfaceDamage, setLayerCompositionType,
 * setLayerDisplayFrame, setLayerSourceCrop, setLayerPlaneAlpha,
 * setLayerBlendMode, setLayerDataspace, setLayerTransform, setLayerZOrder,
 * setLayerVisibleRegion; then validateDisplay, getChangedCompositionTypes
 * and getDisplayRequests (count, then fill, as the composer HAL does),
 * acceptDisplayChanges, presentDisplay, getReleaseFences (count, fill):
 * 31 calls. No setClientTarget: the frame of the benchmark's brief has
 * one captured full-screen layer. Buffers are memfds with the project's
 * own handles (<hwct/test_buffer.h>), which the recorder's "hwct-test"
 * buffer-info plug-in maps and captures.
 */
#define _GNU_SOURCE	/* memfd_create(): Linux-specific, this file only */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/test_buffer.h>

#include "bench.h"
#include "bench_recorder.h"
#include "fake_hwc2.h"
#include "hwc2_load.h"

#define FOURCC_ABGR8888 0x34324241u	/* 'AB24': bytes R, G, B, A */
#define SCREEN_BUFFERS 3
#define BAR_HEIGHT 96
#define SCROLL_ROWS 8
#define MAX_LIST 4			/* list capacity of the count-then-fill calls */

struct buffer {
	int fd;
	native_handle_t *handle;	/* owned, free() */
	uint8_t *map;			/* stride * height bytes */
	uint32_t width, height, stride;
	size_t size;
};

struct layer {
	hwc2_layer_t id;
	hwc_rect_t frame;
	float alpha;
	uint32_t z;
};

struct client {
	hwc2_device_t *dev;
	struct hwct_hwc2_fns fn;	/* hwc2_load.h, the replayer's set */
	struct buffer screen[SCREEN_BUFFERS], bar;
	struct layer layers[2];		/* 0 screen, 1 bar */
	struct bench_pixels px;
	struct bench_samples *out;	/* NULL while warming up */
	void (*probe)(int32_t function);	/* bench_client_options' */
	int err;			/* first failure, -errno */
};

static atomic_bool connected;

/* ------------------------------------------------------------ callbacks */

static void on_hotplug(hwc2_callback_data_t data, hwc2_display_t display, int32_t connection)
{
	(void)data;
	if (display == FAKE_DISPLAY && connection == HWC2_CONNECTION_CONNECTED) {
		atomic_store(&connected, true);
	}
}

static void on_refresh(hwc2_callback_data_t data, hwc2_display_t display)
{
	(void)data;
	(void)display;
}

/* ---------------------------------------------------------------- calls */

static void fail(struct client *c, int err, const char *what, int32_t hwc_error)
{
	if (c->err == 0) {
		fprintf(stderr, "bench-recorder: %s failed (%d)\n", what, hwc_error);
		c->err = err;
	}
}

static void record(struct client *c, int32_t function, uint64_t ns)
{
	if (c->out && bench_samples_add(c->out, function, ns) < 0) {
		fail(c, -ENOMEM, "keeping a sample", 0);
	}
}

/* Times one call: `call` assigns the call's error to e. */
#define TIMED(c, function, call) \
	do { \
		uint64_t t0_ = bench_call_ns(); \
		if ((c)->probe) { \
			(c)->probe(HWC2_FUNCTION_##function); \
		} \
		call; \
		record((c), HWC2_FUNCTION_##function, bench_call_ns() - t0_); \
	} while (0)

static void expect(struct client *c, int32_t e, const char *what)
{
	if (e != HWC2_ERROR_NONE) {
		fail(c, -EIO, what, e);
	}
}

int bench_signalled_fence(void)
{
	int fds[2];
	int err = 0;

	if (pipe(fds) < 0) {
		return -errno;
	}
	if (write(fds[1], "x", 1) != 1) {
		err = -EIO;
	}
	close(fds[1]);
	if (err) {
		close(fds[0]);
		return err;
	}
	return fds[0];
}

static int acquire_fence(struct client *c)
{
	int fd = bench_signalled_fence();

	if (fd < 0) {
		fail(c, fd, "a signalled pipe", 0);
		return -1;
	}
	return fd;
}

static void layer_calls(struct client *c, struct layer *ly, struct buffer *b, hwc_region_t damage,
	int32_t type, int fence)
{
	hwc_region_t visible = { 1, &ly->frame };
	hwc_frect_t crop = { 0, 0, (float)b->width, (float)b->height };
	hwc2_display_t d = FAKE_DISPLAY;
	int32_t e;

	TIMED(c, SET_LAYER_BUFFER, e = c->fn.set_layer_buffer(c->dev, d, ly->id, b->handle, fence));
	expect(c, e, "setLayerBuffer");
	TIMED(c, SET_LAYER_SURFACE_DAMAGE, e = c->fn.set_layer_surface_damage(c->dev, d, ly->id, damage));
	expect(c, e, "setLayerSurfaceDamage");
	TIMED(c, SET_LAYER_COMPOSITION_TYPE, e = c->fn.set_layer_composition_type(c->dev, d, ly->id, type));
	expect(c, e, "setLayerCompositionType");
	TIMED(c, SET_LAYER_DISPLAY_FRAME, e = c->fn.set_layer_display_frame(c->dev, d, ly->id, ly->frame));
	expect(c, e, "setLayerDisplayFrame");
	TIMED(c, SET_LAYER_SOURCE_CROP, e = c->fn.set_layer_source_crop(c->dev, d, ly->id, crop));
	expect(c, e, "setLayerSourceCrop");
	TIMED(c, SET_LAYER_PLANE_ALPHA, e = c->fn.set_layer_plane_alpha(c->dev, d, ly->id, ly->alpha));
	expect(c, e, "setLayerPlaneAlpha");
	TIMED(c, SET_LAYER_BLEND_MODE, e = c->fn.set_layer_blend_mode(c->dev, d, ly->id,
		HWC2_BLEND_MODE_PREMULTIPLIED));
	expect(c, e, "setLayerBlendMode");
	TIMED(c, SET_LAYER_DATASPACE, e = c->fn.set_layer_dataspace(c->dev, d, ly->id, HAL_DATASPACE_V0_SRGB));
	expect(c, e, "setLayerDataspace");
	TIMED(c, SET_LAYER_TRANSFORM, e = c->fn.set_layer_transform(c->dev, d, ly->id, 0));
	expect(c, e, "setLayerTransform");
	TIMED(c, SET_LAYER_Z_ORDER, e = c->fn.set_layer_z_order(c->dev, d, ly->id, ly->z));
	expect(c, e, "setLayerZOrder");
	TIMED(c, SET_LAYER_VISIBLE_REGION, e = c->fn.set_layer_visible_region(c->dev, d, ly->id, visible));
	expect(c, e, "setLayerVisibleRegion");
}

static void display_calls(struct client *c)
{
	hwc2_display_t d = FAKE_DISPLAY;
	hwc2_layer_t layers[MAX_LIST];
	int32_t values[MAX_LIST], fences[MAX_LIST], dreq = 0, present = -1, e;
	uint32_t types = 0, requests = 0, n;

	TIMED(c, VALIDATE_DISPLAY, e = c->fn.validate_display(c->dev, d, &types, &requests));
	if (e != HWC2_ERROR_NONE && e != HWC2_ERROR_HAS_CHANGES) {
		fail(c, -EIO, "validateDisplay", e);
	}
	n = 0;
	TIMED(c, GET_CHANGED_COMPOSITION_TYPES, e = c->fn.get_changed_composition_types(c->dev, d, &n, NULL, NULL));
	expect(c, e, "getChangedCompositionTypes");
	n = n < MAX_LIST ? n : MAX_LIST;
	TIMED(c, GET_CHANGED_COMPOSITION_TYPES, e = c->fn.get_changed_composition_types(c->dev, d, &n, layers, values));
	expect(c, e, "getChangedCompositionTypes");
	n = 0;
	TIMED(c, GET_DISPLAY_REQUESTS, e = c->fn.get_display_requests(c->dev, d, &dreq, &n, NULL, NULL));
	expect(c, e, "getDisplayRequests");
	n = n < MAX_LIST ? n : MAX_LIST;
	TIMED(c, GET_DISPLAY_REQUESTS, e = c->fn.get_display_requests(c->dev, d, &dreq, &n, layers, values));
	expect(c, e, "getDisplayRequests");
	if (types) {
		TIMED(c, ACCEPT_DISPLAY_CHANGES, e = c->fn.accept_display_changes(c->dev, d));
		expect(c, e, "acceptDisplayChanges");
	}
	TIMED(c, PRESENT_DISPLAY, e = c->fn.present_display(c->dev, d, &present));
	expect(c, e, "presentDisplay");
	if (present >= 0) {
		close(present);
	}
	n = 0;
	TIMED(c, GET_RELEASE_FENCES, e = c->fn.get_release_fences(c->dev, d, &n, NULL, NULL));
	expect(c, e, "getReleaseFences");
	n = n < MAX_LIST ? n : MAX_LIST;
	TIMED(c, GET_RELEASE_FENCES, e = c->fn.get_release_fences(c->dev, d, &n, layers, fences));
	expect(c, e, "getReleaseFences");
	for (uint32_t i = 0; e == HWC2_ERROR_NONE && i < n; i++) {
		if (fences[i] >= 0) {
			close(fences[i]);
		}
	}
}

/* -------------------------------------------------------------- buffers */

int bench_memfd_buffer(uint32_t width, uint32_t height, int *fd, uint8_t **map, struct native_handle **handle)
{
	size_t size = (size_t)width * 4 * height;

	*map = NULL;
	*handle = NULL;
	*fd = memfd_create("hwct-bench-buffer", MFD_CLOEXEC);
	if (*fd < 0 || ftruncate(*fd, (off_t)size) < 0) {
		return -errno;
	}
	*map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (*map == MAP_FAILED) {
		*map = NULL;
		return -errno;
	}
	*handle = hwct_test_handle_create(&(struct hwct_test_buffer){ .fd = *fd, .width = width,
		.height = height, .fourcc = FOURCC_ABGR8888, .stride = { width * 4 } });
	return *handle ? 0 : -ENOMEM;
}

static int buffer_create(struct buffer *b, uint32_t width, uint32_t height)
{
	*b = (struct buffer){ .fd = -1, .width = width, .height = height, .stride = width * 4 };
	b->size = (size_t)b->stride * height;
	return bench_memfd_buffer(width, height, &b->fd, &b->map, &b->handle);
}

static void buffer_destroy(struct buffer *b)
{
	if (b->map) {
		munmap(b->map, b->size);
	}
	if (b->fd >= 0) {
		close(b->fd);
	}
	free(b->handle);
}

/* Rows of the pixels from row `first` on (wrapping), cut or padded to the buffer. */
static void draw(struct buffer *b, const struct bench_pixels *px, uint32_t first)
{
	size_t row = (size_t)px->width * 4 < b->stride ? (size_t)px->width * 4 : b->stride;

	for (uint32_t y = 0; y < b->height; y++) {
		uint8_t *dst = b->map + (size_t)y * b->stride;

		memcpy(dst, px->data + (size_t)((first + y) % px->height) * px->width * 4, row);
		memset(dst + row, 0, b->stride - row);
	}
}

static void draw_screen(struct client *c, struct buffer *b, uint32_t frame)
{
	draw(b, &c->px, frame * SCROLL_ROWS);
	memcpy(b->map, &frame, sizeof(frame));	/* the frame number in the first pixel */
}

/* ---------------------------------------------------------------- frames */

static void frame(struct client *c, uint32_t f, bool draw)
{
	struct buffer *s = &c->screen[f % SCREEN_BUFFERS];
	hwc_rect_t full = { 0, 0, (int)s->width, (int)s->height }, none = { 0, 0, 0, 0 };
	int fence;

	if (draw || f < SCREEN_BUFFERS) {
		draw_screen(c, s, f);
	}
	fence = acquire_fence(c);
	layer_calls(c, &c->layers[0], s, (hwc_region_t){ 1, &full }, HWC2_COMPOSITION_DEVICE, fence);
	if (fence >= 0) {
		close(fence);	/* ours: the device dup'd what it keeps */
	}
	layer_calls(c, &c->layers[1], &c->bar, (hwc_region_t){ 1, &none }, HWC2_COMPOSITION_DEVICE, -1);
	display_calls(c);
}

/* The device's functions: the replayer's required ones all there, or none. */
static int load_functions(hwc2_device_t *dev, struct hwct_hwc2_fns *fn)
{
	int32_t missing;

	hwct_hwc2_fns_resolve(dev, HWCT_HWC2_FN_OPTIONAL, NULL, fn);
	if (hwct_hwc2_fns_missing(fn, HWCT_HWC2_FN_REQUIRED, &missing, 1) > 0) {
		fprintf(stderr, "bench-recorder: the module lacks function %d\n", missing);
		return -ENOTSUP;
	}
	return 0;
}

static int open_device(const char *module, hwc2_device_t **dev)
{
	struct hw_module_t *hmi;
	char msg[256];
	void *handle;

	if (hwct_hwc2_module_load(module, NULL, &handle, &hmi, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "bench-recorder: %s: %s\n", module, msg);
		return -ENOENT;
	}
	if (hwct_hwc2_device_open(hmi, dev, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "bench-recorder: %s: %s\n", module, msg);
		return -EIO;
	}
	return 0;
}

/* Callbacks, power, layers and buffers: everything before the first frame. */
static int set_up(struct client *c, const char *pixels)
{
	int32_t e;
	int ret;

	e = c->fn.register_callback(c->dev, HWC2_CALLBACK_HOTPLUG, c, (hwc2_function_pointer_t)on_hotplug);
	expect(c, e, "registerCallback");
	e = c->fn.register_callback(c->dev, HWC2_CALLBACK_REFRESH, c, (hwc2_function_pointer_t)on_refresh);
	expect(c, e, "registerCallback");
	if (!atomic_load(&connected)) {
		fprintf(stderr, "bench-recorder: no hotplug for the display\n");
		return -EIO;
	}
	e = c->fn.set_power_mode(c->dev, FAKE_DISPLAY, HWC2_POWER_MODE_ON);
	expect(c, e, "setPowerMode");
	for (int i = 0; i < 2; i++) {
		e = c->fn.create_layer(c->dev, FAKE_DISPLAY, &c->layers[i].id);
		expect(c, e, "createLayer");
	}
	c->layers[0] = (struct layer){ c->layers[0].id, { 0, 0, FAKE_WIDTH, FAKE_HEIGHT }, 1.0f, 0 };
	c->layers[1] = (struct layer){ c->layers[1].id, { 0, 0, FAKE_WIDTH, BAR_HEIGHT }, 0.9f, 1 };
	ret = bench_pixels_load(&c->px, pixels, 0);
	for (int k = 0; ret == 0 && k < SCREEN_BUFFERS; k++) {
		ret = buffer_create(&c->screen[k], FAKE_WIDTH, FAKE_HEIGHT);
	}
	if (ret == 0) {
		ret = buffer_create(&c->bar, FAKE_WIDTH, BAR_HEIGHT);
	}
	if (ret < 0) {
		fprintf(stderr, "bench-recorder: buffers: %s\n", strerror(-ret));
		return ret;
	}
	draw(&c->bar, &c->px, 0);
	return c->err;
}

static void tear_down(struct client *c)
{
	for (int i = 0; i < 2; i++) {
		if (c->layers[i].id) {
			c->fn.destroy_layer(c->dev, FAKE_DISPLAY, c->layers[i].id);
		}
	}
	c->fn.set_power_mode(c->dev, FAKE_DISPLAY, HWC2_POWER_MODE_OFF);
	if (hwc2_close(c->dev) != 0) {
		fail(c, -EIO, "close", 0);
	}
	for (int k = 0; k < SCREEN_BUFFERS; k++) {
		buffer_destroy(&c->screen[k]);
	}
	buffer_destroy(&c->bar);
	bench_pixels_finish(&c->px);
}

/* Opens o's module and sets the client up; c is torn down by client_finish() either way. */
static int client_start(struct client *c, const struct bench_client_options *o)
{
	int ret;

	*c = (struct client){ 0 };
	for (int k = 0; k < SCREEN_BUFFERS; k++) {
		c->screen[k].fd = -1;
	}
	c->bar.fd = -1;
	ret = open_device(o->module, &c->dev);
	if (ret < 0) {
		return ret;
	}
	ret = load_functions(c->dev, &c->fn);
	if (ret < 0) {
		hwc2_close(c->dev);
		c->dev = NULL;
		return ret;
	}
	c->probe = o->probe;
	return set_up(c, o->pixels);
}

static int client_finish(struct client *c, int ret)
{
	if (c->dev) {
		tear_down(c);
	}
	return ret < 0 ? ret : c->err;
}

int bench_client_run(const struct bench_client_options *o, struct bench_samples *out)
{
	struct client c;
	uint64_t next = 0;
	int ret = client_start(&c, o);

	for (uint32_t f = 0; ret == 0 && c.err == 0 && f < o->warmup + o->frames; f++) {
		if (o->paced) {
			bench_pace(&next);
		}
		c.out = f < o->warmup ? NULL : out;
		frame(&c, f, !o->no_draw);
	}
	return client_finish(&c, ret);
}

int bench_client_run_paired(const struct bench_client_options *direct, const struct bench_client_options *wrapped,
	struct bench_samples *out_direct, struct bench_samples *out_wrapped)
{
	struct client c[2] = { 0 };
	struct bench_samples *out[2] = { out_direct, out_wrapped };
	uint64_t next = 0;
	int ret = client_start(&c[0], direct);

	ret = ret < 0 ? ret : client_start(&c[1], wrapped);
	for (uint32_t f = 0; ret == 0 && c[0].err == 0 && c[1].err == 0 && f < direct->warmup + direct->frames; f++) {
		for (int k = 0; k < 2; k++) {
			int w = (int)(f & 1) ^ k;	/* direct first in even frames, the wrapper in odd ones */

			if (direct->paced) {
				bench_pace(&next);
			}
			c[w].out = f < direct->warmup ? NULL : out[w];
			frame(&c[w], f, !direct->no_draw);
		}
	}
	ret = client_finish(&c[1], ret);
	return client_finish(&c[0], ret);
}
