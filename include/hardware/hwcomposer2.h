/*
 * Hardware Composer 2 C ABI (libhardware <hardware/hwcomposer2.h>): the
 * device struct, every enum, the function descriptors 0-70 and the exact
 * HWC2_PFN_* prototypes a composer module exports through getFunction().
 *
 * Written for hwctrace from the public AOSP definitions, for binary
 * compatibility only: names, numbers, parameter types and their order match
 * AOSP, the text is our own (parameter names are ours and carry no ABI).
 * Enum-typed parameters are int32_t in every prototype, as in AOSP.
 * scripts/gen-hwc2-names.py parses the typedef enums below into name tables:
 * keep every value an integer expression (literals, <<, |, earlier names).
 *
 * Conventions shared by all HWC2_PFN_* functions (docs/platform.md §1.4-1.5):
 * - Most return an hwc2_error_t as int32_t (HWC2_ERROR_NONE on success).
 * - "Count then fill": out-arrays are first passed as NULL to learn the count
 *   (*out_count), then again with arrays of that many entries.
 * - Fences are sync_file fds, -1 meaning "already signalled". An fd passed
 *   IN stays owned by the caller (the device dup()s what it keeps); an fd
 *   returned OUT is owned by the caller, who must close it.
 * - buffer_handle_t and hwc_region_t contents are borrowed for the call.
 */
#ifndef HWCT_COMPAT_HARDWARE_HWCOMPOSER2_H
#define HWCT_COMPAT_HARDWARE_HWCOMPOSER2_H

#include <stdbool.h>
#include <stdint.h>

#include <cutils/native_handle.h>
#include <hardware/hardware.h>
#include <hardware/hwcomposer_defs.h>
#include <system/graphics.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- enums */

/* getDisplayAttribute keys. There is no 6. */
typedef enum {
	HWC2_ATTRIBUTE_INVALID = 0,
	HWC2_ATTRIBUTE_WIDTH = 1,		/* pixels */
	HWC2_ATTRIBUTE_HEIGHT = 2,		/* pixels */
	HWC2_ATTRIBUTE_VSYNC_PERIOD = 3,	/* nanoseconds */
	HWC2_ATTRIBUTE_DPI_X = 4,		/* dots per 1000 inches, -1 unknown */
	HWC2_ATTRIBUTE_DPI_Y = 5,		/* dots per 1000 inches, -1 unknown */
	HWC2_ATTRIBUTE_CONFIG_GROUP = 7,	/* configs of a group may switch seamlessly */
} hwc2_attribute_t;

/* Per-layer blending. */
typedef enum {
	HWC2_BLEND_MODE_INVALID = 0,
	HWC2_BLEND_MODE_NONE = 1,		/* out = src */
	HWC2_BLEND_MODE_PREMULTIPLIED = 2,	/* out = src + dst * (1 - src.a) */
	HWC2_BLEND_MODE_COVERAGE = 3,		/* out = src * src.a + dst * (1 - src.a) */
} hwc2_blend_mode_t;

/* registerCallback descriptors; each names one HWC2_PFN_<callback> type. */
typedef enum {
	HWC2_CALLBACK_INVALID = 0,
	HWC2_CALLBACK_HOTPLUG = 1,
	HWC2_CALLBACK_REFRESH = 2,
	HWC2_CALLBACK_VSYNC = 3,
	HWC2_CALLBACK_VSYNC_2_4 = 4,
	HWC2_CALLBACK_VSYNC_PERIOD_TIMING_CHANGED = 5,
	HWC2_CALLBACK_SEAMLESS_POSSIBLE = 6,
} hwc2_callback_descriptor_t;

/* Device-wide optional features reported by getCapabilities. */
typedef enum {
	HWC2_CAPABILITY_INVALID = 0,
	HWC2_CAPABILITY_SIDEBAND_STREAM = 1,
	HWC2_CAPABILITY_SKIP_CLIENT_COLOR_TRANSFORM = 2,
	HWC2_CAPABILITY_PRESENT_FENCE_IS_NOT_RELIABLE = 3,	/* HWC1 adapters only */
	HWC2_CAPABILITY_SKIP_VALIDATE = 4,	/* presentDisplay may be tried without validate */
} hwc2_capability_t;

/* Who composes a layer. */
typedef enum {
	HWC2_COMPOSITION_INVALID = 0,
	HWC2_COMPOSITION_CLIENT = 1,		/* the client (GPU) renders it into the client target */
	HWC2_COMPOSITION_DEVICE = 2,		/* the device scans it out (overlay plane) */
	HWC2_COMPOSITION_SOLID_COLOR = 3,	/* the device fills with setLayerColor */
	HWC2_COMPOSITION_CURSOR = 4,		/* DEVICE, and movable by setCursorPosition */
	HWC2_COMPOSITION_SIDEBAND = 5,		/* content from a sideband stream */
	/*
	 * Not part of the HWC2 C header: AIDL composer3 Composition value 6,
	 * named here so traces of composer3 sessions can be labelled.
	 */
	HWC2_COMPOSITION_DISPLAY_DECORATION = 6,
} hwc2_composition_t;

/* Hotplug callback states. */
typedef enum {
	HWC2_CONNECTION_INVALID = 0,
	HWC2_CONNECTION_CONNECTED = 1,
	HWC2_CONNECTION_DISCONNECTED = 2,
} hwc2_connection_t;

/* getDisplayRequests display-wide bits. */
typedef enum {
	HWC2_DISPLAY_REQUEST_FLIP_CLIENT_TARGET = 1 << 0,
	HWC2_DISPLAY_REQUEST_WRITE_CLIENT_TARGET_TO_OUTPUT = 1 << 1,
} hwc2_display_request_t;

/* getDisplayType results. */
typedef enum {
	HWC2_DISPLAY_TYPE_INVALID = 0,
	HWC2_DISPLAY_TYPE_PHYSICAL = 1,
	HWC2_DISPLAY_TYPE_VIRTUAL = 2,
} hwc2_display_type_t;

/* getDisplayConnectionType results (2.4), physical displays only. */
typedef enum {
	HWC2_DISPLAY_CONNECTION_TYPE_INTERNAL = 0,
	HWC2_DISPLAY_CONNECTION_TYPE_EXTERNAL = 1,
} hwc2_display_connection_type_t;

/* Return codes of the HWC2_PFN_* functions. */
typedef enum {
	HWC2_ERROR_NONE = 0,
	HWC2_ERROR_BAD_CONFIG = 1,
	HWC2_ERROR_BAD_DISPLAY = 2,
	HWC2_ERROR_BAD_LAYER = 3,
	HWC2_ERROR_BAD_PARAMETER = 4,
	HWC2_ERROR_HAS_CHANGES = 5,		/* validateDisplay: see getChangedCompositionTypes */
	HWC2_ERROR_NO_RESOURCES = 6,
	HWC2_ERROR_NOT_VALIDATED = 7,
	HWC2_ERROR_UNSUPPORTED = 8,
	HWC2_ERROR_SEAMLESS_NOT_ALLOWED = 9,
	HWC2_ERROR_SEAMLESS_NOT_POSSIBLE = 10,
} hwc2_error_t;

/*
 * getFunction descriptors. The numbers are ABI: 1-43 composer 2.1, 44-52
 * 2.2, 53-61 2.3, 62-70 2.4. A device returns NULL for ones it lacks.
 */
typedef enum {
	HWC2_FUNCTION_INVALID = 0,
	HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES = 1,
	HWC2_FUNCTION_CREATE_LAYER = 2,
	HWC2_FUNCTION_CREATE_VIRTUAL_DISPLAY = 3,
	HWC2_FUNCTION_DESTROY_LAYER = 4,
	HWC2_FUNCTION_DESTROY_VIRTUAL_DISPLAY = 5,
	HWC2_FUNCTION_DUMP = 6,
	HWC2_FUNCTION_GET_ACTIVE_CONFIG = 7,
	HWC2_FUNCTION_GET_CHANGED_COMPOSITION_TYPES = 8,
	HWC2_FUNCTION_GET_CLIENT_TARGET_SUPPORT = 9,
	HWC2_FUNCTION_GET_COLOR_MODES = 10,
	HWC2_FUNCTION_GET_DISPLAY_ATTRIBUTE = 11,
	HWC2_FUNCTION_GET_DISPLAY_CONFIGS = 12,
	HWC2_FUNCTION_GET_DISPLAY_NAME = 13,
	HWC2_FUNCTION_GET_DISPLAY_REQUESTS = 14,
	HWC2_FUNCTION_GET_DISPLAY_TYPE = 15,
	HWC2_FUNCTION_GET_DOZE_SUPPORT = 16,
	HWC2_FUNCTION_GET_HDR_CAPABILITIES = 17,
	HWC2_FUNCTION_GET_MAX_VIRTUAL_DISPLAY_COUNT = 18,
	HWC2_FUNCTION_GET_RELEASE_FENCES = 19,
	HWC2_FUNCTION_PRESENT_DISPLAY = 20,
	HWC2_FUNCTION_REGISTER_CALLBACK = 21,
	HWC2_FUNCTION_SET_ACTIVE_CONFIG = 22,
	HWC2_FUNCTION_SET_CLIENT_TARGET = 23,
	HWC2_FUNCTION_SET_COLOR_MODE = 24,
	HWC2_FUNCTION_SET_COLOR_TRANSFORM = 25,
	HWC2_FUNCTION_SET_CURSOR_POSITION = 26,
	HWC2_FUNCTION_SET_LAYER_BLEND_MODE = 27,
	HWC2_FUNCTION_SET_LAYER_BUFFER = 28,
	HWC2_FUNCTION_SET_LAYER_COLOR = 29,
	HWC2_FUNCTION_SET_LAYER_COMPOSITION_TYPE = 30,
	HWC2_FUNCTION_SET_LAYER_DATASPACE = 31,
	HWC2_FUNCTION_SET_LAYER_DISPLAY_FRAME = 32,
	HWC2_FUNCTION_SET_LAYER_PLANE_ALPHA = 33,
	HWC2_FUNCTION_SET_LAYER_SIDEBAND_STREAM = 34,
	HWC2_FUNCTION_SET_LAYER_SOURCE_CROP = 35,
	HWC2_FUNCTION_SET_LAYER_SURFACE_DAMAGE = 36,
	HWC2_FUNCTION_SET_LAYER_TRANSFORM = 37,
	HWC2_FUNCTION_SET_LAYER_VISIBLE_REGION = 38,
	HWC2_FUNCTION_SET_LAYER_Z_ORDER = 39,
	HWC2_FUNCTION_SET_OUTPUT_BUFFER = 40,
	HWC2_FUNCTION_SET_POWER_MODE = 41,
	HWC2_FUNCTION_SET_VSYNC_ENABLED = 42,
	HWC2_FUNCTION_VALIDATE_DISPLAY = 43,
	/* composer 2.2 */
	HWC2_FUNCTION_SET_LAYER_FLOAT_COLOR = 44,
	HWC2_FUNCTION_SET_LAYER_PER_FRAME_METADATA = 45,
	HWC2_FUNCTION_GET_PER_FRAME_METADATA_KEYS = 46,
	HWC2_FUNCTION_SET_READBACK_BUFFER = 47,
	HWC2_FUNCTION_GET_READBACK_BUFFER_ATTRIBUTES = 48,
	HWC2_FUNCTION_GET_READBACK_BUFFER_FENCE = 49,
	HWC2_FUNCTION_GET_RENDER_INTENTS = 50,
	HWC2_FUNCTION_SET_COLOR_MODE_WITH_RENDER_INTENT = 51,
	HWC2_FUNCTION_GET_DATASPACE_SATURATION_MATRIX = 52,
	/* composer 2.3 */
	HWC2_FUNCTION_GET_DISPLAY_IDENTIFICATION_DATA = 53,
	HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES = 54,
	HWC2_FUNCTION_SET_LAYER_COLOR_TRANSFORM = 55,
	HWC2_FUNCTION_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES = 56,
	HWC2_FUNCTION_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED = 57,
	HWC2_FUNCTION_GET_DISPLAYED_CONTENT_SAMPLE = 58,
	HWC2_FUNCTION_SET_LAYER_PER_FRAME_METADATA_BLOBS = 59,
	HWC2_FUNCTION_GET_DISPLAY_BRIGHTNESS_SUPPORT = 60,
	HWC2_FUNCTION_SET_DISPLAY_BRIGHTNESS = 61,
	/* composer 2.4 */
	HWC2_FUNCTION_GET_DISPLAY_CONNECTION_TYPE = 62,
	HWC2_FUNCTION_GET_DISPLAY_VSYNC_PERIOD = 63,
	HWC2_FUNCTION_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS = 64,
	HWC2_FUNCTION_SET_AUTO_LOW_LATENCY_MODE = 65,
	HWC2_FUNCTION_GET_SUPPORTED_CONTENT_TYPES = 66,
	HWC2_FUNCTION_SET_CONTENT_TYPE = 67,
	HWC2_FUNCTION_GET_CLIENT_TARGET_PROPERTY = 68,
	HWC2_FUNCTION_SET_LAYER_GENERIC_METADATA = 69,
	HWC2_FUNCTION_GET_LAYER_GENERIC_METADATA_KEY = 70,
} hwc2_function_descriptor_t;

/* getDisplayRequests per-layer bits. */
typedef enum {
	HWC2_LAYER_REQUEST_CLEAR_CLIENT_TARGET = 1 << 0,
} hwc2_layer_request_t;

/* setPowerMode values (note ON is 2, DOZE_SUSPEND 3). */
typedef enum {
	HWC2_POWER_MODE_OFF = 0,
	HWC2_POWER_MODE_DOZE = 1,
	HWC2_POWER_MODE_ON = 2,
	HWC2_POWER_MODE_DOZE_SUSPEND = 3,
} hwc2_power_mode_t;

/* setContentType values (2.4). */
typedef enum {
	HWC2_CONTENT_TYPE_NONE = 0,
	HWC2_CONTENT_TYPE_GRAPHICS = 1,
	HWC2_CONTENT_TYPE_PHOTO = 2,
	HWC2_CONTENT_TYPE_CINEMA = 3,
	HWC2_CONTENT_TYPE_GAME = 4,
} hwc2_content_type_t;

/* setVsyncEnabled values. */
typedef enum {
	HWC2_VSYNC_INVALID = 0,
	HWC2_VSYNC_ENABLE = 1,
	HWC2_VSYNC_DISABLE = 2,
} hwc2_vsync_t;

/*
 * setLayerPerFrameMetadata keys (2.2): SMPTE ST 2086 mastering display
 * primaries and white point as CIE 1931 xy, luminance in nits, then CTA 861.3
 * content light levels in nits.
 */
typedef enum {
	HWC2_DISPLAY_RED_PRIMARY_X = 0,
	HWC2_DISPLAY_RED_PRIMARY_Y = 1,
	HWC2_DISPLAY_GREEN_PRIMARY_X = 2,
	HWC2_DISPLAY_GREEN_PRIMARY_Y = 3,
	HWC2_DISPLAY_BLUE_PRIMARY_X = 4,
	HWC2_DISPLAY_BLUE_PRIMARY_Y = 5,
	HWC2_WHITE_POINT_X = 6,
	HWC2_WHITE_POINT_Y = 7,
	HWC2_MAX_LUMINANCE = 8,
	HWC2_MIN_LUMINANCE = 9,
	HWC2_MAX_CONTENT_LIGHT_LEVEL = 10,
	HWC2_MAX_FRAME_AVERAGE_LIGHT_LEVEL = 11,
} hwc2_per_frame_metadata_key_t;

/* setDisplayedContentSamplingEnabled values (2.3). */
typedef enum {
	HWC2_DISPLAYED_CONTENT_SAMPLING_INVALID = 0,
	HWC2_DISPLAYED_CONTENT_SAMPLING_ENABLE = 1,
	HWC2_DISPLAYED_CONTENT_SAMPLING_DISABLE = 2,
} hwc2_displayed_content_sampling_t;

/* Component mask bits of content sampling (2.3); for RGBA_8888 0 is R. */
typedef enum {
	HWC2_FORMAT_COMPONENT_0 = 1 << 0,
	HWC2_FORMAT_COMPONENT_1 = 1 << 1,
	HWC2_FORMAT_COMPONENT_2 = 1 << 2,
	HWC2_FORMAT_COMPONENT_3 = 1 << 3,
} hwc2_format_color_component_t;

/* Per-display optional features from getDisplayCapabilities (2.3). No 4. */
typedef enum {
	HWC2_DISPLAY_CAPABILITY_INVALID = 0,
	HWC2_DISPLAY_CAPABILITY_SKIP_CLIENT_COLOR_TRANSFORM = 1,
	HWC2_DISPLAY_CAPABILITY_DOZE = 2,
	HWC2_DISPLAY_CAPABILITY_BRIGHTNESS = 3,
	HWC2_DISPLAY_CAPABILITY_AUTO_LOW_LATENCY_MODE = 5,
} hwc2_display_capability_t;

/* ------------------------------------------------------- scalar types */

/*
 * What getFunction returns; cast it to the HWC2_PFN_* type of the descriptor
 * before calling. AOSP spells it void (*)() with an empty parameter list;
 * (void) is the same ABI and keeps -Wstrict-prototypes quiet.
 */
typedef void (*hwc2_function_pointer_t)(void);

typedef void *hwc2_callback_data_t;	/* opaque client pointer echoed to callbacks */
typedef uint32_t hwc2_config_t;		/* display config id */
typedef uint64_t hwc2_display_t;	/* display id */
typedef uint64_t hwc2_layer_t;		/* layer id, unique per display */
typedef uint32_t hwc2_vsync_period_t;	/* nanoseconds */

/* --------------------------------------------------------- the device */

/*
 * What hwc2_open() returns. LP64 136 bytes (getCapabilities at 120,
 * getFunction at 128); ILP32 72 bytes (64, 68).
 */
typedef struct hwc2_device {
	struct hw_device_t common;	/* tag HARDWARE_DEVICE_TAG, version HWC_DEVICE_API_VERSION_2_0 */

	/*
	 * Count-then-fill list of hwc2_capability_t values: with
	 * out_capabilities NULL stores the count in *out_count, otherwise
	 * writes up to *out_count entries and stores how many were written.
	 */
	void (*getCapabilities)(struct hwc2_device *device, uint32_t *out_count,
		int32_t *out_capabilities);

	/* Function for a hwc2_function_descriptor_t, or NULL if unsupported. */
	hwc2_function_pointer_t (*getFunction)(struct hwc2_device *device,
		int32_t descriptor);
} hwc2_device_t;

/*
 * Opens the "composer" device of module. Returns 0 and stores a device the
 * caller owns (release with hwc2_close()), or a negative errno.
 */
static inline int hwc2_open(const struct hw_module_t *module, hwc2_device_t **device)
{
	return module->methods->open(module, HWC_HARDWARE_COMPOSER, TO_HW_DEVICE_T_OPEN(device));
}

/* Closes and frees device. Returns 0 or a negative errno. */
static inline int hwc2_close(hwc2_device_t *device)
{
	return device->common.close(&device->common);
}

/* ------------------------------------------------------------ callbacks */

/*
 * Registered with HWC2_PFN_REGISTER_CALLBACK; data is the callback_data the
 * client registered. Callbacks may run on any device thread.
 */

/* connection: hwc2_connection_t. */
typedef void (*HWC2_PFN_HOTPLUG)(hwc2_callback_data_t data, hwc2_display_t display,
	int32_t connection);

/* The device wants a new frame for display (e.g. after losing state). */
typedef void (*HWC2_PFN_REFRESH)(hwc2_callback_data_t data, hwc2_display_t display);

/* timestamp: CLOCK_MONOTONIC ns of the vsync. */
typedef void (*HWC2_PFN_VSYNC)(hwc2_callback_data_t data, hwc2_display_t display,
	int64_t timestamp);

/* 2.4: as VSYNC plus the current vsync period in ns. */
typedef void (*HWC2_PFN_VSYNC_2_4)(hwc2_callback_data_t data, hwc2_display_t display,
	int64_t timestamp, hwc2_vsync_period_t vsync_period);

/* 2.4: a pending vsync period change was rescheduled; timeline is borrowed. */
typedef void (*HWC2_PFN_VSYNC_PERIOD_TIMING_CHANGED)(hwc2_callback_data_t data,
	hwc2_display_t display, hwc_vsync_period_change_timeline_t *timeline);

/* 2.4: a seamless config change that failed earlier may now succeed. */
typedef void (*HWC2_PFN_SEAMLESS_POSSIBLE)(hwc2_callback_data_t data, hwc2_display_t display);

/* -------------------------------------------- functions, by descriptor */

/* 1: accept the composition changes validateDisplay proposed. */
typedef int32_t (*HWC2_PFN_ACCEPT_DISPLAY_CHANGES)(hwc2_device_t *device,
	hwc2_display_t display);

/* 2: stores the new layer id in *out_layer. */
typedef int32_t (*HWC2_PFN_CREATE_LAYER)(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t *out_layer);

/* 3: *format is a requested android_pixel_format_t, updated to the one used. */
typedef int32_t (*HWC2_PFN_CREATE_VIRTUAL_DISPLAY)(hwc2_device_t *device, uint32_t width,
	uint32_t height, int32_t *format, hwc2_display_t *out_display);

/* 4 */
typedef int32_t (*HWC2_PFN_DESTROY_LAYER)(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer);

/* 5 */
typedef int32_t (*HWC2_PFN_DESTROY_VIRTUAL_DISPLAY)(hwc2_device_t *device,
	hwc2_display_t display);

/* 6: count-then-fill text dump; no return code. */
typedef void (*HWC2_PFN_DUMP)(hwc2_device_t *device, uint32_t *out_size, char *out_buffer);

/* 7 */
typedef int32_t (*HWC2_PFN_GET_ACTIVE_CONFIG)(hwc2_device_t *device, hwc2_display_t display,
	hwc2_config_t *out_config);

/* 8: count-then-fill; out_types are hwc2_composition_t. */
typedef int32_t (*HWC2_PFN_GET_CHANGED_COMPOSITION_TYPES)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_count, hwc2_layer_t *out_layers,
	int32_t *out_types);

/* 9: NONE if a client target of this size/format/dataspace is usable. */
typedef int32_t (*HWC2_PFN_GET_CLIENT_TARGET_SUPPORT)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t width, uint32_t height, int32_t format,
	int32_t dataspace);

/* 10: count-then-fill android_color_mode_t values. */
typedef int32_t (*HWC2_PFN_GET_COLOR_MODES)(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_count, int32_t *out_modes);

/* 11: attribute is hwc2_attribute_t. */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_ATTRIBUTE)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_config_t config, int32_t attribute, int32_t *out_value);

/* 12: count-then-fill. */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_CONFIGS)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_count, hwc2_config_t *out_configs);

/* 13: count-then-fill, not NUL-terminated. */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_NAME)(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_size, char *out_name);

/* 14: display-wide hwc2_display_request_t bits, then count-then-fill layer bits. */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_REQUESTS)(hwc2_device_t *device,
	hwc2_display_t display, int32_t *out_display_requests, uint32_t *out_count,
	hwc2_layer_t *out_layers, int32_t *out_layer_requests);

/* 15: hwc2_display_type_t. */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_TYPE)(hwc2_device_t *device, hwc2_display_t display,
	int32_t *out_type);

/* 16: *out_support 1 if DOZE modes are available. */
typedef int32_t (*HWC2_PFN_GET_DOZE_SUPPORT)(hwc2_device_t *device, hwc2_display_t display,
	int32_t *out_support);

/* 17: count-then-fill android_hdr_t types, luminances in nits. */
typedef int32_t (*HWC2_PFN_GET_HDR_CAPABILITIES)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_count, int32_t *out_types,
	float *out_max_luminance, float *out_max_average_luminance,
	float *out_min_luminance);

/* 18: returns the count itself, not an error. */
typedef uint32_t (*HWC2_PFN_GET_MAX_VIRTUAL_DISPLAY_COUNT)(hwc2_device_t *device);

/* 19: count-then-fill; the caller owns (must close) every returned fence. */
typedef int32_t (*HWC2_PFN_GET_RELEASE_FENCES)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_count, hwc2_layer_t *out_layers,
	int32_t *out_fences);

/* 20: the caller owns (must close) *out_present_fence. */
typedef int32_t (*HWC2_PFN_PRESENT_DISPLAY)(hwc2_device_t *device, hwc2_display_t display,
	int32_t *out_present_fence);

/* 21: descriptor is hwc2_callback_descriptor_t; pointer (non-NULL) is the matching PFN. */
typedef int32_t (*HWC2_PFN_REGISTER_CALLBACK)(hwc2_device_t *device, int32_t descriptor,
	hwc2_callback_data_t callback_data, hwc2_function_pointer_t pointer);

/* 22 */
typedef int32_t (*HWC2_PFN_SET_ACTIVE_CONFIG)(hwc2_device_t *device, hwc2_display_t display,
	hwc2_config_t config);

/* 23: acquire_fence stays the caller's; damage is BY VALUE and borrowed. */
typedef int32_t (*HWC2_PFN_SET_CLIENT_TARGET)(hwc2_device_t *device, hwc2_display_t display,
	buffer_handle_t target, int32_t acquire_fence, int32_t dataspace, hwc_region_t damage);

/* 24: android_color_mode_t. */
typedef int32_t (*HWC2_PFN_SET_COLOR_MODE)(hwc2_device_t *device, hwc2_display_t display,
	int32_t mode);

/* 25: 4x4 row-major float matrix (16 entries, borrowed); hint is android_color_transform_t. */
typedef int32_t (*HWC2_PFN_SET_COLOR_TRANSFORM)(hwc2_device_t *device,
	hwc2_display_t display, const float *matrix, int32_t hint);

/* 26: may arrive between present and the next validate. */
typedef int32_t (*HWC2_PFN_SET_CURSOR_POSITION)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, int32_t x, int32_t y);

/* 27: hwc2_blend_mode_t. */
typedef int32_t (*HWC2_PFN_SET_LAYER_BLEND_MODE)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, int32_t mode);

/* 28: acquire_fence stays the caller's (-1: ready); buffer is borrowed. */
typedef int32_t (*HWC2_PFN_SET_LAYER_BUFFER)(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, buffer_handle_t buffer, int32_t acquire_fence);

/* 29: color BY VALUE. */
typedef int32_t (*HWC2_PFN_SET_LAYER_COLOR)(hwc2_device_t *device, hwc2_display_t display,
	hwc2_layer_t layer, hwc_color_t color);

/* 30: hwc2_composition_t. */
typedef int32_t (*HWC2_PFN_SET_LAYER_COMPOSITION_TYPE)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, int32_t type);

/* 31: android_dataspace_t. */
typedef int32_t (*HWC2_PFN_SET_LAYER_DATASPACE)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, int32_t dataspace);

/* 32: frame BY VALUE, display pixels. */
typedef int32_t (*HWC2_PFN_SET_LAYER_DISPLAY_FRAME)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, hwc_rect_t frame);

/* 33: 0.0 transparent .. 1.0 opaque. */
typedef int32_t (*HWC2_PFN_SET_LAYER_PLANE_ALPHA)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, float alpha);

/* 34: stream handle is borrowed. */
typedef int32_t (*HWC2_PFN_SET_LAYER_SIDEBAND_STREAM)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, const native_handle_t *stream);

/* 35: crop BY VALUE (float rectangle), buffer pixels. */
typedef int32_t (*HWC2_PFN_SET_LAYER_SOURCE_CROP)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, hwc_frect_t crop);

/* 36: damage BY VALUE, buffer pixels; its rects are borrowed. */
typedef int32_t (*HWC2_PFN_SET_LAYER_SURFACE_DAMAGE)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, hwc_region_t damage);

/* 37: hwc_transform_t. */
typedef int32_t (*HWC2_PFN_SET_LAYER_TRANSFORM)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, int32_t transform);

/* 38: visible BY VALUE, display pixels; its rects are borrowed. */
typedef int32_t (*HWC2_PFN_SET_LAYER_VISIBLE_REGION)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, hwc_region_t visible);

/* 39: higher z is nearer the viewer. */
typedef int32_t (*HWC2_PFN_SET_LAYER_Z_ORDER)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, uint32_t z);

/* 40: virtual displays; release_fence stays the caller's. */
typedef int32_t (*HWC2_PFN_SET_OUTPUT_BUFFER)(hwc2_device_t *device,
	hwc2_display_t display, buffer_handle_t buffer, int32_t release_fence);

/* 41: hwc2_power_mode_t. */
typedef int32_t (*HWC2_PFN_SET_POWER_MODE)(hwc2_device_t *device, hwc2_display_t display,
	int32_t mode);

/* 42: hwc2_vsync_t. */
typedef int32_t (*HWC2_PFN_SET_VSYNC_ENABLED)(hwc2_device_t *device,
	hwc2_display_t display, int32_t enabled);

/* 43: NONE or HAS_CHANGES, with the sizes of the two follow-up lists. */
typedef int32_t (*HWC2_PFN_VALIDATE_DISPLAY)(hwc2_device_t *device, hwc2_display_t display,
	uint32_t *out_num_types, uint32_t *out_num_requests);

/* 44 (2.2): color BY VALUE. */
typedef int32_t (*HWC2_PFN_SET_LAYER_FLOAT_COLOR)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, hwc_float_color_t color);

/* 45 (2.2): count pairs of hwc2_per_frame_metadata_key_t and value, borrowed. */
typedef int32_t (*HWC2_PFN_SET_LAYER_PER_FRAME_METADATA)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, uint32_t count, const int32_t *keys,
	const float *metadata);

/* 46 (2.2): count-then-fill. */
typedef int32_t (*HWC2_PFN_GET_PER_FRAME_METADATA_KEYS)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_count, int32_t *out_keys);

/* 47 (2.2): release_fence stays the caller's. */
typedef int32_t (*HWC2_PFN_SET_READBACK_BUFFER)(hwc2_device_t *device,
	hwc2_display_t display, buffer_handle_t buffer, int32_t release_fence);

/* 48 (2.2) */
typedef int32_t (*HWC2_PFN_GET_READBACK_BUFFER_ATTRIBUTES)(hwc2_device_t *device,
	hwc2_display_t display, int32_t *out_format, int32_t *out_dataspace);

/* 49 (2.2): the caller owns (must close) *out_fence. */
typedef int32_t (*HWC2_PFN_GET_READBACK_BUFFER_FENCE)(hwc2_device_t *device,
	hwc2_display_t display, int32_t *out_fence);

/* 50 (2.2): count-then-fill android_render_intent_v1_1_t for mode. */
typedef int32_t (*HWC2_PFN_GET_RENDER_INTENTS)(hwc2_device_t *device,
	hwc2_display_t display, int32_t mode, uint32_t *out_count, int32_t *out_intents);

/* 51 (2.2) */
typedef int32_t (*HWC2_PFN_SET_COLOR_MODE_WITH_RENDER_INTENT)(hwc2_device_t *device,
	hwc2_display_t display, int32_t mode, int32_t intent);

/* 52 (2.2): fills a 4x4 float matrix (16 entries). No display argument. */
typedef int32_t (*HWC2_PFN_GET_DATASPACE_SATURATION_MATRIX)(hwc2_device_t *device,
	int32_t dataspace, float *out_matrix);

/* 53 (2.3): port, then count-then-fill EDID bytes. */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_IDENTIFICATION_DATA)(hwc2_device_t *device,
	hwc2_display_t display, uint8_t *out_port, uint32_t *out_size, uint8_t *out_data);

/* 54 (2.3): count-then-fill hwc2_display_capability_t (as uint32_t). */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_CAPABILITIES)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_count, uint32_t *out_capabilities);

/* 55 (2.3): 4x4 float matrix, borrowed. */
typedef int32_t (*HWC2_PFN_SET_LAYER_COLOR_TRANSFORM)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, const float *matrix);

/* 56 (2.3): component mask is hwc2_format_color_component_t bits. */
typedef int32_t (*HWC2_PFN_GET_DISPLAYED_CONTENT_SAMPLING_ATTRIBUTES)(hwc2_device_t *device,
	hwc2_display_t display, int32_t *out_format, int32_t *out_dataspace,
	uint8_t *out_component_mask);

/* 57 (2.3): enabled is hwc2_displayed_content_sampling_t; mask 0 = all components. */
typedef int32_t (*HWC2_PFN_SET_DISPLAYED_CONTENT_SAMPLING_ENABLED)(hwc2_device_t *device,
	hwc2_display_t display, int32_t enabled, uint8_t component_mask, uint64_t max_frames);

/* 58 (2.3): per component, count-then-fill histograms; max_frames 0 = all frames. */
typedef int32_t (*HWC2_PFN_GET_DISPLAYED_CONTENT_SAMPLE)(hwc2_device_t *device,
	hwc2_display_t display, uint64_t max_frames, uint64_t timestamp,
	uint64_t *out_frame_count, int32_t out_samples_size[4], uint64_t *out_samples[4]);

/* 59 (2.3): count keys, each with sizes[i] bytes in metadata (borrowed). */
typedef int32_t (*HWC2_PFN_SET_LAYER_PER_FRAME_METADATA_BLOBS)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, uint32_t count, const int32_t *keys,
	const uint32_t *sizes, const uint8_t *metadata);

/* 60 (2.3) */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_BRIGHTNESS_SUPPORT)(hwc2_device_t *device,
	hwc2_display_t display, bool *out_support);

/* 61 (2.3): 0.0 .. 1.0, or -1.0 to turn the backlight off. */
typedef int32_t (*HWC2_PFN_SET_DISPLAY_BRIGHTNESS)(hwc2_device_t *device,
	hwc2_display_t display, float brightness);

/* 62 (2.4): hwc2_display_connection_type_t (as uint32_t). */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_CONNECTION_TYPE)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_type);

/* 63 (2.4): ns. */
typedef int32_t (*HWC2_PFN_GET_DISPLAY_VSYNC_PERIOD)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_vsync_period_t *out_vsync_period);

/* 64 (2.4): constraints borrowed (note: not const), *out_timeline filled. */
typedef int32_t (*HWC2_PFN_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_config_t config,
	hwc_vsync_period_change_constraints_t *constraints,
	hwc_vsync_period_change_timeline_t *out_timeline);

/* 65 (2.4) */
typedef int32_t (*HWC2_PFN_SET_AUTO_LOW_LATENCY_MODE)(hwc2_device_t *device,
	hwc2_display_t display, bool on);

/* 66 (2.4): count-then-fill hwc2_content_type_t (as uint32_t). */
typedef int32_t (*HWC2_PFN_GET_SUPPORTED_CONTENT_TYPES)(hwc2_device_t *device,
	hwc2_display_t display, uint32_t *out_count, uint32_t *out_types);

/* 67 (2.4): hwc2_content_type_t. */
typedef int32_t (*HWC2_PFN_SET_CONTENT_TYPE)(hwc2_device_t *device, hwc2_display_t display,
	int32_t content_type);

/* 68 (2.4) */
typedef int32_t (*HWC2_PFN_GET_CLIENT_TARGET_PROPERTY)(hwc2_device_t *device,
	hwc2_display_t display, hwc_client_target_property_t *out_property);

/* 69 (2.4): key and value are length-counted, not NUL-terminated, borrowed. */
typedef int32_t (*HWC2_PFN_SET_LAYER_GENERIC_METADATA)(hwc2_device_t *device,
	hwc2_display_t display, hwc2_layer_t layer, uint32_t key_length, const char *key,
	bool mandatory, uint32_t value_length, const uint8_t *value);

/*
 * 70 (2.4): key number index, count-then-fill (out_key NULL: length only);
 * *out_key_length 0 means index is past the last key. No return code.
 */
typedef void (*HWC2_PFN_GET_LAYER_GENERIC_METADATA_KEY)(hwc2_device_t *device,
	uint32_t key_index, uint32_t *out_key_length, char *out_key, bool *out_mandatory);

#ifdef __cplusplus
}
#endif

#endif
