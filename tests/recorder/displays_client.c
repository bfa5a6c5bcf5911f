/*
 * displays-client MODULE FRAMES: a session of several displays, driven the
 * way SurfaceFlinger drives an HWC2 module (docs/platform.md §1.5-1.6): every
 * display the module hotplugs, plus one virtual display when the module
 * offers one (createVirtualDisplay, setOutputBuffer each frame), each with
 * two layers of its own (memfd test buffers, <hwct/test_buffer.h>), FRAMES
 * frames per display: setLayer*, validate, accept, present, release fences.
 * Run on the fake module with FAKE_HWC2_MODE=displays, through
 * libhwc-record.so (tests/recorder/displays.py). Prints one line per display:
 * "display ID TYPE WIDTHxHEIGHT FRAMES". Exits 0, or 1 with a message.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/test_buffer.h>

#include "hwc2_load.h"

#define MAX_DISPLAYS 4
#define LAYERS 2
#define FOURCC_ABGR8888 0x34324241u	/* 'A' 'B' '2' '4' */
#define VIRTUAL_WIDTH 1280
#define VIRTUAL_HEIGHT 720

struct buffer {
	int fd;
	native_handle_t *handle;	/* malloc'd */
};

struct display {
	hwc2_display_t id;
	bool is_virtual;
	int32_t width, height;
	hwc2_layer_t layers[LAYERS];
	struct buffer buffers[LAYERS + 1];	/* the layers', then the output buffer (virtual) */
	unsigned frames;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hwc2_display_t plugged[MAX_DISPLAYS];
static size_t plugged_count;

static void on_hotplug(hwc2_callback_data_t data, hwc2_display_t display, int32_t connection)
{
	(void)data;
	pthread_mutex_lock(&lock);
	if (connection == HWC2_CONNECTION_CONNECTED && plugged_count < MAX_DISPLAYS) {
		plugged[plugged_count++] = display;
	}
	pthread_mutex_unlock(&lock);
}

static void on_vsync(hwc2_callback_data_t data, hwc2_display_t display, int64_t timestamp)
{
	(void)data;
	(void)display;
	(void)timestamp;
}

static void fail(const char *what, int32_t error)
{
	fprintf(stderr, "displays-client: %s: error %d\n", what, error);
	exit(1);
}

/* A width x height ABGR8888 buffer filled with one colour per (display, layer). */
static void buffer_make(struct buffer *b, int32_t width, int32_t height, uint8_t shade)
{
	size_t size = (size_t)width * (size_t)height * 4;
	uint8_t *map;

	b->fd = memfd_create("hwct-displays-buffer", MFD_CLOEXEC);
	if (b->fd < 0 || ftruncate(b->fd, (off_t)size) < 0) {
		perror("displays-client: memfd");
		exit(1);
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
	if (map == MAP_FAILED) {
		perror("displays-client: mmap");
		exit(1);
	}
	for (size_t i = 0; i < size; i += 4) {
		map[i] = shade;
		map[i + 1] = (uint8_t)(255 - shade);
		map[i + 2] = (uint8_t)(shade / 2);
		map[i + 3] = 255;
	}
	munmap(map, size);
	b->handle = hwct_test_handle_create(&(struct hwct_test_buffer){ .fd = b->fd, .width = (uint32_t)width,
		.height = (uint32_t)height, .fourcc = FOURCC_ABGR8888, .stride = { (uint32_t)width * 4, 0 },
		.hal_format = HAL_PIXEL_FORMAT_RGBA_8888 });
	if (!b->handle) {
		fprintf(stderr, "displays-client: out of memory\n");
		exit(1);
	}
}

/* What SurfaceFlinger asks about a new display, and its layers. */
static void display_start(hwc2_device_t *dev, const struct hwct_hwc2_fns *f, struct display *d, size_t index)
{
	hwc2_config_t config;
	int32_t err;

	if (!d->is_virtual) {
		if ((err = f->get_active_config(dev, d->id, &config)) != HWC2_ERROR_NONE ||
			(err = f->get_display_attribute(dev, d->id, config, HWC2_ATTRIBUTE_WIDTH, &d->width)) !=
			HWC2_ERROR_NONE ||
			(err = f->get_display_attribute(dev, d->id, config, HWC2_ATTRIBUTE_HEIGHT, &d->height)) !=
			HWC2_ERROR_NONE) {
			fail("display attributes", err);
		}
	}
	if ((err = f->set_power_mode(dev, d->id, HWC2_POWER_MODE_ON)) != HWC2_ERROR_NONE && !d->is_virtual) {
		fail("setPowerMode", err);
	}
	for (int i = 0; i < LAYERS; i++) {
		int32_t w = i ? d->width / 2 : d->width, h = i ? d->height / 2 : d->height;

		if ((err = f->create_layer(dev, d->id, &d->layers[i])) != HWC2_ERROR_NONE) {
			fail("createLayer", err);
		}
		buffer_make(&d->buffers[i], w, h, (uint8_t)(40 * index + 100 * i));
		f->set_layer_composition_type(dev, d->id, d->layers[i], HWC2_COMPOSITION_DEVICE);
		f->set_layer_z_order(dev, d->id, d->layers[i], (uint32_t)i);
		f->set_layer_display_frame(dev, d->id, d->layers[i], (hwc_rect_t){ i * 16, i * 16, i * 16 + w, i * 16 + h });
		f->set_layer_source_crop(dev, d->id, d->layers[i], (hwc_frect_t){ 0, 0, (float)w, (float)h });
		f->set_layer_blend_mode(dev, d->id, d->layers[i], i ? HWC2_BLEND_MODE_PREMULTIPLIED : HWC2_BLEND_MODE_NONE);
		f->set_layer_plane_alpha(dev, d->id, d->layers[i], 1.0f);
	}
	if (d->is_virtual) {
		buffer_make(&d->buffers[LAYERS], d->width, d->height, 0);
	}
}

/* One frame of d: a new buffer on each layer, validate, accept, present, release fences. */
static void display_frame(hwc2_device_t *dev, const struct hwct_hwc2_fns *f,
	HWC2_PFN_SET_OUTPUT_BUFFER set_output_buffer, struct display *d)
{
	uint32_t types = 0, requests = 0, count = 0;
	hwc2_layer_t layers[LAYERS * 2];
	int32_t fences[LAYERS * 2], present = -1, err;

	for (int i = 0; i < LAYERS; i++) {
		if ((err = f->set_layer_buffer(dev, d->id, d->layers[i], d->buffers[i].handle, -1)) != HWC2_ERROR_NONE) {
			fail("setLayerBuffer", err);
		}
	}
	if (d->is_virtual && (err = set_output_buffer(dev, d->id, d->buffers[LAYERS].handle, -1)) != HWC2_ERROR_NONE) {
		fail("setOutputBuffer", err);
	}
	err = f->validate_display(dev, d->id, &types, &requests);
	if (err != HWC2_ERROR_NONE && err != HWC2_ERROR_HAS_CHANGES) {
		fail("validateDisplay", err);
	}
	if (err == HWC2_ERROR_HAS_CHANGES && (err = f->accept_display_changes(dev, d->id)) != HWC2_ERROR_NONE) {
		fail("acceptDisplayChanges", err);
	}
	if ((err = f->present_display(dev, d->id, &present)) != HWC2_ERROR_NONE) {
		fail("presentDisplay", err);
	}
	if (present >= 0) {
		close(present);
	}
	if ((err = f->get_release_fences(dev, d->id, &count, NULL, NULL)) != HWC2_ERROR_NONE) {
		fail("getReleaseFences", err);
	}
	count = count < LAYERS * 2 ? count : LAYERS * 2;
	if (count && f->get_release_fences(dev, d->id, &count, layers, fences) == HWC2_ERROR_NONE) {
		for (uint32_t i = 0; i < count; i++) {
			if (fences[i] >= 0) {
				close(fences[i]);
			}
		}
	}
	d->frames++;
}

int main(int argc, char **argv)
{
	struct display displays[MAX_DISPLAYS + 1] = { 0 };
	struct hw_module_t *hmi;
	struct hwct_hwc2_fns f;
	hwc2_device_t *dev;
	size_t count = 0;
	unsigned frames;
	char msg[256];
	void *dl;
	HWC2_PFN_CREATE_VIRTUAL_DISPLAY create_virtual;
	HWC2_PFN_DESTROY_VIRTUAL_DISPLAY destroy_virtual;
	HWC2_PFN_SET_OUTPUT_BUFFER set_output_buffer;

	if (argc != 3 || (frames = (unsigned)strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: displays-client MODULE FRAMES\n");
		return 2;
	}
	if (hwct_hwc2_module_load(argv[1], NULL, &dl, &hmi, msg, sizeof(msg)) < 0 ||
		hwct_hwc2_device_open(hmi, &dev, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "displays-client: %s: %s\n", argv[1], msg);
		return 1;
	}
	hwct_hwc2_fns_resolve(dev, HWCT_HWC2_FN_EXTRA, NULL, &f);
	create_virtual = (HWC2_PFN_CREATE_VIRTUAL_DISPLAY)dev->getFunction(dev, HWC2_FUNCTION_CREATE_VIRTUAL_DISPLAY);
	destroy_virtual = (HWC2_PFN_DESTROY_VIRTUAL_DISPLAY)dev->getFunction(dev,
		HWC2_FUNCTION_DESTROY_VIRTUAL_DISPLAY);
	set_output_buffer = (HWC2_PFN_SET_OUTPUT_BUFFER)dev->getFunction(dev, HWC2_FUNCTION_SET_OUTPUT_BUFFER);
	f.register_callback(dev, HWC2_CALLBACK_HOTPLUG, NULL, (hwc2_function_pointer_t)on_hotplug);
	f.register_callback(dev, HWC2_CALLBACK_VSYNC, NULL, (hwc2_function_pointer_t)on_vsync);
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < plugged_count; i++) {
		displays[count++] = (struct display){ .id = plugged[i] };
	}
	pthread_mutex_unlock(&lock);
	if (!count) {
		fprintf(stderr, "displays-client: no display was hotplugged\n");
		return 1;
	}
	if (f.get_max_virtual_display_count && f.get_max_virtual_display_count(dev) > 0 && create_virtual &&
		destroy_virtual && set_output_buffer) {
		int32_t format = HAL_PIXEL_FORMAT_RGBA_8888, err;
		struct display *v = &displays[count];

		*v = (struct display){ .is_virtual = true, .width = VIRTUAL_WIDTH, .height = VIRTUAL_HEIGHT };
		if ((err = create_virtual(dev, VIRTUAL_WIDTH, VIRTUAL_HEIGHT, &format, &v->id)) != HWC2_ERROR_NONE) {
			fail("createVirtualDisplay", err);
		}
		count++;
	}
	for (size_t i = 0; i < count; i++) {
		display_start(dev, &f, &displays[i], i);
	}
	for (unsigned n = 0; n < frames; n++) {
		for (size_t i = 0; i < count; i++) {
			display_frame(dev, &f, set_output_buffer, &displays[i]);
		}
		usleep(2000);
	}
	for (size_t i = 0; i < count; i++) {
		struct display *d = &displays[i];

		for (int l = 0; l < LAYERS; l++) {
			f.destroy_layer(dev, d->id, d->layers[l]);
		}
		if (d->is_virtual) {
			destroy_virtual(dev, d->id);
		}
		printf("display %llu %s %dx%d %u\n", (unsigned long long)d->id, d->is_virtual ? "virtual" : "physical",
			d->width, d->height, d->frames);
	}
	dev->common.close(&dev->common);
	for (size_t i = 0; i < count; i++) {
		for (int b = 0; b < LAYERS + 1; b++) {
			if (displays[i].buffers[b].handle) {
				close(displays[i].buffers[b].fd);
				free(displays[i].buffers[b].handle);
			}
		}
	}
	dlclose(dl);
	return 0;
}
