/* The trace writer (include/hwct/writer.h): queueing, workers, frame cutting. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hwct/format.h>
#include <hwct/limits.h>

#include "hwct_config.h"
#include "record_io.h"
#include "writer_private.h"

#define DEFAULT_FRAME_TARGET (4u << 20)
#define DEFAULT_BUDGET (256u << 20)

void hwct_writer_options_init(struct hwct_writer_options *opts)
{
	*opts = (struct hwct_writer_options){
		.record_level = 6,
		.pixel_level = 1,
		.pixel_hash_log = 7,
		.keyframe_interval = 30,
		.frame_target = DEFAULT_FRAME_TARGET,
		.memory_budget = DEFAULT_BUDGET,
		.workers = 2,
	};
}

static int fail(struct hwct_writer *w, int err)
{
	if (!w->error) {
		w->error = err;
	}
	return w->error;
}

/* Appends job to the file-order queue (lock held). */
static void enqueue(struct hwct_writer *w, struct job *job)
{
	job->status = JOB_PENDING;
	if (w->tail) {
		w->tail->next = job;
	} else {
		w->head = job;
	}
	w->tail = job;
	pthread_cond_signal(&w->work_cond);
}

static struct job *new_job(enum job_kind kind)
{
	struct job *job = calloc(1, sizeof(*job));

	if (job) {
		job->kind = kind;
		job->status = JOB_OPEN;
	}
	return job;
}

/* Starts the next record frame with a Keyframe of the current state (lock held). */
static int open_records(struct hwct_writer *w)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	struct arena arena = { 0 };
	struct job *job = new_job(JOB_RECORDS);
	int ret = -ENOMEM;

	if (!job) {
		return -ENOMEM;
	}
	rec.kind_case = HWCT__RECORD__KIND_KEYFRAME;
	rec.keyframe = state_keyframe(w->state, &arena);
	if (rec.keyframe) {
		rec.keyframe->has_mid_frame = true;
		rec.keyframe->mid_frame = w->mid_frame;
		ret = record_append(&job->raw, &rec);
	}
	arena_finish(&arena);
	if (ret < 0) {
		writer_job_free(w, job);
		return ret;
	}
	job->first_frame = state_next_frame(w->state);
	job->keyframe = !w->mid_frame;
	job->records = 1;
	job->queued = job->raw.len;
	w->stats.bytes_queued += job->raw.len;
	w->records = job;
	return 0;
}

/* Seals the open blob frame, then the open record frame (lock held). */
static int seal(struct hwct_writer *w, bool reopen)
{
	if (w->blobs && w->blobs->blob_count) {
		enqueue(w, w->blobs);
		w->blobs = NULL;
	}
	if (w->records) {
		enqueue(w, w->records);
		w->records = NULL;
	}
	return reopen ? open_records(w) : 0;
}

int hwct_writer_write(struct hwct_writer *w, const Hwct__Record *rec)
{
	struct bytebuf packed = { 0 };
	struct job *job;
	int ret;

	if (rec->kind_case == HWCT__RECORD__KIND_KEYFRAME || rec->kind_case == HWCT__RECORD__KIND__NOT_SET) {
		return -EINVAL;
	}
	ret = record_append(&packed, rec);
	if (ret < 0) {
		return ret;
	}
	pthread_mutex_lock(&w->lock);
	if (w->error || w->closing) {
		ret = w->error ? w->error : -EPIPE;
		goto out;
	}
	if (!w->records && (ret = open_records(w)) < 0) {
		fail(w, ret);
		goto out;
	}
	ret = state_apply(w->state, rec);
	if (ret < 0) {
		fail(w, ret);
		goto out;
	}
	job = w->records;
	ret = bytebuf_append(&job->raw, packed.data, packed.len);
	if (ret < 0) {
		fail(w, ret);
		goto out;
	}
	if (!job->t_ns) {
		job->t_ns = record_time(rec);
	}
	job->records++;
	job->queued += packed.len;
	w->stats.bytes_queued += packed.len;
	w->stats.records++;
	if (rec->kind_case == HWCT__RECORD__KIND_CALL) {
		w->mid_frame = true;
	} else if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
		w->mid_frame = false;
		w->stats.frames++;
		job->frame_ends++;
		if (job->frame_ends >= w->opts.keyframe_interval || job->raw.len >= w->opts.frame_target) {
			ret = seal(w, true);
			if (ret < 0) {
				fail(w, ret);
			}
		}
	}
	if (w->stats.bytes_queued > w->stats.bytes_queued_peak) {
		w->stats.bytes_queued_peak = w->stats.bytes_queued;
	}
out:
	pthread_mutex_unlock(&w->lock);
	bytebuf_finish(&packed);
	return ret;
}

int hwct_writer_seed(struct hwct_writer *w, const Hwct__Record *rec)
{
	int ret;

	if (rec->kind_case == HWCT__RECORD__KIND__NOT_SET) {
		return -EINVAL;
	}
	pthread_mutex_lock(&w->lock);
	if (w->records || w->stats.records) {
		ret = -EBUSY;	/* the first Keyframe is already written */
	} else {
		ret = state_apply(w->state, rec);
		state_restart_frames(w->state);
		if (rec->kind_case == HWCT__RECORD__KIND_CALL) {
			w->mid_frame = true;
		} else if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			w->mid_frame = false;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return ret;
}

bool hwct_writer_has_blob(struct hwct_writer *w, const struct hwct_hash *hash)
{
	bool found;

	pthread_mutex_lock(&w->lock);
	found = hmap_get(&w->blob_set, hash, NULL);
	pthread_mutex_unlock(&w->lock);
	return found;
}

/* Adds item to the open blob frame, sealing it when full (lock held). Takes item. */
static int queue_blob(struct hwct_writer *w, struct blob_item *item)
{
	struct job *job = w->blobs;

	if (!job && !(job = w->blobs = new_job(JOB_BLOBS))) {
		writer_blob_item_finish(w, item);
		return -ENOMEM;
	}
	if (job->blob_count == job->blob_cap) {
		size_t cap = job->blob_cap ? job->blob_cap * 2 : 16;
		struct blob_item *blobs = realloc(job->blobs, cap * sizeof(*blobs));

		if (!blobs) {
			writer_blob_item_finish(w, item);
			return -ENOMEM;
		}
		job->blobs = blobs;
		job->blob_cap = cap;
	}
	job->blobs[job->blob_count++] = *item;
	job->queued += item->data_size;
	job->blob_bytes += item->data_size;
	w->stats.bytes_queued += item->data_size;
	if (w->stats.bytes_queued > w->stats.bytes_queued_peak) {
		w->stats.bytes_queued_peak = w->stats.bytes_queued;
	}
	w->stats.blobs++;
	if (job->blob_bytes >= w->opts.frame_target) {
		enqueue(w, job);
		w->blobs = NULL;
	}
	return 0;
}

int hwct_writer_add_blob(struct hwct_writer *w, const struct hwct_blob_desc *desc,
	uint32_t flags, struct hwct_hash *out_hash)
{
	struct hwct_hash hash = desc->hash ? *desc->hash : hwct_hash_compute(desc->data, desc->size);
	struct blob_item item;
	struct hwct_blob_desc rebased;
	struct writer_chain *chain = NULL;
	uintptr_t base_depth = 0;
	bool base_known;
	int ret;

	if (out_hash) {
		*out_hash = hash;
	}
	if (!desc->data && desc->size) {
		return -EINVAL;
	}
	if (desc->size > hwct_limits()->blob_bytes) {
		return -EFBIG;	/* a reader would refuse it */
	}
	pthread_mutex_lock(&w->lock);
	if (w->error) {
		ret = w->error;
		goto out;
	}
	if (hmap_get(&w->blob_set, &hash, NULL)) {
		w->stats.blobs_deduplicated++;
		ret = 1;
		goto out;
	}
	while (w->stats.bytes_queued + desc->size > w->opts.memory_budget && w->stats.bytes_queued > 0) {
		if (!(flags & HWCT_BLOB_WAIT)) {
			w->stats.blobs_dropped++;
			w->stats.bytes_dropped += desc->size;
			ret = -ENOBUFS;
			goto out;
		}
		if (w->blobs && w->blobs->blob_count) {
			enqueue(w, w->blobs);
			w->blobs = NULL;
		}
		pthread_cond_wait(&w->space_cond, &w->lock);
		if (w->error) {
			ret = w->error;
			goto out;
		}
	}
	/*
	 * a delta only on a base whose own chain is short: a reader decodes a
	 * chain from its full blob, so chains stay at most WRITER_MAX_DELTA_CHAIN;
	 * at the limit, a delta on the chain's full payload of everything the
	 * chain changed (writer_chain.c), else a full payload
	 */
	base_known = desc->base && desc->damage_count && hmap_get(&w->blob_set, desc->base, &base_depth);
	if (base_known) {
		struct writer_chain *prev = writer_chain_take(&w->chains, desc->base);
		uintptr_t root_depth = 0;

		if (base_depth >= WRITER_MAX_DELTA_CHAIN) {
			base_known = prev && hmap_get(&w->blob_set, &prev->root, &root_depth) && root_depth == 1;
			chain = base_known ? writer_chain_extend(prev, NULL, desc->damage, desc->damage_count) : NULL;
			if (!chain) {
				free(base_known ? NULL : prev);
				base_known = false;
			} else {
				/* the same content, described against the chain's full payload */
				rebased = *desc;
				rebased.base = &chain->root;
				rebased.damage = chain->rects;
				rebased.damage_count = chain->count;
				desc = &rebased;
				base_depth = 1;
			}
		} else {
			chain = writer_chain_extend(prev, desc->base, desc->damage, desc->damage_count);
		}
	}
	/* the budget is reserved; the copy runs without the lock */
	ret = hmap_put(&w->blob_set, &hash, 1);
	pthread_mutex_unlock(&w->lock);
	if (ret == 0) {
		ret = writer_blob_item(w, &item, desc, &hash, base_known);
	}
	pthread_mutex_lock(&w->lock);
	if (ret == 0) {
		/* the chain depth of this blob: 1 for a full payload */
		ret = hmap_put(&w->blob_set, &hash, item.delta ? base_depth + 1 : 1);
	}
	if (ret == 0 && item.delta && chain) {
		ret = hmap_put(&w->chains, &hash, (uintptr_t)chain);
		chain = ret == 0 ? NULL : chain;
	}
	free(chain);
	if (ret == 0) {
		ret = queue_blob(w, &item);
	}
	if (ret < 0) {
		hmap_remove(&w->blob_set, &hash);
		fail(w, ret);
	}
out:
	pthread_mutex_unlock(&w->lock);
	return ret;
}

/* Records where a written frame is, for the index and the seek table (io_lock held). */
static int note_frame(struct hwct_writer *w, const struct job *job)
{
	Hwct__IndexFrame f;

	if (w->seek_count == w->seek_cap) {
		size_t cap = w->seek_cap ? w->seek_cap * 2 : 64;
		struct seek_entry *seek = realloc(w->seek, cap * sizeof(*seek));

		if (!seek) {
			return -ENOMEM;
		}
		w->seek = seek;
		w->seek_cap = cap;
	}
	if (job->out.len > UINT32_MAX) {
		return -EFBIG;
	}
	w->seek[w->seek_count++] = (struct seek_entry){ (uint32_t)job->out.len, job->decompressed,
		job->checksum };
	f = (Hwct__IndexFrame)HWCT__INDEX_FRAME__INIT;
	f.has_ordinal = f.has_kind = f.has_first_frame = f.has_frame_ends = true;
	f.has_t_ns = f.has_keyframe = f.has_records = true;
	f.ordinal = (uint32_t)w->ordinal;
	f.kind = job->kind == JOB_RECORDS ? HWCT_FRAME_RECORDS : HWCT_FRAME_BLOBS;
	f.first_frame = job->first_frame;
	f.frame_ends = job->frame_ends;
	f.t_ns = job->t_ns;
	f.keyframe = job->kind == JOB_RECORDS && job->keyframe;
	f.records = job->kind == JOB_RECORDS ? job->records : job->blob_count;
	if (index_add_frame(&w->index, &f) < 0) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < job->blob_count; i++) {
		if (index_add_blob(&w->index, &job->blobs[i].hash, (uint32_t)w->ordinal) < 0) {
			return -ENOMEM;
		}
	}
	w->index.raw_bytes += job->decompressed;
	w->ordinal++;
	return 0;
}

/* Writes every finished job at the head of the queue, in order. */
static void drain(struct hwct_writer *w)
{
	pthread_mutex_lock(&w->io_lock);
	for (;;) {
		struct job *job;
		int ret;

		pthread_mutex_lock(&w->lock);
		job = w->head;
		if (!job || job->status != JOB_DONE) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		w->head = job->next;
		if (!w->head) {
			w->tail = NULL;
		}
		pthread_mutex_unlock(&w->lock);

		ret = job->error;
		if (ret == 0 && !w->error) {
			ret = writer_write_all(w->fd, job->out.data, job->out.len);
		}
		if (ret == 0) {
			ret = note_frame(w, job);
		}
		pthread_mutex_lock(&w->lock);
		if (ret < 0) {
			fail(w, ret);
		} else {
			w->stats.bytes_out += job->out.len;
			w->stats.bytes_in += job->decompressed;
			w->stats.zstd_frames++;
		}
		w->stats.bytes_queued -= job->queued;
		pthread_cond_broadcast(&w->space_cond);
		pthread_cond_broadcast(&w->done_cond);
		pthread_mutex_unlock(&w->lock);
		writer_job_free(w, job);
	}
	pthread_mutex_unlock(&w->io_lock);
}

static void *worker_main(void *data)
{
	struct hwct_writer *w = data;
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	struct bytebuf scratch = { 0 };

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct job *job = w->head;

		while (job && job->status != JOB_PENDING) {
			job = job->next;
		}
		if (!job) {
			if (w->closing) {
				break;
			}
			pthread_cond_wait(&w->work_cond, &w->lock);
			continue;
		}
		job->status = JOB_RUNNING;
		pthread_mutex_unlock(&w->lock);
		job->error = cctx ? writer_job_compress(w, cctx, job, &scratch) : -ENOMEM;
		pthread_mutex_lock(&w->lock);
		job->status = JOB_DONE;
		pthread_mutex_unlock(&w->lock);
		drain(w);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	ZSTD_freeCCtx(cctx);
	bytebuf_finish(&scratch);
	return NULL;
}

static int write_header(struct hwct_writer *w)
{
	Hwct__FileHeader hdr = HWCT__FILE_HEADER__INIT;
	Hwct__KeyValue *kvs = NULL, **kv_ptrs = NULL;
	struct bytebuf out = { 0 };
	struct timespec now;
	int ret = -ENOMEM;

	clock_gettime(CLOCK_REALTIME, &now);
	hdr.writer = (char *)(w->opts.writer_name ? w->opts.writer_name : "hwctrace " HWCT_VERSION);
	hdr.has_created_unix_ns = hdr.has_keyframe_interval = true;
	hdr.created_unix_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	hdr.keyframe_interval = w->opts.keyframe_interval;
	hdr.has_record_level = hdr.has_pixel_level = hdr.has_pixels = true;
	hdr.record_level = w->opts.record_level;
	hdr.pixel_level = w->opts.pixel_level;
	hdr.pixels = w->opts.pixels;
	if (w->opts.option_count) {
		kvs = calloc(w->opts.option_count, sizeof(*kvs));
		kv_ptrs = calloc(w->opts.option_count, sizeof(*kv_ptrs));
		if (!kvs || !kv_ptrs) {
			goto out;
		}
		for (size_t i = 0; i < w->opts.option_count; i++) {
			hwct__key_value__init(&kvs[i]);
			kvs[i].key = (char *)w->opts.option_keys[i];
			kvs[i].value = (char *)w->opts.option_values[i];
			kv_ptrs[i] = &kvs[i];
		}
		hdr.n_options = w->opts.option_count;
		hdr.options = kv_ptrs;
	}
	ret = container_append_header(&out, &hdr);
	if (ret == 0) {
		ret = writer_write_all(w->fd, out.data, out.len);
	}
	if (ret == 0) {
		w->seek = calloc(64, sizeof(*w->seek));
		ret = w->seek ? 0 : -ENOMEM;
	}
	if (ret == 0) {
		w->seek_cap = 64;
		w->seek[w->seek_count++] = (struct seek_entry){ (uint32_t)out.len, 0, container_checksum(NULL, 0) };
		w->ordinal = 1;
		w->stats.bytes_out = out.len;
		w->stats.zstd_frames = 1;
	}
out:
	bytebuf_finish(&out);
	free(kvs);
	free(kv_ptrs);
	return ret;
}

struct hwct_writer *hwct_writer_create_fd(int fd, const struct hwct_writer_options *opts)
{
	struct hwct_writer *w = calloc(1, sizeof(*w));
	int ret = -ENOMEM;

	if (!w) {
		goto error_close;
	}
	if (opts) {
		w->opts = *opts;
	} else {
		hwct_writer_options_init(&w->opts);
	}
	w->opts.workers = w->opts.workers ? w->opts.workers : 1;
	w->opts.keyframe_interval = w->opts.keyframe_interval ? w->opts.keyframe_interval : 1;
	w->fd = fd;
	w->state = state_create(false);
	if (!w->state) {
		goto error_free;
	}
	ret = write_header(w);
	if (ret < 0) {
		goto error_state;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_mutex_init(&w->io_lock, NULL);
	pthread_mutex_init(&w->pool_lock, NULL);
	pthread_cond_init(&w->work_cond, NULL);
	pthread_cond_init(&w->space_cond, NULL);
	pthread_cond_init(&w->done_cond, NULL);
	w->threads = calloc(w->opts.workers, sizeof(*w->threads));
	if (!w->threads) {
		ret = -ENOMEM;
		goto error_sync;
	}
	for (unsigned i = 0; i < w->opts.workers; i++) {
		int err = w->opts.start_thread ? w->opts.start_thread(&w->threads[i], worker_main, w) :
			pthread_create(&w->threads[i], NULL, worker_main, w);

		if (err != 0) {
			break;
		}
		w->thread_count++;
	}
	if (!w->thread_count) {
		ret = -EAGAIN;
		goto error_threads;
	}
	return w;

error_threads:
	free(w->threads);
error_sync:
	pthread_mutex_destroy(&w->pool_lock);
	pthread_cond_destroy(&w->done_cond);
	pthread_cond_destroy(&w->space_cond);
	pthread_cond_destroy(&w->work_cond);
	pthread_mutex_destroy(&w->io_lock);
	pthread_mutex_destroy(&w->lock);
error_state:
	free(w->seek);
	state_destroy(w->state);
error_free:
	free(w);
error_close:
	close(fd);
	errno = -ret;
	return NULL;
}

struct hwct_writer *hwct_writer_create(const char *path, const struct hwct_writer_options *opts)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		return NULL;
	}
	return hwct_writer_create_fd(fd, opts);
}

void hwct_writer_get_stats(struct hwct_writer *w, struct hwct_writer_stats *out)
{
	pthread_mutex_lock(&w->lock);
	*out = w->stats;
	pthread_mutex_unlock(&w->lock);
}

/* Seals and waits until the queue is empty (lock held on entry and exit). */
static int flush_locked(struct hwct_writer *w, bool reopen)
{
	int ret = 0;

	if (w->records && (w->records->records > 1 || !reopen)) {
		ret = seal(w, reopen);
	} else if (w->blobs && w->blobs->blob_count) {
		enqueue(w, w->blobs);
		w->blobs = NULL;
	}
	if (ret < 0) {
		return fail(w, ret);
	}
	while (w->head && !w->error) {
		pthread_cond_wait(&w->done_cond, &w->lock);
	}
	return w->error;
}

int hwct_writer_flush(struct hwct_writer *w)
{
	int ret;

	pthread_mutex_lock(&w->lock);
	ret = flush_locked(w, true);
	pthread_mutex_unlock(&w->lock);
	if (ret == 0 && fdatasync(w->fd) < 0 && errno != EINVAL && errno != EROFS) {
		ret = -errno;
	}
	return ret;
}

int hwct_writer_close(struct hwct_writer *w)
{
	int ret;

	if (!w) {
		return 0;
	}
	pthread_mutex_lock(&w->lock);
	/* an open record frame holding only its Keyframe adds nothing */
	if (w->records && w->records->records <= 1) {
		w->stats.bytes_queued -= w->records->queued;
		writer_job_free(w, w->records);
		w->records = NULL;
	}
	ret = flush_locked(w, false);
	w->closing = true;
	pthread_cond_broadcast(&w->work_cond);
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; i < w->thread_count; i++) {
		pthread_join(w->threads[i], NULL);
	}
	if (ret == 0) {
		ret = writer_write_trailer(w);
	}
	if (close(w->fd) < 0 && ret == 0) {
		ret = -errno;
	}
	while (w->head) {
		struct job *next = w->head->next;

		writer_job_free(w, w->head);
		w->head = next;
	}
	writer_job_free(w, w->records);
	writer_job_free(w, w->blobs);
	free(w->threads);
	free(w->seek);
	index_finish(&w->index);
	hmap_finish(&w->blob_set);
	writer_chains_finish(&w->chains);
	state_destroy(w->state);
	pthread_cond_destroy(&w->done_cond);
	pthread_cond_destroy(&w->space_cond);
	pthread_cond_destroy(&w->work_cond);
	for (size_t i = 0; i < w->pool_count; i++) {
		bytebuf_finish(&w->pool[i]);
	}
	pthread_mutex_destroy(&w->pool_lock);
	pthread_mutex_destroy(&w->io_lock);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return ret;
}
