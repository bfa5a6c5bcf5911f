/*
 * libFuzzer target for the trace reader: open, read every record, walk the
 * frame model, decode every referenced blob, seek. Any input must end in a
 * clean error, never a crash, a leak or undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <hwct/frame.h>
#include <hwct/log.h>
#include <hwct/reader.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(enum hwct_log_priority prio, const char *msg, void *user)
{
	(void)prio;
	(void)msg;
	(void)user;
}

static void decode_blobs(struct hwct_reader *r, const struct hwct_frame *f)
{
	for (size_t i = 0; i < f->layer_count && i < 8; i++) {
		struct hwct_blob_data d;

		if (f->layers[i].buffer.has_content &&
			hwct_reader_blob(r, &f->layers[i].buffer.content, &d) == 0) {
			free(d.data);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwct_error err;
	struct hwct_reader *r;
	struct hwct_frame_iter *it;
	const Hwct__Record *rec;
	const struct hwct_frame *f;
	uint64_t frames;
	unsigned n = 0;

	hwct_log_set_handler(quiet, NULL);
	r = hwct_reader_open_memory(data, size, "fuzz", &err);
	if (!r) {
		return 0;
	}
	while (hwct_reader_next(r, &rec) > 0 && n++ < 100000) {
	}
	frames = hwct_reader_info(r)->frame_count;
	hwct_reader_rewind(r);
	it = hwct_frame_iter_create(r);
	if (it) {
		n = 0;
		/* bounded work per input: a seed trace is hundreds of frames */
		while (hwct_frame_iter_next(it, &f) > 0 && n++ < 64) {
			if (n <= 8) {
				decode_blobs(r, f);
			}
		}
		if (frames && hwct_frame_iter_seek(it, frames / 2) == 0 && hwct_frame_iter_next(it, &f) > 0) {
			decode_blobs(r, f);
		}
		hwct_frame_iter_destroy(it);
	}
	hwct_reader_destroy(r);
	return 0;
}
