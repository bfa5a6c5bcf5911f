/* Blob items: delta extraction in the caller, encoding on a worker (docs/format.md section 4). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/format.h>

#include "predictor.h"
#include "record_io.h"
#include "writer_private.h"

void writer_blob_item_finish(struct hwct_writer *w, struct blob_item *item)
{
	if (item->data_cap) {
		writer_pool_give(w, &(struct bytebuf){ .data = item->data, .cap = item->data_cap });
	} else {
		free(item->data);
	}
	free(item->rects);
	*item = (struct blob_item){ 0 };
}

/* Clips r to the image; returns false when nothing is left. */
static bool clip_rect(struct hwct_rect *r, uint32_t width, uint32_t height)
{
	if (r->left < 0) {
		r->left = 0;
	}
	if (r->top < 0) {
		r->top = 0;
	}
	if (r->right > (int32_t)width) {
		r->right = (int32_t)width;
	}
	if (r->bottom > (int32_t)height) {
		r->bottom = (int32_t)height;
	}
	return r->left < r->right && r->top < r->bottom;
}

static bool delta_geometry_ok(const struct hwct_blob_desc *d)
{
	return d->width && d->height && d->bpp && d->stride >= (uint64_t)d->width * d->bpp &&
		(uint64_t)d->stride * (d->height - 1) + (uint64_t)d->width * d->bpp <= d->size;
}

static int copy_delta(struct blob_item *item, const struct hwct_blob_desc *desc)
{
	const uint8_t *src = desc->data;
	size_t total = 0;
	uint8_t *p;

	item->rects = calloc(desc->damage_count, sizeof(*item->rects));
	if (!item->rects) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < desc->damage_count; i++) {
		struct hwct_rect r = desc->damage[i];

		if (!clip_rect(&r, desc->width, desc->height)) {
			continue;
		}
		item->rects[item->rect_count++] = r;
		total += (size_t)(r.right - r.left) * desc->bpp * (size_t)(r.bottom - r.top);
	}
	p = item->data = malloc(total ? total : 1);
	if (!p) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < item->rect_count; i++) {
		const struct hwct_rect *r = &item->rects[i];
		size_t row = (size_t)(r->right - r->left) * desc->bpp;

		for (int32_t y = r->top; y < r->bottom; y++) {
			memcpy(p, src + (size_t)y * desc->stride + (size_t)r->left * desc->bpp, row);
			p += row;
		}
	}
	item->data_size = total;
	return 0;
}

int writer_blob_item(struct hwct_writer *w, struct blob_item *item, const struct hwct_blob_desc *desc,
	const struct hwct_hash *hash, bool base_known)
{
	struct bytebuf copy;
	uint64_t damaged = 0;

	*item = (struct blob_item){
		.hash = *hash,
		.size = desc->size,
		.kind = desc->kind,
		.width = desc->width,
		.height = desc->height,
		.stride = desc->stride,
		.bpp = desc->bpp,
	};
	if (desc->base && base_known && desc->damage_count && delta_geometry_ok(desc)) {
		for (size_t i = 0; i < desc->damage_count; i++) {
			struct hwct_rect r = desc->damage[i];

			if (clip_rect(&r, desc->width, desc->height)) {
				damaged += (uint64_t)(r.right - r.left) * (uint64_t)(r.bottom - r.top);
			}
		}
		/* a delta covering most of the image costs more to apply than it saves */
		if (damaged * 2 < (uint64_t)desc->width * desc->height) {
			item->delta = true;
			item->base = *desc->base;
			return copy_delta(item, desc);
		}
	}
	/* a pool buffer: a fresh one per full-screen payload costs more in page faults than the copy */
	if (writer_pool_take(w, &copy, desc->size ? desc->size : 1) < 0) {
		bytebuf_finish(&copy);
		return -ENOMEM;
	}
	item->data = copy.data;
	item->data_cap = copy.cap;
	if (desc->size > 0) {	/* an empty payload may come as NULL */
		memcpy(item->data, desc->data, desc->size);
	}
	item->data_size = desc->size;
	return 0;
}

static int encode_delta_rows(uint8_t *dst, const struct blob_item *item, int predictor)
{
	size_t off = 0;

	for (size_t i = 0; i < item->rect_count; i++) {
		const struct hwct_rect *r = &item->rects[i];
		size_t row = (size_t)(r->right - r->left) * item->bpp;
		struct pixel_block blk = { .size = row * (size_t)(r->bottom - r->top), .row_len = row,
			.bpp = item->bpp };
		int ret = predictor_apply(predictor, dst + off, item->data + off, &blk);

		if (ret < 0) {
			return ret;
		}
		off += blk.size;
	}
	return 0;
}

static int choose_predictor(const struct blob_item *item, const struct pixel_block *blk, int level)
{
	int predictor = HWCT__BLOB_PREDICTOR__PREDICT_NONE;

	if (item->delta) {
		/* sampled on the largest rect: every rect has the same bpp, so what fits one fits all */
		size_t off = 0, best_off = 0;
		struct pixel_block rect = { 0 }, largest = { 0 };

		if (!item->bpp || item->bpp > 16) {
			return predictor;
		}
		for (size_t i = 0; i < item->rect_count; i++) {
			const struct hwct_rect *r = &item->rects[i];

			rect.row_len = (size_t)(r->right - r->left) * item->bpp;
			rect.size = rect.row_len * (size_t)(r->bottom - r->top);
			rect.bpp = item->bpp;
			if (rect.size > largest.size) {
				largest = rect;
				best_off = off;
			}
			off += rect.size;
		}
		if (!largest.size) {
			return HWCT__BLOB_PREDICTOR__PREDICT_LEFT;
		}
		/* LEFT or PLANAR_MED: UP and NONE win samples of rects but lose the frame's matches at level 9 */
		predictor = predictor_choose(item->data + best_off, &largest, level, PREDICTOR_DELTA);
		return predictor_valid(predictor, &largest) ? predictor : HWCT__BLOB_PREDICTOR__PREDICT_NONE;
	}
	if (item->kind == HWCT_BLOB_PIXELS && item->bpp) {
		predictor = predictor_choose(item->data, blk, level, PREDICTOR_ALL);
	}
	return predictor_valid(predictor, blk) ? predictor : HWCT__BLOB_PREDICTOR__PREDICT_NONE;
}

/* Blob fields but `data`, into blob; rect storage from rect_msgs/rect_ptrs. */
static void describe(Hwct__Blob *blob, const struct blob_item *item, int predictor, uint8_t hash[],
	uint8_t base[], Hwct__Rect *rect_msgs, Hwct__Rect **rect_ptrs)
{
	hwct_hash_to_bytes(&item->hash, hash);
	blob->has_hash = blob->has_size = blob->has_encoding = blob->has_predictor = true;
	blob->hash = (ProtobufCBinaryData){ HWCT_HASH_BYTES, hash };
	blob->size = item->size;
	blob->encoding = item->delta ? HWCT__BLOB_ENCODING__BLOB_DELTA : HWCT__BLOB_ENCODING__BLOB_RAW;
	blob->predictor = predictor;
	if (item->width) {
		blob->has_width = blob->has_height = blob->has_stride = blob->has_bpp = true;
		blob->width = item->width;
		blob->height = item->height;
		blob->stride = item->stride;
		blob->bpp = item->bpp;
	}
	if (!item->delta) {
		return;
	}
	for (size_t i = 0; i < item->rect_count; i++) {
		hwct__rect__init(&rect_msgs[i]);
		rect_msgs[i].has_left = rect_msgs[i].has_top = true;
		rect_msgs[i].has_right = rect_msgs[i].has_bottom = true;
		rect_msgs[i].left = item->rects[i].left;
		rect_msgs[i].top = item->rects[i].top;
		rect_msgs[i].right = item->rects[i].right;
		rect_msgs[i].bottom = item->rects[i].bottom;
		rect_ptrs[i] = &rect_msgs[i];
	}
	blob->n_rects = item->rect_count;
	blob->rects = rect_ptrs;
	hwct_hash_to_bytes(&item->base, base);
	blob->has_base_hash = true;
	blob->base_hash = (ProtobufCBinaryData){ HWCT_HASH_BYTES, base };
}

/*
 * The Record is framed by hand so that the predictor writes the payload
 * straight into out, with no copy: varint(record length), tag of
 * Record.blob, varint(blob length), the Blob's fields 1-10, the tag and
 * length of Blob.data (11) and the predicted bytes, then Blob.kind (12):
 * the byte order protobuf-c itself packs in.
 */
int writer_blob_encode(struct bytebuf *out, const struct blob_item *item, int level)
{
	const uint8_t record_blob_tag = 5 << 3 | 2, blob_data_tag = 11 << 3 | 2, blob_kind_tag = 12 << 3;
	Hwct__Blob blob = HWCT__BLOB__INIT;
	uint8_t hash[HWCT_HASH_BYTES], base[HWCT_HASH_BYTES];
	struct pixel_block blk = { .size = item->data_size, .row_len = item->stride, .bpp = item->bpp };
	Hwct__Rect *rect_msgs = NULL, **rect_ptrs = NULL;
	size_t head, blob_len, rec_len;
	uint8_t *p;
	int predictor = choose_predictor(item, &blk, level);
	int ret = -ENOMEM;

	if (item->delta) {
		rect_msgs = calloc(item->rect_count ? item->rect_count : 1, sizeof(*rect_msgs));
		rect_ptrs = calloc(item->rect_count ? item->rect_count : 1, sizeof(*rect_ptrs));
		if (!rect_msgs || !rect_ptrs) {
			goto out;
		}
	}
	describe(&blob, item, predictor, hash, base, rect_msgs, rect_ptrs);
	head = hwct__blob__get_packed_size(&blob);
	blob_len = head + 1 + varint_size(item->data_size) + item->data_size + 1 + varint_size(item->kind);
	rec_len = 1 + varint_size(blob_len) + blob_len;
	if (rec_len > RECORD_MAX_SIZE) {
		ret = -EFBIG;
		goto out;
	}
	ret = bytebuf_reserve(out, varint_size(rec_len) + rec_len);
	if (ret < 0) {
		goto out;
	}
	p = out->data + out->len;
	p += varint_put(p, rec_len);
	*p++ = record_blob_tag;
	p += varint_put(p, blob_len);
	p += hwct__blob__pack(&blob, p);
	*p++ = blob_data_tag;
	p += varint_put(p, item->data_size);
	ret = item->delta ? encode_delta_rows(p, item, predictor) : predictor_apply(predictor, p, item->data, &blk);
	if (ret < 0) {
		goto out;
	}
	p += item->data_size;
	*p++ = blob_kind_tag;
	p += varint_put(p, item->kind);
	out->len = (size_t)(p - out->data);
out:
	free(rect_msgs);
	free(rect_ptrs);
	return ret;
}
