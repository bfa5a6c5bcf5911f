/*
 * A synthetic trace for the analyzer tests, written through the writer API,
 * and what was written into it (the expectations the tests compare with).
 */
#ifndef HWCT_TESTS_ANALYZERS_TESTGEN_H
#define HWCT_TESTS_ANALYZERS_TESTGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>
#include <hwct/hwctrace.pb-c.h>

#define GEN_WRITER "analyzers-test 1"
#define GEN_HOST "analyzer-host"
#define GEN_PROCESS "surfaceflinger"
#define GEN_PID 1234
#define GEN_KERNEL "6.1.0-test #1 SMP"
#define GEN_FINGERPRINT "hwct/test/device:14/TEST/1:userdebug/test-keys"
#define GEN_MESA "23.2.1"
#define GEN_LIBDRM "2.4.120"
#define GEN_SOURCE "scenario:analyzers-test"
#define GEN_NOTE_TEXT "hello \"world\"\n\ttab"
#define GEN_KEYFRAME_INTERVAL 4
#define GEN_DISPLAYS 2
#define GEN_EDID_SIZE 128		/* Display.identification: longer than 64, {"bytes": N} in JSON */
#define GEN_IDENT_SIZE 10		/* IdentificationArgs.data: hex in JSON */
#define GEN_BIG_U64 ((1ull << 60) + 1)	/* beyond 2^53: a string in JSON */
#define GEN_SAFE_U64 (1ull << 53)	/* still a JSON number */
#define GEN_UNKNOWN_FUNCTION 999

/* One record the generator wrote with hwct_writer_write, in write order. */
struct gen_item {
	Hwct__Record__KindCase kind;
	uint64_t frame;			/* display frame it belongs to: after FrameEnd frame-1, up to FrameEnd frame */
	uint64_t key;			/* Call.seq, FrameEnd.frame, Fence.id, Buffer.id, Display.id, else 0 */
	int32_t function;		/* calls */
	bool has_layer;
	uint64_t display, layer;	/* calls */
	bool has_content;
	struct hwct_hash content;	/* SET_LAYER_BUFFER with content */
	uint64_t buffer, fence;		/* SET_LAYER_BUFFER */
};

struct gen_count {
	int32_t function;
	uint64_t calls;
};

struct gen_trace {
	unsigned frames;			/* display frames (FrameEnd records) */
	struct gen_item *items;			/* owned */
	size_t count;
	uint64_t by_kind[16];			/* written records by Record kind_case (no blob, no keyframe) */
	struct gen_count functions[32];		/* calls per HWC2_FUNCTION_* */
	size_t function_count;
	uint64_t frames_by_display[GEN_DISPLAYS];
	uint64_t distinct_buffers, distinct_fences;
	struct hwct_hash blobs[16];		/* distinct stored blobs */
	size_t blob_count;
	uint64_t blob_payload;			/* sum of their sizes */
	uint64_t t_first, t_last;
	int32_t capabilities[2];
};

/*
 * Writes a trace of `frames` display frames (alternating between two
 * displays) with records of every kind. Exits the test on failure.
 */
void gen_write_trace(const char *path, unsigned frames, struct gen_trace *out);

void gen_trace_finish(struct gen_trace *t);

/* The name the tools must give a function the generator calls (written out here), NULL when none. */
const char *gen_function_name(int32_t function);

/* Calls of function in t, 0 when none. */
uint64_t gen_calls(const struct gen_trace *t, int32_t function);

#endif
