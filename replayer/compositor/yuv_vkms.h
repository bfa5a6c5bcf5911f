/*
 * The "vkms" YUV model: YCbCr to RGB exactly as the vkms driver of Linux
 * 7.x converts a YUV framebuffer on a plane (docs/yuv-models.md), so that
 * the reference picture of a frame whose YUV layer vkms scans out, and the
 * client composition of that layer on vkms, equal its writeback bit for
 * bit.
 *
 * The arithmetic, per pixel, in vkms's own order:
 *  - samples as 16-bit values: an 8-bit sample times 257, a 16-bit one
 *    (P010, P012, P016: the little-endian word, low padding bits included)
 *    as it is;
 *  - chroma not filtered: buffer pixel (x, y) takes the chroma sample
 *    (x / 2, y / 2), rounded down (nearest to the left and above);
 *  - ITU-R BT.601 limited range (the encoding and range hwctrace gives
 *    every YUV plane, COLOR_ENCODING and COLOR_RANGE), as vkms's 32.32
 *    fixed-point matrix: R = m00 (Y - 16 * 257) + m02 (Cr - 128 * 257),
 *    G = m10 (Y - 4112) + m11 (Cb - 32896) + m12 (Cr - 32896),
 *    B = m20 (Y - 4112) + m21 (Cb - 32896), each product the kernel's
 *    drm_fixp_mul (which drops low bits of both factors when their
 *    product would not fit 62 bits), each sum rounded half up to an
 *    integer and clamped to 0..65535;
 *  - an 8-bit channel is the 16-bit one divided by 257, rounded to nearest
 *    (what vkms's writeback stores in an 8888 format).
 */
#ifndef HWCT_COMP_YUV_VKMS_H
#define HWCT_COMP_YUV_VKMS_H

#include <stdint.h>

#include "scene.h"

/* One pixel: 16-bit Y, Cb, Cr to 16-bit R, G, B (rgb[0], rgb[1], rgb[2]). */
void comp_yuv_vkms_pixel16(uint16_t y, uint16_t cb, uint16_t cr, uint16_t rgb[3]);

/* One pixel of 8-bit samples to 0xffRRGGBB, as an XRGB8888 writeback holds it. */
uint32_t comp_yuv_vkms_pixel(uint8_t y, uint8_t cb, uint8_t cr);

/*
 * Converts a whole semi-planar image (NV12 or P010, checked by
 * comp_image_check) into opaque ARGB8888 words at dst, dst_stride bytes per
 * row, pixel by pixel as above.
 */
void comp_yuv_vkms_to_argb(const struct scene_image *img, uint32_t *dst, uint32_t dst_stride);

#endif
