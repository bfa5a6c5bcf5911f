/*
 * A small fake HWC2 module (hwcomposer.fake.so) for the recorder tests:
 * the functions SurfaceFlinger uses, one display 1080x2400@60, a validate
 * that sends layers with plane alpha < 1 to CLIENT, and fences made of
 * eventfds (a host has no sync_file to make without a kernel driver): a
 * fence "signals" when its eventfd becomes readable. The present fence and release
 * fences of a frame signal after the next present, as a kernel signals
 * them: from a thread of the module's own, 1 ms after that present handed
 * them over (fake_signal.h), never inside a call; all pending ones at close.
 *
 * Every function checks that it was handed this module's own device
 * pointer, so a wrapper that passes another pointer fails the test. The
 * vendor descriptor FAKE_VENDOR_DESCRIPTOR (100) has a prototype the
 * recorder cannot know; calling it checks the same.
 *
 * FAKE_HWC2_MODE (read at open; a comma-separated list) makes it misbehave
 * the ways a real module may, for the pass-through tests: "errors" fails
 * every 3rd validateDisplay (BAD_DISPLAY), every 5th setLayerBuffer
 * (BAD_PARAMETER) and every 4th setCursorPosition (BAD_LAYER), functions
 * the recorder never calls itself, so the counts are the client's;
 * "null-functions" has getFunction return NULL for the functions
 * SurfaceFlinger can do without and for the vendor one (FAKE_NULL_FUNCTIONS);
 * "null-present" has it return NULL for presentDisplay, which no client
 * can do without.
 * Built as hwcomposer.faulty.so it also crashes or hangs on request
 * (fake_fault.h).
 * FAKE_HWC2_RULES and FAKE_HWC2_SIZE (fake_rules.h) replace its decision
 * rule and display size.
 * "displays" adds a second physical display (FAKE_DISPLAY_2, hotplugged
 * right after the first) and one virtual display (createVirtualDisplay):
 * each display validates and presents its own layers. With "late-hotplug"
 * too, the second display is hotplugged from a thread of the module's
 * instead, once the thread that registered the callbacks waits for it
 * (fake_late.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>

#include <hwct/test_buffer.h>

#include "fake_fault.h"
#include "fake_hwc2.h"
#include "fake_late.h"
#include "fake_rules.h"
#include "fake_signal.h"

#define FAKE_MAGIC 0x46414b45u
#define MAX_LAYERS 16
#define MAX_FENCES 64
#define CONFIG_ID 1
#define MAX_SCREENS 3

struct fake_layer {
	bool used;
	hwc2_layer_t id;
	hwc2_display_t display;
	int32_t type;
	float alpha;
	int32_t z;
	bool yuv;			/* its buffer is a YUV test buffer */
	bool buffer_set;		/* a new buffer this frame */
	bool had_buffer;		/* a buffer before this frame's */
	int32_t changed;		/* type validate asked for, 0 none */
	uint32_t request;
};

/* One display: the first always, the others with "displays". */
struct fake_screen {
	bool used;
	hwc2_display_t id;
	bool is_virtual;
	uint32_t width, height;		/* 0: the rules' size (the first display) */
	const char *name;
	bool validated;
	uint32_t display_requests;
};

struct fake_device {
	hwc2_device_t base;		/* first: the device pointer is ours */
	uint32_t magic;
	pthread_mutex_t lock;		/* guards the pairs hotplug, hotplug_data and vsync, vsync_data */
	HWC2_PFN_HOTPLUG hotplug;
	hwc2_callback_data_t hotplug_data;
	HWC2_PFN_REFRESH refresh;
	hwc2_callback_data_t refresh_data;
	HWC2_PFN_VSYNC vsync;
	hwc2_callback_data_t vsync_data;
	pthread_t hotplug_thread;	/* late-hotplug's */
	bool hotplug_running;
	pid_t hotplug_waiter;		/* the thread it waits to wait, the callbacks' registrar */
	atomic_bool hotplug_stop;	/* set by close: the thread gives up */
	pthread_t vsync_thread;
	atomic_bool vsync_on;
	bool vsync_running;
	struct fake_layer layers[MAX_LAYERS];
	hwc2_layer_t next_layer;
	struct fake_screen screens[MAX_SCREENS];
	int32_t power_mode;
	int signal_fds[MAX_FENCES];	/* eventfds handed to the signaller at the next present */
	int signal_count;
	struct fake_signaller signaller;	/* signals them from its own thread */
	int release_fds[MAX_LAYERS];	/* fences for getReleaseFences, ours until handed out */
	hwc2_layer_t release_layers[MAX_LAYERS];
	hwc2_display_t release_displays[MAX_LAYERS];
	int release_count;
	bool errors, null_functions, null_present, displays, late_hotplug;	/* FAKE_HWC2_MODE */
	struct fake_rules rules;	/* FAKE_HWC2_RULES, FAKE_HWC2_SIZE */
	unsigned validates, buffers, cursors;	/* calls so far, for "errors" */
};

static struct fake_device *dev_of(hwc2_device_t *device)
{
	struct fake_device *d = (struct fake_device *)device;

	if (!d || d->magic != FAKE_MAGIC) {
		fprintf(stderr, "fake_hwc2: called with a device that is not ours (%p)\n", (void *)device);
		abort();
	}
	return d;
}

static struct fake_layer *layer_of(struct fake_device *d, hwc2_layer_t id)
{
	for (int i = 0; i < MAX_LAYERS; i++) {
		if (d->layers[i].used && d->layers[i].id == id) {
			return &d->layers[i];
		}
	}
	return NULL;
}

static struct fake_screen *screen_of(struct fake_device *d, hwc2_display_t display)
{
	for (int i = 0; i < MAX_SCREENS; i++) {
		if (d->screens[i].used && d->screens[i].id == display) {
			return &d->screens[i];
		}
	}
	return NULL;
}

/* In a function with a `device` parameter: BAD_DISPLAY unless display is one of ours. */
#define DISPLAY_CHECK(display) \
	do { \
		if (!screen_of(dev_of(device), (display))) { \
			return HWC2_ERROR_BAD_DISPLAY; \
		} \
	} while (0)

static uint32_t screen_width(const struct fake_device *d, const struct fake_screen *sc)
{
	return sc->width ? sc->width : d->rules.width;
}

static uint32_t screen_height(const struct fake_device *d, const struct fake_screen *sc)
{
	return sc->height ? sc->height : d->rules.height;
}

/* A fence: returns a dup for the caller, keeps the eventfd to signal later. */
static int new_fence(struct fake_device *d)
{
	int fd, out;

	if (d->signal_count == MAX_FENCES || (fd = eventfd(0, EFD_CLOEXEC)) < 0) {
		return -1;
	}
	out = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (out < 0) {
		close(fd);
		return -1;
	}
	d->signal_fds[d->signal_count++] = fd;
	return out;
}

/* Hands every fence made so far to the signaller (which owns and closes them now). */
static void signal_all(struct fake_device *d)
{
	fake_signaller_post(&d->signaller, d->signal_fds, d->signal_count);
	d->signal_count = 0;
}

/* An fd passed in must be open during the call (the caller owns it). */
static bool fd_valid(int fd)
{
	return fd < 0 || fcntl(fd, F_GETFD) >= 0;
}

/* ----------------------------------------------------------- callbacks */

/* late-hotplug: the second display, from this thread, once registerCallback's caller waits for it. */
static void *late_hotplug_main(void *data)
{
	struct fake_device *d = data;
	hwc2_callback_data_t fn_data;
	HWC2_PFN_HOTPLUG fn;

	if (!fake_late_wait_for_waiter(d->hotplug_waiter, &d->hotplug_stop)) {
		return NULL;
	}
	pthread_mutex_lock(&d->lock);
	fn = d->hotplug;
	fn_data = d->hotplug_data;
	pthread_mutex_unlock(&d->lock);
	if (fn) {
		fn(fn_data, FAKE_DISPLAY_2, HWC2_CONNECTION_CONNECTED);
	}
	return NULL;
}

static void *vsync_main(void *data)
{
	struct fake_device *d = data;
	struct timespec period = { 0, 16666666 };

	while (atomic_load(&d->vsync_on)) {
		struct timespec now;
		hwc2_callback_data_t fn_data;
		HWC2_PFN_VSYNC fn;

		nanosleep(&period, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		/*
		 * The function and its data are taken together, after the sleep:
		 * a pair of one registration, never one's function with the data
		 * of a later one (a client unregistering passes its own data).
		 */
		pthread_mutex_lock(&d->lock);
		fn = d->vsync;
		fn_data = d->vsync_data;
		pthread_mutex_unlock(&d->lock);
		if (fn && atomic_load(&d->vsync_on)) {
			fn(fn_data, FAKE_DISPLAY, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
		}
	}
	return NULL;
}

static int32_t register_callback(hwc2_device_t *device, int32_t descriptor,
	hwc2_callback_data_t data, hwc2_function_pointer_t pointer)
{
	struct fake_device *d = dev_of(device);

	switch (descriptor) {
	case HWC2_CALLBACK_HOTPLUG:
		pthread_mutex_lock(&d->lock);
		d->hotplug = (HWC2_PFN_HOTPLUG)pointer;
		d->hotplug_data = data;
		pthread_mutex_unlock(&d->lock);
		/* like drm_hwcomposer: the primary display is announced right away */
		if (d->hotplug) {
			d->hotplug(data, FAKE_DISPLAY, HWC2_CONNECTION_CONNECTED);
		}
		if (d->hotplug && d->displays && d->late_hotplug && !d->hotplug_running) {
			d->hotplug_waiter = fake_late_self();
			d->hotplug_running = fake_thread_start(&d->hotplug_thread, late_hotplug_main, d) == 0;
		} else if (d->hotplug && d->displays && !d->late_hotplug) {
			d->hotplug(data, FAKE_DISPLAY_2, HWC2_CONNECTION_CONNECTED);
		}
		return HWC2_ERROR_NONE;
	case HWC2_CALLBACK_REFRESH:
		d->refresh = (HWC2_PFN_REFRESH)pointer;
		d->refresh_data = data;
		return HWC2_ERROR_NONE;
	case HWC2_CALLBACK_VSYNC:
		pthread_mutex_lock(&d->lock);
		d->vsync_data = data;
		d->vsync = (HWC2_PFN_VSYNC)pointer;
		pthread_mutex_unlock(&d->lock);
		return HWC2_ERROR_NONE;
	default:
		return HWC2_ERROR_UNSUPPORTED;
	}
}

static void vsync_stop(struct fake_device *d)
{
	if (d->vsync_running) {
		atomic_store(&d->vsync_on, false);
		pthread_join(d->vsync_thread, NULL);
		d->vsync_running = false;
	}
}

static int32_t set_vsync_enabled(hwc2_device_t *device, hwc2_display_t display, int32_t enabled)
{
	struct fake_device *d = dev_of(device);

	DISPLAY_CHECK(display);
	if (enabled == HWC2_VSYNC_ENABLE && !d->vsync_running) {
		atomic_store(&d->vsync_on, true);
		d->vsync_running = fake_thread_start(&d->vsync_thread, vsync_main, d) == 0;
	} else if (enabled == HWC2_VSYNC_DISABLE) {
		vsync_stop(d);
	} else if (enabled != HWC2_VSYNC_ENABLE) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	return HWC2_ERROR_NONE;
}

/* ------------------------------------------------------------- queries */

static int32_t get_display_type(hwc2_device_t *device, hwc2_display_t display, int32_t *out)
{
	DISPLAY_CHECK(display);
	*out = screen_of(dev_of(device), display)->is_virtual ? HWC2_DISPLAY_TYPE_VIRTUAL : HWC2_DISPLAY_TYPE_PHYSICAL;
	return HWC2_ERROR_NONE;
}

static int32_t get_display_connection_type(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out)
{
	DISPLAY_CHECK(display);
	if (screen_of(dev_of(device), display)->is_virtual) {
		return HWC2_ERROR_UNSUPPORTED;
	}
	*out = display == FAKE_DISPLAY ? HWC2_DISPLAY_CONNECTION_TYPE_INTERNAL : HWC2_DISPLAY_CONNECTION_TYPE_EXTERNAL;
	return HWC2_ERROR_NONE;
}

static int32_t get_display_configs(hwc2_device_t *device, hwc2_display_t display, uint32_t *count,
	hwc2_config_t *configs)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	if (configs && *count >= 1) {
		configs[0] = CONFIG_ID;
	}
	*count = 1;
	return HWC2_ERROR_NONE;
}

static int32_t get_display_attribute(hwc2_device_t *device, hwc2_display_t display,
	hwc2_config_t config, int32_t attribute, int32_t *out)
{
	struct fake_device *d = dev_of(device);

	DISPLAY_CHECK(display);
	if (config != CONFIG_ID) {
		return HWC2_ERROR_BAD_CONFIG;
	}
	switch (attribute) {
	case HWC2_ATTRIBUTE_WIDTH:
		*out = (int32_t)screen_width(d, screen_of(d, display));
		break;
	case HWC2_ATTRIBUTE_HEIGHT:
		*out = (int32_t)screen_height(d, screen_of(d, display));
		break;
	case HWC2_ATTRIBUTE_VSYNC_PERIOD:
		*out = FAKE_VSYNC_PERIOD;
		break;
	case HWC2_ATTRIBUTE_DPI_X:
	case HWC2_ATTRIBUTE_DPI_Y:
		*out = 420000;
		break;
	case HWC2_ATTRIBUTE_CONFIG_GROUP:
		*out = 0;
		break;
	default:
		return HWC2_ERROR_BAD_PARAMETER;
	}
	return HWC2_ERROR_NONE;
}

static int32_t get_active_config(hwc2_device_t *device, hwc2_display_t display, hwc2_config_t *out)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	*out = CONFIG_ID;
	return HWC2_ERROR_NONE;
}

static int32_t set_active_config(hwc2_device_t *device, hwc2_display_t display, hwc2_config_t config)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	return config == CONFIG_ID ? HWC2_ERROR_NONE : HWC2_ERROR_BAD_CONFIG;
}

static int32_t get_display_name(hwc2_device_t *device, hwc2_display_t display, uint32_t *size,
	char *name)
{
	const char *text;
	uint32_t len;

	DISPLAY_CHECK(display);
	text = screen_of(dev_of(device), display)->name;
	len = (uint32_t)strlen(text);
	if (name) {
		uint32_t n = *size < len ? *size : len;

		memcpy(name, text, n);
		*size = n;
	} else {
		*size = len;
	}
	return HWC2_ERROR_NONE;
}

static int32_t get_color_modes(hwc2_device_t *device, hwc2_display_t display, uint32_t *count,
	int32_t *modes)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	if (modes && *count >= 1) {
		modes[0] = HAL_COLOR_MODE_NATIVE;
	}
	*count = 1;
	return HWC2_ERROR_NONE;
}

static int32_t get_render_intents(hwc2_device_t *device, hwc2_display_t display, int32_t mode,
	uint32_t *count, int32_t *intents)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	if (mode != HAL_COLOR_MODE_NATIVE) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	if (intents && *count >= 1) {
		intents[0] = HAL_RENDER_INTENT_COLORIMETRIC;
	}
	*count = 1;
	return HWC2_ERROR_NONE;
}

static int32_t get_display_capabilities(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *count, uint32_t *caps)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	if (caps && *count >= 1) {
		caps[0] = HWC2_DISPLAY_CAPABILITY_BRIGHTNESS;
	}
	*count = 1;
	return HWC2_ERROR_NONE;
}

static int32_t get_hdr_capabilities(hwc2_device_t *device, hwc2_display_t display, uint32_t *count,
	int32_t *types, float *max, float *avg, float *min)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	(void)types;
	*count = 0;
	*max = 500.0f;
	*avg = 250.0f;
	*min = 0.5f;
	return HWC2_ERROR_NONE;
}

static int32_t get_doze_support(hwc2_device_t *device, hwc2_display_t display, int32_t *out)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	*out = 0;
	return HWC2_ERROR_NONE;
}

static int32_t get_client_target_support(hwc2_device_t *device, hwc2_display_t display,
	uint32_t width, uint32_t height, int32_t format, int32_t dataspace)
{
	struct fake_device *d = dev_of(device);
	const struct fake_screen *sc;

	DISPLAY_CHECK(display);
	sc = screen_of(d, display);
	(void)dataspace;
	return width == screen_width(d, sc) && height == screen_height(d, sc) && format == HAL_PIXEL_FORMAT_RGBA_8888 ?
		HWC2_ERROR_NONE : HWC2_ERROR_UNSUPPORTED;
}

static int32_t get_client_target_property(hwc2_device_t *device, hwc2_display_t display,
	hwc_client_target_property_t *out)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	out->pixelFormat = HAL_PIXEL_FORMAT_RGBA_8888;
	out->dataspace = HAL_DATASPACE_V0_SRGB;
	return HWC2_ERROR_NONE;
}

static uint32_t get_max_virtual_display_count(hwc2_device_t *device)
{
	return dev_of(device)->displays ? 1 : 0;
}

static int32_t create_virtual_display(hwc2_device_t *device, uint32_t width, uint32_t height, int32_t *format,
	hwc2_display_t *out)
{
	struct fake_device *d = dev_of(device);
	struct fake_screen *sc = &d->screens[2];

	if (!d->displays || sc->used) {
		return HWC2_ERROR_NO_RESOURCES;
	}
	if (!width || !height || width > 8192 || height > 8192 || !format) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	*format = HAL_PIXEL_FORMAT_RGBA_8888;
	*sc = (struct fake_screen){ .used = true, .id = FAKE_VIRTUAL_DISPLAY, .is_virtual = true, .width = width,
		.height = height, .name = "fake-virtual" };
	*out = sc->id;
	return HWC2_ERROR_NONE;
}

static int32_t destroy_virtual_display(hwc2_device_t *device, hwc2_display_t display)
{
	struct fake_device *d = dev_of(device);
	struct fake_screen *sc = screen_of(d, display);

	if (!sc || !sc->is_virtual) {
		return HWC2_ERROR_BAD_DISPLAY;
	}
	for (int i = 0; i < MAX_LAYERS; i++) {
		d->layers[i].used = d->layers[i].used && d->layers[i].display != display;
	}
	sc->used = false;
	return HWC2_ERROR_NONE;
}

static int32_t set_output_buffer(hwc2_device_t *device, hwc2_display_t display, buffer_handle_t buffer,
	int32_t release_fence)
{
	struct fake_device *d = dev_of(device);
	struct fake_screen *sc = screen_of(d, display);

	if (!sc || !sc->is_virtual) {
		return HWC2_ERROR_UNSUPPORTED;
	}
	if (!buffer || buffer->version != (int)sizeof(native_handle_t) || !fd_valid(release_fence)) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	return HWC2_ERROR_NONE;
}

static void dump(hwc2_device_t *device, uint32_t *size, char *buffer)
{
	static const char text[] = FAKE_DUMP;

	dev_of(device);
	if (buffer) {
		uint32_t n = *size < sizeof(text) - 1 ? *size : (uint32_t)sizeof(text) - 1;

		memcpy(buffer, text, n);
		*size = n;
	} else {
		*size = sizeof(text) - 1;
	}
}

/* ------------------------------------------------------------- display */

static int32_t set_power_mode(hwc2_device_t *device, hwc2_display_t display, int32_t mode)
{
	struct fake_device *d = dev_of(device);

	DISPLAY_CHECK(display);
	d->power_mode = mode;
	return HWC2_ERROR_NONE;
}

static int32_t set_color_mode(hwc2_device_t *device, hwc2_display_t display, int32_t mode)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	return mode == HAL_COLOR_MODE_NATIVE ? HWC2_ERROR_NONE : HWC2_ERROR_UNSUPPORTED;
}

static int32_t set_color_transform(hwc2_device_t *device, hwc2_display_t display,
	const float *matrix, int32_t hint)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	(void)hint;
	return matrix ? HWC2_ERROR_NONE : HWC2_ERROR_BAD_PARAMETER;
}

static int32_t set_client_target(hwc2_device_t *device, hwc2_display_t display,
	buffer_handle_t target, int32_t acquire_fence, int32_t dataspace, hwc_region_t damage)
{
	dev_of(device);
	DISPLAY_CHECK(display);
	(void)dataspace;
	(void)damage;
	if (!target || target->version != (int)sizeof(native_handle_t) || !fd_valid(acquire_fence)) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	return HWC2_ERROR_NONE;
}

static int32_t create_layer(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t *out)
{
	struct fake_device *d = dev_of(device);

	DISPLAY_CHECK(display);
	for (int i = 0; i < MAX_LAYERS; i++) {
		if (!d->layers[i].used) {
			d->layers[i] = (struct fake_layer){ .used = true, .id = d->next_layer++, .display = display,
				.type = HWC2_COMPOSITION_DEVICE, .alpha = 1.0f };
			*out = d->layers[i].id;
			return HWC2_ERROR_NONE;
		}
	}
	return HWC2_ERROR_NO_RESOURCES;
}

static int32_t destroy_layer(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer)
{
	struct fake_device *d = dev_of(device);
	struct fake_layer *l;

	DISPLAY_CHECK(display);
	if (!(l = layer_of(d, layer))) {
		return HWC2_ERROR_BAD_LAYER;
	}
	l->used = false;
	return HWC2_ERROR_NONE;
}

static int compare_z(const void *a, const void *b)
{
	const struct fake_layer *x = *(const struct fake_layer *const *)a, *y = *(const struct fake_layer *const *)b;

	return x->z < y->z ? -1 : x->z > y->z;
}

/* FAKE_HWC2_RULES: the scenarios' device rule on the layers by ascending z; sets changed. */
static void decide_by_rules(struct fake_device *d, hwc2_display_t display)
{
	struct fake_layer *sorted[MAX_LAYERS];
	struct device_layer in[MAX_LAYERS];
	int32_t types[MAX_LAYERS];
	size_t n = 0;

	for (int i = 0; i < MAX_LAYERS; i++) {
		if (d->layers[i].used && d->layers[i].display == display) {
			sorted[n++] = &d->layers[i];
		}
	}
	qsort(sorted, n, sizeof(sorted[0]), compare_z);
	for (size_t i = 0; i < n; i++) {
		in[i] = (struct device_layer){ .requested = sorted[i]->type, .yuv = sorted[i]->yuv };
	}
	device_decide(&d->rules.rules, in, n, types);
	for (size_t i = 0; i < n; i++) {
		sorted[i]->changed = types[i] != sorted[i]->type ? types[i] : 0;
	}
}

static int32_t validate_display(hwc2_device_t *device, hwc2_display_t display, uint32_t *num_types,
	uint32_t *num_requests)
{
	struct fake_device *d = dev_of(device);
	struct fake_screen *sc;

	fake_fault_point("validateDisplay");
	DISPLAY_CHECK(display);
	sc = screen_of(d, display);
	if (d->errors && ++d->validates % 3 == 0) {
		sc->validated = false;
		return HWC2_ERROR_BAD_DISPLAY;
	}
	*num_types = *num_requests = 0;
	sc->display_requests = 0;
	for (int i = 0; i < MAX_LAYERS; i++) {
		struct fake_layer *l = &d->layers[i];

		if (!l->used || l->display != display) {
			continue;
		}
		l->changed = 0;
		l->request = 0;
		if (!d->rules.on && l->type == HWC2_COMPOSITION_DEVICE && l->alpha < 1.0f) {
			l->changed = HWC2_COMPOSITION_CLIENT;
		}
	}
	if (d->rules.on) {
		decide_by_rules(d, display);
	}
	for (int i = 0; i < MAX_LAYERS; i++) {
		struct fake_layer *l = &d->layers[i];

		if (!l->used || l->display != display) {
			continue;
		}
		*num_types += l->changed != 0;
		if (!d->rules.on && (l->type == HWC2_COMPOSITION_CLIENT || l->changed == HWC2_COMPOSITION_CLIENT)) {
			l->request = HWC2_LAYER_REQUEST_CLEAR_CLIENT_TARGET;
			(*num_requests)++;
			sc->display_requests = HWC2_DISPLAY_REQUEST_FLIP_CLIENT_TARGET;
		}
	}
	sc->validated = true;
	return *num_types ? HWC2_ERROR_HAS_CHANGES : HWC2_ERROR_NONE;
}

static int32_t get_changed_composition_types(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *count, hwc2_layer_t *layers, int32_t *types)
{
	struct fake_device *d = dev_of(device);
	uint32_t n = 0;

	DISPLAY_CHECK(display);
	if (!screen_of(d, display)->validated) {
		return HWC2_ERROR_NOT_VALIDATED;
	}
	for (int i = 0; i < MAX_LAYERS; i++) {
		if (d->layers[i].used && d->layers[i].display == display && d->layers[i].changed) {
			if (layers && types && n < *count) {
				layers[n] = d->layers[i].id;
				types[n] = d->layers[i].changed;
			}
			n++;
		}
	}
	*count = layers ? (n < *count ? n : *count) : n;
	return HWC2_ERROR_NONE;
}

static int32_t get_display_requests(hwc2_device_t *device, hwc2_display_t display,
	int32_t *display_requests, uint32_t *count, hwc2_layer_t *layers, int32_t *requests)
{
	struct fake_device *d = dev_of(device);
	uint32_t n = 0;

	DISPLAY_CHECK(display);
	if (!screen_of(d, display)->validated) {
		return HWC2_ERROR_NOT_VALIDATED;
	}
	*display_requests = (int32_t)screen_of(d, display)->display_requests;
	for (int i = 0; i < MAX_LAYERS; i++) {
		if (d->layers[i].used && d->layers[i].display == display && d->layers[i].request) {
			if (layers && requests && n < *count) {
				layers[n] = d->layers[i].id;
				requests[n] = (int32_t)d->layers[i].request;
			}
			n++;
		}
	}
	*count = layers ? (n < *count ? n : *count) : n;
	return HWC2_ERROR_NONE;
}

static int32_t accept_display_changes(hwc2_device_t *device, hwc2_display_t display)
{
	struct fake_device *d = dev_of(device);

	DISPLAY_CHECK(display);
	if (!screen_of(d, display)->validated) {
		return HWC2_ERROR_NOT_VALIDATED;
	}
	for (int i = 0; i < MAX_LAYERS; i++) {
		if (d->layers[i].used && d->layers[i].display == display && d->layers[i].changed) {
			d->layers[i].type = d->layers[i].changed;
			d->layers[i].changed = 0;
		}
	}
	return HWC2_ERROR_NONE;
}

static int32_t present_display(hwc2_device_t *device, hwc2_display_t display, int32_t *out_fence)
{
	struct fake_device *d = dev_of(device);

	struct fake_screen *sc;
	int kept = 0;

	fake_fault_point("presentDisplay");
	DISPLAY_CHECK(display);
	sc = screen_of(d, display);
	if (!sc->validated) {
		return HWC2_ERROR_NOT_VALIDATED;
	}
	/* the previous frame leaves the screen: its fences signal soon after this call (every display's: a fake may signal early) */
	signal_all(d);
	for (int i = 0; i < d->release_count; i++) {
		if (d->release_displays[i] != display) {	/* another display's, not yet collected */
			d->release_fds[kept] = d->release_fds[i];
			d->release_layers[kept] = d->release_layers[i];
			d->release_displays[kept++] = d->release_displays[i];
		} else {
			close(d->release_fds[i]);	/* never collected by getReleaseFences */
		}
	}
	d->release_count = kept;
	*out_fence = new_fence(d);
	for (int i = 0; i < MAX_LAYERS; i++) {
		struct fake_layer *l = &d->layers[i];

		if (l->display != display) {
			continue;
		}

		/* the scenarios' device: a fence for each replaced buffer, whatever the type */
		bool release = d->rules.on ? l->buffer_set && l->had_buffer :
			l->buffer_set && l->type != HWC2_COMPOSITION_CLIENT;

		if (l->used && release && d->release_count < MAX_LAYERS) {
			d->release_layers[d->release_count] = l->id;
			d->release_displays[d->release_count] = display;
			d->release_fds[d->release_count++] = new_fence(d);
		}
		l->had_buffer = l->had_buffer || l->buffer_set;
		l->buffer_set = false;
	}
	sc->validated = false;
	return HWC2_ERROR_NONE;
}

static int32_t get_release_fences(hwc2_device_t *device, hwc2_display_t display, uint32_t *count,
	hwc2_layer_t *layers, int32_t *fences)
{
	struct fake_device *d = dev_of(device);
	uint32_t n = 0;
	int kept = 0;

	DISPLAY_CHECK(display);
	for (int i = 0; i < d->release_count; i++) {
		if (d->release_displays[i] != display) {
			d->release_fds[kept] = d->release_fds[i];	/* another display's: kept */
			d->release_layers[kept] = d->release_layers[i];
			d->release_displays[kept++] = d->release_displays[i];
		} else if (!layers || !fences) {
			n++;	/* counted only */
			d->release_fds[kept] = d->release_fds[i];
			d->release_layers[kept] = d->release_layers[i];
			d->release_displays[kept++] = d->release_displays[i];
		} else if (n < *count) {
			layers[n] = d->release_layers[i];
			fences[n++] = d->release_fds[i];	/* the caller owns them now */
		} else {
			d->release_fds[kept] = d->release_fds[i];	/* no room: left for the next call */
			d->release_layers[kept] = d->release_layers[i];
			d->release_displays[kept++] = d->release_displays[i];
		}
	}
	d->release_count = kept;
	*count = n;
	return HWC2_ERROR_NONE;
}

/* --------------------------------------------------------------- layers */

#define LAYER_CHECK(d, display, layer, l) \
	do { \
		DISPLAY_CHECK(display); \
		if (!((l) = layer_of((d), (layer)))) { \
			return HWC2_ERROR_BAD_LAYER; \
		} \
	} while (0)

static int32_t set_layer_buffer(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	buffer_handle_t buffer, int32_t acquire_fence)
{
	struct fake_device *d = dev_of(device);
	struct fake_layer *l;

	LAYER_CHECK(d, display, layer, l);
	if (!fd_valid(acquire_fence) || (buffer && buffer->version != (int)sizeof(native_handle_t))) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	if (d->errors && ++d->buffers % 5 == 0) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	l->buffer_set = true;
	l->yuv = false;
	if (buffer) {
		struct hwct_test_buffer tb;

		l->yuv = hwct_test_handle_parse(buffer, &tb) && tb.fourcc == FAKE_FOURCC_NV12;
	}
	return HWC2_ERROR_NONE;
}

static int32_t set_layer_composition_type(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, int32_t type)
{
	struct fake_device *d = dev_of(device);
	struct fake_layer *l;

	LAYER_CHECK(d, display, layer, l);
	l->type = type;
	return HWC2_ERROR_NONE;
}

static int32_t set_layer_plane_alpha(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, float alpha)
{
	struct fake_device *d = dev_of(device);
	struct fake_layer *l;

	LAYER_CHECK(d, display, layer, l);
	l->alpha = alpha;
	return HWC2_ERROR_NONE;
}

static int32_t set_layer_int(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	int32_t value)
{
	struct fake_device *d = dev_of(device);
	struct fake_layer *l;

	LAYER_CHECK(d, display, layer, l);
	(void)value;
	return HWC2_ERROR_NONE;
}

static int32_t set_layer_z_order(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	uint32_t z)
{
	struct fake_device *d = dev_of(device);
	struct fake_layer *l;

	LAYER_CHECK(d, display, layer, l);
	l->z = (int32_t)z;
	return HWC2_ERROR_NONE;
}

static int32_t set_layer_display_frame(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_rect_t frame)
{
	return set_layer_int(device, display, layer, frame.right - frame.left > 0 ? 0 : 1);
}

static int32_t set_layer_source_crop(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_frect_t crop)
{
	return set_layer_int(device, display, layer, crop.right > crop.left ? 0 : 1);
}

static int32_t set_layer_region(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	hwc_region_t region)
{
	if (region.numRects && !region.rects) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	return set_layer_int(device, display, layer, 0);
}

static int32_t set_layer_color(hwc2_device_t *device, hwc2_display_t display, hwc2_layer_t layer,
	hwc_color_t color)
{
	return set_layer_int(device, display, layer, color.a);
}

static int32_t set_cursor_position(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, int32_t x, int32_t y)
{
	struct fake_device *d = dev_of(device);

	(void)x;
	(void)y;
	if (d->errors && display == FAKE_DISPLAY && ++d->cursors % 4 == 0) {
		return HWC2_ERROR_BAD_LAYER;
	}
	return set_layer_int(device, display, layer, 0);
}

/* ---------------------------------------------------------- the device */

static int32_t vendor_ping(hwc2_device_t *device, int32_t x)
{
	dev_of(device);
	return x + 1;
}

static const int32_t null_functions[] = FAKE_NULL_FUNCTIONS;

static hwc2_function_pointer_t lookup(int32_t descriptor)
{
	switch (descriptor) {
#define FN(d, f) \
	case HWC2_FUNCTION_##d: \
		return (hwc2_function_pointer_t)(f)
	FN(ACCEPT_DISPLAY_CHANGES, accept_display_changes);
	FN(CREATE_LAYER, create_layer);
	FN(DESTROY_LAYER, destroy_layer);
	FN(DUMP, dump);
	FN(GET_ACTIVE_CONFIG, get_active_config);
	FN(GET_CHANGED_COMPOSITION_TYPES, get_changed_composition_types);
	FN(GET_CLIENT_TARGET_SUPPORT, get_client_target_support);
	FN(GET_COLOR_MODES, get_color_modes);
	FN(GET_DISPLAY_ATTRIBUTE, get_display_attribute);
	FN(GET_DISPLAY_CONFIGS, get_display_configs);
	FN(GET_DISPLAY_NAME, get_display_name);
	FN(GET_DISPLAY_REQUESTS, get_display_requests);
	FN(GET_DISPLAY_TYPE, get_display_type);
	FN(GET_DOZE_SUPPORT, get_doze_support);
	FN(GET_HDR_CAPABILITIES, get_hdr_capabilities);
	FN(GET_MAX_VIRTUAL_DISPLAY_COUNT, get_max_virtual_display_count);
	FN(GET_RELEASE_FENCES, get_release_fences);
	FN(PRESENT_DISPLAY, present_display);
	FN(REGISTER_CALLBACK, register_callback);
	FN(SET_ACTIVE_CONFIG, set_active_config);
	FN(SET_CLIENT_TARGET, set_client_target);
	FN(SET_COLOR_MODE, set_color_mode);
	FN(SET_COLOR_TRANSFORM, set_color_transform);
	FN(SET_CURSOR_POSITION, set_cursor_position);
	FN(SET_LAYER_BLEND_MODE, set_layer_int);
	FN(SET_LAYER_BUFFER, set_layer_buffer);
	FN(SET_LAYER_COLOR, set_layer_color);
	FN(SET_LAYER_COMPOSITION_TYPE, set_layer_composition_type);
	FN(SET_LAYER_DATASPACE, set_layer_int);
	FN(SET_LAYER_DISPLAY_FRAME, set_layer_display_frame);
	FN(SET_LAYER_PLANE_ALPHA, set_layer_plane_alpha);
	FN(SET_LAYER_SOURCE_CROP, set_layer_source_crop);
	FN(SET_LAYER_SURFACE_DAMAGE, set_layer_region);
	FN(SET_LAYER_TRANSFORM, set_layer_int);
	FN(SET_LAYER_VISIBLE_REGION, set_layer_region);
	FN(SET_LAYER_Z_ORDER, set_layer_z_order);
	FN(SET_POWER_MODE, set_power_mode);
	FN(SET_VSYNC_ENABLED, set_vsync_enabled);
	FN(VALIDATE_DISPLAY, validate_display);
	FN(GET_RENDER_INTENTS, get_render_intents);
	FN(GET_DISPLAY_CAPABILITIES, get_display_capabilities);
	FN(GET_DISPLAY_CONNECTION_TYPE, get_display_connection_type);
	FN(GET_CLIENT_TARGET_PROPERTY, get_client_target_property);
	FN(CREATE_VIRTUAL_DISPLAY, create_virtual_display);
	FN(DESTROY_VIRTUAL_DISPLAY, destroy_virtual_display);
	FN(SET_OUTPUT_BUFFER, set_output_buffer);
#undef FN
	case FAKE_VENDOR_DESCRIPTOR:
		return (hwc2_function_pointer_t)vendor_ping;
	default:
		return NULL;
	}
}

static hwc2_function_pointer_t get_function(struct hwc2_device *device, int32_t descriptor)
{
	struct fake_device *d = dev_of(device);

	if (d->null_present && descriptor == HWC2_FUNCTION_PRESENT_DISPLAY) {
		return NULL;
	}
	for (size_t i = 0; d->null_functions && i < sizeof(null_functions) / sizeof(null_functions[0]); i++) {
		if (null_functions[i] == descriptor) {
			return NULL;
		}
	}
	return lookup(descriptor);
}

static void get_capabilities(struct hwc2_device *device, uint32_t *count, int32_t *caps)
{
	dev_of(device);
	if (caps && *count >= 1) {
		caps[0] = HWC2_CAPABILITY_SKIP_CLIENT_COLOR_TRANSFORM;
	}
	*count = 1;
}

static int device_close(struct hw_device_t *hw)
{
	struct fake_device *d = dev_of((hwc2_device_t *)hw);

	fake_fault_point("close");
	if (d->hotplug_running) {
		atomic_store(&d->hotplug_stop, true);
		pthread_join(d->hotplug_thread, NULL);
	}
	vsync_stop(d);
	signal_all(d);
	fake_signaller_stop(&d->signaller);	/* signals what is pending, joined before the fds and d go */
	for (int i = 0; i < d->release_count; i++) {
		close(d->release_fds[i]);
	}
	d->magic = 0;
	pthread_mutex_destroy(&d->lock);
	free(d);
	return 0;
}

/* Whether the comma-separated list has word. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0')) {
			return true;
		}
	}
	return false;
}

static int module_open(const struct hw_module_t *module, const char *id, struct hw_device_t **out)
{
	const char *mode = getenv("FAKE_HWC2_MODE");
	struct fake_device *d;

	if (strcmp(id, HWC_HARDWARE_COMPOSER) != 0) {
		return -EINVAL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		return -ENOMEM;
	}
	d->magic = FAKE_MAGIC;
	d->next_layer = 100;
	d->errors = has_word(mode, "errors");
	d->null_functions = has_word(mode, "null-functions");
	d->null_present = has_word(mode, "null-present");
	d->displays = has_word(mode, "displays");
	d->late_hotplug = has_word(mode, "late-hotplug");
	d->screens[0] = (struct fake_screen){ .used = true, .id = FAKE_DISPLAY, .name = FAKE_NAME };
	if (d->displays) {
		d->screens[1] = (struct fake_screen){ .used = true, .id = FAKE_DISPLAY_2, .width = FAKE_WIDTH_2,
			.height = FAKE_HEIGHT_2, .name = FAKE_NAME_2 };
	}
	fake_rules_read(&d->rules);
	pthread_mutex_init(&d->lock, NULL);
	if (fake_signaller_start(&d->signaller) < 0) {
		fprintf(stderr, "fake_hwc2: no fence signaller thread: fences signal inside presentDisplay\n");
	}
	d->base.common.tag = HARDWARE_DEVICE_TAG;
	d->base.common.version = HWC_DEVICE_API_VERSION_2_0;
	d->base.common.module = (struct hw_module_t *)module;
	d->base.common.close = device_close;
	d->base.getCapabilities = get_capabilities;
	d->base.getFunction = get_function;
	*out = &d->base.common;
	return 0;
}

static struct hw_module_methods_t methods = {
	.open = module_open,
};

__attribute__((visibility("default"))) struct hw_module_t HAL_MODULE_INFO_SYM = {
	.tag = HARDWARE_MODULE_TAG,
	.module_api_version = HARDWARE_MODULE_API_VERSION(2, 0),
	.hal_api_version = HARDWARE_HAL_API_VERSION,
	.id = HWC_HARDWARE_MODULE_ID,
	.name = "hwctrace fake HWC2 (tests)",
	.author = "hwctrace",
	.methods = &methods,
};
