/*
 * YCbCr to RGB for the compositors: the matrices (also the GL shader's
 * uniforms) and the CPU NV12 converter of the pixman compositor, which the
 * tests share.
 */
#ifndef HWCT_COMP_YUV_H
#define HWCT_COMP_YUV_H

#include <stddef.h>
#include <stdint.h>

#include "scene.h"

/*
 * R = y * (Y - y_offset) + rv * (Cr - 128)
 * G = y * (Y - y_offset) + gu * (Cb - 128) + gv * (Cr - 128)
 * B = y * (Y - y_offset) + bu * (Cb - 128)
 * in 8-bit code values (the same numbers work on 0..1 values with the
 * offsets divided by 255).
 */
struct comp_yuv_matrix {
	double y, y_offset;
	double rv, gu, gv, bu;
};

/* ITU-R BT.601 (Kr 0.299, Kb 0.114), limited range: Y 16..235, C 16..240. */
extern const struct comp_yuv_matrix comp_yuv_bt601_limited;
/* ITU-R BT.709 (Kr 0.2126, Kb 0.0722), limited range. */
extern const struct comp_yuv_matrix comp_yuv_bt709_limited;

/*
 * Converts a whole NV12 image (checked by comp_image_check) into opaque
 * ARGB8888 words at dst, dst_stride bytes per row. Chroma is sited at the
 * centre of each 2x2 luma block and upsampled bilinearly (weights 3/4, 1/4,
 * clamped at the edges), as a GL sampler reads a half-size chroma texture
 * at luma pixel centres. Results are rounded and clamped to 0..255.
 */
void comp_yuv_nv12_to_argb(const struct comp_yuv_matrix *m, const struct scene_image *img,
	uint32_t *dst, uint32_t dst_stride);

/*
 * P010, P012 and P016 (16-bit little-endian words, the sample in the high
 * bits) as the bilinear model reads them: each word rounded to 8 bits,
 * (v + 128) >> 8 capped at 255, into an NV12 image. comp_yuv_narrow_size
 * is the bytes that takes; comp_yuv_narrow writes them at buf (unaligned
 * is fine) and describes them in *out (data buf, tightly packed rows, the
 * same hash as img). img is checked by comp_image_check.
 */
size_t comp_yuv_narrow_size(const struct scene_image *img);
void comp_yuv_narrow(const struct scene_image *img, uint8_t *buf, struct scene_image *out);

/* One pixel: Y, Cb, Cr code values to 0xffRRGGBB, rounded and clamped. */
uint32_t comp_yuv_pixel(const struct comp_yuv_matrix *m, uint8_t y, uint8_t cb, uint8_t cr);

#endif
