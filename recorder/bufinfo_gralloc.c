/*
 * Buffer-info plug-in of gbm_gralloc / drm_gralloc: libdrm's
 * android/gralloc_handle.h, struct gralloc_handle_t, GRALLOC_HANDLE_MAGIC
 * 0x60585350 (docs/platform.md §4). Offsets come from a struct of
 * the same shape compiled here, so they are right for this ABI (on i686
 * the uint64_t modifier is only 4-aligned). Copies of the header disagree on
 * `format` (HAL format in some, DRM fourcc in others): a value that reads as
 * a fourcc is taken as one. Only the version-3 layout is accepted; forks
 * that moved fields (e.g. a `covert_format` before `stride`) fail the stride
 * check and stay unmappable.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bufinfo.h"

#define GRALLOC_HANDLE_MAGIC 0x60585350u

/* struct gralloc_handle_t with native_handle_t spelled out (version 3). */
struct gralloc_handle_v3 {
	int nh_version, nh_num_fds, nh_num_ints;
	int prime_fd;
	uint32_t magic;
	uint32_t version;
	uint32_t width;
	uint32_t height;
	uint32_t format;
	uint32_t usage;
	uint32_t stride;
	uint64_t modifier;
	int data_owner;
	_Alignas(8) union {
		void *data;
		uint64_t reserved;
	} u;
};

#define WORD(field) ((int32_t)((offsetof(struct gralloc_handle_v3, field) - 3 * sizeof(int)) / sizeof(int)))
#define NUM_INTS ((int32_t)((sizeof(struct gralloc_handle_v3) - 3 * sizeof(int)) / sizeof(int)) - 1)

static bool parse(const struct rec_handle *h, struct rec_buffer_layout *out)
{
	uint32_t magic, version, format, usage, mod_lo, mod_hi, bpp;

	if (h->num_fds != 1 || h->num_ints != NUM_INTS ||
			!rec_handle_int(h, WORD(magic), &magic) || magic != GRALLOC_HANDLE_MAGIC ||
			!rec_handle_int(h, WORD(version), &version) || version < 3 || version > 4 ||
			!rec_handle_int(h, WORD(width), &out->width) ||
			!rec_handle_int(h, WORD(height), &out->height) ||
			!rec_handle_int(h, WORD(format), &format) ||
			!rec_handle_int(h, WORD(usage), &usage) ||
			!rec_handle_int(h, WORD(stride), &out->planes[0].stride) ||
			!rec_handle_int(h, WORD(modifier), &mod_lo) ||
			!rec_handle_int(h, WORD(modifier) + 1, &mod_hi)) {
		return false;
	}
	if (rec_is_fourcc(format)) {
		out->drm_format = format;
	} else {
		out->has_hal_format = true;
		out->hal_format = (int32_t)format;
		out->drm_format = rec_hal_to_drm_format((int32_t)format);
	}
	out->has_usage = true;
	out->usage = usage;
	out->has_modifier = true;
	/* the two ints are the uint64_t in memory order */
	{
		uint32_t words[2] = { mod_lo, mod_hi };
		uint64_t m;

		memcpy(&m, words, sizeof(m));
		out->modifier = m;
	}
	out->plane_count = 1;
	out->planes[0].offset = 0;
	bpp = rec_drm_format_bpp(out->drm_format);
	return out->width && out->height && out->width <= REC_MAX_DIMENSION &&
		out->height <= REC_MAX_DIMENSION &&
		(!bpp || (out->planes[0].stride >= out->width * bpp &&
			out->planes[0].stride <= out->width * bpp + 4096));
}

const struct rec_bufinfo_impl rec_bufinfo_gbm_gralloc = {
	.name = "gbm_gralloc",
	.parse = parse,
};
