/*
 * Hardware composer types shared by HWC1 and HWC2 (libhardware
 * <hardware/hwcomposer_defs.h>): module/device ids and versions, rectangles,
 * regions, colors, transforms and the 2.4 vsync-period structs.
 *
 * Written for hwctrace from the public AOSP definitions, for binary
 * compatibility only: names, values and layouts match AOSP, the text is our
 * own. Only the parts HWC2 uses are provided (no HWC1 layer list).
 * The structs below are passed BY VALUE in several HWC2 calls; declare
 * wrappers with the exact HWC2_PFN_* types (hwcomposer2.h).
 */
#ifndef HWCT_COMPAT_HARDWARE_HWCOMPOSER_DEFS_H
#define HWCT_COMPAT_HARDWARE_HWCOMPOSER_DEFS_H

#include <stddef.h>
#include <stdint.h>

#include <cutils/native_handle.h>
#include <hardware/hardware.h>
#include <system/graphics.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Low 16 bits of every HWC device version word. */
#define HWC_HEADER_VERSION 1

#define HWC_MODULE_API_VERSION_0_1 HARDWARE_MODULE_API_VERSION(0, 1)

#define HWC_DEVICE_API_VERSION_1_0 HARDWARE_DEVICE_API_VERSION_2(1, 0, HWC_HEADER_VERSION)
#define HWC_DEVICE_API_VERSION_1_1 HARDWARE_DEVICE_API_VERSION_2(1, 1, HWC_HEADER_VERSION)
#define HWC_DEVICE_API_VERSION_1_2 HARDWARE_DEVICE_API_VERSION_2(1, 2, HWC_HEADER_VERSION)
#define HWC_DEVICE_API_VERSION_1_3 HARDWARE_DEVICE_API_VERSION_2(1, 3, HWC_HEADER_VERSION)
#define HWC_DEVICE_API_VERSION_1_4 HARDWARE_DEVICE_API_VERSION_2(1, 4, HWC_HEADER_VERSION)
#define HWC_DEVICE_API_VERSION_1_5 HARDWARE_DEVICE_API_VERSION_2(1, 5, HWC_HEADER_VERSION)
/* 0x02000001; loaders accept a device whose (version >> 24) & 0xf is 2. */
#define HWC_DEVICE_API_VERSION_2_0 HARDWARE_DEVICE_API_VERSION_2(2, 0, HWC_HEADER_VERSION)

/* hw_get_module() id of the composer module: hwcomposer.<variant>.so */
#define HWC_HARDWARE_MODULE_ID "hwcomposer"
/* Device name passed to hw_module_methods_t.open (see hwc2_open()). */
#define HWC_HARDWARE_COMPOSER "composer"

/* 8-bit RGBA color of a SOLID_COLOR layer (4 bytes). */
typedef struct hwc_color {
	uint8_t r;
	uint8_t g;
	uint8_t b;
	uint8_t a;
} hwc_color_t;

/* Float RGBA color, composer 2.2 (16 bytes). */
typedef struct hwc_float_color {
	float r;
	float g;
	float b;
	float a;
} hwc_float_color_t;

/* Sub-pixel rectangle, e.g. a source crop in buffer pixels (16 bytes). */
typedef struct hwc_frect {
	float left;
	float top;
	float right;	/* exclusive */
	float bottom;	/* exclusive */
} hwc_frect_t;

/* Integer rectangle in pixels (16 bytes). */
typedef struct hwc_rect {
	int left;
	int top;
	int right;	/* exclusive */
	int bottom;	/* exclusive */
} hwc_rect_t;

/*
 * A set of rectangles; the array is borrowed for the duration of the call it
 * is passed to. LP64 16 bytes, ILP32 8 bytes.
 */
typedef struct hwc_region {
	size_t numRects;
	hwc_rect_t const *rects;	/* numRects entries, may be NULL when 0 */
} hwc_region_t;

/* Layer transforms as HWC names them; values are HAL_TRANSFORM_* bits. */
typedef enum {
	HWC_TRANSFORM_FLIP_H = HAL_TRANSFORM_FLIP_H,
	HWC_TRANSFORM_FLIP_V = HAL_TRANSFORM_FLIP_V,
	HWC_TRANSFORM_ROT_90 = HAL_TRANSFORM_ROT_90,
	HWC_TRANSFORM_ROT_180 = HAL_TRANSFORM_ROT_180,
	HWC_TRANSFORM_ROT_270 = HAL_TRANSFORM_ROT_270,
	HWC_TRANSFORM_FLIP_H_ROT_90 = HAL_TRANSFORM_FLIP_H | HAL_TRANSFORM_ROT_90,
	HWC_TRANSFORM_FLIP_V_ROT_90 = HAL_TRANSFORM_FLIP_V | HAL_TRANSFORM_ROT_90,
} hwc_transform_t;

/*
 * Input of setActiveConfigWithConstraints (composer 2.4).
 * LP64 and armv7 16 bytes, i686 12 bytes.
 */
typedef struct hwc_vsync_period_change_constraints {
	int64_t desiredTimeNanos;	/* CLOCK_MONOTONIC ns, earliest time to switch */
	uint8_t seamlessRequired;	/* 1: fail with SEAMLESS_NOT_POSSIBLE rather than glitch */
} hwc_vsync_period_change_constraints_t;

/*
 * Output of setActiveConfigWithConstraints and argument of the
 * VSYNC_PERIOD_TIMING_CHANGED callback (composer 2.4).
 * LP64 and armv7 24 bytes, i686 20 bytes (int64_t is 4-aligned there).
 */
typedef struct hwc_vsync_period_change_timeline {
	int64_t newVsyncAppliedTimeNanos;	/* CLOCK_MONOTONIC ns */
	uint8_t refreshRequired;		/* 1: client must refresh by refreshTimeNanos */
	int64_t refreshTimeNanos;		/* CLOCK_MONOTONIC ns */
} hwc_vsync_period_change_timeline_t;

/* Format and dataspace the device asks the client target to use (2.4). */
typedef struct hwc_client_target_property {
	int32_t pixelFormat;	/* android_pixel_format_t */
	int32_t dataspace;	/* android_dataspace_t */
} hwc_client_target_property_t;

#ifdef __cplusplus
}
#endif

#endif
