/* Plug-in registry and format tables of the buffer-info plug-ins (bufinfo.h). */
#include <stddef.h>

#include <system/graphics.h>

#include "bufinfo.h"

static const struct rec_bufinfo_impl *const impls[] = {
	&rec_bufinfo_test,
	&rec_bufinfo_gbm_gralloc,
	&rec_bufinfo_cros,
};

bool rec_bufinfo_parse(const struct rec_handle *h, struct rec_buffer_layout *out)
{
	for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		*out = (struct rec_buffer_layout){ 0 };
		if (impls[i]->parse(h, out)) {
			out->allocator = impls[i]->name;
			return true;
		}
	}
	*out = (struct rec_buffer_layout){ 0 };
	return false;
}

bool rec_handle_int(const struct rec_handle *h, int32_t index, uint32_t *out)
{
	if (index < 0 || index >= h->words) {
		return false;
	}
	*out = (uint32_t)h->data[index];
	return true;
}

static const struct {
	uint32_t fourcc, bpp;
} formats[] = {
	{ REC_FOURCC('A', 'R', '2', '4'), 4 },	/* ARGB8888 */
	{ REC_FOURCC('X', 'R', '2', '4'), 4 },
	{ REC_FOURCC('A', 'B', '2', '4'), 4 },	/* ABGR8888 */
	{ REC_FOURCC('X', 'B', '2', '4'), 4 },
	{ REC_FOURCC('R', 'A', '2', '4'), 4 },
	{ REC_FOURCC('R', 'X', '2', '4'), 4 },
	{ REC_FOURCC('B', 'A', '2', '4'), 4 },
	{ REC_FOURCC('B', 'X', '2', '4'), 4 },
	{ REC_FOURCC('A', 'R', '3', '0'), 4 },	/* ARGB2101010 */
	{ REC_FOURCC('X', 'R', '3', '0'), 4 },
	{ REC_FOURCC('A', 'B', '3', '0'), 4 },
	{ REC_FOURCC('X', 'B', '3', '0'), 4 },
	{ REC_FOURCC('A', 'B', '4', 'H'), 8 },	/* ABGR16161616F */
	{ REC_FOURCC('R', 'G', '2', '4'), 3 },	/* RGB888 */
	{ REC_FOURCC('B', 'G', '2', '4'), 3 },
	{ REC_FOURCC('R', 'G', '1', '6'), 2 },	/* RGB565 */
	{ REC_FOURCC('B', 'G', '1', '6'), 2 },
	{ REC_FOURCC('R', '8', ' ', ' '), 1 },
};

uint32_t rec_drm_format_bpp(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (formats[i].fourcc == fourcc) {
			return formats[i].bpp;
		}
	}
	return 0;
}

uint32_t rec_hal_to_drm_format(int32_t hal_format)
{
	switch (hal_format) {
	case HAL_PIXEL_FORMAT_RGBA_8888:
		return REC_FOURCC('A', 'B', '2', '4');
	case HAL_PIXEL_FORMAT_RGBX_8888:
		return REC_FOURCC('X', 'B', '2', '4');
	case HAL_PIXEL_FORMAT_BGRA_8888:
		return REC_FOURCC('A', 'R', '2', '4');
	case HAL_PIXEL_FORMAT_RGB_888:
		return REC_FOURCC('B', 'G', '2', '4');
	case HAL_PIXEL_FORMAT_RGB_565:
		return REC_FOURCC('B', 'G', '1', '6');
	case HAL_PIXEL_FORMAT_RGBA_1010102:
		return REC_FOURCC('A', 'B', '3', '0');
	case HAL_PIXEL_FORMAT_RGBA_FP16:
		return REC_FOURCC('A', 'B', '4', 'H');
	case HAL_PIXEL_FORMAT_YV12:
		return REC_FOURCC('Y', 'V', '1', '2');
	default:
		return 0;
	}
}

bool rec_is_fourcc(uint32_t v)
{
	for (int i = 0; i < 4; i++) {
		unsigned char c = (unsigned char)(v >> (8 * i));

		if (c < 0x20 || c > 0x7e) {
			return false;
		}
	}
	return true;
}
