/*
 * DRM pixel format codes (DRM_FORMAT_*) and the two special modifiers, for
 * the scene vocabulary and everything that reads it. Built with libdrm's
 * headers (replayer/meson.build's fourcc_dep sets HWCT_FOURCC_LIBDRM to
 * 1) this is <drm_fourcc.h>. Built without them (-Dkms=disabled and
 * -Dgbm=disabled on a machine that has no libdrm) it defines the codes
 * hwctrace uses itself: Linux's uapi values, four ASCII characters packed
 * little-endian. The unit test fourcc-fallback compares every code below
 * with libdrm's wherever both exist; a code used from now on is added here
 * and to that test's list (tests/compositor/fourcc_names.h).
 */
#ifndef HWCT_FOURCC_H
#define HWCT_FOURCC_H

#if HWCT_FOURCC_LIBDRM
#include <drm_fourcc.h>
#else
#include <stdint.h>

#define fourcc_code(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/* RGB, packed; the channel order is read from bit 31 down (little-endian words). */
#define DRM_FORMAT_ARGB8888 fourcc_code('A', 'R', '2', '4')
#define DRM_FORMAT_XRGB8888 fourcc_code('X', 'R', '2', '4')
#define DRM_FORMAT_ABGR8888 fourcc_code('A', 'B', '2', '4')
#define DRM_FORMAT_XBGR8888 fourcc_code('X', 'B', '2', '4')
#define DRM_FORMAT_RGBA8888 fourcc_code('R', 'A', '2', '4')
#define DRM_FORMAT_RGBX8888 fourcc_code('R', 'X', '2', '4')
#define DRM_FORMAT_BGRA8888 fourcc_code('B', 'A', '2', '4')
#define DRM_FORMAT_BGRX8888 fourcc_code('B', 'X', '2', '4')
#define DRM_FORMAT_RGB888 fourcc_code('R', 'G', '2', '4')
#define DRM_FORMAT_BGR888 fourcc_code('B', 'G', '2', '4')
#define DRM_FORMAT_RGB565 fourcc_code('R', 'G', '1', '6')
#define DRM_FORMAT_BGR565 fourcc_code('B', 'G', '1', '6')
#define DRM_FORMAT_XRGB2101010 fourcc_code('X', 'R', '3', '0')
#define DRM_FORMAT_XBGR2101010 fourcc_code('X', 'B', '3', '0')
#define DRM_FORMAT_ARGB2101010 fourcc_code('A', 'R', '3', '0')
#define DRM_FORMAT_ABGR2101010 fourcc_code('A', 'B', '3', '0')
#define DRM_FORMAT_XRGB16161616 fourcc_code('X', 'R', '4', '8')
#define DRM_FORMAT_ARGB16161616 fourcc_code('A', 'R', '4', '8')
#define DRM_FORMAT_ABGR16161616F fourcc_code('A', 'B', '4', 'H')	/* half floats */

/* YUV: two-plane (NV*, P010), three-plane (YVU420) and packed (YUYV). */
#define DRM_FORMAT_NV12 fourcc_code('N', 'V', '1', '2')
#define DRM_FORMAT_NV21 fourcc_code('N', 'V', '2', '1')
#define DRM_FORMAT_NV16 fourcc_code('N', 'V', '1', '6')
#define DRM_FORMAT_P010 fourcc_code('P', '0', '1', '0')
#define DRM_FORMAT_P012 fourcc_code('P', '0', '1', '2')
#define DRM_FORMAT_P016 fourcc_code('P', '0', '1', '6')
#define DRM_FORMAT_YVU420 fourcc_code('Y', 'V', '1', '2')
#define DRM_FORMAT_YUYV fourcc_code('Y', 'U', 'Y', 'V')

/*
 * Modifiers: the vendor in the top 8 bits, its value below. NONE's value 0
 * (linear), the reserved "implicit" one, and Intel's X-tiling (a layout the
 * CPU compositors refuse).
 */
#define DRM_FORMAT_MOD_LINEAR 0ull
#define DRM_FORMAT_MOD_INVALID 0x00ffffffffffffffull
#define I915_FORMAT_MOD_X_TILED ((0x01ull << 56) | 1)
#endif

#endif
