/*
 * PREDICT_PLANAR_MED (docs/format.md section 4): subtract green, the median
 * edge detector per channel, residuals split into four byte planes.
 *
 * The encoder has to keep pace with zstd level 1: on x86-64 (SSE2) it works
 * on 16 pixels at a time, the median branch-free with saturating adds and
 * min/max, the residuals split into planes in registers; elsewhere 4 pixels
 * at a time with GCC/Clang vector extensions and a byte loop for the split. The decoder is serial (each pixel depends on its left
 * neighbour) and only has to be correct.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "predictor.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/*
 * med() on 16 lanes, branch-free: the gradient a + b - c computed with
 * saturation (one of b - c and c - b is 0, so the result is a + b - c
 * clamped to 0..255), then clamped between min(a, b) and max(a, b). When
 * c >= max(a, b) the gradient is <= min(a, b), when c <= min(a, b) it is
 * >= max(a, b), else in between: the three cases of med().
 */
static inline __m128i med16(__m128i a, __m128i b, __m128i c)
{
	__m128i grad = _mm_subs_epu8(_mm_adds_epu8(a, _mm_subs_epu8(b, c)), _mm_subs_epu8(c, b));

	return _mm_max_epu8(_mm_min_epu8(a, b), _mm_min_epu8(_mm_max_epu8(a, b), grad));
}

static inline __m128i load16(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* dst = src with green (byte 1 of each pixel) subtracted from bytes 0 and 2. */
static void subtract_green(uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t i = 0;

	for (; i + 16 <= len; i += 16) {
		__m128i v = load16(src + i);
		/* green into the low byte of both 16-bit halves of each pixel */
		__m128i g = _mm_srli_epi16(v, 8);

		g = _mm_shufflehi_epi16(_mm_shufflelo_epi16(g, 0xa0), 0xa0);
		_mm_storeu_si128((__m128i *)(void *)(dst + i), _mm_sub_epi8(v, g));
	}
	for (; i < len; i += 4) {
		dst[i] = (uint8_t)(src[i] - src[i + 1]);
		dst[i + 1] = src[i + 1];
		dst[i + 2] = (uint8_t)(src[i + 2] - src[i + 1]);
		dst[i + 3] = src[i + 3];
	}
}

/*
 * Bytes 0..3 of 16 pixels (r0..r3, 4 pixels each) into p0..p3, 16 each:
 * even and odd bytes first, then even and odd of those.
 */
static inline void split16(uint8_t *p0, uint8_t *p1, uint8_t *p2, uint8_t *p3, __m128i r0, __m128i r1,
	__m128i r2, __m128i r3)
{
	const __m128i lo = _mm_set1_epi16(0xff);
	__m128i e01 = _mm_packus_epi16(_mm_and_si128(r0, lo), _mm_and_si128(r1, lo));
	__m128i e23 = _mm_packus_epi16(_mm_and_si128(r2, lo), _mm_and_si128(r3, lo));
	__m128i o01 = _mm_packus_epi16(_mm_srli_epi16(r0, 8), _mm_srli_epi16(r1, 8));
	__m128i o23 = _mm_packus_epi16(_mm_srli_epi16(r2, 8), _mm_srli_epi16(r3, 8));

	_mm_storeu_si128((__m128i *)(void *)p0, _mm_packus_epi16(_mm_and_si128(e01, lo), _mm_and_si128(e23, lo)));
	_mm_storeu_si128((__m128i *)(void *)p2, _mm_packus_epi16(_mm_srli_epi16(e01, 8), _mm_srli_epi16(e23, 8)));
	_mm_storeu_si128((__m128i *)(void *)p1, _mm_packus_epi16(_mm_and_si128(o01, lo), _mm_and_si128(o23, lo)));
	_mm_storeu_si128((__m128i *)(void *)p3, _mm_packus_epi16(_mm_srli_epi16(o01, 8), _mm_srli_epi16(o23, 8)));
}

/* Residuals of pixels x0.. of a row with a row above, 16 pixels at a time; returns the first pixel not done. */
static size_t residual_split_fast(uint8_t *const planes[4], const uint8_t *cur, const uint8_t *prev, size_t x0,
	size_t width)
{
	size_t x = x0;

	for (; x + 16 <= width; x += 16) {
		__m128i r[4];

		for (size_t k = 0; k < 4; k++) {
			size_t i = 4 * (x + 4 * k);

			r[k] = _mm_sub_epi8(load16(cur + i), med16(load16(cur + i - 4), load16(prev + i), load16(prev + i - 4)));
		}
		split16(planes[0] + x, planes[1] + x, planes[2] + x, planes[3] + x, r[0], r[1], r[2], r[3]);
	}
	return x;
}
#else
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

/*
 * On a target without 16-byte vector registers (i686: Debian's i386 has no
 * SSE2) GCC warns that passing a v16 by value differs between ABIs
 * (-Wpsabi). These functions are static: no call crosses the file.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
typedef uint8_t v16 __attribute__((vector_size(16)));

static inline v16 load16(const uint8_t *p)
{
	v16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* med() on 16 lanes (GCC/Clang vector extensions, NEON on arm64): masks select instead of branches. */
static inline v16 med16(v16 a, v16 b, v16 c)
{
	v16 lt = (v16)(a < b);
	v16 lo = (a & lt) | (b & ~lt), hi = (b & lt) | (a & ~lt);
	v16 ge = (v16)(c >= hi), le = (v16)(c <= lo);
	v16 grad = a + b - c;

	return (lo & ge) | (~ge & ((hi & le) | (~le & grad)));
}

/* Residuals of pixels x0.. of a row with a row above, 16 pixels at a time; returns the first pixel not done. */
static size_t residual_split_fast(uint8_t *const planes[4], const uint8_t *cur, const uint8_t *prev, size_t x0,
	size_t width)
{
	size_t x = x0;

	for (; x + 16 <= width; x += 16) {
		uint8_t res[64];

		for (size_t k = 0; k < 4; k++) {
			size_t i = 4 * (x + 4 * k);
			v16 r = load16(cur + i) - med16(load16(cur + i - 4), load16(prev + i), load16(prev + i - 4));

			memcpy(res + 16 * k, &r, sizeof(r));
		}
		for (size_t k = 0; k < 16; k++) {
			planes[0][x + k] = res[4 * k];
			planes[1][x + k] = res[4 * k + 1];
			planes[2][x + k] = res[4 * k + 2];
			planes[3][x + k] = res[4 * k + 3];
		}
	}
	return x;
}
#endif

static inline uint8_t med(uint8_t a, uint8_t b, uint8_t c)
{
	uint8_t lo = a < b ? a : b, hi = a < b ? b : a;

	return c >= hi ? lo : c <= lo ? hi : (uint8_t)(a + b - c);
}

/*
 * Residuals of one transformed row cur (prev: the row above, NULL for the
 * first) straight into the four planes at this row.
 */
static void residual_row(uint8_t *const planes[4], const uint8_t *cur, const uint8_t *prev, size_t width)
{
	size_t x = 1;

	if (!prev) {
		for (size_t k = 0; k < 4; k++) {
			planes[k][0] = cur[k];
			for (x = 1; x < width; x++) {
				planes[k][x] = (uint8_t)(cur[4 * x + k] - cur[4 * x + k - 4]);
			}
		}
		return;
	}
	for (size_t k = 0; k < 4; k++) {
		planes[k][0] = (uint8_t)(cur[k] - prev[k]);
	}
	x = residual_split_fast(planes, cur, prev, 1, width);
	for (; x < width; x++) {
		for (size_t k = 0; k < 4; k++) {
			size_t i = 4 * x + k;

			planes[k][x] = (uint8_t)(cur[i] - med(cur[i - 4], prev[i], prev[i - 4]));
		}
	}
}

bool planar_valid(const struct pixel_block *blk)
{
	return blk->bpp == 4 && blk->row_len >= 4 && blk->row_len % 4 == 0 && blk->size % blk->row_len == 0;
}

int planar_apply(uint8_t *dst, const uint8_t *src, const struct pixel_block *blk)
{
	size_t len = blk->row_len, width = len / 4, rows = blk->size / len, n = blk->size / 4;
	uint8_t *buf = malloc(2 * len), *cur, *prev;

	if (!buf) {
		return -ENOMEM;
	}
	cur = buf;
	prev = buf + len;
	for (size_t y = 0; y < rows; y++) {
		uint8_t *const planes[4] = { dst + y * width, dst + n + y * width, dst + 2 * n + y * width,
			dst + 3 * n + y * width };
		uint8_t *t;

		subtract_green(cur, src + y * len, len);
		residual_row(planes, cur, y ? prev : NULL, width);
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
