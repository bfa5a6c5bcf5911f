/* The bytes of a buffer a capture stores (payload.h). */
#include "payload.h"

bool rec_payload_init(struct rec_payload *p, const struct rec_buffer_layout *l)
{
	struct hwct_picture *pic = &p->picture;

	*p = (struct rec_payload){ 0 };
	if (!hwct_picture_init(pic, l->drm_format, l->width, l->height) || l->plane_count != pic->plane_count ||
			(l->has_modifier && l->modifier != REC_DRM_FORMAT_MOD_LINEAR &&
			l->modifier != REC_DRM_FORMAT_MOD_INVALID)) {
		return false;
	}
	p->start = l->planes[0].offset;
	for (uint32_t i = 0; i < pic->plane_count; i++) {
		if (l->planes[i].offset < p->start || l->planes[i].stride < pic->planes[i].row) {
			return false;
		}
		pic->planes[i].offset = l->planes[i].offset - p->start;
		pic->planes[i].stride = l->planes[i].stride;
	}
	p->span = hwct_picture_source_size(pic);
	p->size = hwct_picture_size(pic);
	p->stride = pic->planes[0].row;
	p->bpp = pic->planes[0].row / pic->width;
	p->plane_count = pic->plane_count;
	return true;
}

void rec_payload_copy(const struct rec_payload *p, const uint8_t *map, uint8_t *dst)
{
	hwct_picture_pack(&p->picture, map + p->start, dst);
}
