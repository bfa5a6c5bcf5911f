/* The picture of a buffer: visible rows, packed (include/hwct/picture.h). */
#include <string.h>

#define XXH_STATIC_LINKING_ONLY	/* XXH3_state_t on the stack */
#include <xxhash.h>
/* the dispatching XXH3 of Debian's libxxhash (see hash.c) */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__has_include)
#if __has_include(<xxh_x86dispatch.h>)
#include <xxh_x86dispatch.h>
#endif
#endif

#include <hardware/hwcomposer_defs.h>
#include <system/graphics.h>

#include <hwct/picture.h>

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/*
 * The formats whose rows the format knows (drm_fourcc.h): bytes per pixel
 * of each plane (interleaved chroma: per CbCr pair) and the subsampling of
 * the planes after the first.
 */
static const struct {
	uint32_t fourcc;
	uint8_t planes;
	uint8_t cpp[HWCT_PICTURE_MAX_PLANES];
	uint8_t hsub, vsub;
} formats[] = {
	{ FOURCC('A', 'R', '2', '4'), 1, { 4 }, 1, 1 },	/* ARGB8888 */
	{ FOURCC('X', 'R', '2', '4'), 1, { 4 }, 1, 1 },
	{ FOURCC('A', 'B', '2', '4'), 1, { 4 }, 1, 1 },	/* ABGR8888 */
	{ FOURCC('X', 'B', '2', '4'), 1, { 4 }, 1, 1 },
	{ FOURCC('R', 'A', '2', '4'), 1, { 4 }, 1, 1 },
	{ FOURCC('R', 'X', '2', '4'), 1, { 4 }, 1, 1 },
	{ FOURCC('B', 'A', '2', '4'), 1, { 4 }, 1, 1 },
	{ FOURCC('B', 'X', '2', '4'), 1, { 4 }, 1, 1 },
	{ FOURCC('A', 'R', '3', '0'), 1, { 4 }, 1, 1 },	/* ARGB2101010 */
	{ FOURCC('X', 'R', '3', '0'), 1, { 4 }, 1, 1 },
	{ FOURCC('A', 'B', '3', '0'), 1, { 4 }, 1, 1 },
	{ FOURCC('X', 'B', '3', '0'), 1, { 4 }, 1, 1 },
	{ FOURCC('A', 'B', '4', 'H'), 1, { 8 }, 1, 1 },	/* ABGR16161616F */
	{ FOURCC('X', 'R', '4', '8'), 1, { 8 }, 1, 1 },	/* XRGB16161616 */
	{ FOURCC('A', 'R', '4', '8'), 1, { 8 }, 1, 1 },
	{ FOURCC('R', 'G', '2', '4'), 1, { 3 }, 1, 1 },	/* RGB888 */
	{ FOURCC('B', 'G', '2', '4'), 1, { 3 }, 1, 1 },
	{ FOURCC('R', 'G', '1', '6'), 1, { 2 }, 1, 1 },	/* RGB565 */
	{ FOURCC('B', 'G', '1', '6'), 1, { 2 }, 1, 1 },
	{ FOURCC('R', '8', ' ', ' '), 1, { 1 }, 1, 1 },
	{ FOURCC('N', 'V', '1', '2'), 2, { 1, 2 }, 2, 2 },	/* NV12 */
	{ FOURCC('N', 'V', '2', '1'), 2, { 1, 2 }, 2, 2 },
	{ FOURCC('N', 'V', '1', '6'), 2, { 1, 2 }, 2, 1 },
	{ FOURCC('N', 'V', '6', '1'), 2, { 1, 2 }, 2, 1 },
	{ FOURCC('N', 'V', '2', '4'), 2, { 1, 2 }, 1, 1 },
	{ FOURCC('N', 'V', '4', '2'), 2, { 1, 2 }, 1, 1 },
	{ FOURCC('P', '0', '1', '0'), 2, { 2, 4 }, 2, 2 },
	{ FOURCC('Y', 'U', '1', '2'), 3, { 1, 1, 1 }, 2, 2 },	/* YUV420 */
	{ FOURCC('Y', 'V', '1', '2'), 3, { 1, 1, 1 }, 2, 2 },
	{ FOURCC('Y', 'U', '1', '6'), 3, { 1, 1, 1 }, 2, 1 },
	{ FOURCC('Y', 'V', '1', '6'), 3, { 1, 1, 1 }, 2, 1 },
};

/* HAL pixel formats as gbm_gralloc and drm_hwcomposer map them */
static const struct {
	int32_t hal;
	uint32_t fourcc;
} hal_formats[] = {
	{ HAL_PIXEL_FORMAT_RGBA_8888, FOURCC('A', 'B', '2', '4') },
	{ HAL_PIXEL_FORMAT_RGBX_8888, FOURCC('X', 'B', '2', '4') },
	{ HAL_PIXEL_FORMAT_BGRA_8888, FOURCC('A', 'R', '2', '4') },
	{ HAL_PIXEL_FORMAT_RGB_888, FOURCC('B', 'G', '2', '4') },
	{ HAL_PIXEL_FORMAT_RGB_565, FOURCC('R', 'G', '1', '6') },
	{ HAL_PIXEL_FORMAT_RGBA_1010102, FOURCC('A', 'B', '3', '0') },
	{ HAL_PIXEL_FORMAT_RGBA_FP16, FOURCC('A', 'B', '4', 'H') },
	{ HAL_PIXEL_FORMAT_YV12, FOURCC('Y', 'V', '1', '2') },
	{ HAL_PIXEL_FORMAT_YCRCB_420_SP, FOURCC('N', 'V', '2', '1') },
	{ HAL_PIXEL_FORMAT_YCBCR_422_SP, FOURCC('N', 'V', '1', '6') },
	{ HAL_PIXEL_FORMAT_YCBCR_420_888, FOURCC('N', 'V', '1', '2') },	/* flexible: NV12, the common layout */
	{ HAL_PIXEL_FORMAT_YCBCR_P010, FOURCC('P', '0', '1', '0') },
};

bool hwct_picture_init(struct hwct_picture *p, uint32_t fourcc, uint32_t width, uint32_t height)
{
	uint64_t offset = 0;

	*p = (struct hwct_picture){ 0 };
	if (!width || !height) {
		return false;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (formats[i].fourcc != fourcc) {
			continue;
		}
		p->fourcc = fourcc;
		p->width = width;
		p->height = height;
		p->plane_count = formats[i].planes;
		for (uint32_t k = 0; k < p->plane_count; k++) {
			uint32_t hsub = k ? formats[i].hsub : 1, vsub = k ? formats[i].vsub : 1;
			uint64_t row = (uint64_t)((width + hsub - 1) / hsub) * formats[i].cpp[k];

			if (row > UINT32_MAX) {
				*p = (struct hwct_picture){ 0 };
				return false;
			}
			p->planes[k] = (struct hwct_picture_plane){
				.offset = offset,
				.stride = (uint32_t)row,
				.row = (uint32_t)row,
				.rows = (height + vsub - 1) / vsub,
			};
			offset += row * p->planes[k].rows;
		}
		return true;
	}
	return false;
}

bool hwct_picture_set_layout(struct hwct_picture *p, const Hwct__Buffer *b)
{
	struct hwct_picture_plane planes[HWCT_PICTURE_MAX_PLANES];
	uint32_t base;

	if (!b || b->n_planes != p->plane_count || !p->plane_count) {
		return false;
	}
	base = b->planes[0]->offset;
	for (uint32_t k = 0; k < p->plane_count; k++) {
		const Hwct__BufferPlane *bp = b->planes[k];

		if (bp->offset < base || bp->stride < p->planes[k].row) {
			return false;
		}
		planes[k] = p->planes[k];
		planes[k].offset = bp->offset - base;
		planes[k].stride = bp->stride;
	}
	memcpy(p->planes, planes, sizeof(planes[0]) * p->plane_count);
	return true;
}

uint32_t hwct_picture_fourcc(const Hwct__Buffer *b)
{
	if (!b) {
		return 0;
	}
	if (b->has_drm_format && b->drm_format) {
		return b->drm_format;
	}
	for (size_t i = 0; i < sizeof(hal_formats) / sizeof(hal_formats[0]); i++) {
		if (hal_formats[i].hal == b->hal_format) {
			return hal_formats[i].fourcc;
		}
	}
	return 0;
}

bool hwct_picture_of_buffer(struct hwct_picture *p, const Hwct__Buffer *b)
{
	return b && hwct_picture_init(p, hwct_picture_fourcc(b), b->width, b->height) &&
		hwct_picture_set_layout(p, b);
}

uint64_t hwct_picture_size(const struct hwct_picture *p)
{
	uint64_t size = 0;

	for (uint32_t k = 0; k < p->plane_count; k++) {
		size += (uint64_t)p->planes[k].row * p->planes[k].rows;
	}
	return size;
}

uint64_t hwct_picture_source_size(const struct hwct_picture *p)
{
	uint64_t end = 0;

	for (uint32_t k = 0; k < p->plane_count; k++) {
		const struct hwct_picture_plane *pl = &p->planes[k];
		uint64_t e = pl->rows ? pl->offset + (uint64_t)pl->stride * (pl->rows - 1) + pl->row : 0;

		end = e > end ? e : end;
	}
	return end;
}

bool hwct_picture_is_packed(const struct hwct_picture *p)
{
	uint64_t offset = 0;

	for (uint32_t k = 0; k < p->plane_count; k++) {
		if (p->planes[k].offset != offset || p->planes[k].stride != p->planes[k].row) {
			return false;
		}
		offset += (uint64_t)p->planes[k].row * p->planes[k].rows;
	}
	return true;
}

void hwct_picture_pack(const struct hwct_picture *p, const uint8_t *src, uint8_t *dst)
{
	for (uint32_t k = 0; k < p->plane_count; k++) {
		const struct hwct_picture_plane *pl = &p->planes[k];
		const uint8_t *s = src + pl->offset;

		if (pl->stride == pl->row) {
			memcpy(dst, s, (size_t)pl->row * pl->rows);
			dst += (size_t)pl->row * pl->rows;
			continue;
		}
		for (uint32_t y = 0; y < pl->rows; y++) {
			memcpy(dst, s + (size_t)y * pl->stride, pl->row);
			dst += pl->row;
		}
	}
}

struct hwct_hash hwct_picture_hash(const struct hwct_picture *p, const uint8_t *src)
{
	XXH3_state_t state;
	XXH128_hash_t h;

	if (hwct_picture_is_packed(p)) {
		return hwct_hash_compute(src, (size_t)hwct_picture_size(p));
	}
	XXH3_INITSTATE(&state);
	XXH3_128bits_reset(&state);
	for (uint32_t k = 0; k < p->plane_count; k++) {
		const struct hwct_picture_plane *pl = &p->planes[k];

		for (uint32_t y = 0; y < pl->rows; y++) {
			XXH3_128bits_update(&state, src + pl->offset + (size_t)y * pl->stride, pl->row);
		}
	}
	h = XXH3_128bits_digest(&state);
	return (struct hwct_hash){ .high = h.high64, .low = h.low64 };
}
