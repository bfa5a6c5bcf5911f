/*
 * PREDICT_PLANAR_MED (docs/format.md section 4): subtract green, the median
 * edge detector per channel, residuals split into four byte planes.
 *
 * The encoder runs on 16 bytes at a time (GCC/Clang vector extensions, SSE2
 * on x86-64): it has to keep pace with zstd level 1. The decoder is serial
 * (each pixel depends on its left neighbour) and only has to be correct.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "predictor.h"

typedef uint8_t v16 __attribute__((vector_size(16)));

static inline v16 load16(const uint8_t *p)
{
	v16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void store16(uint8_t *p, v16 v)
{
	memcpy(p, &v, sizeof(v));
}

static inline uint8_t med(uint8_t a, uint8_t b, uint8_t c)
{
	uint8_t lo = a < b ? a : b, hi = a < b ? b : a;

	return c >= hi ? lo : c <= lo ? hi : (uint8_t)(a + b - c);
}

/* med() on 16 lanes: masks select instead of branches. */
static inline v16 med16(v16 a, v16 b, v16 c)
{
	v16 lt = (v16)(a < b);
	v16 lo = (a & lt) | (b & ~lt), hi = (b & lt) | (a & ~lt);
	v16 ge = (v16)(c >= hi), le = (v16)(c <= lo);
	v16 grad = a + b - c;

	return (lo & ge) | (~ge & ((hi & le) | (~le & grad)));
}

/* dst = src with green (byte 1 of each pixel) subtracted from bytes 0 and 2, 8 bytes at a time. */
static void subtract_green(uint8_t *dst, const uint8_t *src, size_t len)
{
	const uint64_t high = 0x8080808080808080ull;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t x, g, d;

		memcpy(&x, src + i, 8);
		g = (x >> 8) & 0x000000ff000000ffull;
		g |= g << 16;
		d = ((x | high) - (g & ~high)) ^ ((x ^ ~g) & high);
		memcpy(dst + i, &d, 8);
	}
	for (; i < len; i += 4) {
		dst[i] = (uint8_t)(src[i] - src[i + 1]);
		dst[i + 1] = src[i + 1];
		dst[i + 2] = (uint8_t)(src[i + 2] - src[i + 1]);
		dst[i + 3] = src[i + 3];
	}
}

/* Residuals of one transformed row cur (prev: the row above, NULL for the first). */
static void residual_row(uint8_t *res, const uint8_t *cur, const uint8_t *prev, size_t len)
{
	size_t i = 4;

	if (!prev) {
		memcpy(res, cur, 4);
		for (; i < len; i++) {
			res[i] = (uint8_t)(cur[i] - cur[i - 4]);
		}
		return;
	}
	for (size_t k = 0; k < 4; k++) {
		res[k] = (uint8_t)(cur[k] - prev[k]);
	}
	for (; i + 16 <= len; i += 16) {
		store16(res + i, load16(cur + i) - med16(load16(cur + i - 4), load16(prev + i), load16(prev + i - 4)));
	}
	for (; i < len; i++) {
		res[i] = (uint8_t)(cur[i] - med(cur[i - 4], prev[i], prev[i - 4]));
	}
}

bool planar_valid(const struct pixel_block *blk)
{
	return blk->bpp == 4 && blk->row_len >= 4 && blk->row_len % 4 == 0 && blk->size % blk->row_len == 0;
}

int planar_apply(uint8_t *dst, const uint8_t *src, const struct pixel_block *blk)
{
	size_t len = blk->row_len, width = len / 4, rows = blk->size / len, n = blk->size / 4;
	uint8_t *buf = malloc(3 * len), *cur, *prev, *res;

	if (!buf) {
		return -ENOMEM;
	}
	cur = buf;
	prev = buf + len;
	res = buf + 2 * len;
	for (size_t y = 0; y < rows; y++) {
		uint8_t *p0 = dst + y * width, *p1 = p0 + n, *p2 = p1 + n, *p3 = p2 + n;
		uint8_t *t;

		subtract_green(cur, src + y * len, len);
		residual_row(res, cur, y ? prev : NULL, len);
		for (size_t x = 0; x < width; x++) {
			uint32_t v;

			memcpy(&v, res + 4 * x, 4);
			p0[x] = (uint8_t)v;
			p1[x] = (uint8_t)(v >> 8);
			p2[x] = (uint8_t)(v >> 16);
			p3[x] = (uint8_t)(v >> 24);
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	free(buf);
	return 0;
}

int planar_undo(uint8_t *dst, const uint8_t *src, const struct pixel_block *blk)
{
	size_t len = blk->row_len, width = len / 4, rows = blk->size / len, n = blk->size / 4;
	uint8_t *buf = malloc(2 * len), *cur, *prev;

	if (!buf) {
		return -ENOMEM;
	}
	cur = buf;
	prev = buf + len;
	for (size_t y = 0; y < rows; y++) {
		const uint8_t *planes[4] = { src + y * width, src + n + y * width, src + 2 * n + y * width,
			src + 3 * n + y * width };
		uint8_t *out = dst + y * len, *t;

		for (size_t x = 0; x < width; x++) {
			for (size_t ch = 0; ch < 4; ch++) {
				size_t i = 4 * x + ch;
				uint8_t pred;

				if (y == 0) {
					pred = x ? cur[i - 4] : 0;
				} else if (x == 0) {
					pred = prev[i];
				} else {
					pred = med(cur[i - 4], prev[i], prev[i - 4]);
				}
				cur[i] = (uint8_t)(planes[ch][x] + pred);
			}
		}
		for (size_t i = 0; i < len; i += 4) {
			out[i] = (uint8_t)(cur[i] + cur[i + 1]);
			out[i + 1] = cur[i + 1];
			out[i + 2] = (uint8_t)(cur[i + 2] + cur[i + 1]);
			out[i + 3] = cur[i + 3];
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	free(buf);
	return 0;
}
