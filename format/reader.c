/* Opening a trace: header, seek table, index (include/hwct/reader.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwct/format.h>

#include "container.h"
#include "reader_private.h"

int reader_fail(struct hwct_reader *r, int code, uint64_t offset, const char *fmt, ...)
{
	char detail[HWCT_ERROR_MESSAGE_MAX];
	va_list args;

	va_start(args, fmt);
	vsnprintf(detail, sizeof(detail), fmt, args);
	va_end(args);
	hwct_error_set(&r->err, code, r->name, offset, "%s", detail);
	r->failed = true;
	return code;
}

/*
 * Checks that seek-table entry i describes exactly one whole frame: a
 * skippable frame whose own size field agrees, or a zstd frame that ends
 * where the entry says. Sets f->skippable and f->magic.
 */
static int check_entry(struct hwct_reader *r, struct frame_loc *f, size_t i)
{
	const uint8_t *p = r->data + f->offset;
	const char *what = NULL;
	size_t size;

	if (f->size < SKIPPABLE_HEADER_SIZE) {
		return hwct_error_set(&r->err, -EINVAL, r->name, f->offset,
			"seek table: entry %zu is %llu bytes, shorter than any frame header (%d)", i,
			(unsigned long long)f->size, SKIPPABLE_HEADER_SIZE);
	}
	f->skippable = container_is_skippable(p, (size_t)f->size, &f->magic);
	if (!f->skippable && get_le32(p) != 0xFD2FB528u) {
		return hwct_error_set(&r->err, -EINVAL, r->name, f->offset,
			"seek table: entry %zu points at no zstd frame", i);
	}
	size = container_frame_size(p, (size_t)f->size, &what);
	if (size != f->size) {
		return hwct_error_set(&r->err, -EINVAL, r->name, f->offset,
			"seek table: entry %zu says %llu bytes, the frame there is %s", i,
			(unsigned long long)f->size, size ? "shorter" : what);
	}
	return 0;
}

/* Builds frames[] from the seek table entries. */
static int frames_from_seek_table(struct hwct_reader *r, const struct seek_entry *entries, size_t count)
{
	uint64_t offset = 0;
	int ret;

	r->frames = calloc(count ? count : 1, sizeof(*r->frames));
	if (!r->frames) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		struct frame_loc *f = &r->frames[i];

		*f = (struct frame_loc){
			.offset = offset,
			.size = entries[i].compressed,
			.has_checksum = true,
			.checksum = entries[i].checksum,
			.decompressed = entries[i].decompressed,
		};
		ret = check_entry(r, f, i);
		if (ret < 0) {
			return ret;
		}
		offset += f->size;
	}
	r->frame_count = count;
	return 0;
}

/* Parses the index frame and checks its ordinals against frames[]. */
static int load_index(struct hwct_reader *r)
{
	const struct frame_loc *idx = NULL;
	const char *what = NULL;
	int ret;

	for (size_t i = 0; i < r->frame_count; i++) {
		if (r->frames[i].skippable && r->frames[i].magic == HWCT_MAGIC_INDEX) {
			idx = &r->frames[i];
		}
	}
	if (!idx) {
		return hwct_error_set(&r->err, -EINVAL, r->name, UINT64_MAX, "index: no index frame");
	}
	ret = index_parse(&r->index, r->data + idx->offset + SKIPPABLE_HEADER_SIZE,
		(size_t)(idx->size - SKIPPABLE_HEADER_SIZE), &what);
	if (ret < 0) {
		return hwct_error_set(&r->err, ret, r->name, idx->offset, "%s", what ? what : "out of memory");
	}
	for (size_t i = 0; i < r->index.count; i++) {
		uint32_t o = r->index.frames[i].ordinal;

		if (o >= r->frame_count || r->frames[o].skippable ||
			(i > 0 && o <= r->index.frames[i - 1].ordinal)) {
			return hwct_error_set(&r->err, -EINVAL, r->name, idx->offset,
				"index: frames[%zu].ordinal %u is not a data frame in file order", i, o);
		}
	}
	for (size_t off = 0; off < r->index.blob_locs.len; off += INDEX_BLOB_LOC_SIZE) {
		uint32_t o = get_le32(r->index.blob_locs.data + off + HWCT_HASH_BYTES);

		if (o >= r->frame_count || r->frames[o].skippable) {
			return hwct_error_set(&r->err, -EINVAL, r->name, idx->offset,
				"index: blobs[%zu].ordinal %u is not a data frame", off / INDEX_BLOB_LOC_SIZE, o);
		}
	}
	return 0;
}

static void reset_index(struct hwct_reader *r)
{
	free(r->frames);
	r->frames = NULL;
	r->frame_count = 0;
	index_finish(&r->index);
}

/* Header, then seek table + index, falling back to a scan. */
static int open_trace(struct hwct_reader *r)
{
	struct seek_entry *entries = NULL;
	size_t count = 0;
	long header_size;
	int ret;

	header_size = container_parse_header(r->data, r->size, r->name, &r->info.major, &r->info.minor,
		&r->header, &r->err);
	if (header_size < 0) {
		return (int)header_size;
	}
	r->info.header = r->header;
	ret = container_parse_seek_table(r->data, r->size, r->name, &entries, &count, &r->err);
	if (ret > 0) {
		ret = frames_from_seek_table(r, entries, count);
		free(entries);
		if (ret == 0) {
			ret = load_index(r);
		}
		if (ret == 0) {
			r->info.has_seek_table = true;
			return index_blob_map(&r->index, &r->blobs);
		}
		if (ret == -ENOMEM) {
			return ret;
		}
		/* a damaged trailer: the frames themselves may be fine */
		reset_index(r);
	}
	hwct_error_clear(&r->err);
	return reader_scan(r, (uint64_t)header_size);
}

static void fill_info(struct hwct_reader *r)
{
	struct hwct_trace_info *info = &r->info;

	info->file_size = r->size;
	info->zstd_frames = r->frame_count;
	info->data_frames = r->index.count;
	info->frame_count = r->index.frame_ends;
	info->record_count = r->index.records;
	info->raw_bytes = r->index.raw_bytes;
	info->blob_count = r->blobs.count;
	info->stored_bytes = 0;
	for (size_t i = 0; i < r->index.count; i++) {
		info->stored_bytes += r->frames[r->index.frames[i].ordinal].size;
	}
}

static struct hwct_reader *open_common(struct hwct_reader *r, struct hwct_error *err)
{
	int ret;

	r->blob_ordinal = UINT32_MAX;
	r->dctx = ZSTD_createDCtx();
	if (!r->dctx) {
		hwct_error_set(&r->err, -ENOMEM, r->name, UINT64_MAX, "out of memory");
		goto error;
	}
	ret = open_trace(r);
	if (ret < 0) {
		goto error;
	}
	fill_info(r);
	hwct_error_clear(&r->err);
	return r;

error:
	if (err) {
		*err = r->err;
	}
	hwct_reader_destroy(r);
	return NULL;
}

struct hwct_reader *hwct_reader_open_memory(const void *data, size_t size, const char *name,
	struct hwct_error *err)
{
	struct hwct_reader *r = calloc(1, sizeof(*r));

	hwct_error_clear(err);
	if (!r || !(r->name = strdup(name ? name : "<memory>"))) {
		free(r);
		hwct_error_set(err, -ENOMEM, name ? name : "<memory>", UINT64_MAX, "out of memory");
		return NULL;
	}
	r->data = data;
	r->size = size;
	return open_common(r, err);
}

struct hwct_reader *hwct_reader_open(const char *path, struct hwct_error *err)
{
	struct hwct_reader *r;
	struct stat st;
	void *map;
	int fd;

	hwct_error_clear(err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		hwct_error_set(err, -errno, path, UINT64_MAX, "cannot open: %s", strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		hwct_error_set(err, -EINVAL, path, UINT64_MAX, "not a regular file");
		return NULL;
	}
	if (st.st_size == 0) {
		close(fd);
		hwct_error_set(err, -EINVAL, path, 0, "header: file is empty");
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		hwct_error_set(err, -errno, path, UINT64_MAX, "cannot map: %s", strerror(errno));
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->name = strdup(path))) {
		free(r);
		munmap(map, (size_t)st.st_size);
		hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
		return NULL;
	}
	r->data = map;
	r->size = (size_t)st.st_size;
	r->mapped = true;
	return open_common(r, err);
}

void hwct_reader_destroy(struct hwct_reader *r)
{
	if (!r) {
		return;
	}
	if (r->rec) {
		hwct__record__free_unpacked(r->rec, NULL);
	}
	if (r->header) {
		hwct__file_header__free_unpacked(r->header, NULL);
	}
	if (r->mapped) {
		munmap((void *)r->data, r->size);
	}
	reset_index(r);
	hmap_finish(&r->blobs);
	hmap_finish(&r->pictures);
	free(r->picture_hashes);
	bytebuf_finish(&r->buf);
	bytebuf_finish(&r->blob_buf);
	reader_decoded_finish(r);
	ZSTD_freeDCtx(r->dctx);
	free(r->name);
	free(r);
}

const struct hwct_trace_info *hwct_reader_info(const struct hwct_reader *r)
{
	return &r->info;
}

const char *hwct_reader_name(const struct hwct_reader *r)
{
	return r->name;
}

const struct hwct_error *hwct_reader_error(const struct hwct_reader *r)
{
	return r->err.code ? &r->err : NULL;
}

bool hwct_reader_error_at_cut_end(const struct hwct_reader *r)
{
	const struct hwct_trace_info *info = hwct_reader_info(r);

	if (!r->err.code || r->err.offset == UINT64_MAX) {
		return false;
	}
	return (info->truncated && r->err.offset >= info->truncated_offset) ||
		(!info->has_seek_table && r->err.offset >= info->file_size);
}
