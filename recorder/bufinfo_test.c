/* Buffer-info plug-in of the project's test allocator (test_allocator.h). */
#include "bufinfo.h"
#include "test_allocator.h"

static bool parse(const struct rec_handle *h, struct rec_buffer_layout *out)
{
	uint32_t v[HWCT_TEST_ALLOC_NUM_FDS + HWCT_TEST_ALLOC_NUM_INTS];

	if (h->num_fds != HWCT_TEST_ALLOC_NUM_FDS || h->num_ints != HWCT_TEST_ALLOC_NUM_INTS) {
		return false;
	}
	for (int32_t i = 0; i < HWCT_TEST_ALLOC_NUM_FDS + HWCT_TEST_ALLOC_NUM_INTS; i++) {
		if (!rec_handle_int(h, i, &v[i])) {
			return false;
		}
	}
	if (v[HWCT_TEST_ALLOC_MAGIC_INDEX] != HWCT_TEST_ALLOC_MAGIC) {
		return false;
	}
	out->width = v[HWCT_TEST_ALLOC_WIDTH];
	out->height = v[HWCT_TEST_ALLOC_HEIGHT];
	out->drm_format = v[HWCT_TEST_ALLOC_FOURCC];
	out->has_modifier = true;
	out->modifier = (uint64_t)v[HWCT_TEST_ALLOC_MODIFIER_HI] << 32 | v[HWCT_TEST_ALLOC_MODIFIER_LO];
	out->plane_count = 1;
	out->planes[0].offset = v[HWCT_TEST_ALLOC_OFFSET];
	out->planes[0].stride = v[HWCT_TEST_ALLOC_STRIDE];
	return out->width && out->height && out->width <= REC_MAX_DIMENSION &&
		out->height <= REC_MAX_DIMENSION && rec_is_fourcc(out->drm_format);
}

const struct rec_bufinfo_impl rec_bufinfo_test = {
	.name = "hwct-test",
	.parse = parse,
};
