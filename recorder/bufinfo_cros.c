/*
 * Buffer-info plug-in of minigbm's cros_gralloc (cros_gralloc_handle.h,
 * magic 0xABCDDCBA). Its layout differs between versions and forks
 * (docs/platform.md §4), so a handle is accepted only when its
 * total word count matches one of the layouts below, the magic sits where
 * that layout puts it and every field is sane:
 *
 *  - "2018": fds[4], strides[4], offsets[4], sizes[4], format_modifiers[8]
 *    (u32 pairs, high half first), width, height, format, flags[2], magic,
 *    pixel_stride, droid_format, usage: exactly 33 words (ChromiumOS 2018).
 *  - "intel": the same plus 14 words of media fields: exactly 47 words
 *    (intel/minigbm, projectceladon).
 *  - "2020": fds[5], strides, offsets, sizes, id, width, height, format,
 *    tiling, u64 format_modifier, u64 use_flags, magic, pixel_stride,
 *    droid_format, usage, num_planes, u64 reserved_region_size, u64
 *    total_size, name_offset, then the name; name_offset must equal the
 *    word count of the fixed part (upstream minigbm; forks adding fb_id
 *    after name_offset are accepted with their own count).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bufinfo.h"

#define CROS_MAGIC 0xABCDDCBAu

struct cros_2018 {
	int nh_version, nh_num_fds, nh_num_ints;
	int32_t fds[4];
	uint32_t strides[4];
	uint32_t offsets[4];
	uint32_t sizes[4];
	uint32_t format_modifiers[8];
	uint32_t width;
	uint32_t height;
	uint32_t format;
	uint32_t flags[2];
	uint32_t magic;
	uint32_t pixel_stride;
	int32_t droid_format;
	int32_t usage;
};

struct cros_2020 {
	int nh_version, nh_num_fds, nh_num_ints;
	int32_t fds[5];
	uint32_t strides[4];
	uint32_t offsets[4];
	uint32_t sizes[4];
	uint32_t id;
	uint32_t width;
	uint32_t height;
	uint32_t format;
	uint32_t tiling;
	uint64_t format_modifier;
	uint64_t use_flags;
	uint32_t magic;
	uint32_t pixel_stride;
	int32_t droid_format;
	int32_t usage;
	uint32_t num_planes;
	uint64_t reserved_region_size;
	uint64_t total_size;
	uint32_t name_offset;
};

#define HDR (3 * sizeof(int))
#define W2018(f) ((int32_t)((offsetof(struct cros_2018, f) - HDR) / sizeof(int)))
#define W2020(f) ((int32_t)((offsetof(struct cros_2020, f) - HDR) / sizeof(int)))
#define WORDS_2018 ((int32_t)((sizeof(struct cros_2018) - HDR) / sizeof(int)))
#define WORDS_INTEL (WORDS_2018 + 14)
/* the fixed part ends right after name_offset */
#define WORDS_2020 (W2020(name_offset) + 1)

static bool word(const struct rec_handle *h, int32_t i, uint32_t *out)
{
	return rec_handle_int(h, i, out);
}

static uint64_t u64_at(const struct rec_handle *h, int32_t i)
{
	uint32_t w[2] = { 0, 0 };
	uint64_t v;

	word(h, i, &w[0]);
	word(h, i + 1, &w[1]);
	memcpy(&v, w, sizeof(v));
	return v;
}

static bool sane(const struct rec_buffer_layout *out)
{
	uint32_t bpp = rec_drm_format_bpp(out->drm_format);

	return out->width && out->height && out->width <= REC_MAX_DIMENSION &&
		out->height <= REC_MAX_DIMENSION && rec_is_fourcc(out->drm_format) &&
		out->plane_count >= 1 && out->plane_count <= REC_MAX_PLANES &&
		(!bpp || out->planes[0].stride >= out->width * bpp);
}

static bool parse_2018(const struct rec_handle *h, struct rec_buffer_layout *out)
{
	uint32_t magic, hi, lo, droid, usage;

	if (!word(h, W2018(magic), &magic) || magic != CROS_MAGIC ||
			!word(h, W2018(width), &out->width) || !word(h, W2018(height), &out->height) ||
			!word(h, W2018(format), &out->drm_format) ||
			!word(h, W2018(format_modifiers), &hi) || !word(h, W2018(format_modifiers) + 1, &lo) ||
			!word(h, W2018(droid_format), &droid) || !word(h, W2018(usage), &usage)) {
		return false;
	}
	for (int p = 0; p < 4; p++) {
		uint32_t stride = 0, offset = 0;

		word(h, W2018(strides) + p, &stride);
		word(h, W2018(offsets) + p, &offset);
		if (!stride) {
			break;
		}
		out->planes[p].stride = stride;
		out->planes[p].offset = offset;
		out->plane_count = (uint32_t)p + 1;
	}
	out->has_modifier = true;
	out->modifier = (uint64_t)hi << 32 | lo;
	out->has_hal_format = true;
	out->hal_format = (int32_t)droid;
	out->has_usage = true;
	out->usage = usage;
	return sane(out);
}

static bool parse_2020(const struct rec_handle *h, struct rec_buffer_layout *out)
{
	uint32_t magic, name_offset, planes, droid, usage;

	if (!word(h, W2020(magic), &magic) || magic != CROS_MAGIC ||
			!word(h, W2020(name_offset), &name_offset) ||
			(name_offset != (uint32_t)WORDS_2020 && name_offset != (uint32_t)WORDS_2020 + 1) ||
			!word(h, W2020(num_planes), &planes) || planes < 1 || planes > 4 ||
			!word(h, W2020(width), &out->width) || !word(h, W2020(height), &out->height) ||
			!word(h, W2020(format), &out->drm_format) ||
			!word(h, W2020(droid_format), &droid) || !word(h, W2020(usage), &usage)) {
		return false;
	}
	for (uint32_t p = 0; p < planes; p++) {
		word(h, W2020(strides) + (int32_t)p, &out->planes[p].stride);
		word(h, W2020(offsets) + (int32_t)p, &out->planes[p].offset);
	}
	out->plane_count = planes;
	out->has_modifier = true;
	out->modifier = u64_at(h, W2020(format_modifier));
	out->has_usage = true;
	out->usage = u64_at(h, W2020(use_flags));
	out->has_hal_format = true;
	out->hal_format = (int32_t)droid;
	(void)usage;
	return sane(out);
}

static bool parse(const struct rec_handle *h, struct rec_buffer_layout *out)
{
	int32_t words = h->num_fds + h->num_ints;

	if (h->num_fds < 1 || h->num_fds > 5 || words != h->words) {
		return false;	/* cut by REC_HANDLE_MAX_WORDS, or no fd */
	}
	if (words == WORDS_2018 || words == WORDS_INTEL) {
		return parse_2018(h, out);
	}
	if (words >= WORDS_2020) {
		return parse_2020(h, out);
	}
	return false;
}

const struct rec_bufinfo_impl rec_bufinfo_cros = {
	.name = "cros_gralloc",
	.parse = parse,
};
