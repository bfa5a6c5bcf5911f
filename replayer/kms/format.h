/*
 * Pixel formats the KMS backend fills from CPU pixels, and the format
 * fallbacks it applies when a plane lacks the source format: channel
 * swizzles between the 32-bit RGB layouts (ABGR8888 -> ARGB8888), dropping
 * the alpha of an opaque layer (ABGR8888 -> XRGB8888) or filling it for a
 * source without one (XBGR8888 -> ARGB8888). Deviceless.
 */
#ifndef HWCT_KMS_FORMAT_H
#define HWCT_KMS_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

#define KMS_FORMAT_MAX_PLANES 2

/* A layout buffers can be created in and filled row by row. */
struct kms_format {
	uint32_t fourcc;		/* DRM_FORMAT_* */
	uint32_t plane_count;
	uint32_t cpp[KMS_FORMAT_MAX_PLANES];	/* bytes per pixel of each plane */
	uint32_t vsub;			/* plane 1 has height / vsub rows (NV12: 2) */
	int8_t r, g, b, a;		/* byte of each channel in a 32-bit RGB pixel; a = -1: X byte; r = -1: not 32-bit RGB */
};

/* The layout of fourcc, or NULL when the backend cannot fill it. */
const struct kms_format *kms_format_find(uint32_t fourcc);

/*
 * The format to scan a src_fourcc buffer out in: src_fourcc itself when
 * plane scans it out LINEAR; else the first 32-bit RGB format the plane
 * does scan out LINEAR that src_fourcc converts to, keeping the alpha
 * channel when src has one (ARGB8888, ABGR8888, RGBA8888, BGRA8888), then,
 * when opaque or when src has no alpha, the X formats (XRGB8888, XBGR8888,
 * RGBX8888, BGRX8888) and, for X sources, the alpha formats. plane NULL
 * means any plane of board (what ADDFB2 checks). opaque: the layer's alpha
 * channel is not shown (blend mode None). Returns 0 when nothing fits.
 */
uint32_t kms_format_choose(const struct board *board, const struct board_plane *plane,
	uint32_t src_fourcc, bool opaque);

/*
 * Converts width pixels of a row from src_fourcc to dst_fourcc, both 32-bit
 * RGB formats. A destination X byte is 0xff; a destination alpha is the
 * source's, or 0xff for a source without one.
 */
void kms_format_convert_row(uint32_t dst_fourcc, uint8_t *dst, uint32_t src_fourcc,
	const uint8_t *src, uint32_t width);

/* Whether fourcc is a YCbCr format (NV12, NV21, P010, ...). */
bool kms_format_is_yuv(uint32_t fourcc);

/* The four characters of fourcc ("AB24") into buf, '?' for unprintable ones. Returns buf. */
char *kms_fourcc_name(uint32_t fourcc, char buf[5]);

#endif
