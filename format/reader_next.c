/* Sequential reading and seeking (include/hwct/reader.h). */
#include <errno.h>
#include <stdlib.h>

#include <hwct/limits.h>

#include "container.h"
#include "reader_private.h"
#include "record_io.h"

int reader_load_frame(struct hwct_reader *r, uint32_t ordinal, struct bytebuf *out)
{
	const struct frame_loc *f = &r->frames[ordinal];
	const uint8_t *src = r->data + f->offset;
	unsigned long long content = ZSTD_getFrameContentSize(src, (size_t)f->size);
	size_t n;

	if (content == ZSTD_CONTENTSIZE_ERROR) {
		return reader_fail(r, -EINVAL, f->offset, "zstd frame %u: bad frame header", ordinal);
	}
	if (content == ZSTD_CONTENTSIZE_UNKNOWN) {
		return reader_fail(r, -EINVAL, f->offset,
			"zstd frame %u: no content size in its header (not written by hwctrace)", ordinal);
	}
	if (content > hwct_limits()->frame_bytes) {
		return reader_fail(r, -EFBIG, f->offset,
			"zstd frame %u: content size %llu exceeds the frame limit of %llu bytes "
			"(HWCT_LIMIT_FRAME_BYTES)", ordinal, content,
			(unsigned long long)hwct_limits()->frame_bytes);
	}
	if (f->has_checksum && f->decompressed != content) {
		return reader_fail(r, -EINVAL, f->offset,
			"zstd frame %u: seek table says %u bytes of content, frame header %llu", ordinal,
			f->decompressed, content);
	}
	out->len = 0;
	if (bytebuf_reserve(out, (size_t)content + 1) < 0) {
		return reader_fail(r, -ENOMEM, f->offset, "zstd frame %u: out of memory", ordinal);
	}
	n = ZSTD_decompressDCtx(r->dctx, out->data, (size_t)content + 1, src, (size_t)f->size);
	if (ZSTD_isError(n)) {
		return reader_fail(r, -EINVAL, f->offset, "zstd frame %u: %s", ordinal, ZSTD_getErrorName(n));
	}
	if (n != content) {
		return reader_fail(r, -EINVAL, f->offset, "zstd frame %u: %zu bytes decoded, header says %llu",
			ordinal, n, content);
	}
	if (f->has_checksum && container_checksum(out->data, n) != f->checksum) {
		return reader_fail(r, -EINVAL, f->offset,
			"zstd frame %u: content does not match the seek-table checksum", ordinal);
	}
	out->len = n;
	return 0;
}

static int end_of_trace(struct hwct_reader *r)
{
	if (r->info.truncated) {
		return reader_fail(r, -EINVAL, r->info.truncated_offset,
			"trace ends early: %s; %llu bytes after the last complete zstd frame were not read",
			r->truncation_reason ? r->truncation_reason : "damaged frame",
			(unsigned long long)(r->size - r->info.truncated_offset));
	}
	if (!r->info.has_seek_table) {
		return reader_fail(r, -EINVAL, r->size,
			"trace ends without a valid seek table: its writer did not close it, or the trailer is "
			"damaged (every complete frame was read; 'hwc-trace repair' rebuilds the trailer)");
	}
	return 0;
}

int hwct_reader_next(struct hwct_reader *r, const Hwct__Record **out)
{
	for (;;) {
		const uint8_t *body;
		const char *what = NULL;
		size_t size;
		int ret;

		if (r->failed) {
			return r->err.code;
		}
		if (r->rec) {
			hwct__record__free_unpacked(r->rec, NULL);
			r->rec = NULL;
		}
		ret = r->buf.data ? record_next(r->buf.data, r->buf.len, &r->pos, &body, &size, &what) : 0;
		if (ret < 0) {
			return reader_fail(r, ret, r->frames[r->cur_ordinal].offset,
				"zstd frame %u, record %zu at content byte %zu: %s", r->cur_ordinal,
				r->record_number, r->pos, what);
		}
		if (ret > 0) {
			r->rec = hwct__record__unpack(NULL, size, body);
			if (!r->rec) {
				return reader_fail(r, -EINVAL, r->frames[r->cur_ordinal].offset,
					"zstd frame %u, record %zu at content byte %zu: Record message does not parse",
					r->cur_ordinal, r->record_number, (size_t)(body - r->buf.data));
			}
			r->record_number++;
			if (r->rec->kind_case == HWCT__RECORD__KIND__NOT_SET) {
				continue;	/* a record kind from a newer minor */
			}
			*out = r->rec;
			return 1;
		}
		if (r->next_data >= r->index.count) {
			bytebuf_finish(&r->buf);
			return end_of_trace(r);
		}
		r->cur_ordinal = r->index.frames[r->next_data++].ordinal;
		r->pos = 0;
		r->record_number = 0;
		ret = reader_load_frame(r, r->cur_ordinal, &r->buf);
		if (ret < 0) {
			return ret;
		}
	}
}

uint64_t hwct_reader_frame_offset(const struct hwct_reader *r)
{
	return r->frame_count ? r->frames[r->cur_ordinal].offset : 0;
}

static void position(struct hwct_reader *r, size_t data_index)
{
	if (r->rec) {
		hwct__record__free_unpacked(r->rec, NULL);
		r->rec = NULL;
	}
	bytebuf_finish(&r->buf);
	r->pos = 0;
	r->next_data = data_index;
	r->failed = false;
	hwct_error_clear(&r->err);
}

int hwct_reader_rewind(struct hwct_reader *r)
{
	position(r, 0);
	return 0;
}

int hwct_reader_seek(struct hwct_reader *r, uint64_t frame)
{
	size_t best = SIZE_MAX;

	if (frame >= r->index.frame_ends) {
		return -ERANGE;
	}
	for (size_t i = 0; i < r->index.count; i++) {
		const Hwct__IndexFrame *f = &r->index.frames[i];

		if (f->kind != 1) {
			continue;
		}
		if (f->first_frame > frame) {
			break;
		}
		if (f->keyframe) {
			best = i;
		}
	}
	position(r, best == SIZE_MAX ? 0 : best);
	return 0;
}
