/*
 * Compile-time checks of the Android HWC2 ABI headers against the sizes,
 * offsets and numbers of docs/platform.md §1.2-1.4 (measured with clang on
 * aarch64, x86_64, armv7 and i686). Nothing happens at run time: if this file
 * compiles for a target, the layouts match there. tests/abi/meson.build also
 * compiles it with clang for the four targets (-fsyntax-only, freestanding),
 * so one host checks the LP64 and both ILP32 columns.
 *
 * Needs only freestanding headers: keep it free of libc includes.
 */
#include <stddef.h>
#include <stdint.h>

#include <cutils/native_handle.h>
#include <hardware/hardware.h>
#include <hardware/hwcomposer2.h>
#include <hardware/hwcomposer_defs.h>
#include <system/graphics.h>

#define SIZE(type, n) _Static_assert(sizeof(type) == (n), "sizeof(" #type ") != " #n)
#define OFFSET(type, field, n) \
	_Static_assert(offsetof(type, field) == (n), "offsetof(" #type ", " #field ") != " #n)
#define VALUE(expr, n) _Static_assert((expr) == (n), #expr " != " #n)

#if !defined(__SIZEOF_POINTER__)
#error "compiler does not define __SIZEOF_POINTER__"
#endif

/* ------------------------------------------------ pointer-size dependent */

#if __SIZEOF_POINTER__ == 8

SIZE(hw_module_t, 248);
OFFSET(hw_module_t, tag, 0);
OFFSET(hw_module_t, module_api_version, 4);
OFFSET(hw_module_t, hal_api_version, 6);
OFFSET(hw_module_t, id, 8);
OFFSET(hw_module_t, name, 16);
OFFSET(hw_module_t, author, 24);
OFFSET(hw_module_t, methods, 32);
OFFSET(hw_module_t, dso, 40);
OFFSET(hw_module_t, reserved, 48);

SIZE(hw_device_t, 120);
OFFSET(hw_device_t, tag, 0);
OFFSET(hw_device_t, version, 4);
OFFSET(hw_device_t, module, 8);
OFFSET(hw_device_t, reserved, 16);
OFFSET(hw_device_t, close, 112);

SIZE(hwc2_device_t, 136);
OFFSET(hwc2_device_t, common, 0);
OFFSET(hwc2_device_t, getCapabilities, 120);
OFFSET(hwc2_device_t, getFunction, 128);

SIZE(hwc_region_t, 16);
OFFSET(hwc_region_t, numRects, 0);
OFFSET(hwc_region_t, rects, 8);

SIZE(hwc_vsync_period_change_timeline_t, 24);
OFFSET(hwc_vsync_period_change_timeline_t, refreshRequired, 8);
OFFSET(hwc_vsync_period_change_timeline_t, refreshTimeNanos, 16);
SIZE(hwc_vsync_period_change_constraints_t, 16);

#elif __SIZEOF_POINTER__ == 4

SIZE(hw_module_t, 128);
OFFSET(hw_module_t, tag, 0);
OFFSET(hw_module_t, module_api_version, 4);
OFFSET(hw_module_t, hal_api_version, 6);
OFFSET(hw_module_t, id, 8);
OFFSET(hw_module_t, name, 12);
OFFSET(hw_module_t, author, 16);
OFFSET(hw_module_t, methods, 20);
OFFSET(hw_module_t, dso, 24);
OFFSET(hw_module_t, reserved, 28);

SIZE(hw_device_t, 64);
OFFSET(hw_device_t, tag, 0);
OFFSET(hw_device_t, version, 4);
OFFSET(hw_device_t, module, 8);
OFFSET(hw_device_t, reserved, 12);
OFFSET(hw_device_t, close, 60);

SIZE(hwc2_device_t, 72);
OFFSET(hwc2_device_t, common, 0);
OFFSET(hwc2_device_t, getCapabilities, 64);
OFFSET(hwc2_device_t, getFunction, 68);

SIZE(hwc_region_t, 8);
OFFSET(hwc_region_t, numRects, 0);
OFFSET(hwc_region_t, rects, 4);

#if defined(__i386__)
/* i386 SysV aligns int64_t members to 4 bytes. */
SIZE(hwc_vsync_period_change_timeline_t, 20);
OFFSET(hwc_vsync_period_change_timeline_t, refreshRequired, 8);
OFFSET(hwc_vsync_period_change_timeline_t, refreshTimeNanos, 12);
SIZE(hwc_vsync_period_change_constraints_t, 12);
#else
/* AAPCS (armv7) aligns int64_t to 8 bytes. */
SIZE(hwc_vsync_period_change_timeline_t, 24);
OFFSET(hwc_vsync_period_change_timeline_t, refreshRequired, 8);
OFFSET(hwc_vsync_period_change_timeline_t, refreshTimeNanos, 16);
SIZE(hwc_vsync_period_change_constraints_t, 16);
#endif

#else
#error "unexpected pointer size"
#endif

/* ------------------------------------------------ the same on all targets */

SIZE(native_handle_t, 12);
OFFSET(native_handle_t, version, 0);
OFFSET(native_handle_t, numFds, 4);
OFFSET(native_handle_t, numInts, 8);
OFFSET(native_handle_t, data, 12);
VALUE(NATIVE_HANDLE_MAX_FDS, 1024);
VALUE(NATIVE_HANDLE_MAX_INTS, 1024);

SIZE(hwc_rect_t, 16);
OFFSET(hwc_rect_t, left, 0);
OFFSET(hwc_rect_t, top, 4);
OFFSET(hwc_rect_t, right, 8);
OFFSET(hwc_rect_t, bottom, 12);
SIZE(hwc_frect_t, 16);
OFFSET(hwc_frect_t, bottom, 12);
SIZE(hwc_color_t, 4);
OFFSET(hwc_color_t, a, 3);
SIZE(hwc_float_color_t, 16);
OFFSET(hwc_float_color_t, a, 12);
SIZE(hwc_client_target_property_t, 8);
OFFSET(hwc_client_target_property_t, dataspace, 4);
OFFSET(hwc_vsync_period_change_constraints_t, seamlessRequired, 8);

SIZE(hwc2_display_t, 8);
SIZE(hwc2_layer_t, 8);
SIZE(hwc2_config_t, 4);
SIZE(hwc2_vsync_period_t, 4);
SIZE(hwc2_callback_data_t, sizeof(void *));
/* Enums travel as int32_t; an enum type must not be wider. */
SIZE(hwc2_function_descriptor_t, 4);
SIZE(android_dataspace_t, 4);

/* Module loading (§1.1). */
VALUE(HARDWARE_MODULE_TAG, 0x48574d54);
VALUE(HARDWARE_DEVICE_TAG, 0x48574454);
VALUE(HWC_DEVICE_API_VERSION_2_0, 0x02000001);
VALUE(HARDWARE_MODULE_API_VERSION(2, 0), 0x0200);
VALUE(HARDWARE_HAL_API_VERSION, 0x0100);
VALUE((HWC_DEVICE_API_VERSION_2_0 >> 24) & 0xf, 2);
VALUE(sizeof(HAL_MODULE_INFO_SYM_AS_STR), 4);	/* "HMI" */
VALUE(sizeof(HWC_HARDWARE_MODULE_ID), sizeof("hwcomposer"));
VALUE(sizeof(HWC_HARDWARE_COMPOSER), sizeof("composer"));

/* Function descriptors (§1.3): group edges and spot values. */
VALUE(HWC2_FUNCTION_INVALID, 0);
VALUE(HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, 1);
VALUE(HWC2_FUNCTION_DUMP, 6);
VALUE(HWC2_FUNCTION_PRESENT_DISPLAY, 20);
VALUE(HWC2_FUNCTION_REGISTER_CALLBACK, 21);
VALUE(HWC2_FUNCTION_SET_CLIENT_TARGET, 23);
VALUE(HWC2_FUNCTION_SET_LAYER_BUFFER, 28);
VALUE(HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, 35);
VALUE(HWC2_FUNCTION_SET_LAYER_Z_ORDER, 39);
VALUE(HWC2_FUNCTION_VALIDATE_DISPLAY, 43);
VALUE(HWC2_FUNCTION_SET_LAYER_FLOAT_COLOR, 44);
VALUE(HWC2_FUNCTION_GET_DATASPACE_SATURATION_MATRIX, 52);
VALUE(HWC2_FUNCTION_GET_DISPLAY_IDENTIFICATION_DATA, 53);
VALUE(HWC2_FUNCTION_SET_DISPLAY_BRIGHTNESS, 61);
VALUE(HWC2_FUNCTION_GET_DISPLAY_CONNECTION_TYPE, 62);
VALUE(HWC2_FUNCTION_SET_LAYER_GENERIC_METADATA, 69);
VALUE(HWC2_FUNCTION_GET_LAYER_GENERIC_METADATA_KEY, 70);

/* Enums (§1.4). */
VALUE(HWC2_COMPOSITION_CLIENT, 1);
VALUE(HWC2_COMPOSITION_SIDEBAND, 5);
VALUE(HWC2_COMPOSITION_DISPLAY_DECORATION, 6);
VALUE(HWC2_BLEND_MODE_COVERAGE, 3);
VALUE(HWC2_CALLBACK_SEAMLESS_POSSIBLE, 6);
VALUE(HWC2_CAPABILITY_SKIP_VALIDATE, 4);
VALUE(HWC2_ERROR_HAS_CHANGES, 5);
VALUE(HWC2_ERROR_SEAMLESS_NOT_POSSIBLE, 10);
VALUE(HWC2_ATTRIBUTE_DPI_Y, 5);
VALUE(HWC2_ATTRIBUTE_CONFIG_GROUP, 7);
VALUE(HWC2_DISPLAY_REQUEST_WRITE_CLIENT_TARGET_TO_OUTPUT, 2);
VALUE(HWC2_LAYER_REQUEST_CLEAR_CLIENT_TARGET, 1);
VALUE(HWC2_DISPLAY_TYPE_VIRTUAL, 2);
VALUE(HWC2_DISPLAY_CONNECTION_TYPE_EXTERNAL, 1);
VALUE(HWC2_CONNECTION_DISCONNECTED, 2);
VALUE(HWC2_POWER_MODE_ON, 2);
VALUE(HWC2_POWER_MODE_DOZE_SUSPEND, 3);
VALUE(HWC2_VSYNC_DISABLE, 2);
VALUE(HWC2_CONTENT_TYPE_GAME, 4);
VALUE(HWC2_DISPLAY_CAPABILITY_BRIGHTNESS, 3);
VALUE(HWC2_DISPLAY_CAPABILITY_AUTO_LOW_LATENCY_MODE, 5);
VALUE(HWC2_WHITE_POINT_X, 6);
VALUE(HWC2_MAX_FRAME_AVERAGE_LIGHT_LEVEL, 11);
VALUE(HWC2_FORMAT_COMPONENT_3, 8);

/* Transforms. */
VALUE(HAL_TRANSFORM_FLIP_H, 1);
VALUE(HAL_TRANSFORM_FLIP_V, 2);
VALUE(HAL_TRANSFORM_ROT_90, 4);
VALUE(HAL_TRANSFORM_ROT_180, 3);
VALUE(HAL_TRANSFORM_ROT_270, 7);
VALUE(HWC_TRANSFORM_FLIP_H_ROT_90, 5);
VALUE(HWC_TRANSFORM_FLIP_V_ROT_90, 6);

/* Pixel formats. */
VALUE(HAL_PIXEL_FORMAT_RGBA_8888, 1);
VALUE(HAL_PIXEL_FORMAT_RGBX_8888, 2);
VALUE(HAL_PIXEL_FORMAT_RGB_888, 3);
VALUE(HAL_PIXEL_FORMAT_RGB_565, 4);
VALUE(HAL_PIXEL_FORMAT_BGRA_8888, 5);
VALUE(HAL_PIXEL_FORMAT_YCBCR_422_SP, 0x10);
VALUE(HAL_PIXEL_FORMAT_YCRCB_420_SP, 0x11);
VALUE(HAL_PIXEL_FORMAT_YCBCR_422_I, 0x14);
VALUE(HAL_PIXEL_FORMAT_RGBA_FP16, 0x16);
VALUE(HAL_PIXEL_FORMAT_RAW16, 0x20);
VALUE(HAL_PIXEL_FORMAT_BLOB, 0x21);
VALUE(HAL_PIXEL_FORMAT_IMPLEMENTATION_DEFINED, 34);
VALUE(HAL_PIXEL_FORMAT_YCBCR_420_888, 35);
VALUE(HAL_PIXEL_FORMAT_RGBA_1010102, 43);
VALUE(HAL_PIXEL_FORMAT_YCBCR_P010, 0x36);
VALUE(HAL_PIXEL_FORMAT_Y8, 0x20203859);
VALUE(HAL_PIXEL_FORMAT_Y16, 0x20363159);
VALUE(HAL_PIXEL_FORMAT_YV12, 0x32315659);

/* Dataspaces: field layout and the composite values as AOSP lists them. */
VALUE(HAL_DATASPACE_STANDARD_SHIFT, 16);
VALUE(HAL_DATASPACE_TRANSFER_SHIFT, 22);
VALUE(HAL_DATASPACE_RANGE_SHIFT, 27);
VALUE(HAL_DATASPACE_STANDARD_MASK, 4128768);
VALUE(HAL_DATASPACE_TRANSFER_MASK, 130023424);
VALUE(HAL_DATASPACE_RANGE_MASK, 939524096);
VALUE(HAL_DATASPACE_UNKNOWN, 0);
VALUE(HAL_DATASPACE_ARBITRARY, 1);
VALUE(HAL_DATASPACE_SRGB_LINEAR, 512);
VALUE(HAL_DATASPACE_SRGB, 513);
VALUE(HAL_DATASPACE_V0_SRGB_LINEAR, 138477568);
VALUE(HAL_DATASPACE_V0_SRGB, 142671872);
VALUE(HAL_DATASPACE_V0_SCRGB, 411107328);
VALUE(HAL_DATASPACE_V0_JFIF, 146931712);
VALUE(HAL_DATASPACE_V0_BT601_625, 281149440);
VALUE(HAL_DATASPACE_V0_BT601_525, 281280512);
VALUE(HAL_DATASPACE_V0_BT709, 281083904);
VALUE(HAL_DATASPACE_DCI_P3, 155844608);
VALUE(HAL_DATASPACE_DISPLAY_P3_LINEAR, 139067392);
VALUE(HAL_DATASPACE_DISPLAY_P3, 143261696);
VALUE(HAL_DATASPACE_ADOBE_RGB, 151715840);
VALUE(HAL_DATASPACE_BT2020, 147193856);
VALUE(HAL_DATASPACE_BT2020_PQ, 163971072);
VALUE(HAL_DATASPACE_BT2020_ITU_PQ, 298188800);
VALUE(HAL_DATASPACE_BT2020_HLG, 168165376);
VALUE(HAL_DATASPACE_DISPLAY_BT2020, 142999552);
VALUE(HAL_DATASPACE_DEPTH, 0x1000);
VALUE(HAL_DATASPACE_HEIF, 0x1004);

/* Color modes, intents, color transforms, HDR types. */
VALUE(HAL_COLOR_MODE_NATIVE, 0);
VALUE(HAL_COLOR_MODE_DISPLAY_P3, 9);
VALUE(HAL_COLOR_MODE_BT2020, 10);
VALUE(HAL_COLOR_MODE_BT2100_PQ, 11);
VALUE(HAL_COLOR_MODE_BT2100_HLG, 12);
VALUE(HAL_COLOR_MODE_DISPLAY_BT2020, 13);
VALUE(HAL_RENDER_INTENT_TONE_MAP_ENHANCE, 3);
VALUE(HAL_COLOR_TRANSFORM_CORRECT_TRITANOPIA, 6);
VALUE(HAL_HDR_HDR10_PLUS, 4);

int main(void)
{
	return 0;
}
