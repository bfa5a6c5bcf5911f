/*
 * Repairing a trace (include/hwct/repair.h, docs/format.md section 6): the
 * reader finds the complete frames (scanning a trace without a seek table);
 * this copies the header and the readable data frames verbatim and appends
 * a rebuilt index and seek table.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwct/format.h>
#include <hwct/repair.h>

#include "container.h"
#include "index.h"
#include "reader_private.h"

struct repair {
	struct hwct_reader *r;
	struct hwct_repair_report *report;
	struct hwct_error *err;
	const char *out;
	int fd;
	uint64_t written;
	uint32_t *ordinals;		/* IN ordinal -> OUT ordinal, UINT32_MAX: not copied */
	struct seek_entry *seek;	/* one per OUT frame before the seek table */
	size_t seek_count;
	struct trace_index index;	/* OUT's */
	struct bytebuf buf;
};

static int write_all(struct repair *rp, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = write(rp->fd, data, size);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			return hwct_error_set(rp->err, -errno, rp->out, rp->written, "cannot write: %s",
				strerror(errno));
		}
		data += n;
		size -= (size_t)n;
		rp->written += (uint64_t)n;
	}
	return 0;
}

/* Copies n bytes of IN at offset as OUT's next frame with that seek entry. */
static int copy_frame(struct repair *rp, uint64_t offset, uint64_t size, uint32_t decompressed,
	uint32_t checksum)
{
	if (size > UINT32_MAX) {
		return hwct_error_set(rp->err, -EFBIG, rp->r->name, offset,
			"zstd frame of %llu bytes does not fit a seek-table entry", (unsigned long long)size);
	}
	rp->seek[rp->seek_count++] = (struct seek_entry){ (uint32_t)size, decompressed, checksum };
	return write_all(rp, rp->r->data + offset, (size_t)size);
}

static void note_dropped(struct repair *rp, uint64_t offset, const char *reason)
{
	struct hwct_repair_report *rep = rp->report;

	rep->dropped_offset = offset;
	rep->bytes_dropped = rep->in_size - offset;
	snprintf(rep->reason, sizeof(rep->reason), "%s", reason);
}

/* Copies every readable data frame; stops at the first that does not decode. */
static int copy_data_frames(struct repair *rp)
{
	struct hwct_reader *r = rp->r;
	struct hwct_repair_report *rep = rp->report;
	int ret = 0;

	for (size_t i = 0; i < r->index.count && ret == 0; i++) {
		Hwct__IndexFrame f = r->index.frames[i];
		const struct frame_loc *loc = &r->frames[f.ordinal];

		ret = reader_load_frame(r, f.ordinal, &rp->buf);
		if (ret == -ENOMEM) {
			return hwct_error_set(rp->err, ret, r->name, loc->offset, "out of memory");
		}
		if (ret < 0) {
			rep->frames_dropped = r->index.count - i;
			note_dropped(rp, loc->offset, r->err.message);
			return 0;
		}
		rp->ordinals[f.ordinal] = (uint32_t)rp->seek_count;
		f.ordinal = (uint32_t)rp->seek_count;
		ret = copy_frame(rp, loc->offset, loc->size, (uint32_t)rp->buf.len,
			container_checksum(rp->buf.data, rp->buf.len));
		if (ret == 0 && (ret = index_add_frame(&rp->index, &f)) < 0) {
			return hwct_error_set(rp->err, ret, r->name, loc->offset, "out of memory");
		}
		rp->index.raw_bytes += rp->buf.len;
		rep->frames_kept++;
		rep->bytes_kept += loc->size;
		rep->records_kept += f.records;
		if (f.kind == HWCT_FRAME_BLOBS) {
			rep->blob_frames_kept++;
			continue;
		}
		rep->record_frames_kept++;
		rep->display_frames_kept += f.frame_ends;
		if (f.frame_ends) {
			rep->has_last_frame = true;
			rep->last_frame = f.first_frame + f.frame_ends - 1;
		}
	}
	return ret;
}

/* Appends the index (blob ordinals renumbered) and the seek table. */
static int write_trailer(struct repair *rp)
{
	const struct trace_index *in = &rp->r->index;
	struct bytebuf out = { 0 };
	int ret = 0;

	for (size_t off = 0; off + INDEX_BLOB_LOC_SIZE <= in->blob_locs.len && ret == 0;
		off += INDEX_BLOB_LOC_SIZE) {
		uint32_t o = get_le32(in->blob_locs.data + off + HWCT_HASH_BYTES);
		struct hwct_hash h;

		hwct_hash_from_bytes(&h, in->blob_locs.data + off, HWCT_HASH_BYTES);
		if (o < rp->r->frame_count && rp->ordinals[o] != UINT32_MAX) {
			ret = index_add_blob(&rp->index, &h, rp->ordinals[o]);
		}
	}
	if (ret == 0) {
		ret = index_append_frame(&out, &rp->index);
	}
	if (ret == 0) {
		rp->seek[rp->seek_count++] = (struct seek_entry){ (uint32_t)out.len, 0, container_checksum(NULL, 0) };
		ret = container_append_seek_table(&out, rp->seek, rp->seek_count);
	}
	if (ret < 0) {
		hwct_error_set(rp->err, ret, rp->out, UINT64_MAX, "building the index: %s", strerror(-ret));
	} else {
		ret = write_all(rp, out.data, out.len);
	}
	bytebuf_finish(&out);
	return ret;
}

static int copy_trace(struct repair *rp)
{
	struct hwct_reader *r = rp->r;
	const char *what = NULL;
	size_t header = container_frame_size(r->data, r->size, &what);
	int ret;

	rp->ordinals = malloc((r->frame_count ? r->frame_count : 1) * sizeof(*rp->ordinals));
	rp->seek = calloc(r->index.count + 2, sizeof(*rp->seek));
	if (!rp->ordinals || !rp->seek) {
		return hwct_error_set(rp->err, -ENOMEM, r->name, UINT64_MAX, "out of memory");
	}
	memset(rp->ordinals, 0xff, (r->frame_count ? r->frame_count : 1) * sizeof(*rp->ordinals));
	for (size_t i = 1; i < r->frame_count; i++) {
		const struct frame_loc *f = &r->frames[i];

		rp->report->skippable_dropped += f->skippable && f->magic != HWCT_MAGIC_INDEX &&
			f->magic != HWCT_MAGIC_SEEK_TABLE;
	}
	if (r->info.truncated) {
		note_dropped(rp, r->info.truncated_offset, r->truncation_reason ? r->truncation_reason :
			"incomplete zstd frame");
	}
	ret = copy_frame(rp, 0, header, 0, container_checksum(NULL, 0));
	if (ret == 0) {
		ret = copy_data_frames(rp);
	}
	return ret == 0 ? write_trailer(rp) : ret;
}

/* A temporary file beside path; *tmp_path set (caller frees). Returns the fd or -errno. */
static int create_temp(const char *path, char **tmp_path)
{
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
	const char *base = slash ? slash + 1 : path;
	size_t size = strlen(path) + 32;
	char *tmp = malloc(size);
	int fd;

	if (!tmp) {
		return -ENOMEM;
	}
	snprintf(tmp, size, "%.*s.%s.repair-XXXXXX", (int)dir_len, path, base);
	fd = mkstemp(tmp);
	if (fd < 0) {
		fd = -errno;
		free(tmp);
		return fd;
	}
	fchmod(fd, 0644);
	*tmp_path = tmp;
	return fd;
}

static bool same_file(const char *in, const char *out)
{
	struct stat a, b;

	if (strcmp(in, out) == 0) {
		return true;
	}
	return stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Writes OUT through a temporary file. Returns 0 or -errno with rp->err set. */
static int write_out(struct repair *rp)
{
	char *tmp = NULL;
	int ret;

	rp->fd = create_temp(rp->out, &tmp);
	if (rp->fd < 0) {
		return hwct_error_set(rp->err, rp->fd, rp->out, UINT64_MAX, "cannot create a file beside it: %s",
			strerror(-rp->fd));
	}
	ret = copy_trace(rp);
	if (ret == 0 && fsync(rp->fd) < 0) {
		ret = hwct_error_set(rp->err, -errno, rp->out, UINT64_MAX, "cannot sync: %s", strerror(errno));
	}
	if (close(rp->fd) < 0 && ret == 0) {
		ret = hwct_error_set(rp->err, -errno, rp->out, UINT64_MAX, "cannot close: %s", strerror(errno));
	}
	if (ret == 0 && rename(tmp, rp->out) < 0) {
		ret = hwct_error_set(rp->err, -errno, rp->out, UINT64_MAX, "cannot rename %s to it: %s", tmp,
			strerror(errno));
	}
	if (ret < 0) {
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

int hwct_trace_repair(const char *in, const char *out, struct hwct_repair_report *report,
	struct hwct_error *err)
{
	struct hwct_repair_report local;
	struct hwct_error local_err;
	struct repair rp = {
		.report = report ? report : &local,
		.err = err ? err : &local_err,
		.out = out,
		.fd = -1,
	};
	int ret;

	*rp.report = (struct hwct_repair_report){ .dropped_offset = UINT64_MAX };
	hwct_error_clear(rp.err);
	if (same_file(in, out)) {
		return hwct_error_set(rp.err, -EEXIST, out, UINT64_MAX,
			"OUT is the same file as IN: write the repaired trace to another file");
	}
	rp.r = hwct_reader_open(in, rp.err);
	if (!rp.r) {
		return rp.err->code;
	}
	rp.report->had_seek_table = rp.r->info.has_seek_table;
	rp.report->in_size = rp.r->size;
	ret = write_out(&rp);
	if (ret == 0) {
		rp.report->out_size = rp.written;
	}
	free(rp.ordinals);
	free(rp.seek);
	index_finish(&rp.index);
	bytebuf_finish(&rp.buf);
	hwct_reader_destroy(rp.r);
	return ret;
}
