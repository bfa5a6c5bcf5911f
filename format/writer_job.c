/* Compressing and writing data frames, the index and the seek table (writer_private.h). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <hwct/format.h>

#include "writer_private.h"

int writer_pool_take(struct hwct_writer *w, struct bytebuf *b, size_t cap)
{
	pthread_mutex_lock(&w->pool_lock);
	*b = (struct bytebuf){ 0 };
	for (size_t i = 0; i < w->pool_count; i++) {
		if (w->pool[i].cap >= cap || i == w->pool_count - 1) {
			*b = w->pool[i];
			w->pool[i] = w->pool[--w->pool_count];
			break;
		}
	}
	pthread_mutex_unlock(&w->pool_lock);
	b->len = 0;
	return bytebuf_reserve(b, cap);
}

void writer_pool_give(struct hwct_writer *w, struct bytebuf *b)
{
	if (w && b->data) {
		pthread_mutex_lock(&w->pool_lock);
		if (w->pool_count < WRITER_POOL_SIZE) {
			w->pool[w->pool_count++] = *b;
			*b = (struct bytebuf){ 0 };
		}
		pthread_mutex_unlock(&w->pool_lock);
	}
	bytebuf_finish(b);
}

void writer_job_free(struct hwct_writer *w, struct job *job)
{
	if (!job) {
		return;
	}
	bytebuf_finish(&job->raw);
	writer_pool_give(w, &job->out);
	for (size_t i = 0; i < job->blob_count; i++) {
		writer_blob_item_finish(w, &job->blobs[i]);
	}
	free(job->blobs);
	free(job);
}

static int compress_bytes(struct hwct_writer *w, ZSTD_CCtx *cctx, int level, int hash_log, struct job *job,
	const struct bytebuf *raw)
{
	size_t bound = ZSTD_compressBound(raw->len), n;
	int ret;

	ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	if (hash_log) {
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog, hash_log);
	}
	ret = writer_pool_take(w, &job->out, bound);
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
	/*
	 * the frame ends in its content checksum, the low 32 bits of XXH64:
	 * exactly the seek table's checksum, so no second pass over the content
	 */
	if (n < 4) {
		return -EIO;
	}
	job->checksum = get_le32(job->out.data + n - 4);
	return 0;
}

int writer_job_compress(struct hwct_writer *w, ZSTD_CCtx *cctx, struct job *job, struct bytebuf *scratch)
{
	int ret = 0;

	if (job->kind == JOB_RECORDS) {
		return compress_bytes(w, cctx, w->opts.record_level, 0, job, &job->raw);
	}
	scratch->len = 0;
	for (size_t i = 0; i < job->blob_count && ret == 0; i++) {
		ret = writer_blob_encode(scratch, &job->blobs[i], w->opts.pixel_level);
	}
	if (ret == 0) {
		ret = compress_bytes(w, cctx, w->opts.pixel_level, w->opts.pixel_hash_log, job, scratch);
	}
	/* the payload copies are not needed any more; the hashes are, for the index */
	for (size_t i = 0; i < job->blob_count; i++) {
		struct hwct_hash hash = job->blobs[i].hash;

		writer_blob_item_finish(w, &job->blobs[i]);
		job->blobs[i].hash = hash;
	}
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
