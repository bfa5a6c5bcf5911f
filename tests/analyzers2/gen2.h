/*
 * The synthetic traces of analyzers2-test (stats, diff, export, extract,
 * trim), written through the writer API, and the rules they were written
 * by, so that the tests compute what the tools must report.
 *
 * Display 0 (64x48 at 60 Hz) shows seven layers, the same each frame k:
 *   1  z0  RGBA_8888 16x8 (buffers 100/106 alternating), frame [0,0,64,48],
 *          uniform colour gen2_l1_rgba(k), new content and an acquire fence
 *          every frame (wait (k + 1) * 100 us), a release fence (7 ms; the
 *          last frame's never signals)
 *   2  z1  BGRA_8888 16x8 (101), [0,0,16,8], pattern gen2_l2_rgba(x, y)
 *   3  z2  RGB_565 16x8 (102), [16,0,32,8], red; final CLIENT on odd frames
 *   4  z3  NV12 16x8 (103, YCbCr_420_888), [32,0,48,8], Y 81 Cb 90 Cr 240
 *   5  z4  XRGB8888 16x8 (104, drm_format), [48,0,64,8], bytes 1,2,3,0
 *   6  z5  SOLID_COLOR GEN2_SOLID, [0,40,64,48]
 *   7  z6  RGBA_8888 (105) not captured, [56,40,72,56] (half off screen)
 * On odd frames a client target (110, RGBA 64x48, gen2_ct_rgba) is set.
 * Present fences signal (k % 3 + 1) ms after presentDisplay returns. Fence
 * records of frame k come after FrameEnd k+1. Display 1 (32x24), when
 * asked for, presents after display 0 in each step with one layer (50).
 */
#ifndef HWCT_TESTS_ANALYZERS2_GEN2_H
#define HWCT_TESTS_ANALYZERS2_GEN2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GEN2_T0 1000000000000ull	/* ns */
#define GEN2_FRAME_NS 16666666ull
#define GEN2_W 64
#define GEN2_H 48
#define GEN2_BUF_W 16
#define GEN2_BUF_H 8
#define GEN2_LAYERS 7
#define GEN2_SOLID 0xff604020u		/* r 0x20, g 0x40, b 0x60, a 0xff */
#define GEN2_RELEASE_NS 7000000
#define GEN2_BLOBS_DROPPED 3
#define GEN2_BYTES_DROPPED 4096
#define GEN2_LATE_FRAME 7		/* FrameEnd flagged CAPTURE_LATE (display 0's frame k) */

struct gen2_options {
	unsigned frames;		/* display frames per display */
	unsigned displays;		/* 1 or 2 */
	uint32_t keyframe_interval;	/* 0: the writer's default */
	bool variant;			/* the diff variant: see gen2.c */
};

/* What was written. */
struct gen2_info {
	uint64_t frames;		/* FrameEnd records */
	uint64_t calls;
	uint64_t callbacks;
	uint64_t fences_signalled;	/* Fence records with a signal time */
	uint64_t layer_buffer_ok, layer_buffer_off;	/* setLayerBuffer calls by capture status */
};

/* Writes a trace; exits the test on failure. */
void gen2_write(const char *path, const struct gen2_options *o, struct gen2_info *info);

/* The uniform colour of layer 1 in display 0's frame k, r | g << 8 | b << 16 | a << 24. */
uint32_t gen2_l1_rgba(unsigned k);

/* Layer 2's pixel (x, y) as RGBA. */
uint32_t gen2_l2_rgba(unsigned x, unsigned y);

/* The client target's pixel (x, y) in display 0's frame k as RGBA. */
uint32_t gen2_ct_rgba(unsigned k, unsigned x, unsigned y);

/* The final composition of layer id in display 0's frame k (variant or not). */
int32_t gen2_final(unsigned layer, unsigned k, bool variant);

#endif
