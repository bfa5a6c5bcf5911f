/* Reading a trace without its seek table: walk the frames, rebuild the index. */
#include <errno.h>
#include <stdlib.h>

#include <hwct/format.h>

#include "container.h"
#include "reader_private.h"
#include "record_io.h"

static int add_frame(struct hwct_reader *r, size_t *cap, uint64_t offset, uint64_t size)
{
	struct frame_loc *f;

	if (r->frame_count == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct frame_loc *frames = realloc(r->frames, n * sizeof(*frames));

		if (!frames) {
			return -ENOMEM;
		}
		r->frames = frames;
		*cap = n;
	}
	f = &r->frames[r->frame_count++];
	*f = (struct frame_loc){ .offset = offset, .size = size };
	f->skippable = container_is_skippable(r->data + offset, (size_t)size, &f->magic);
	return 0;
}

/* Notes one record of a data frame in the index entry f. */
static int note_record(struct hwct_reader *r, Hwct__IndexFrame *f, const Hwct__Record *rec,
	uint64_t *next_frame, uint32_t ordinal)
{
	struct hwct_hash h;

	if (f->records == 0) {
		f->kind = rec->kind_case == HWCT__RECORD__KIND_BLOB ? HWCT_FRAME_BLOBS : HWCT_FRAME_RECORDS;
		if (rec->kind_case == HWCT__RECORD__KIND_KEYFRAME) {
			*next_frame = rec->keyframe->frame;
			f->keyframe = !rec->keyframe->mid_frame;
		}
		f->first_frame = *next_frame;
	}
	f->records++;
	if (!f->t_ns) {
		f->t_ns = record_time(rec);
	}
	if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
		f->frame_ends++;
		*next_frame = rec->frame_end->frame + 1;
	} else if (rec->kind_case == HWCT__RECORD__KIND_BLOB &&
		hwct_hash_from_bytes(&h, rec->blob->hash.data, rec->blob->hash.len)) {
		return index_add_blob(&r->index, &h, ordinal);
	}
	return 0;
}

/* Decodes data frame `ordinal` into an index entry. Returns 0 or -errno (r->err filled). */
static int index_frame(struct hwct_reader *r, uint32_t ordinal, uint64_t *next_frame)
{
	Hwct__IndexFrame f = HWCT__INDEX_FRAME__INIT;
	size_t pos = 0;
	int ret = reader_load_frame(r, ordinal, &r->buf);

	if (ret < 0) {
		return ret;
	}
	f.has_ordinal = f.has_kind = f.has_first_frame = f.has_frame_ends = true;
	f.has_t_ns = f.has_keyframe = f.has_records = true;
	f.ordinal = ordinal;
	for (;;) {
		const uint8_t *body;
		const char *what = NULL;
		Hwct__Record *rec;
		size_t size;

		ret = record_next(r->buf.data, r->buf.len, &pos, &body, &size, &what);
		if (ret == 0) {
			break;
		}
		if (ret < 0) {
			return reader_fail(r, ret, r->frames[ordinal].offset, "zstd frame %u: %s", ordinal, what);
		}
		rec = hwct__record__unpack(NULL, size, body);
		if (!rec) {
			return reader_fail(r, -EINVAL, r->frames[ordinal].offset,
				"zstd frame %u: record at content byte %zu does not parse", ordinal,
				(size_t)(body - r->buf.data));
		}
		ret = note_record(r, &f, rec, next_frame, ordinal);
		hwct__record__free_unpacked(rec, NULL);
		if (ret < 0) {
			return ret;
		}
	}
	if (f.records == 0) {
		f.kind = HWCT_FRAME_RECORDS;
		f.first_frame = *next_frame;
	}
	r->index.raw_bytes += r->buf.len;
	return index_add_frame(&r->index, &f);
}

static void truncate_at(struct hwct_reader *r, uint64_t offset, const char *reason)
{
	r->info.truncated = true;
	r->truncation_reason = reason;
	r->info.truncated_offset = offset;
}

int reader_scan(struct hwct_reader *r, uint64_t start)
{
	uint64_t offset = 0, next_frame = 0;
	size_t cap = 0;
	int ret;

	/* the header frame is frame 0 */
	ret = add_frame(r, &cap, 0, start);
	for (offset = start; ret == 0 && offset < r->size;) {
		const char *what = NULL;
		size_t size = container_frame_size(r->data + offset, (size_t)(r->size - offset), &what);

		if (size == 0) {
			truncate_at(r, offset, what);
			break;
		}
		ret = add_frame(r, &cap, offset, size);
		offset += size;
	}
	if (ret < 0) {
		return hwct_error_set(&r->err, ret, r->name, UINT64_MAX, "out of memory");
	}
	for (size_t i = 0; i < r->frame_count; i++) {
		if (r->frames[i].skippable) {
			continue;
		}
		ret = index_frame(r, (uint32_t)i, &next_frame);
		if (ret == -ENOMEM) {
			return ret;
		}
		if (ret < 0) {
			/* a damaged frame ends the readable trace */
			truncate_at(r, r->frames[i].offset, "zstd frame damaged (content does not decode)");
			r->frame_count = i;
			break;
		}
	}
	hwct_error_clear(&r->err);
	r->failed = false;
	bytebuf_finish(&r->buf);
	ret = index_blob_map(&r->index, &r->blobs);
	return ret < 0 ? hwct_error_set(&r->err, ret, r->name, UINT64_MAX, "out of memory") : 0;
}
