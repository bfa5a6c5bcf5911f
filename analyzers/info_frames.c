/*
 * Stored and raw bytes per zstd-frame kind (info.h). The public reader API
 * has no per-frame view, so this one file reads the reader's index and frame
 * table (format/reader_private.h) without changing them; keep it the only
 * analyzer that does.
 */
#include <zstd.h>

#include <hwct/format.h>

#include "info.h"
#include "reader_private.h"

void info_frame_stats(const struct hwct_reader *r, struct info_frames *out)
{
	/* the seek table lists the frames before it, not itself */
	*out = (struct info_frames){ .skippable_frames = r->info.has_seek_table ? 1 : 0 };
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
