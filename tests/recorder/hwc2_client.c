/*
 * A test client that drives an HWC2 module the way SurfaceFlinger (through
 * the HIDL passthrough composer) does, for N frames, with buffers from the
 * project's test allocator (memfds with known pixels and damage), and logs
 * every call it made in the canonical form of calllog.h, plus "#" lines:
 *
 *	# buffer INODE WIDTH HEIGHT STRIDE OFFSET
 *	# callbacks HOTPLUG REFRESH VSYNC
 *	# calls N				(call lines written)
 *	# latency open NS set_layer_buffer NS FRAME present NS FRAME slow S N S N
 *	# fds WARM END				(--fd-check)
 *	# sched MAIN OTHERS			(--sched-check; client_probe.h)
 *	# emfile N				(--nofile: own open()/dup() that failed)
 *	# function D 0|1			(--probe-functions)
 *	# maps KEPT LEFT			(--map-check)
 *	# fork-stacks IN CHECKED READABLE	(--fork-check; client_fork.h)
 *
 * Usage: hwc2-client --module PATH --log FILE [--frames N]
 *	[--signal-at A,B] [--control FILE --control-at A,B] [--small]
 *	[--frame-sleep-us N] [--fd-check W [--fd-drain]] [--probe-functions] [--leak-on-purpose]
 *	[--acquire-unsignalled] [--acquire-late-ms N] [--nofile N] [--sched-check W] [--map-check]
 *	[--fork-check]
 * --signal-at raises SIGUSR2 before frames A and B; --control-at writes
 * "start" / "stop" into FILE before frames A and B (the recorder's triggers).
 * --small uses small buffers (long runs); --frame-sleep-us sets the pause
 * after each frame (default 5000); --fd-check W counts the open fds once
 * the recorder is quiet after frame W and after the last frame (with
 * --fd-drain, the last count waits for the fds to come back down to frame
 * W's: client_count_fds_drained());
 * --sched-check W logs every thread's scheduling policy and nice value after
 * frame W; --probe-functions logs which descriptors getFunction hands out. The
 * functions SurfaceFlinger treats as optional are skipped when the module
 * has none (FAKE_HWC2_MODE=null-functions); the latency line holds the
 * longest device open, setLayerBuffer and presentDisplay, then for
 * setLayerBuffer and presentDisplay how many calls took CLIENT_SLOW_NS or
 * more and how many there were.
 * --leak-on-purpose loses a block, for a sanitizer build to report
 * (test_sanitized.c: the leak checker is live). --acquire-unsignalled
 * passes acquire fences that never signal (the recorder's captures of
 * them are late: test_late.c); --acquire-late-ms N signals each frame's
 * acquire fences N ms after its presentDisplay returned (a slow producer, or a
 * first present that takes seconds under an emulator). --nofile N sets RLIMIT_NOFILE's soft limit
 * to N before the module is loaded (the recorder's fd budget derives from
 * it) and, after each frame, opens /dev/null and dups it, counting the
 * calls that fail (test_fd_bound.c: the recorder never takes the client's
 * last fds). --map-check frees the destroyed layers' buffers and logs
 * whether the process still maps them (test_map_layer.c: the recorder
 * lets a destroyed layer's buffers go). --fork-check runs the session in
 * the forked child of a process with threads and logs, after frame 4,
 * whether the recorder's threads run on those threads' stacks
 * (client_fork.h).
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hash.h>
#include <hwct/picture.h>
#include <hwct/test_buffer.h>

#include "calllog.h"
#include "client_fork.h"
#include "client_probe.h"
#include "fake_hwc2.h"
#include "hwc2_load.h"

#define FOURCC_ABGR8888 0x34324241u	/* 'A' 'B' '2' '4' */
#define LAYERS 4
#define CT_BUFFERS 2
#define MAX_FRAMES 1000000

struct buffer {
	int fd;
	native_handle_t *handle;
	uint8_t *map;
	uint32_t width, height, stride, offset;
	size_t size;
	uint64_t ino;
};

struct layer {
	hwc2_layer_t id;
	int32_t type;
	bool has_buffers;
	struct buffer buf[2];
	hwc_rect_t frame;
	float alpha;
};

/* Buffer sizes: SurfaceFlinger-like, or --small for long runs. */
struct sizes {
	uint32_t bg_w, bg_h;		/* background layer */
	uint32_t app_w, app_h;		/* translucent app layer */
	uint32_t target_w, target_h;	/* client target */
	hwc_rect_t app_frame;		/* where the app sits, inside the target */
};

static const struct sizes full_sizes = { 540, 1200, 400, 300, FAKE_WIDTH, FAKE_HEIGHT,
	{ 100, 200, 500, 500 } };
static const struct sizes small_sizes = { 128, 96, 48, 32, 160, 120, { 16, 16, 64, 48 } };

static FILE *log_file;
static hwc2_device_t *dev;
static atomic_int hotplugs, refreshes, vsyncs;
static atomic_bool connected;
static const struct sizes *sz = &full_sizes;
static unsigned long calls_logged;
static bool acquire_unsignalled;
static long acquire_late_ms;		/* --acquire-late-ms */
#define LATE_FENCES 16
static int late_fences[LATE_FENCES];	/* write ends of this frame's acquire fences (--acquire-late-ms) */
static unsigned late_fence_count;
static long release_delay_us;		/* --release-delay-us: between presentDisplay and getReleaseFences */
static struct client_latency lat_buffer = { .max_frame = -1 }, lat_present = { .max_frame = -1 };
static int frame_now;

#define FN(name) ((HWC2_PFN_##name)fn(HWC2_FUNCTION_##name))
/* Functions SurfaceFlinger can do without: the call is skipped when the module has none. */
#define HAVE(name) (dev->getFunction(dev, HWC2_FUNCTION_##name) != NULL)

static hwc2_function_pointer_t fn(int32_t descriptor)
{
	hwc2_function_pointer_t f = dev->getFunction(dev, descriptor);

	if (!f) {
		fprintf(stderr, "hwc2-client: the module lacks function %d\n", descriptor);
		exit(2);
	}
	return f;
}

static void emit(struct calllog_line *l)
{
	fprintf(log_file, "%s\n", l->s);
	calls_logged++;
}

/* ------------------------------------------------------------- callbacks */

static void on_hotplug(hwc2_callback_data_t data, hwc2_display_t display, int32_t connection)
{
	(void)data;
	atomic_fetch_add(&hotplugs, 1);
	if (display == FAKE_DISPLAY && connection == HWC2_CONNECTION_CONNECTED) {
		atomic_store(&connected, true);
	}
}

static void on_refresh(hwc2_callback_data_t data, hwc2_display_t display)
{
	(void)data;
	(void)display;
	atomic_fetch_add(&refreshes, 1);
}

static void on_vsync(hwc2_callback_data_t data, hwc2_display_t display, int64_t timestamp)
{
	(void)data;
	(void)display;
	(void)timestamp;
	atomic_fetch_add(&vsyncs, 1);
}

/* --------------------------------------------------------------- buffers */

static void buffer_create(struct buffer *b, uint32_t width, uint32_t height, uint32_t stride,
	uint32_t offset)
{
	struct stat st;

	*b = (struct buffer){ .width = width, .height = height, .stride = stride, .offset = offset };
	b->size = offset + (size_t)stride * height;
	b->fd = memfd_create("hwct-test-buffer", MFD_CLOEXEC);
	if (b->fd < 0 || ftruncate(b->fd, (off_t)b->size) < 0 || fstat(b->fd, &st) < 0) {
		perror("hwc2-client: memfd");
		exit(2);
	}
	b->ino = (uint64_t)st.st_ino;
	b->map = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
	b->handle = hwct_test_handle_create(&(struct hwct_test_buffer){ .fd = b->fd, .width = width,
		.height = height, .fourcc = FOURCC_ABGR8888, .stride = { stride }, .offset = { offset } });
	if (b->map == MAP_FAILED || !b->handle) {
		fprintf(stderr, "hwc2-client: cannot map a buffer\n");
		exit(2);
	}
	fprintf(log_file, "# buffer %llu %u %u %u %u\n", (unsigned long long)b->ino, width, height, stride,
		offset);
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

/*
 * --map-check, in two steps around the layers' destruction. Before it, the
 * client drops its own mappings of their buffers and counts KEPT: those
 * still mapped in the process (the recorder's kept mappings; counted before
 * destroyLayer, since a quick worker may let them go right after it). Once
 * the layers are destroyed their buffers are freed as a producer frees
 * them (closed), and the client waits, without a limit of its own, until
 * the recorder has let them all go (no frame is presented meanwhile): a
 * loaded or sanitized run may take the worker long to reach destroyLayer,
 * and meson's timeout bounds a recorder that never does. Logs
 * "# maps KEPT LEFT", LEFT being 0 once the wait ends.
 */
static int map_check_before_destroy(struct layer *layers, uint64_t *inodes, int *n)
{
	*n = 0;
	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < 2; k++) {
			struct buffer *b = &layers[i].buf[k];

			inodes[(*n)++] = b->ino;
			munmap(b->map, b->size);
			b->map = NULL;
		}
	}
	return client_count_mapped(inodes, *n);
}

static void map_check_after_destroy(struct layer *layers, const uint64_t *inodes, int n, int kept)
{
	int left;

	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < 2; k++) {
			close(layers[i].buf[k].fd);
			layers[i].buf[k].fd = -1;
		}
	}
	while ((left = client_count_mapped(inodes, n)) > 0) {
		nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
	}
	fprintf(log_file, "# maps %d %d\n", kept, left);
}

static uint8_t *pixel(struct buffer *b, uint32_t x, uint32_t y)
{
	return b->map + b->offset + (size_t)y * b->stride + (size_t)x * 4;
}

static void put(uint8_t *p, int r, int g, int bl, int a)
{
	p[0] = (uint8_t)r;
	p[1] = (uint8_t)g;
	p[2] = (uint8_t)bl;
	p[3] = (uint8_t)a;
}

/* A 40x40 square that moves each frame, wrapping once it would leave the background. */
static hwc_rect_t square_at(int frame)
{
	int w = (int)sz->bg_w, h = (int)sz->bg_h;
	int x = 20 + 30 * frame, y = 100 + 20 * frame;

	if (x + 40 > w || y + 40 > h) {
		x %= w - 40;
		y %= h - 40;
	}
	return (hwc_rect_t){ x, y, x + 40, y + 40 };
}

/* Background layer: a gradient with a square that moves each frame. */
static void draw_background(struct buffer *b, int frame)
{
	hwc_rect_t sq = square_at(frame);

	for (uint32_t y = 0; y < b->height; y++) {
		for (uint32_t x = 0; x < b->width; x++) {
			put(pixel(b, x, y), (int)(x & 255), (int)(y & 255), 0x40, 255);
		}
		/* the row padding holds something too: it is part of the content */
		memset(pixel(b, b->width, y), 0x5a, b->stride - b->width * 4);
	}
	for (int y = sq.top; y < sq.bottom; y++) {
		for (int x = sq.left; x < sq.right; x++) {
			put(pixel(b, (uint32_t)x, (uint32_t)y), 255, frame * 30, 255 - frame * 30, 255);
		}
	}
}

static void draw_app(struct buffer *b, int frame)
{
	for (uint32_t y = 0; y < b->height; y++) {
		for (uint32_t x = 0; x < b->width; x++) {
			put(pixel(b, x, y), (int)(x + (uint32_t)frame * 7), (int)(y + (uint32_t)frame * 3),
				frame * 40, 128);
		}
	}
}

static void draw_cursor(struct buffer *b)
{
	for (uint32_t y = 0; y < b->height; y++) {
		for (uint32_t x = 0; x < b->width; x++) {
			int inside = (x - 32) * (x - 32) + (y - 32) * (y - 32) < 900;

			put(pixel(b, x, y), inside ? 255 : 0, inside ? 255 : 0, inside ? 255 : 0, inside ? 255 : 0);
		}
	}
}

/* Client composition: the app layer copied into the target at its frame. */
static void draw_target(struct buffer *t, struct buffer *app, hwc_rect_t at)
{
	memset(t->map + t->offset, 0, (size_t)t->stride * t->height);
	for (int y = at.top; y < at.bottom; y++) {
		memcpy(pixel(t, (uint32_t)at.left, (uint32_t)y), pixel(app, 0, (uint32_t)(y - at.top)),
			(size_t)(at.right - at.left) * 4);
	}
}

/* The content hash of b: its picture, the visible rows without their padding (docs/format.md 3.3). */
static void hash_part(struct calllog_line *l, struct buffer *b)
{
	struct hwct_hash h = { 0, 0 };
	struct hwct_picture p;
	char hex[HWCT_HASH_HEX];

	if (hwct_picture_init(&p, FOURCC_ABGR8888, b->width, b->height)) {
		p.planes[0].stride = b->stride;
		h = hwct_picture_hash(&p, b->map + b->offset);
	}

	calllog_add(l, " | hash=%s", hwct_hash_to_hex(&h, hex));
}

/*
 * An acquire fence: a pipe whose read end is passed; the client "finishes
 * rendering" at once, or never (--acquire-unsignalled: a dup of the read
 * end of one pipe whose write end stays open, unwritten, until the client
 * exits; one pipe for the whole run, so long runs hold no more fds).
 */
static int acquire_fence(void)
{
	static int never[2] = { -1, -1 };
	int fds[2], fd;

	if (acquire_unsignalled) {
		if (never[0] < 0 && pipe(never) < 0) {
			perror("hwc2-client: pipe");
			exit(2);
		}
		if ((fd = fcntl(never[0], F_DUPFD_CLOEXEC, 3)) < 0) {
			perror("hwc2-client: dup");
			exit(2);
		}
		return fd;
	}
	if (pipe(fds) < 0) {
		perror("hwc2-client: pipe");
		exit(2);
	}
	if (acquire_late_ms > 0 && late_fence_count < LATE_FENCES) {
		late_fences[late_fence_count++] = fds[1];	/* signalled after the present (signal_late_fences) */
		return fds[0];
	}
	if (write(fds[1], "x", 1) != 1) {
		exit(2);
	}
	close(fds[1]);
	return fds[0];
}

/* --acquire-late-ms: the frame's acquire fences signal that long after its present. */
static void sleep_ms(int ms);

static void signal_late_fences(void)
{
	if (!late_fence_count) {
		return;
	}
	sleep_ms((int)acquire_late_ms);
	for (unsigned i = 0; i < late_fence_count; i++) {
		if (write(late_fences[i], "x", 1) != 1) {
			exit(2);
		}
		close(late_fences[i]);
	}
	late_fence_count = 0;
}

/* ------------------------------------------------------------------ calls */

static void begin(struct calllog_line *l, int32_t function, bool has_layer, hwc2_layer_t layer,
	int32_t error)
{
	calllog_begin(l, function, true, FAKE_DISPLAY, has_layer, layer, error);
}

static void rects_of(int32_t (*out)[4], const hwc_rect_t *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out[i][0] = r[i].left;
		out[i][1] = r[i].top;
		out[i][2] = r[i].right;
		out[i][3] = r[i].bottom;
	}
}

static void set_layer_buffer(struct layer *ly, struct buffer *b, bool fenced)
{
	struct calllog_line l;
	int fence = fenced ? acquire_fence() : -1;
	HWC2_PFN_SET_LAYER_BUFFER set = FN(SET_LAYER_BUFFER);
	uint64_t t0 = client_now_ns();
	int32_t e = set(dev, FAKE_DISPLAY, ly->id, b->handle, fence);

	client_latency_add(&lat_buffer, t0, frame_now);
	if (fence >= 0) {
		close(fence);	/* ours: the device dup'd what it keeps */
	}
	begin(&l, HWC2_FUNCTION_SET_LAYER_BUFFER, true, ly->id, e);
	calllog_add(&l, " buf=%llu fence=%d", (unsigned long long)b->ino, fenced);
	hash_part(&l, b);
	emit(&l);
}

static void set_damage(struct layer *ly, const hwc_rect_t *rects, size_t n)
{
	struct calllog_line l;
	int32_t r[4][4];
	int32_t e = FN(SET_LAYER_SURFACE_DAMAGE)(dev, FAKE_DISPLAY, ly->id,
		(hwc_region_t){ n, n ? rects : NULL });

	begin(&l, HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE, true, ly->id, e);
	rects_of(r, rects, n);
	calllog_rects(&l, "region", (const int32_t (*)[4])r, n);
	emit(&l);
}

static void set_value(struct layer *ly, int32_t function, int64_t v)
{
	struct calllog_line l;
	int32_t e;

	switch (function) {
	case HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE:
		e = FN(SET_LAYER_COMPOSITION_TYPE)(dev, FAKE_DISPLAY, ly->id, (int32_t)v);
		break;
	case HWC2_FUNCTION_SET_LAYER_BLEND_MODE:
		e = FN(SET_LAYER_BLEND_MODE)(dev, FAKE_DISPLAY, ly->id, (int32_t)v);
		break;
	case HWC2_FUNCTION_SET_LAYER_DATASPACE:
		e = FN(SET_LAYER_DATASPACE)(dev, FAKE_DISPLAY, ly->id, (int32_t)v);
		break;
	case HWC2_FUNCTION_SET_LAYER_TRANSFORM:
		e = FN(SET_LAYER_TRANSFORM)(dev, FAKE_DISPLAY, ly->id, (int32_t)v);
		break;
	case HWC2_FUNCTION_SET_LAYER_Z_ORDER:
		e = FN(SET_LAYER_Z_ORDER)(dev, FAKE_DISPLAY, ly->id, (uint32_t)v);
		break;
	default:
		abort();
	}
	begin(&l, function, true, ly->id, e);
	calllog_add(&l, " v=%lld", (long long)v);
	emit(&l);
}

static void set_display_value(int32_t function, int64_t v)
{
	struct calllog_line l;
	int32_t e;

	switch (function) {
	case HWC2_FUNCTION_SET_POWER_MODE:
		e = FN(SET_POWER_MODE)(dev, FAKE_DISPLAY, (int32_t)v);
		break;
	case HWC2_FUNCTION_SET_VSYNC_ENABLED:
		e = FN(SET_VSYNC_ENABLED)(dev, FAKE_DISPLAY, (int32_t)v);
		break;
	case HWC2_FUNCTION_SET_ACTIVE_CONFIG:
		e = FN(SET_ACTIVE_CONFIG)(dev, FAKE_DISPLAY, (hwc2_config_t)v);
		break;
	default:
		abort();
	}
	begin(&l, function, false, 0, e);
	calllog_add(&l, " v=%lld", (long long)v);
	emit(&l);
}

static void layer_setup(struct layer *ly, hwc_rect_t frame, hwc_frect_t crop, uint32_t z)
{
	struct calllog_line l;
	hwc_rect_t visible[1] = { frame };
	int32_t r[1][4];
	int32_t e;

	set_value(ly, HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE, ly->type);
	set_value(ly, HWC2_FUNCTION_SET_LAYER_BLEND_MODE, HWC2_BLEND_MODE_PREMULTIPLIED);
	e = FN(SET_LAYER_DISPLAY_FRAME)(dev, FAKE_DISPLAY, ly->id, frame);
	begin(&l, HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME, true, ly->id, e);
	calllog_add(&l, " rect=%d,%d,%d,%d", frame.left, frame.top, frame.right, frame.bottom);
	emit(&l);
	e = FN(SET_LAYER_SOURCE_CROP)(dev, FAKE_DISPLAY, ly->id, crop);
	begin(&l, HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, true, ly->id, e);
	calllog_add(&l, " crop=%.2f,%.2f,%.2f,%.2f", crop.left, crop.top, crop.right, crop.bottom);
	emit(&l);
	set_value(ly, HWC2_FUNCTION_SET_LAYER_Z_ORDER, z);
	e = FN(SET_LAYER_PLANE_ALPHA)(dev, FAKE_DISPLAY, ly->id, ly->alpha);
	begin(&l, HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA, true, ly->id, e);
	calllog_add(&l, " f=%.3f", ly->alpha);
	emit(&l);
	set_value(ly, HWC2_FUNCTION_SET_LAYER_DATASPACE, HAL_DATASPACE_V0_SRGB);
	set_value(ly, HWC2_FUNCTION_SET_LAYER_TRANSFORM, 0);
	e = FN(SET_LAYER_VISIBLE_REGION)(dev, FAKE_DISPLAY, ly->id, (hwc_region_t){ 1, visible });
	begin(&l, HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION, true, ly->id, e);
	rects_of(r, visible, 1);
	calllog_rects(&l, "region", (const int32_t (*)[4])r, 1);
	emit(&l);
}

/* The optional queries: skipped when the module lacks the function. */
static void query_render_intents(void)
{
	struct calllog_line l;
	int32_t intents[4];
	int64_t list[4];
	uint32_t n = 0;
	int32_t e;

	if (!HAVE(GET_RENDER_INTENTS)) {
		return;
	}
	e = FN(GET_RENDER_INTENTS)(dev, FAKE_DISPLAY, HAL_COLOR_MODE_NATIVE, &n, NULL);
	begin(&l, HWC2_FUNCTION_GET_RENDER_INTENTS, false, 0, e);
	calllog_add(&l, " key=%d", HAL_COLOR_MODE_NATIVE);
	calllog_list(&l, "values", NULL, 0);
	emit(&l);
	n = n < 4 ? n : 4;
	e = FN(GET_RENDER_INTENTS)(dev, FAKE_DISPLAY, HAL_COLOR_MODE_NATIVE, &n, intents);
	for (uint32_t i = 0; i < n; i++) {
		list[i] = intents[i];
	}
	begin(&l, HWC2_FUNCTION_GET_RENDER_INTENTS, false, 0, e);
	calllog_add(&l, " key=%d", HAL_COLOR_MODE_NATIVE);
	calllog_list(&l, "values", list, n);
	emit(&l);
}

static void query_hdr(void)
{
	struct calllog_line l;
	float max, avg, min;
	uint32_t n = 0;
	int32_t e;

	if (!HAVE(GET_HDR_CAPABILITIES)) {
		return;
	}
	e = FN(GET_HDR_CAPABILITIES)(dev, FAKE_DISPLAY, &n, NULL, &max, &avg, &min);
	begin(&l, HWC2_FUNCTION_GET_HDR_CAPABILITIES, false, 0, e);
	calllog_list(&l, "types", NULL, 0);
	calllog_add(&l, " max=%.2f avg=%.2f min=%.2f", max, avg, min);
	emit(&l);
}

static void query_doze(void)
{
	struct calllog_line l;
	int32_t v, e;

	if (!HAVE(GET_DOZE_SUPPORT)) {
		return;
	}
	e = FN(GET_DOZE_SUPPORT)(dev, FAKE_DISPLAY, &v);
	begin(&l, HWC2_FUNCTION_GET_DOZE_SUPPORT, false, 0, e);
	calllog_add(&l, " v=%d", v);
	emit(&l);
}

static void query_connection_type(void)
{
	struct calllog_line l;
	uint32_t conn;
	int32_t e;

	if (!HAVE(GET_DISPLAY_CONNECTION_TYPE)) {
		return;
	}
	e = FN(GET_DISPLAY_CONNECTION_TYPE)(dev, FAKE_DISPLAY, &conn);
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_CONNECTION_TYPE, false, 0, e);
	calllog_add(&l, " v=%u", conn);
	emit(&l);
}

static void query_display_capabilities(void)
{
	struct calllog_line l;
	uint32_t caps[4], n = 0;
	int64_t list[4];
	int32_t e;

	if (!HAVE(GET_DISPLAY_CAPABILITIES)) {
		return;
	}
	e = FN(GET_DISPLAY_CAPABILITIES)(dev, FAKE_DISPLAY, &n, NULL);
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES, false, 0, e);
	calllog_add(&l, " key=-");
	calllog_list(&l, "values", NULL, 0);
	emit(&l);
	n = n < 4 ? n : 4;
	e = FN(GET_DISPLAY_CAPABILITIES)(dev, FAKE_DISPLAY, &n, caps);
	for (uint32_t i = 0; i < n; i++) {
		list[i] = caps[i];
	}
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES, false, 0, e);
	calllog_add(&l, " key=-");
	calllog_list(&l, "values", list, n);
	emit(&l);
}

/* What the hotplug handler of SurfaceFlinger asks about a new display. */
static void query_display(void)
{
	struct calllog_line l;
	uint32_t n = 0, cfg_count;
	hwc2_config_t configs[4], active;
	int32_t v, modes[4];
	int64_t list[4];
	char name[64];
	int32_t e;

	e = FN(GET_DISPLAY_TYPE)(dev, FAKE_DISPLAY, &v);
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_TYPE, false, 0, e);
	calllog_add(&l, " v=%d", v);
	emit(&l);

	e = FN(GET_DISPLAY_CONFIGS)(dev, FAKE_DISPLAY, &n, NULL);
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_CONFIGS, false, 0, e);
	calllog_add(&l, " key=-");
	calllog_list(&l, "values", NULL, 0);
	emit(&l);
	cfg_count = n < 4 ? n : 4;
	e = FN(GET_DISPLAY_CONFIGS)(dev, FAKE_DISPLAY, &cfg_count, configs);
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_CONFIGS, false, 0, e);
	for (uint32_t i = 0; i < cfg_count; i++) {
		list[i] = configs[i];
	}
	calllog_add(&l, " key=-");
	calllog_list(&l, "values", list, cfg_count);
	emit(&l);
	for (uint32_t i = 0; i < cfg_count; i++) {
		static const int32_t attrs[] = { HWC2_ATTRIBUTE_WIDTH, HWC2_ATTRIBUTE_HEIGHT,
			HWC2_ATTRIBUTE_VSYNC_PERIOD, HWC2_ATTRIBUTE_DPI_X, HWC2_ATTRIBUTE_DPI_Y };

		for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++) {
			e = FN(GET_DISPLAY_ATTRIBUTE)(dev, FAKE_DISPLAY, configs[i], attrs[k], &v);
			begin(&l, HWC2_FUNCTION_GET_DISPLAY_ATTRIBUTE, false, 0, e);
			calllog_add(&l, " config=%u attr=%d v=%d", configs[i], attrs[k], v);
			emit(&l);
		}
	}
	e = FN(GET_ACTIVE_CONFIG)(dev, FAKE_DISPLAY, &active);
	begin(&l, HWC2_FUNCTION_GET_ACTIVE_CONFIG, false, 0, e);
	calllog_add(&l, " v=%u", active);
	emit(&l);

	n = 0;
	e = FN(GET_DISPLAY_NAME)(dev, FAKE_DISPLAY, &n, NULL);
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_NAME, false, 0, e);
	calllog_text(&l, "text", NULL);
	emit(&l);
	n = n < sizeof(name) - 1 ? n : (uint32_t)sizeof(name) - 1;
	e = FN(GET_DISPLAY_NAME)(dev, FAKE_DISPLAY, &n, name);
	name[n] = '\0';
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_NAME, false, 0, e);
	calllog_text(&l, "text", name);
	emit(&l);

	n = 0;
	e = FN(GET_COLOR_MODES)(dev, FAKE_DISPLAY, &n, NULL);
	begin(&l, HWC2_FUNCTION_GET_COLOR_MODES, false, 0, e);
	calllog_add(&l, " key=-");
	calllog_list(&l, "values", NULL, 0);
	emit(&l);
	n = n < 4 ? n : 4;
	e = FN(GET_COLOR_MODES)(dev, FAKE_DISPLAY, &n, modes);
	for (uint32_t i = 0; i < n; i++) {
		list[i] = modes[i];
	}
	begin(&l, HWC2_FUNCTION_GET_COLOR_MODES, false, 0, e);
	calllog_add(&l, " key=-");
	calllog_list(&l, "values", list, n);
	emit(&l);

	query_render_intents();
	query_hdr();
	query_doze();
	query_connection_type();
	query_display_capabilities();

	e = FN(GET_CLIENT_TARGET_SUPPORT)(dev, FAKE_DISPLAY, FAKE_WIDTH, FAKE_HEIGHT,
		HAL_PIXEL_FORMAT_RGBA_8888, HAL_DATASPACE_V0_SRGB);
	begin(&l, HWC2_FUNCTION_GET_CLIENT_TARGET_SUPPORT, false, 0, e);
	calllog_add(&l, " w=%d h=%d fmt=%d ds=%d", FAKE_WIDTH, FAKE_HEIGHT, HAL_PIXEL_FORMAT_RGBA_8888,
		HAL_DATASPACE_V0_SRGB);
	emit(&l);
}

static void device_level_calls(void)
{
	struct calllog_line l;
	uint32_t n = 0, count;
	char text[128];

	count = FN(GET_MAX_VIRTUAL_DISPLAY_COUNT)(dev);
	calllog_begin(&l, HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT, false, 0, false, 0, 0);
	calllog_add(&l, " v=%u", count);
	emit(&l);

	FN(DUMP)(dev, &n, NULL);
	calllog_begin(&l, HWC2_FUNCTION_DUMP, false, 0, false, 0, 0);
	calllog_text(&l, "text", NULL);
	emit(&l);
	n = n < sizeof(text) - 1 ? n : (uint32_t)sizeof(text) - 1;
	FN(DUMP)(dev, &n, text);
	text[n] = '\0';
	calllog_begin(&l, HWC2_FUNCTION_DUMP, false, 0, false, 0, 0);
	calllog_text(&l, "text", text);
	emit(&l);
}

static void register_callbacks(void)
{
	static const struct {
		int32_t descriptor;
		hwc2_function_pointer_t fn;
	} cbs[] = {
		{ HWC2_CALLBACK_HOTPLUG, (hwc2_function_pointer_t)on_hotplug },
		{ HWC2_CALLBACK_REFRESH, (hwc2_function_pointer_t)on_refresh },
		{ HWC2_CALLBACK_VSYNC, (hwc2_function_pointer_t)on_vsync },
	};

	for (size_t i = 0; i < sizeof(cbs) / sizeof(cbs[0]); i++) {
		struct calllog_line l;
		int32_t e = FN(REGISTER_CALLBACK)(dev, cbs[i].descriptor, &log_file, cbs[i].fn);

		calllog_begin(&l, HWC2_FUNCTION_REGISTER_CALLBACK, false, 0, false, 0, e);
		calllog_add(&l, " desc=%d null=0", cbs[i].descriptor);
		emit(&l);
	}
}

/* --------------------------------------------------------------- a frame */

static void validate(void)
{
	struct calllog_line l;
	uint32_t types = 0, requests = 0, n;
	hwc2_layer_t layers[LAYERS];
	int32_t values[LAYERS], dreq = 0;
	int64_t v1[LAYERS], v2[LAYERS];
	hwc_client_target_property_t prop = { 0 };
	int32_t e = FN(VALIDATE_DISPLAY)(dev, FAKE_DISPLAY, &types, &requests);

	begin(&l, HWC2_FUNCTION_VALIDATE_DISPLAY, false, 0, e);
	calllog_add(&l, " types=%u requests=%u", types, requests);
	emit(&l);

	/* the composer service always collects both lists, count then fill */
	n = 0;
	e = FN(GET_CHANGED_COMPOSITION_TYPES)(dev, FAKE_DISPLAY, &n, NULL, NULL);
	begin(&l, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, false, 0, e);
	calllog_list(&l, "layers", NULL, 0);
	calllog_list(&l, "types", NULL, 0);
	emit(&l);
	if (n) {
		n = n < LAYERS ? n : LAYERS;
		e = FN(GET_CHANGED_COMPOSITION_TYPES)(dev, FAKE_DISPLAY, &n, layers, values);
		for (uint32_t i = 0; i < n; i++) {
			v1[i] = (int64_t)layers[i];
			v2[i] = values[i];
		}
		begin(&l, HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES, false, 0, e);
		calllog_list(&l, "layers", v1, n);
		calllog_list(&l, "types", v2, n);
		emit(&l);
	}

	n = 0;
	e = FN(GET_DISPLAY_REQUESTS)(dev, FAKE_DISPLAY, &dreq, &n, NULL, NULL);
	begin(&l, HWC2_FUNCTION_GET_DISPLAY_REQUESTS, false, 0, e);
	calllog_add(&l, " dreq=%d", dreq);
	calllog_list(&l, "layers", NULL, 0);
	calllog_list(&l, "lreq", NULL, 0);
	emit(&l);
	if (n) {
		n = n < LAYERS ? n : LAYERS;
		e = FN(GET_DISPLAY_REQUESTS)(dev, FAKE_DISPLAY, &dreq, &n, layers, values);
		for (uint32_t i = 0; i < n; i++) {
			v1[i] = (int64_t)layers[i];
			v2[i] = values[i];
		}
		begin(&l, HWC2_FUNCTION_GET_DISPLAY_REQUESTS, false, 0, e);
		calllog_add(&l, " dreq=%d", dreq);
		calllog_list(&l, "layers", v1, n);
		calllog_list(&l, "lreq", v2, n);
		emit(&l);
	}

	if (HAVE(GET_CLIENT_TARGET_PROPERTY)) {
		e = FN(GET_CLIENT_TARGET_PROPERTY)(dev, FAKE_DISPLAY, &prop);
		begin(&l, HWC2_FUNCTION_GET_CLIENT_TARGET_PROPERTY, false, 0, e);
		calllog_add(&l, " fmt=%d ds=%d", prop.pixelFormat, prop.dataspace);
		emit(&l);
	}

	if (types) {
		e = FN(ACCEPT_DISPLAY_CHANGES)(dev, FAKE_DISPLAY);
		begin(&l, HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, false, 0, e);
		emit(&l);
	}
}

static void set_client_target(struct buffer *t, hwc_rect_t damage)
{
	struct calllog_line l;
	int fence = acquire_fence();
	int32_t r[1][4];
	int32_t e = FN(SET_CLIENT_TARGET)(dev, FAKE_DISPLAY, t->handle, fence, HAL_DATASPACE_V0_SRGB,
		(hwc_region_t){ 1, &damage });

	close(fence);
	begin(&l, HWC2_FUNCTION_SET_CLIENT_TARGET, false, 0, e);
	calllog_add(&l, " buf=%llu fence=1 ds=%d", (unsigned long long)t->ino, HAL_DATASPACE_V0_SRGB);
	rects_of(r, &damage, 1);
	calllog_rects(&l, "damage", (const int32_t (*)[4])r, 1);
	hash_part(&l, t);
	emit(&l);
}

static void sleep_us(long us);

static void present(void)
{
	struct calllog_line l;
	int32_t fence = -1, fences[LAYERS];
	hwc2_layer_t layers[LAYERS];
	int64_t v[LAYERS];
	uint32_t n = 0, nonzero = 0;
	HWC2_PFN_PRESENT_DISPLAY present_display = FN(PRESENT_DISPLAY);
	uint64_t t0 = client_now_ns();
	int32_t e = present_display(dev, FAKE_DISPLAY, &fence);

	client_latency_add(&lat_present, t0, frame_now);
	begin(&l, HWC2_FUNCTION_PRESENT_DISPLAY, false, 0, e);
	calllog_add(&l, " fence=%d", fence >= 0);
	emit(&l);
	if (fence >= 0) {
		close(fence);
	}
	signal_late_fences();
	if (release_delay_us > 0) {
		sleep_us(release_delay_us);	/* other work between present and its release fences */
	}
	e = FN(GET_RELEASE_FENCES)(dev, FAKE_DISPLAY, &n, NULL, NULL);
	begin(&l, HWC2_FUNCTION_GET_RELEASE_FENCES, false, 0, e);
	calllog_list(&l, "layers", NULL, 0);
	calllog_add(&l, " fences=0");
	emit(&l);
	n = n < LAYERS ? n : LAYERS;
	e = FN(GET_RELEASE_FENCES)(dev, FAKE_DISPLAY, &n, layers, fences);
	for (uint32_t i = 0; i < n; i++) {
		v[i] = (int64_t)layers[i];
		if (fences[i] >= 0) {
			nonzero++;
			close(fences[i]);
		}
	}
	begin(&l, HWC2_FUNCTION_GET_RELEASE_FENCES, false, 0, e);
	calllog_list(&l, "layers", v, n);
	calllog_add(&l, " fences=%u", nonzero);
	emit(&l);
}

/* Loses a block: the pointer is gone once this returns. */
static void __attribute__((noinline)) leak_on_purpose(void)
{
	static void *volatile kept;

	kept = malloc(4096);
	if (kept) {
		memset(kept, 0x4c, 4096);
	}
	kept = NULL;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	if (us > 0) {
		nanosleep(&ts, NULL);
	}
}

static void sleep_ms(int ms)
{
	sleep_us((long)ms * 1000);
}

static void write_control(const char *path, const char *what)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror("hwc2-client: control file");
		exit(2);
	}
	fprintf(f, "%s\n", what);
	fclose(f);
}

static void parse_pair(const char *s, int *a, int *b)
{
	if (sscanf(s, "%d,%d", a, b) != 2) {
		fprintf(stderr, "hwc2-client: expected A,B: %s\n", s);
		exit(2);
	}
}

/* --nofile: one open() and one dup() of the client's own; returns how many failed. */
static int own_fds_probe(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), d = -1, failed = 0;

	failed += fd < 0;
	if (fd >= 0) {
		d = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		failed += d < 0;
		close(fd);
	}
	if (d >= 0) {
		close(d);
	}
	return failed;
}

int main(int argc, char **argv)
{
	const char *module = NULL, *log_path = NULL, *control = NULL;
	int frames = 8, sig_a = -1, sig_b = -1, ctl_a = -1, ctl_b = -1, fd_check = -1, sched_check = -1;
	int fds_warm = -1, fds_end = -1;
	long frame_sleep_us = 5000, nofile = 0;
	int emfile = 0;
	uint64_t map_inodes[3 * 2];
	int map_n = 0, map_kept = 0;
	bool probe = false, leak = false, map_check = false, fork_check = false, fd_drain = false;
	struct client_latency lat_open = { .max_frame = -1 };
	uint64_t t0;
	struct layer layers[LAYERS] = { 0 };
	struct buffer target[CT_BUFFERS];
	struct hw_module_t *hmi;
	struct calllog_line l;
	char msg[256];
	hwc2_function_pointer_t vendor;
	void *handle;
	uint32_t ncaps = 0;
	int32_t e;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--module") == 0 && i + 1 < argc) {
			module = argv[++i];
		} else if (strcmp(argv[i], "--log") == 0 && i + 1 < argc) {
			log_path = argv[++i];
		} else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
			frames = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--signal-at") == 0 && i + 1 < argc) {
			parse_pair(argv[++i], &sig_a, &sig_b);
		} else if (strcmp(argv[i], "--control") == 0 && i + 1 < argc) {
			control = argv[++i];
		} else if (strcmp(argv[i], "--control-at") == 0 && i + 1 < argc) {
			parse_pair(argv[++i], &ctl_a, &ctl_b);
		} else if (strcmp(argv[i], "--small") == 0) {
			sz = &small_sizes;
		} else if (strcmp(argv[i], "--frame-sleep-us") == 0 && i + 1 < argc) {
			frame_sleep_us = atol(argv[++i]);
		} else if (strcmp(argv[i], "--release-delay-us") == 0 && i + 1 < argc) {
			release_delay_us = atol(argv[++i]);
		} else if (strcmp(argv[i], "--fd-check") == 0 && i + 1 < argc) {
			fd_check = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--fd-drain") == 0) {
			fd_drain = true;
		} else if (strcmp(argv[i], "--sched-check") == 0 && i + 1 < argc) {
			sched_check = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--probe-functions") == 0) {
			probe = true;
		} else if (strcmp(argv[i], "--map-check") == 0) {
			map_check = true;
		} else if (strcmp(argv[i], "--fork-check") == 0) {
			fork_check = true;
		} else if (strcmp(argv[i], "--leak-on-purpose") == 0) {
			leak = true;
		} else if (strcmp(argv[i], "--acquire-unsignalled") == 0) {
			acquire_unsignalled = true;
		} else if (strcmp(argv[i], "--acquire-late-ms") == 0 && i + 1 < argc) {
			acquire_late_ms = atol(argv[++i]);
		} else if (strcmp(argv[i], "--nofile") == 0 && i + 1 < argc) {
			nofile = atol(argv[++i]);
		} else {
			fprintf(stderr, "usage: hwc2-client --module PATH --log FILE [--frames N] "
				"[--signal-at A,B] [--control FILE --control-at A,B] [--small] "
				"[--frame-sleep-us N] [--fd-check W [--fd-drain]] [--probe-functions] [--leak-on-purpose] "
				"[--acquire-unsignalled] [--acquire-late-ms N] [--nofile N] [--sched-check W] "
				"[--map-check] [--fork-check]\n");
			return 2;
		}
	}
	if (!module || !log_path || frames < 1 || frames > MAX_FRAMES) {
		fprintf(stderr, "hwc2-client: --module and --log are required, 1 <= N <= %d\n", MAX_FRAMES);
		return 2;
	}
	if (fork_check) {
		client_fork_start();	/* from here on, the forked child */
	}
	if (fd_check >= frames) {
		fprintf(stderr, "hwc2-client: --fd-check needs a frame before the last\n");
		return 2;
	}
	log_file = fopen(log_path, "w");
	if (!log_file) {
		perror("hwc2-client: log");
		return 2;
	}

	if (nofile > 0) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || (rlim_t)nofile > rl.rlim_max) {
			fprintf(stderr, "hwc2-client: --nofile %ld is above the hard limit\n", nofile);
			return 2;
		}
		rl.rlim_cur = (rlim_t)nofile;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
			perror("hwc2-client: setrlimit");
			return 2;
		}
	}

	/* what libhardware's hw_get_module does */
	if (hwct_hwc2_module_load(module, NULL, &handle, &hmi, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "hwc2-client: %s: %s\n", module, msg);
		return 2;
	}
	t0 = client_now_ns();
	if (hwct_hwc2_device_open(hmi, &dev, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "hwc2-client: cannot open the composer device: %s\n", msg);
		return 2;
	}
	client_latency_add(&lat_open, t0, -1);
	dev->getCapabilities(dev, &ncaps, NULL);
	if (probe) {
		client_probe_functions(dev, log_file);
	}
	if (leak) {
		leak_on_purpose();
	}

	/* a descriptor the recorder does not know is still reachable, on the real device */
	vendor = dev->getFunction(dev, FAKE_VENDOR_DESCRIPTOR);
	if (vendor) {
		int32_t (*ping)(hwc2_device_t *, int32_t);

		memcpy(&ping, &vendor, sizeof(ping));
		if (ping(dev, 41) != 42) {
			fprintf(stderr, "hwc2-client: the vendor function misbehaved\n");
			return 1;
		}
		calllog_begin(&l, FAKE_VENDOR_DESCRIPTOR, false, 0, false, 0, 0);
		calllog_add(&l, " desc=%d", FAKE_VENDOR_DESCRIPTOR);
		emit(&l);
	}

	register_callbacks();
	if (!atomic_load(&connected)) {
		fprintf(stderr, "hwc2-client: no hotplug for the display\n");
		return 1;
	}
	query_display();
	device_level_calls();
	set_display_value(HWC2_FUNCTION_SET_POWER_MODE, HWC2_POWER_MODE_ON);
	set_display_value(HWC2_FUNCTION_SET_VSYNC_ENABLED, HWC2_VSYNC_ENABLE);
	set_display_value(HWC2_FUNCTION_SET_ACTIVE_CONFIG, 1);
	{
		static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

		e = FN(SET_COLOR_MODE)(dev, FAKE_DISPLAY, HAL_COLOR_MODE_NATIVE);
		begin(&l, HWC2_FUNCTION_SET_COLOR_MODE, false, 0, e);
		calllog_add(&l, " mode=%d intent=-", HAL_COLOR_MODE_NATIVE);
		emit(&l);
		e = FN(SET_COLOR_TRANSFORM)(dev, FAKE_DISPLAY, identity, HAL_COLOR_TRANSFORM_IDENTITY);
		begin(&l, HWC2_FUNCTION_SET_COLOR_TRANSFORM, false, 0, e);
		calllog_add(&l, " m=1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1 hint=%d", HAL_COLOR_TRANSFORM_IDENTITY);
		emit(&l);
	}

	for (int i = 0; i < LAYERS; i++) {
		e = FN(CREATE_LAYER)(dev, FAKE_DISPLAY, &layers[i].id);
		calllog_begin(&l, HWC2_FUNCTION_CREATE_LAYER, true, FAKE_DISPLAY, false, 0, e);
		calllog_add(&l, " v=%llu", (unsigned long long)layers[i].id);
		emit(&l);
	}
	/* 0 background, 1 translucent app (-> CLIENT), 2 cursor, 3 solid colour */
	layers[0].type = HWC2_COMPOSITION_DEVICE;
	layers[0].alpha = 1.0f;
	layers[1].type = HWC2_COMPOSITION_DEVICE;
	layers[1].alpha = 0.5f;
	layers[1].frame = sz->app_frame;
	layers[2].type = HWC2_COMPOSITION_CURSOR;
	layers[2].alpha = 1.0f;
	layers[3].type = HWC2_COMPOSITION_SOLID_COLOR;
	layers[3].alpha = 1.0f;
	for (int k = 0; k < 2; k++) {
		buffer_create(&layers[0].buf[k], sz->bg_w, sz->bg_h, sz->bg_w * 4 + 64, 0);
		buffer_create(&layers[1].buf[k], sz->app_w, sz->app_h, sz->app_w * 4, 4096);
		buffer_create(&layers[2].buf[k], 64, 64, 64 * 4, 0);
		draw_cursor(&layers[2].buf[k]);
	}
	for (int k = 0; k < CT_BUFFERS; k++) {
		buffer_create(&target[k], sz->target_w, sz->target_h, sz->target_w * 4, 0);
	}
	layer_setup(&layers[0], (hwc_rect_t){ 0, 0, FAKE_WIDTH, FAKE_HEIGHT },
		(hwc_frect_t){ 0, 0, (float)sz->bg_w, (float)sz->bg_h }, 0);
	layer_setup(&layers[1], layers[1].frame, (hwc_frect_t){ 0, 0, (float)sz->app_w, (float)sz->app_h }, 2);
	layer_setup(&layers[2], (hwc_rect_t){ 10, 10, 74, 74 }, (hwc_frect_t){ 0, 0, 64, 64 }, 3);
	layer_setup(&layers[3], (hwc_rect_t){ 0, 2000, FAKE_WIDTH, FAKE_HEIGHT },
		(hwc_frect_t){ 0, 0, 0, 0 }, 1);
	if (HAVE(SET_LAYER_COLOR)) {
		e = FN(SET_LAYER_COLOR)(dev, FAKE_DISPLAY, layers[3].id, (hwc_color_t){ 10, 20, 30, 255 });
		begin(&l, HWC2_FUNCTION_SET_LAYER_COLOR, true, layers[3].id, e);
		calllog_add(&l, " rgba=%08x", 10u | 20u << 8 | 30u << 16 | 255u << 24);
		emit(&l);
	}

	for (int f = 0; f < frames; f++) {
		struct buffer *bg = &layers[0].buf[f % 2], *app = &layers[1].buf[f % 2];
		hwc_rect_t prev = square_at(f > 0 ? f - 1 : 0), cur = square_at(f);
		hwc_rect_t full_bg = { 0, 0, (int)sz->bg_w, (int)sz->bg_h };
		hwc_rect_t full_app = { 0, 0, (int)sz->app_w, (int)sz->app_h };
		hwc_rect_t full_cursor = { 0, 0, 64, 64 };
		hwc_rect_t none = { 0, 0, 0, 0 };
		hwc_rect_t moved[2] = { prev, cur };

		frame_now = f;
		if (f == sig_a || f == sig_b) {
			raise(SIGUSR2);
			sleep_ms(100);
		}
		if (control && (f == ctl_a || f == ctl_b)) {
			write_control(control, f == ctl_a ? "start" : "stop");
			sleep_ms(500);
		}
		draw_background(bg, f);
		draw_app(app, f);
		set_layer_buffer(&layers[0], bg, f % 3 != 2);
		if (f == 0) {
			set_damage(&layers[0], &full_bg, 1);
		} else if (f == 3) {
			set_damage(&layers[0], NULL, 0);	/* no rects: the whole layer */
		} else {
			set_damage(&layers[0], moved, 2);
		}
		set_layer_buffer(&layers[1], app, true);
		set_damage(&layers[1], &full_app, 1);
		if (f == 0 || f == 4) {
			set_layer_buffer(&layers[2], &layers[2].buf[f == 0 ? 0 : 1], false);
			set_damage(&layers[2], f == 0 ? &full_cursor : &none, 1);
		}
		if (HAVE(SET_CURSOR_POSITION)) {
			e = FN(SET_CURSOR_POSITION)(dev, FAKE_DISPLAY, layers[2].id, 10 + f, 10 + 2 * f);
			begin(&l, HWC2_FUNCTION_SET_CURSOR_POSITION, true, layers[2].id, e);
			calllog_add(&l, " x=%d y=%d", 10 + f, 10 + 2 * f);
			emit(&l);
		}

		validate();
		draw_target(&target[f % CT_BUFFERS], app, layers[1].frame);
		set_client_target(&target[f % CT_BUFFERS], layers[1].frame);
		present();
		if (nofile > 0) {
			emfile += own_fds_probe();
		}
		if (f + 1 == sched_check) {
			client_probe_sched(log_file);
		}
		if (fork_check && f == 3) {
			client_fork_probe(log_file);
		}
		if (f + 1 == fd_check) {
			fds_warm = client_count_fds_settled();
		}
		sleep_us(frame_sleep_us);
	}
	if (fd_check > 0) {
		fds_end = fd_drain ? client_count_fds_drained(fds_warm) : client_count_fds_settled();
		fprintf(log_file, "# fds %d %d\n", fds_warm, fds_end);
	}
	if (nofile > 0) {
		fprintf(log_file, "# emfile %d\n", emfile);
	}

	set_display_value(HWC2_FUNCTION_SET_VSYNC_ENABLED, HWC2_VSYNC_DISABLE);
	if (map_check) {
		map_kept = map_check_before_destroy(layers, map_inodes, &map_n);
	}
	for (int i = 0; i < LAYERS; i++) {
		e = FN(DESTROY_LAYER)(dev, FAKE_DISPLAY, layers[i].id);
		begin(&l, HWC2_FUNCTION_DESTROY_LAYER, true, layers[i].id, e);
		emit(&l);
	}
	if (map_check) {
		map_check_after_destroy(layers, map_inodes, map_n, map_kept);
	}
	set_display_value(HWC2_FUNCTION_SET_POWER_MODE, HWC2_POWER_MODE_OFF);
	fprintf(log_file, "# callbacks %d %d %d\n", atomic_load(&hotplugs), atomic_load(&refreshes),
		atomic_load(&vsyncs));
	fprintf(log_file, "# calls %lu\n", calls_logged);
	fprintf(log_file, "# latency open %llu set_layer_buffer %llu %d present %llu %d slow %llu %llu %llu %llu\n",
		(unsigned long long)lat_open.max_ns, (unsigned long long)lat_buffer.max_ns,
		lat_buffer.max_frame, (unsigned long long)lat_present.max_ns, lat_present.max_frame,
		(unsigned long long)lat_buffer.slow, (unsigned long long)lat_buffer.calls,
		(unsigned long long)lat_present.slow, (unsigned long long)lat_present.calls);
	fclose(log_file);
	log_file = NULL;
	if (hwc2_close(dev) != 0) {
		fprintf(stderr, "hwc2-client: close failed\n");
		return 1;
	}
	for (int i = 0; i < 3; i++) {
		buffer_destroy(&layers[i].buf[0]);
		buffer_destroy(&layers[i].buf[1]);
	}
	for (int k = 0; k < CT_BUFFERS; k++) {
		buffer_destroy(&target[k]);
	}
	return 0;
}
