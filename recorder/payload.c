/* The bytes of a buffer a capture stores (payload.h). */
#include <string.h>

#include "payload.h"

bool rec_payload_init(struct rec_payload *p, const struct rec_buffer_layout *l)
{
	const struct rec_yuv_format *yuv = rec_drm_format_yuv(l->drm_format);
	uint32_t bpp = rec_drm_format_bpp(l->drm_format);
	uint32_t planes = yuv ? yuv->planes : 1;
	uint64_t end = 0;

	*p = (struct rec_payload){ 0 };
	if ((!bpp && !yuv) || l->plane_count != planes || planes > REC_MAX_PLANES ||
			(l->has_modifier && l->modifier != REC_DRM_FORMAT_MOD_LINEAR &&
			l->modifier != REC_DRM_FORMAT_MOD_INVALID)) {
		return false;
	}
	p->start = l->planes[0].offset;
	p->stride = l->planes[0].stride;
	p->bpp = yuv ? yuv->cpp[0] : bpp;
	p->plane_count = planes;
	for (uint32_t i = 0; i < planes; i++) {
		uint32_t hsub = i && yuv ? yuv->hsub : 1, vsub = i && yuv ? yuv->vsub : 1;
		uint64_t row = (uint64_t)(l->width + hsub - 1) / hsub * (yuv ? yuv->cpp[i] : bpp);
		uint64_t rows = (l->height + vsub - 1) / vsub;

		if (l->planes[i].offset < p->start || l->planes[i].stride < row) {
			return false;
		}
		p->planes[i].offset = l->planes[i].offset - p->start;
		p->planes[i].size = (uint64_t)l->planes[i].stride * rows;
		if (p->planes[i].offset + p->planes[i].size > end) {
			end = p->planes[i].offset + p->planes[i].size;
		}
	}
	p->size = end;
	return true;
}

void rec_payload_copy(const struct rec_payload *p, const uint8_t *map, uint8_t *dst)
{
	uint32_t order[REC_MAX_PLANES];
	uint64_t done = 0;

	/* planes by offset (at most four: insertion sort), then copied and the gaps zeroed in one walk */
	for (uint32_t i = 0; i < p->plane_count; i++) {
		uint32_t j = i;

		for (; j > 0 && p->planes[order[j - 1]].offset > p->planes[i].offset; j--) {
			order[j] = order[j - 1];
		}
		order[j] = i;
	}
	for (uint32_t k = 0; k < p->plane_count; k++) {
		uint64_t off = p->planes[order[k]].offset, end = off + p->planes[order[k]].size;

		if (off > done) {
			memset(dst + done, 0, (size_t)(off - done));
			done = off;
		}
		if (end > done) {
			memcpy(dst + done, map + p->start + done, (size_t)(end - done));
			done = end;
		}
	}
}
