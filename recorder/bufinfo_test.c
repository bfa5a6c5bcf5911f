/*
 * Buffer-info plug-in "hwct-test": the project's own handle, the one layout
 * of <hwct/test_buffer.h> that hwcomposer.kms.so, hwc-replay's HWC2 backend
 * and every test client use.
 */
#include <hwct/test_buffer.h>

#include "bufinfo.h"

static bool sane(const struct rec_buffer_layout *out)
{
	return out->width && out->height && out->width <= REC_MAX_DIMENSION &&
		out->height <= REC_MAX_DIMENSION && rec_is_fourcc(out->drm_format);
}

/* <hwct/test_buffer.h>: data[1] magic, [2..4] size and fourcc, [5..8] planes, [9..10] modifier, [11] HAL format. */
static bool parse_buffer(const struct rec_handle *h, struct rec_buffer_layout *out)
{
	uint32_t v[1 + HWCT_TEST_HANDLE_INTS];

	if (h->num_fds != 1 || h->num_ints != HWCT_TEST_HANDLE_INTS) {
		return false;
	}
	for (int32_t i = 0; i < 1 + HWCT_TEST_HANDLE_INTS; i++) {
		if (!rec_handle_int(h, i, &v[i])) {
			return false;
		}
	}
	if (v[1] != HWCT_TEST_HANDLE_MAGIC || v[5] == 0) {
		return false;
	}
	out->width = v[2];
	out->height = v[3];
	out->drm_format = v[4];
	out->has_modifier = true;
	out->modifier = (uint64_t)v[10] << 32 | v[9];
	out->has_hal_format = v[11] != 0;
	out->hal_format = (int32_t)v[11];
	out->plane_count = v[7] ? 2 : 1;
	out->planes[0].stride = v[5];
	out->planes[0].offset = v[6];
	out->planes[1].stride = v[7];
	out->planes[1].offset = v[8];
	return sane(out);
}

const struct rec_bufinfo_impl rec_bufinfo_test = {
	.name = "hwct-test",
	.parse = parse_buffer,
};
