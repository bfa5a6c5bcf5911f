/* The display-frame index (index.h). */
#include <errno.h>
#include <stdlib.h>

#include <hwct/format.h>

#include "container.h"
#include "index.h"

int index_add_frame(struct trace_index *ix, const Hwct__IndexFrame *f)
{
	if (ix->count == ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 64;
		Hwct__IndexFrame *frames = realloc(ix->frames, cap * sizeof(*frames));

		if (!frames) {
			return -ENOMEM;
		}
		ix->frames = frames;
		ix->cap = cap;
	}
	ix->frames[ix->count++] = *f;
	ix->records += f->records;
	ix->frame_ends += f->frame_ends;
	return 0;
}

int index_add_blob(struct trace_index *ix, const struct hwct_hash *hash, uint32_t ordinal)
{
	uint8_t loc[INDEX_BLOB_LOC_SIZE];

	hwct_hash_to_bytes(hash, loc);
	put_le32(loc + HWCT_HASH_BYTES, ordinal);
	return bytebuf_append(&ix->blob_locs, loc, sizeof(loc));
}

int index_append_frame(struct bytebuf *out, const struct trace_index *ix)
{
	Hwct__Index index = HWCT__INDEX__INIT;
	size_t nblobs = ix->blob_locs.len / INDEX_BLOB_LOC_SIZE;
	Hwct__IndexFrame **frames = calloc(ix->count ? ix->count : 1, sizeof(*frames));
	Hwct__BlobLocation *locs = calloc(nblobs ? nblobs : 1, sizeof(*locs));
	Hwct__BlobLocation **loc_ptrs = calloc(nblobs ? nblobs : 1, sizeof(*loc_ptrs));
	struct bytebuf payload = { 0 };
	int ret = -ENOMEM;

	if (!frames || !locs || !loc_ptrs) {
		goto out;
	}
	for (size_t i = 0; i < ix->count; i++) {
		frames[i] = &ix->frames[i];
	}
	for (size_t i = 0; i < nblobs; i++) {
		uint8_t *p = ix->blob_locs.data + i * INDEX_BLOB_LOC_SIZE;

		hwct__blob_location__init(&locs[i]);
		locs[i].has_hash = locs[i].has_ordinal = true;
		locs[i].hash = (ProtobufCBinaryData){ HWCT_HASH_BYTES, p };
		locs[i].ordinal = get_le32(p + HWCT_HASH_BYTES);
		loc_ptrs[i] = &locs[i];
	}
	index.n_frames = ix->count;
	index.frames = frames;
	index.n_blobs = nblobs;
	index.blobs = loc_ptrs;
	index.has_frame_count = index.has_record_count = index.has_raw_bytes = true;
	index.frame_count = ix->frame_ends;
	index.record_count = ix->records;
	index.raw_bytes = ix->raw_bytes;
	ret = bytebuf_reserve(&payload, hwct__index__get_packed_size(&index));
	if (ret == 0) {
		payload.len = hwct__index__pack(&index, payload.data);
		ret = container_append_skippable(out, HWCT_MAGIC_INDEX, payload.data, payload.len);
	}
out:
	bytebuf_finish(&payload);
	free(frames);
	free(locs);
	free(loc_ptrs);
	return ret;
}

int index_parse(struct trace_index *ix, const uint8_t *payload, size_t size, const char **what)
{
	Hwct__Index *index = hwct__index__unpack(NULL, size, payload);
	int ret = 0;

	if (!index) {
		*what = "index: Index message does not parse";
		return -EINVAL;
	}
	for (size_t i = 0; i < index->n_frames && ret == 0; i++) {
		Hwct__IndexFrame f = *index->frames[i];

		f.base.n_unknown_fields = 0;
		f.base.unknown_fields = NULL;
		if (f.kind != HWCT_FRAME_RECORDS && f.kind != HWCT_FRAME_BLOBS) {
			*what = "index: frames[].kind is neither records nor blobs";
			ret = -EINVAL;
			break;
		}
		ret = index_add_frame(ix, &f);
	}
	for (size_t i = 0; i < index->n_blobs && ret == 0; i++) {
		const Hwct__BlobLocation *b = index->blobs[i];
		struct hwct_hash h;

		if (!hwct_hash_from_bytes(&h, b->hash.data, b->hash.len)) {
			*what = "index: blobs[].hash is not 16 bytes";
			ret = -EINVAL;
			break;
		}
		ret = index_add_blob(ix, &h, b->ordinal);
	}
	ix->raw_bytes = index->raw_bytes;
	hwct__index__free_unpacked(index, NULL);
	return ret;
}

int index_blob_map(const struct trace_index *ix, struct hmap *map)
{
	for (size_t off = 0; off + INDEX_BLOB_LOC_SIZE <= ix->blob_locs.len; off += INDEX_BLOB_LOC_SIZE) {
		const uint8_t *p = ix->blob_locs.data + off;
		struct hwct_hash h;
		int ret;

		hwct_hash_from_bytes(&h, p, HWCT_HASH_BYTES);
		ret = hmap_put(map, &h, get_le32(p + HWCT_HASH_BYTES));
		if (ret < 0) {
			return ret;
		}
	}
	return 0;
}

void index_finish(struct trace_index *ix)
{
	free(ix->frames);
	bytebuf_finish(&ix->blob_locs);
	*ix = (struct trace_index){ 0 };
}
