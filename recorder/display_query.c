/* Recorder-internal display queries (display_query.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/hwc2_names.h>

#include "device.h"
#include "display_query.h"
#include "encode.h"
#include "event.h"
#include "hwc2_wrappers.h"

static hwc2_function_pointer_t lookup(struct rec_device *d, struct rec_display_info *info,
	int32_t descriptor)
{
	hwc2_function_pointer_t fn = rec_device_real(d, descriptor);
	size_t n = strlen(info->queried);

	if (fn) {
		snprintf(info->queried + n, sizeof(info->queried) - n, "%s%s", n ? " " : "",
			hwct_hwc2_function_method(descriptor));
	}
	return fn;
}

static void query_configs(struct rec_device *d, struct rec_display_info *info)
{
	HWC2_PFN_GET_DISPLAY_CONFIGS configs = (HWC2_PFN_GET_DISPLAY_CONFIGS)lookup(d, info,
		HWC2_FUNCTION_GET_DISPLAY_CONFIGS);
	HWC2_PFN_GET_DISPLAY_ATTRIBUTE attr = (HWC2_PFN_GET_DISPLAY_ATTRIBUTE)lookup(d, info,
		HWC2_FUNCTION_GET_DISPLAY_ATTRIBUTE);
	hwc2_config_t ids[REC_MAX_CONFIGS];
	uint32_t count = 0;

	if (!configs || configs(d->device, info->display, &count, NULL) != HWC2_ERROR_NONE) {
		return;
	}
	count = count < REC_MAX_CONFIGS ? count : REC_MAX_CONFIGS;
	if (count && configs(d->device, info->display, &count, ids) != HWC2_ERROR_NONE) {
		return;
	}
	count = count < REC_MAX_CONFIGS ? count : REC_MAX_CONFIGS;
	for (uint32_t i = 0; i < count; i++) {
		struct rec_display_config *c = &info->configs[i];
		static const int32_t keys[] = {
			HWC2_ATTRIBUTE_WIDTH, HWC2_ATTRIBUTE_HEIGHT, HWC2_ATTRIBUTE_VSYNC_PERIOD,
			HWC2_ATTRIBUTE_DPI_X, HWC2_ATTRIBUTE_DPI_Y, HWC2_ATTRIBUTE_CONFIG_GROUP,
		};
		int32_t *fields[] = {
			&c->width, &c->height, &c->vsync_period, &c->dpi_x, &c->dpi_y, &c->config_group,
		};

		c->id = ids[i];
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			int32_t v = -1;

			if (!attr || attr(d->device, info->display, ids[i], keys[k], &v) != HWC2_ERROR_NONE) {
				v = -1;
			}
			*fields[k] = v;
		}
	}
	info->config_count = count;
}

static void query_misc(struct rec_device *d, struct rec_display_info *info)
{
	HWC2_PFN_GET_ACTIVE_CONFIG active = (HWC2_PFN_GET_ACTIVE_CONFIG)lookup(d, info,
		HWC2_FUNCTION_GET_ACTIVE_CONFIG);
	HWC2_PFN_GET_DISPLAY_TYPE type = (HWC2_PFN_GET_DISPLAY_TYPE)lookup(d, info,
		HWC2_FUNCTION_GET_DISPLAY_TYPE);
	HWC2_PFN_GET_DISPLAY_CONNECTION_TYPE conn = (HWC2_PFN_GET_DISPLAY_CONNECTION_TYPE)lookup(d,
		info, HWC2_FUNCTION_GET_DISPLAY_CONNECTION_TYPE);
	HWC2_PFN_GET_DISPLAY_NAME name = (HWC2_PFN_GET_DISPLAY_NAME)lookup(d, info,
		HWC2_FUNCTION_GET_DISPLAY_NAME);
	HWC2_PFN_GET_COLOR_MODES modes = (HWC2_PFN_GET_COLOR_MODES)lookup(d, info,
		HWC2_FUNCTION_GET_COLOR_MODES);
	HWC2_PFN_GET_DISPLAY_CAPABILITIES caps = (HWC2_PFN_GET_DISPLAY_CAPABILITIES)lookup(d, info,
		HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES);
	HWC2_PFN_GET_DISPLAY_BRIGHTNESS_SUPPORT bright = (HWC2_PFN_GET_DISPLAY_BRIGHTNESS_SUPPORT)lookup(d,
		info, HWC2_FUNCTION_GET_DISPLAY_BRIGHTNESS_SUPPORT);
	uint32_t n, conn_type;

	info->has_active_config = active &&
		active(d->device, info->display, &info->active_config) == HWC2_ERROR_NONE;
	info->has_type = type && type(d->device, info->display, &info->type) == HWC2_ERROR_NONE;
	if (conn && conn(d->device, info->display, &conn_type) == HWC2_ERROR_NONE) {
		info->has_connection_type = true;
		info->connection_type = (int32_t)conn_type;
	}
	n = sizeof(info->name) - 1;
	if (name && name(d->device, info->display, &n, info->name) == HWC2_ERROR_NONE) {
		info->has_name = true;
		info->name[n < sizeof(info->name) ? n : sizeof(info->name) - 1] = '\0';
	} else {
		info->name[0] = '\0';
	}
	n = REC_MAX_COLOR_MODES;
	if (modes && modes(d->device, info->display, &n, info->color_modes) == HWC2_ERROR_NONE) {
		info->color_mode_count = n < REC_MAX_COLOR_MODES ? n : REC_MAX_COLOR_MODES;
	}
	n = REC_MAX_DISPLAY_CAPS;
	if (caps && caps(d->device, info->display, &n, info->capabilities) == HWC2_ERROR_NONE) {
		info->capability_count = n < REC_MAX_DISPLAY_CAPS ? n : REC_MAX_DISPLAY_CAPS;
	}
	info->has_brightness = bright &&
		bright(d->device, info->display, &info->brightness_supported) == HWC2_ERROR_NONE;
}

void rec_display_query(struct rec_device *d, uint64_t display)
{
	struct recorder *r = rec_get();
	struct rec_display_info *info;
	struct rec_event *ev;

	if (!r || !d) {
		return;
	}
	info = calloc(1, sizeof(*info));
	ev = info ? rec_event_new(REC_EV_DISPLAY, 0, 0) : NULL;
	if (!ev) {
		free(info);
		atomic_fetch_add(&r->events_dropped, 1);
		return;
	}
	info->display = display;
	info->connected = true;
	query_configs(d, info);
	query_misc(d, info);
	ev->payload = info;
	ev->has_display = true;
	ev->display = display;
	ev->t_enter = ev->t_exit = rec_now_ns();
	ev->tid = rec_tid();
	rec_queue_push(&r->queue, ev);
}

struct rec_display_info *rec_display_virtual(const struct rec_event *ev)
{
	struct rec_display_info *info;

	if (!enc_out_ok(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_OUT_DISPLAY) || !(info = calloc(1, sizeof(*info)))) {
		return NULL;
	}
	info->display = (uint64_t)enc_ival(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_OUT_DISPLAY);
	info->connected = true;
	info->from_create = true;
	info->has_type = true;
	info->type = HWC2_DISPLAY_TYPE_VIRTUAL;
	info->has_active_config = true;
	info->active_config = 0;
	info->config_count = 1;
	info->configs[0] = (struct rec_display_config){ .id = 0,
		.width = (int32_t)enc_ival(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_WIDTH),
		.height = (int32_t)enc_ival(ev, REC_ARG_CREATE_VIRTUAL_DISPLAY_HEIGHT),
		.vsync_period = -1, .dpi_x = -1, .dpi_y = -1, .config_group = -1 };
	snprintf(info->queried, sizeof(info->queried), "none (a virtual display: its size is createVirtualDisplay's)");
	return info;
}
