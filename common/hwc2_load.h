/*
 * Loading an HWC2 module the way libhardware and the HIDL passthrough
 * composer load one, one implementation for the recorder (the real module
 * behind the HAL wrapper), the replayer's --hwc2 backend and the test
 * clients: dlopen, the "HMI" symbol with its tag, id "hwcomposer" and an
 * open method (hwct_hwc2_module_load); methods->open("composer") giving a
 * version 2 device with getFunction (hwct_hwc2_device_open); each function
 * resolved once through getFunction into one table (hwct_hwc2_fns_resolve).
 *
 * Messages are whole sentences written into msg (at most size bytes,
 * always terminated); the caller adds the path or its program's prefix.
 */
#ifndef HWCT_COMMON_HWC2_LOAD_H
#define HWCT_COMMON_HWC2_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hardware/hardware.h>
#include <hardware/hwcomposer2.h>

/* What the replayer makes of a function the module lacks. */
enum hwct_hwc2_fn_need {
	HWCT_HWC2_FN_REQUIRED,	/* the replayer cannot drive a module without it */
	HWCT_HWC2_FN_OPTIONAL,	/* the replayer skips the call when it is missing */
	HWCT_HWC2_FN_EXTRA,	/* only the test clients call it */
};

/*
 * Every function one of hwctrace's HWC2 clients resolves: X(DESC, field,
 * need), DESC naming HWC2_FUNCTION_DESC and HWC2_PFN_DESC. The replayer's
 * functions first, in the order it has always resolved them.
 */
#define HWCT_HWC2_FUNCTIONS(X) \
	X(REGISTER_CALLBACK, register_callback, HWCT_HWC2_FN_REQUIRED) \
	X(GET_DISPLAY_TYPE, get_display_type, HWCT_HWC2_FN_OPTIONAL) \
	X(GET_DISPLAY_NAME, get_display_name, HWCT_HWC2_FN_OPTIONAL) \
	X(GET_DISPLAY_CONFIGS, get_display_configs, HWCT_HWC2_FN_OPTIONAL) \
	X(GET_ACTIVE_CONFIG, get_active_config, HWCT_HWC2_FN_REQUIRED) \
	X(GET_DISPLAY_ATTRIBUTE, get_display_attribute, HWCT_HWC2_FN_REQUIRED) \
	X(GET_COLOR_MODES, get_color_modes, HWCT_HWC2_FN_OPTIONAL) \
	X(GET_CLIENT_TARGET_SUPPORT, get_client_target_support, HWCT_HWC2_FN_OPTIONAL) \
	X(SET_POWER_MODE, set_power_mode, HWCT_HWC2_FN_REQUIRED) \
	X(SET_VSYNC_ENABLED, set_vsync_enabled, HWCT_HWC2_FN_OPTIONAL) \
	X(CREATE_LAYER, create_layer, HWCT_HWC2_FN_REQUIRED) \
	X(DESTROY_LAYER, destroy_layer, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_DISPLAY_FRAME, set_layer_display_frame, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_SOURCE_CROP, set_layer_source_crop, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_Z_ORDER, set_layer_z_order, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_TRANSFORM, set_layer_transform, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_BLEND_MODE, set_layer_blend_mode, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_PLANE_ALPHA, set_layer_plane_alpha, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_VISIBLE_REGION, set_layer_visible_region, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_DATASPACE, set_layer_dataspace, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_SURFACE_DAMAGE, set_layer_surface_damage, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_COMPOSITION_TYPE, set_layer_composition_type, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_BUFFER, set_layer_buffer, HWCT_HWC2_FN_REQUIRED) \
	X(SET_LAYER_COLOR, set_layer_color, HWCT_HWC2_FN_OPTIONAL) \
	X(VALIDATE_DISPLAY, validate_display, HWCT_HWC2_FN_REQUIRED) \
	X(GET_CHANGED_COMPOSITION_TYPES, get_changed_composition_types, HWCT_HWC2_FN_REQUIRED) \
	X(GET_DISPLAY_REQUESTS, get_display_requests, HWCT_HWC2_FN_REQUIRED) \
	X(ACCEPT_DISPLAY_CHANGES, accept_display_changes, HWCT_HWC2_FN_REQUIRED) \
	X(SET_CLIENT_TARGET, set_client_target, HWCT_HWC2_FN_REQUIRED) \
	X(PRESENT_DISPLAY, present_display, HWCT_HWC2_FN_REQUIRED) \
	X(GET_RELEASE_FENCES, get_release_fences, HWCT_HWC2_FN_REQUIRED) \
	X(DUMP, dump, HWCT_HWC2_FN_EXTRA) \
	X(GET_DOZE_SUPPORT, get_doze_support, HWCT_HWC2_FN_EXTRA) \
	X(GET_HDR_CAPABILITIES, get_hdr_capabilities, HWCT_HWC2_FN_EXTRA) \
	X(GET_MAX_VIRTUAL_DISPLAY_COUNT, get_max_virtual_display_count, HWCT_HWC2_FN_EXTRA) \
	X(SET_ACTIVE_CONFIG, set_active_config, HWCT_HWC2_FN_EXTRA) \
	X(SET_COLOR_MODE, set_color_mode, HWCT_HWC2_FN_EXTRA) \
	X(SET_COLOR_TRANSFORM, set_color_transform, HWCT_HWC2_FN_EXTRA) \
	X(SET_CURSOR_POSITION, set_cursor_position, HWCT_HWC2_FN_EXTRA) \
	X(SET_LAYER_SIDEBAND_STREAM, set_layer_sideband_stream, HWCT_HWC2_FN_EXTRA)

/* The resolved functions; NULL where the module has none (or it was not asked for). */
struct hwct_hwc2_fns {
#define HWCT_HWC2_FN_FIELD(desc, field, need) HWC2_PFN_##desc field;
	HWCT_HWC2_FUNCTIONS(HWCT_HWC2_FN_FIELD)
#undef HWCT_HWC2_FN_FIELD
};

/* dlopen(3) or a stand-in with its contract (the recorder's un-interposed one). */
typedef void *(*hwct_dlopen_fn)(const char *path, int flags);

/* Whether hmi (NULL allowed) is an HWC2 module's: tag HMI, id "hwcomposer", an open method. */
bool hwct_hwc2_hmi_valid(const struct hw_module_t *hmi);

/*
 * dlopens path (RTLD_NOW | RTLD_LOCAL) with open_fn (NULL: dlopen) and
 * finds its HMI. On success *dl is the handle (the caller's to dlclose)
 * and *hmi the module, and returns 0; else returns -ENOEXEC with nothing
 * left open and the reason in msg ("cannot load the HWC2 module: ...",
 * "not an HWC2 module (...)").
 */
int hwct_hwc2_module_load(const char *path, hwct_dlopen_fn open_fn, void **dl,
	struct hw_module_t **hmi, char *msg, size_t size);

/*
 * Opens hmi's "composer" device. Returns 0 with the device in *dev (the
 * caller's to close through dev->common.close), -ENODEV when open failed or
 * gave no device, -ENOEXEC when the device is not version 2 with
 * getFunction (closed again); *dev is NULL then and msg says why.
 */
int hwct_hwc2_device_open(struct hw_module_t *hmi, hwc2_device_t **dev, char *msg, size_t size);

/*
 * Resolves into fns (every field set, NULL for the missing) each function
 * whose need is at most upto, through dev->getFunction in the table's order.
 * before, when not NULL, is called with "getFunction" before each call (the
 * replayer's hang watch and call log).
 */
void hwct_hwc2_fns_resolve(hwc2_device_t *dev, enum hwct_hwc2_fn_need upto,
	void (*before)(const char *call), struct hwct_hwc2_fns *fns);

/*
 * The functions of need at most upto that fns lacks, in the table's order:
 * their descriptors in missing (up to max). Returns how many are missing.
 */
size_t hwct_hwc2_fns_missing(const struct hwct_hwc2_fns *fns, enum hwct_hwc2_fn_need upto,
	int32_t *missing, size_t max);

#endif
