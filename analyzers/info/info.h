/*
 * `hwc-trace info`: facts about a trace, collected by reading it whole
 * (info_collect.c), printed as text (cmd_info.c) or JSON (info_json.c).
 */
#ifndef HWCT_ANALYZERS_INFO_H
#define HWCT_ANALYZERS_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>
#include <hwct/reader.h>

#define INFO_TOP_FUNCTIONS 10

struct info_display {
	uint64_t id;			/* hwc2_display_t */
	Hwct__Display *display;		/* last Display record of it (or Keyframe copy); owned, may be NULL */
	uint64_t frames;		/* FrameEnd records */
};

struct info_function {
	int32_t function;		/* HWC2_FUNCTION_* */
	uint64_t calls;
};

struct info_facts {
	const struct hwct_trace_info *trace;	/* borrowed from the reader */
	Hwct__Environment *environment;		/* the first one; owned, NULL when none */
	struct info_display *displays;		/* owned, by ascending id */
	size_t display_count;
	struct info_function *functions;	/* owned, by descending calls */
	size_t function_count;
	uint64_t *records_by_kind;		/* owned, one per hwct__record__descriptor field */
	uint64_t records, calls, frame_ends;
	uint64_t keyframes, seek_keyframes;	/* all / not mid-frame (seek points) */
	uint64_t buffers, blobs, fences;	/* distinct Buffer.id, Blob.hash, Fence.id */
	uint64_t blob_payload;			/* sum of Blob.size: decoded pixel and byte payloads */
	uint64_t blob_data;			/* sum of Blob.data lengths (after delta and predictor) */
	bool has_time;
	uint64_t t_first, t_last;		/* ns, CLOCK_MONOTONIC */
	struct hwct_frame_counts frames;	/* the zstd frames by kind */
	bool complete;				/* every record was read */
	struct hwct_error error;		/* why not, when !complete */
};

/*
 * Reads r from its current position to the end, filling facts (zeroed on
 * entry). On a read error facts hold what was read before it, complete is
 * false and error says what. Returns 0, the read error's -errno, or -ENOMEM.
 */
int info_collect(struct hwct_reader *r, struct info_facts *facts);

/* Frees what facts own. */
void info_facts_finish(struct info_facts *facts);

/* Prints facts as one JSON object. Returns 0 or -ENOMEM. */
int info_print_json(FILE *f, const char *path, const struct info_facts *facts);

#endif
