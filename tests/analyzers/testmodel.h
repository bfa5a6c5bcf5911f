/*
 * The tests' own reading of a trace file, independent of the format
 * library's reader: its zstd frames, the records of each data frame, and a
 * check of the seek table against docs/format.md section 1.4.
 */
#ifndef HWCT_TESTS_ANALYZERS_TESTMODEL_H
#define HWCT_TESTS_ANALYZERS_TESTMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hwctrace.pb-c.h>

struct model_record {
	const uint8_t *bytes;		/* the packed Record, inside the frame content */
	size_t size;
	Hwct__Record *rec;		/* owned */
};

struct model_frame {
	uint64_t offset, size;
	bool skippable;
	uint32_t magic;			/* skippable frames */
	uint8_t *content;		/* data frames: decompressed; owned */
	size_t content_size;
	struct model_record *records;	/* data frames; owned */
	size_t record_count;
	uint64_t frame_ends;		/* FrameEnd records inside */
};

struct model {
	uint8_t *data;			/* the file; owned */
	size_t size;
	struct model_frame *frames;	/* every complete frame from the start; owned */
	size_t count;
	uint64_t complete_end;		/* end of the last complete frame */
	bool has_seek_table;		/* the last frame is a seek table that matches every frame before it */
};

/* Reads path (or the first size bytes of data) into m. Exits the test on a malformed data frame. */
void model_load(struct model *m, const char *path);
void model_load_bytes(struct model *m, const uint8_t *data, size_t size);

void model_finish(struct model *m);

/* Every record of the data frames, in file order (pointers into m). Caller frees the array. */
size_t model_records(const struct model *m, const struct model_record ***out);

#endif
