/* Stored and raw bytes per zstd-frame kind (hwct_reader_frame_counts(), reader.h). */
#include <zstd.h>

#include <hwct/format.h>
#include <hwct/reader.h>

#include "reader_private.h"

void hwct_reader_frame_counts(const struct hwct_reader *r, struct hwct_frame_counts *out)
{
	/* the seek table lists the frames before it, not itself */
	*out = (struct hwct_frame_counts){ .skippable_frames = r->info.has_seek_table ? 1 : 0 };
	for (size_t i = 0; i < r->frame_count; i++) {
		out->skippable_frames += r->frames[i].skippable;
	}
	for (size_t i = 0; i < r->index.count; i++) {
		const Hwct__IndexFrame *f = &r->index.frames[i];
		const struct frame_loc *loc = &r->frames[f->ordinal];
		unsigned long long raw = ZSTD_getFrameContentSize(r->data + loc->offset, (size_t)loc->size);

		if (raw == ZSTD_CONTENTSIZE_UNKNOWN || raw == ZSTD_CONTENTSIZE_ERROR) {
			raw = loc->decompressed;
		}
		if (f->kind == HWCT_FRAME_BLOBS) {
			out->blob_frames++;
			out->blob_stored += loc->size;
			out->blob_raw += raw;
		} else {
			out->record_frames++;
			out->record_stored += loc->size;
			out->record_raw += raw;
		}
	}
}
