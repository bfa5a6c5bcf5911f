/*
 * The recorder benchmark's UI session (bench_recorder.h; issue 16 goal 2):
 * a 60 Hz lock screen driven the way SurfaceFlinger drives HWC2, three
 * layers of the fake module's 1080x2400 display, each a buffer queue:
 *
 *  - "wallpaper": 1080x2400, the screenshot, z 0, opaque; scrolled by
 *    WALL_SCROLL rows once per second (a new buffer with the whole layer
 *    damaged: the session's one full-screen change per second);
 *  - "shade": 1080x2400, the notification shade over it (full screen, as
 *    Android's NotificationShade window is), transparent but for a
 *    notification card whose content changes every CARD_EVERY frames (a new
 *    buffer, damage the card);
 *  - "status": 1080xSTATUS_HEIGHT, the status bar, whose clock changes every
 *    frame (a new buffer, damage the clock).
 *
 * As SurfaceFlinger does (HWC2::Layer::setBuffer skips an unchanged slot),
 * setLayerBuffer is called for a layer only when it has a new buffer; its
 * geometry once. Each layer has QUEUE_BUFFERS buffers in turn. Damage is
 * what HWC2 defines (setLayerSurfaceDamage: modified since the previous
 * frame); each layer changes one fixed rect, so it is also exactly the
 * change since that buffer's last use. SurfaceFlinger's cache is followed
 * for damage too: setLayerSurfaceDamage only when it differs from the last
 * one sent (an unchanged layer's is the empty rect [0,0,0,0]). Acquire
 * fences are signalled pipes (the GPU is done); the producer waits for a
 * buffer's release fence (getReleaseFences) before drawing into it again,
 * and draws only what changed since that buffer's last content.
 *
 * Frames start on a 60 Hz vsync grid; one that overran skips the vsyncs it
 * missed (SurfaceFlinger waits for the next vsync; no burst of catch-up
 * frames, whose presents would release the previous buffers at once).
 *
 * The child measures, from the first measured frame until the device is
 * closed (the trace finished), the process's CPU time minus the client
 * thread's own (its drawing, the fake's and the wrapper's code on its
 * thread): the recorder's threads, beside the fake module's (the same
 * session run directly on the fake says how much that is).
 */
#define _GNU_SOURCE	/* memfd_create(): Linux-specific, this file only */
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/test_buffer.h>

#include "bench.h"
#include "bench_recorder.h"
#include "fake_hwc2.h"
#include "hwc2_load.h"

#define FOURCC_ABGR8888 0x34324241u	/* 'AB24': bytes R, G, B, A */
#define QUEUE_BUFFERS 3
#define STATUS_HEIGHT 96
#define WALL_SCROLL 240			/* rows the wallpaper moves at each change */
#define CARD_EVERY 3			/* frames between the card's changes */
#define MAX_LIST 8
#define RELEASE_WAIT_MS 1000		/* the producer's wait for a release fence */

enum { L_WALL, L_SHADE, L_STATUS };

const char *const bench_ui_layer_names[BENCH_UI_LAYERS] = { "wallpaper", "shade", "status" };

struct qbuf {
	int fd;
	native_handle_t *handle;	/* owned, free() */
	uint8_t *map;
	size_t size;
	int release;			/* release fence of its last use, -1 none */
	int64_t version;		/* the layer's content version it holds, -1 never drawn */
};

struct ui_layer {
	hwc2_layer_t id;
	uint32_t width, height, stride;
	hwc_rect_t change;		/* the rect its changes touch (whole layer: wallpaper) */
	struct qbuf q[QUEUE_BUFFERS];
	unsigned next;			/* the buffer to draw next */
	int shown, replaced;		/* buffer on screen, buffer it replaced this frame (-1 none) */
	int64_t version;		/* content version, bumped at every change */
	hwc_rect_t sent_damage;		/* the last setLayerSurfaceDamage (SurfaceFlinger's cache) */
	bool damage_sent;
	uint64_t buffers;		/* new buffers set during measured frames */
};

struct ui_client {
	hwc2_device_t *dev;
	struct hwct_hwc2_fns fn;
	struct ui_layer layers[BENCH_UI_LAYERS];
	struct bench_pixels px;
	uint64_t release_waits;		/* the producer found a release fence pending */
	int err;
};

static atomic_bool ui_connected;

static void on_hotplug(hwc2_callback_data_t data, hwc2_display_t display, int32_t connection)
{
	(void)data;
	if (display == FAKE_DISPLAY && connection == HWC2_CONNECTION_CONNECTED) {
		atomic_store(&ui_connected, true);
	}
}

static void ui_fail(struct ui_client *c, int err, const char *what, int32_t hwc_error)
{
	if (c->err == 0) {
		fprintf(stderr, "bench-recorder: ui session: %s failed (%d)\n", what, hwc_error);
		c->err = err;
	}
}

static void ui_expect(struct ui_client *c, int32_t e, const char *what)
{
	if (e != HWC2_ERROR_NONE) {
		ui_fail(c, -EIO, what, e);
	}
}

/* ------------------------------------------------------------- buffers */

static int qbuf_create(struct qbuf *b, uint32_t width, uint32_t height)
{
	uint32_t stride = width * 4;

	*b = (struct qbuf){ .fd = -1, .release = -1, .version = -1, .size = (size_t)stride * height };
	return bench_memfd_buffer(width, height, &b->fd, &b->map, &b->handle);
}

static void qbuf_destroy(struct qbuf *b)
{
	if (b->map) {
		munmap(b->map, b->size);
	}
	if (b->fd >= 0) {
		close(b->fd);
	}
	if (b->release >= 0) {
		close(b->release);
	}
	free(b->handle);
}

/* The producer's dequeue: waits until the buffer's last release fence signalled. */
static void wait_release(struct ui_client *c, struct qbuf *b)
{
	struct pollfd p = { .fd = b->release, .events = POLLIN };

	if (b->release < 0) {
		return;
	}
	if (poll(&p, 1, 0) == 0) {
		c->release_waits++;
		if (poll(&p, 1, RELEASE_WAIT_MS) == 0) {
			ui_fail(c, -ETIMEDOUT, "waiting for a release fence", 0);
		}
	}
	close(b->release);
	b->release = -1;
}

/* ------------------------------------------------------------- drawing */

/* Rows of the screenshot from row `first` on (wrapping) into rect r of b. */
static void draw_photo(const struct ui_layer *l, struct qbuf *b, const struct bench_pixels *px, hwc_rect_t r,
	uint32_t first, uint32_t column)
{
	for (int y = r.top; y < r.bottom; y++) {
		uint8_t *dst = b->map + (size_t)y * l->stride + (size_t)r.left * 4;
		const uint8_t *src = px->data + (size_t)((first + (uint32_t)y) % px->height) * px->width * 4;
		uint32_t x0 = (column + (uint32_t)r.left) % px->width, w = (uint32_t)(r.right - r.left);

		for (uint32_t done = 0; done < w;) {
			uint32_t n = px->width - x0 < w - done ? px->width - x0 : w - done;

			memcpy(dst + (size_t)done * 4, src + (size_t)x0 * 4, (size_t)n * 4);
			done += n;
			x0 = 0;
		}
	}
}

/* The layer's content of version v, only where it may differ from what b holds. */
static void draw_layer(struct ui_client *c, int i, struct qbuf *b, int64_t v)
{
	struct ui_layer *l = &c->layers[i];
	hwc_rect_t whole = { 0, 0, (int)l->width, (int)l->height };
	uint32_t stamp = (uint32_t)v;

	if (i == L_WALL) {
		draw_photo(l, b, &c->px, whole, (uint32_t)v * WALL_SCROLL, 0);
	} else {
		if (b->version < 0) {
			if (i == L_SHADE) {
				memset(b->map, 0, b->size);	/* transparent around the card */
			} else {
				draw_photo(l, b, &c->px, whole, 0, 0);
			}
		}
		/* a different slice of the photo per version, as a clock's digits or a card's text change */
		draw_photo(l, b, &c->px, l->change, (uint32_t)(v * 37) % c->px.height, (uint32_t)(v * 13));
	}
	/* the version in the changed rect's first pixel: no two versions alike */
	memcpy(b->map + (size_t)l->change.top * l->stride + (size_t)l->change.left * 4, &stamp, sizeof(stamp));
	b->version = v;
}

/* --------------------------------------------------------------- calls */

static void set_damage(struct ui_client *c, struct ui_layer *l, hwc_rect_t r)
{
	int32_t e;

	if (l->damage_sent && memcmp(&l->sent_damage, &r, sizeof(r)) == 0) {
		return;
	}
	e = c->fn.set_layer_surface_damage(c->dev, FAKE_DISPLAY, l->id, (hwc_region_t){ 1, &r });
	ui_expect(c, e, "setLayerSurfaceDamage");
	l->sent_damage = r;
	l->damage_sent = true;
}

static int pipe_fence(struct ui_client *c)
{
	int fd = bench_signalled_fence();

	if (fd < 0) {
		ui_fail(c, fd, "a signalled pipe", 0);
		return -1;
	}
	return fd;
}

/* Queues layer i's next buffer with content version v (a new buffer, damage its change). */
static void queue_buffer(struct ui_client *c, int i, int64_t v, bool measured)
{
	struct ui_layer *l = &c->layers[i];
	unsigned k = l->next;
	struct qbuf *b = &l->q[k];
	int fence;
	int32_t e;

	wait_release(c, b);
	draw_layer(c, i, b, v);
	fence = pipe_fence(c);
	e = c->fn.set_layer_buffer(c->dev, FAKE_DISPLAY, l->id, b->handle, fence);
	ui_expect(c, e, "setLayerBuffer");
	if (fence >= 0) {
		close(fence);
	}
	set_damage(c, l, l->change);
	l->replaced = l->shown;
	l->shown = (int)k;
	l->next = (k + 1) % QUEUE_BUFFERS;
	l->version = v;
	l->buffers += measured;
}

static void display_calls(struct ui_client *c)
{
	hwc2_display_t d = FAKE_DISPLAY;
	hwc2_layer_t layers[MAX_LIST];
	int32_t values[MAX_LIST], fences[MAX_LIST], dreq = 0, present = -1, e;
	uint32_t types = 0, requests = 0, n = 0;

	e = c->fn.validate_display(c->dev, d, &types, &requests);
	if (e != HWC2_ERROR_NONE && e != HWC2_ERROR_HAS_CHANGES) {
		ui_fail(c, -EIO, "validateDisplay", e);
	}
	if (types) {
		e = c->fn.get_changed_composition_types(c->dev, d, &n, NULL, NULL);
		ui_expect(c, e, "getChangedCompositionTypes");
		n = n < MAX_LIST ? n : MAX_LIST;
		e = c->fn.get_changed_composition_types(c->dev, d, &n, layers, values);
		ui_expect(c, e, "getChangedCompositionTypes");
	}
	if (requests) {
		n = 0;
		e = c->fn.get_display_requests(c->dev, d, &dreq, &n, NULL, NULL);
		ui_expect(c, e, "getDisplayRequests");
		n = n < MAX_LIST ? n : MAX_LIST;
		e = c->fn.get_display_requests(c->dev, d, &dreq, &n, layers, values);
		ui_expect(c, e, "getDisplayRequests");
	}
	if (types) {
		e = c->fn.accept_display_changes(c->dev, d);
		ui_expect(c, e, "acceptDisplayChanges");
	}
	e = c->fn.present_display(c->dev, d, &present);
	ui_expect(c, e, "presentDisplay");
	if (present >= 0) {
		close(present);
	}
	n = 0;
	e = c->fn.get_release_fences(c->dev, d, &n, NULL, NULL);
	ui_expect(c, e, "getReleaseFences");
	n = n < MAX_LIST ? n : MAX_LIST;
	e = c->fn.get_release_fences(c->dev, d, &n, layers, fences);
	ui_expect(c, e, "getReleaseFences");
	for (uint32_t k = 0; e == HWC2_ERROR_NONE && k < n; k++) {
		struct qbuf *b = NULL;

		/* a layer's release fence hands back the buffer its new one replaced */
		for (int i = 0; i < BENCH_UI_LAYERS; i++) {
			struct ui_layer *l = &c->layers[i];

			if (l->id == layers[k] && l->replaced >= 0) {
				b = &l->q[l->replaced];
				l->replaced = -1;
			}
		}
		if (b && fences[k] >= 0) {
			if (b->release >= 0) {
				close(b->release);
			}
			b->release = fences[k];
		} else if (fences[k] >= 0) {
			close(fences[k]);
		}
	}
}

static void ui_frame(struct ui_client *c, uint32_t f, bool measured)
{
	hwc_rect_t none = { 0, 0, 0, 0 };

	for (int i = 0; i < BENCH_UI_LAYERS; i++) {
		struct ui_layer *l = &c->layers[i];
		bool change = f == 0 || (i == L_WALL && f % 60 == 0) || (i == L_SHADE && f % CARD_EVERY == 0) ||
			i == L_STATUS;

		l->replaced = -1;
		if (change) {
			queue_buffer(c, i, (int64_t)f, measured);
		} else {
			set_damage(c, l, none);
		}
	}
	display_calls(c);
}

/* ------------------------------------------------------------- set-up */

static int ui_set_up(struct ui_client *c, const char *module, const char *pixels)
{
	static const uint32_t heights[BENCH_UI_LAYERS] = { FAKE_HEIGHT, FAKE_HEIGHT, STATUS_HEIGHT };
	struct hw_module_t *hmi;
	char msg[256];
	void *handle;
	int32_t missing, e;
	int ret;

	if (hwct_hwc2_module_load(module, NULL, &handle, &hmi, msg, sizeof(msg)) < 0 ||
			hwct_hwc2_device_open(hmi, &c->dev, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "bench-recorder: %s: %s\n", module, msg);
		return -ENOENT;
	}
	hwct_hwc2_fns_resolve(c->dev, HWCT_HWC2_FN_OPTIONAL, NULL, &c->fn);
	if (hwct_hwc2_fns_missing(&c->fn, HWCT_HWC2_FN_REQUIRED, &missing, 1) > 0) {
		fprintf(stderr, "bench-recorder: the module lacks function %d\n", missing);
		return -ENOTSUP;
	}
	e = c->fn.register_callback(c->dev, HWC2_CALLBACK_HOTPLUG, c, (hwc2_function_pointer_t)on_hotplug);
	ui_expect(c, e, "registerCallback");
	if (!atomic_load(&ui_connected)) {
		fprintf(stderr, "bench-recorder: no hotplug for the display\n");
		return -EIO;
	}
	ui_expect(c, c->fn.set_power_mode(c->dev, FAKE_DISPLAY, HWC2_POWER_MODE_ON), "setPowerMode");
	ret = bench_pixels_load(&c->px, pixels, 0);
	for (int i = 0; ret == 0 && i < BENCH_UI_LAYERS; i++) {
		struct ui_layer *l = &c->layers[i];
		hwc2_display_t d = FAKE_DISPLAY;

		l->width = FAKE_WIDTH;
		l->height = heights[i];
		l->stride = l->width * 4;
		l->shown = l->replaced = -1;
		l->change = i == L_WALL ? (hwc_rect_t){ 0, 0, FAKE_WIDTH, FAKE_HEIGHT } :
			i == L_SHADE ? (hwc_rect_t){ 32, 1400, FAKE_WIDTH - 32, 1720 } :
			(hwc_rect_t){ 40, 16, 220, 80 };
		for (int k = 0; ret == 0 && k < QUEUE_BUFFERS; k++) {
			ret = qbuf_create(&l->q[k], l->width, l->height);
		}
		ui_expect(c, c->fn.create_layer(c->dev, d, &l->id), "createLayer");
		if (ret < 0 || c->err) {
			break;
		}
		/* geometry once, as SurfaceFlinger sends it when it changes */
		hwc_rect_t frame = { 0, 0, (int)l->width, (int)l->height };
		hwc_frect_t crop = { 0, 0, (float)l->width, (float)l->height };

		ui_expect(c, c->fn.set_layer_composition_type(c->dev, d, l->id, HWC2_COMPOSITION_DEVICE), "type");
		ui_expect(c, c->fn.set_layer_display_frame(c->dev, d, l->id, frame), "setLayerDisplayFrame");
		ui_expect(c, c->fn.set_layer_source_crop(c->dev, d, l->id, crop), "setLayerSourceCrop");
		ui_expect(c, c->fn.set_layer_plane_alpha(c->dev, d, l->id, 1.0f), "setLayerPlaneAlpha");
		ui_expect(c, c->fn.set_layer_blend_mode(c->dev, d, l->id, i == L_WALL ? HWC2_BLEND_MODE_NONE :
			HWC2_BLEND_MODE_PREMULTIPLIED), "setLayerBlendMode");
		ui_expect(c, c->fn.set_layer_dataspace(c->dev, d, l->id, HAL_DATASPACE_V0_SRGB), "setLayerDataspace");
		ui_expect(c, c->fn.set_layer_transform(c->dev, d, l->id, 0), "setLayerTransform");
		ui_expect(c, c->fn.set_layer_z_order(c->dev, d, l->id, (uint32_t)i), "setLayerZOrder");
		ui_expect(c, c->fn.set_layer_visible_region(c->dev, d, l->id, (hwc_region_t){ 1, &frame }),
			"setLayerVisibleRegion");
	}
	if (ret < 0) {
		fprintf(stderr, "bench-recorder: ui buffers: %s\n", strerror(-ret));
		return ret;
	}
	return c->err;
}

/*
 * SurfaceFlinger's pacing: frames start on the vsync grid (from *t0), at the
 * first vsync after the previous frame; a frame that overran skips the
 * vsyncs it missed rather than being followed by a burst of frames.
 */
static void ui_pace(uint64_t *t0)
{
	uint64_t now = bench_ns(), next;
	struct timespec ts;

	if (!*t0) {
		*t0 = now;
		return;
	}
	next = *t0 + ((now - *t0) / BENCH_FRAME_NS + 1) * BENCH_FRAME_NS;
	ts.tv_sec = (time_t)(next / 1000000000u);
	ts.tv_nsec = (long)(next % 1000000000u);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int bench_ui_run(const struct bench_ui_options *o, struct bench_ui_result *res)
{
	struct ui_client c = { 0 };
	uint64_t grid = 0, t0 = 0, proc0 = 0, thread0 = 0, thread1 = 0;
	int ret;

	*res = (struct bench_ui_result){ .frames = o->frames };
	for (int i = 0; i < BENCH_UI_LAYERS; i++) {
		for (int k = 0; k < QUEUE_BUFFERS; k++) {
			c.layers[i].q[k] = (struct qbuf){ .fd = -1, .release = -1 };
		}
	}
	ret = ui_set_up(&c, o->module, o->pixels);
	for (uint32_t f = 0; ret == 0 && c.err == 0 && f < o->warmup + o->frames; f++) {
		if (f == o->warmup) {
			t0 = clock_ns(CLOCK_MONOTONIC);
			proc0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
			thread0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			c.release_waits = 0;
		}
		ui_pace(&grid);
		ui_frame(&c, f, f >= o->warmup);
	}
	thread1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; c.dev && i < BENCH_UI_LAYERS; i++) {
		if (c.layers[i].id) {
			c.fn.destroy_layer(c.dev, FAKE_DISPLAY, c.layers[i].id);
		}
	}
	if (c.dev) {
		c.fn.set_power_mode(c.dev, FAKE_DISPLAY, HWC2_POWER_MODE_OFF);
		if (hwc2_close(c.dev) != 0) {
			ui_fail(&c, -EIO, "close", 0);
		}
	}
	/* the close finished the trace: what it did on this thread counts as the recorder's */
	res->session_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	res->other_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - proc0 - (thread1 - thread0);
	res->client_cpu_ns = thread1 - thread0;
	res->release_waits = c.release_waits;
	for (int i = 0; i < BENCH_UI_LAYERS; i++) {
		res->buffers[i] = c.layers[i].buffers;
		for (int k = 0; k < QUEUE_BUFFERS; k++) {
			qbuf_destroy(&c.layers[i].q[k]);
		}
	}
	bench_pixels_finish(&c.px);
	return ret < 0 ? ret : c.err;
}

void bench_ui_describe(FILE *f)
{
	fprintf(f, "layers wallpaper 1080x%u (new each second, whole damage), shade 1080x%u (card 1016x320 new "
		"every %d frames), status 1080x%u (clock 180x64 new every frame); %d buffers per layer",
		FAKE_HEIGHT, FAKE_HEIGHT, CARD_EVERY, STATUS_HEIGHT, QUEUE_BUFFERS);
}
