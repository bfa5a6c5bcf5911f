/* Compressing and writing data frames, the index and the seek table (writer_private.h). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <hwct/format.h>

#include "writer_private.h"

void writer_job_free(struct job *job)
{
	if (!job) {
		return;
	}
	bytebuf_finish(&job->raw);
	bytebuf_finish(&job->out);
	for (size_t i = 0; i < job->blob_count; i++) {
		writer_blob_item_finish(&job->blobs[i]);
	}
	free(job->blobs);
	free(job);
}

static int compress_bytes(ZSTD_CCtx *cctx, int level, struct job *job, const struct bytebuf *raw)
{
	size_t bound = ZSTD_compressBound(raw->len), n;
	int ret;

	ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	ret = bytebuf_reserve(&job->out, bound);
	if (ret < 0) {
		return ret;
	}
	n = ZSTD_compress2(cctx, job->out.data, bound, raw->data ? raw->data : (const void *)"", raw->len);
	if (ZSTD_isError(n)) {
		return -EIO;
	}
	job->out.len = n;
	if (raw->len > UINT32_MAX) {
		return -EFBIG;
	}
	job->decompressed = (uint32_t)raw->len;
	job->checksum = container_checksum(raw->data, raw->len);
	return 0;
}

int writer_job_compress(struct hwct_writer *w, ZSTD_CCtx *cctx, struct job *job)
{
	struct bytebuf raw = { 0 };
	int ret = 0;

	if (job->kind == JOB_RECORDS) {
		return compress_bytes(cctx, w->opts.record_level, job, &job->raw);
	}
	for (size_t i = 0; i < job->blob_count && ret == 0; i++) {
		ret = writer_blob_encode(&raw, &job->blobs[i], w->opts.pixel_level);
	}
	if (ret == 0) {
		ret = compress_bytes(cctx, w->opts.pixel_level, job, &raw);
	}
	bytebuf_finish(&raw);
	return ret;
}

int writer_write_all(int fd, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -errno;
		}
		data += n;
		size -= (size_t)n;
	}
	return 0;
}

int writer_write_trailer(struct hwct_writer *w)
{
	struct bytebuf out = { 0 };
	struct seek_entry *seek;
	int ret;

	ret = index_append_frame(&out, &w->index);
	if (ret < 0) {
		goto out;
	}
	seek = realloc(w->seek, (w->seek_count + 1) * sizeof(*seek));
	if (!seek) {
		ret = -ENOMEM;
		goto out;
	}
	w->seek = seek;
	w->seek[w->seek_count++] = (struct seek_entry){ (uint32_t)out.len, 0, container_checksum(NULL, 0) };
	w->seek_cap = w->seek_count;
	ret = container_append_seek_table(&out, w->seek, w->seek_count);
	if (ret == 0) {
		ret = writer_write_all(w->fd, out.data, out.len);
	}
	if (ret == 0) {
		w->stats.bytes_out += out.len;
		w->stats.zstd_frames += 2;
	}
out:
	bytebuf_finish(&out);
	return ret;
}
