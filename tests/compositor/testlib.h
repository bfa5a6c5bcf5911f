/*
 * Helpers of the compositor tests: images and targets in CPU memory, pixel
 * access by (r, g, b, a) whatever the format, named cases, a seeded PRNG.
 */
#ifndef HWCT_COMP_TESTLIB_H
#define HWCT_COMP_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"	/* CHECK, CHECK_MSG: fatal */
#include "compositor.h"

#define TEST_SKIP 77	/* meson: skipped */

#define RGBA(r, g, b, a) ((uint32_t)(r) | (uint32_t)(g) << 8 | (uint32_t)(b) << 16 | \
	(uint32_t)(a) << 24)
#define CH(rgba, i) (((rgba) >> (8 * (i))) & 0xff)	/* 0 r, 1 g, 2 b, 3 a */

/* A named case of a test program: argv[1] picks it. */
struct test_case {
	const char *name;
	void (*run)(const void *data);
	const void *data;
};

/* Runs the case named argv[1] (all of them without one). Returns the exit status. */
int test_main(int argc, char **argv, const struct test_case *cases, size_t count);

/* The compositor under test, set by test_compositor_main. */
extern struct compositor *test_comp;

/*
 * argv[1] names the implementation, argv[2] the case. Returns the exit
 * status: TEST_SKIP when the implementation cannot be created (not built,
 * no EGL display).
 */
int test_compositor_main(int argc, char **argv, const struct test_case *cases, size_t count);

/* Composes count layers with test_comp; any error fails the test. */
void test_compose(const struct scene_layer *layers, size_t count, uint32_t background,
	struct comp_target *t);

/* Fails unless the target pixel is want (r | g << 8 | ...) +- tolerance in every channel. */
void test_expect_pixel(const struct comp_target *t, uint32_t x, uint32_t y, uint32_t want,
	int tolerance);

static inline struct hwct_frect test_frect(float l, float t, float r, float b)
{
	return (struct hwct_frect){ l, t, r, b };
}

static inline struct hwct_rect test_rect(int32_t l, int32_t t, int32_t r, int32_t b)
{
	return (struct hwct_rect){ l, t, r, b };
}

/*
 * A zeroed image of fourcc (RGB formats, RGB565, NV12 or P010/P012/P016) with pad extra
 * bytes per row; hash all zero until test_image_seal. Freed by
 * test_image_destroy.
 */
struct scene_image *test_image_create(uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t pad);
void test_image_destroy(struct scene_image *img);

/* Sets the content hash from the bytes (call after writing pixels). */
void test_image_seal(struct scene_image *img);

/* Writes one pixel of an RGB image (565: top bits of each channel). */
void test_image_set(struct scene_image *img, uint32_t x, uint32_t y, uint32_t rgba);

/* NV12 samples. */
void test_image_set_y(struct scene_image *img, uint32_t x, uint32_t y, uint8_t value);
void test_image_set_cbcr(struct scene_image *img, uint32_t cx, uint32_t cy, uint8_t cb,
	uint8_t cr);

/* P010/P012/P016 samples: the 16-bit little-endian words as they are stored. */
void test_image_set_y16(struct scene_image *img, uint32_t x, uint32_t y, uint16_t value);
void test_image_set_cbcr16(struct scene_image *img, uint32_t cx, uint32_t cy, uint16_t cb,
	uint16_t cr);

/* A target filled with `fill` bytes; freed by test_target_destroy. */
struct comp_target *test_target_create(uint32_t fourcc, uint32_t width, uint32_t height,
	uint8_t fill);
void test_target_destroy(struct comp_target *t);

/* The pixel at (x, y) as r | g << 8 | b << 16 | a << 24 (X formats: the X byte). */
uint32_t test_target_get(const struct comp_target *t, uint32_t x, uint32_t y);

/* A layer drawing img (NULL: SOLID_COLOR with color) with everything explicit. */
struct scene_layer test_layer(const struct scene_image *img, struct hwct_frect crop,
	struct hwct_rect frame, int32_t transform, int32_t blend, float alpha, uint32_t color);

/* |a - b| of the channel values, max over r, g, b (and a when with_alpha). */
int test_max_diff(uint32_t a, uint32_t b, bool with_alpha);

/* xorshift32; state must not be 0. */
uint32_t test_rand(uint32_t *state);

#endif
