/*
 * Synthetic traces for the replay tests and the replay benchmark, written
 * through the writer API: one display, a stack of layers in DRM ARGB8888
 * (HAL BGRA_8888, which vkms scans out) — a full-screen background under
 * small unscaled tiles — with one tile's content changing each frame, and
 * a stand-in device's decisions (4 planes: the lowest layers go CLIENT
 * when the stack is taller).
 */
#ifndef HWCT_TESTS_REPLAY_GEN_H
#define HWCT_TESTS_REPLAY_GEN_H

#include <stdbool.h>
#include <stdint.h>

#define GEN_NONE UINT32_MAX

struct gen_options {
	uint32_t width, height;		/* display mode (and the background's buffer) */
	uint32_t layers;		/* 1 background + tiles, at most 64 */
	uint32_t frames;
	uint32_t tile;			/* tile buffers are tile x tile pixels */
	uint32_t uncaptured;		/* layer index whose content is never captured, GEN_NONE */
	uint32_t keyframe_interval;	/* 0: the writer's default */
	uint32_t rotate;		/* HAL transform of the first tile (square: same frame), 0 none */
	bool nv12;			/* the first tile in NV12 (HAL YCBCR_420_888), as a video decoder's buffer */
	bool p010;			/* the first tile in P010 (HAL YCBCR_P010), 10-bit video; not with nv12 */
};

/* Fills o with 1024 x 768, 5 layers, 90 frames, 64-pixel tiles, everything captured,
 * nothing rotated. */
void gen_options_init(struct gen_options *o);

/* Writes the trace. Returns 0 or -errno. */
int gen_write(const char *path, const struct gen_options *o);

#endif
