/*
 * The trace generator of the analyzer tests: traces written through the
 * writer API, and what was written into them, so that the tests compute
 * what the tools must report. One writer (gen.c) and two scenarios:
 *
 * "kinds" (gen_kinds.c, gen_write_trace()): records of every kind on two
 * displays alternating, each written record listed in a struct gen_trace
 * (info, dump, repair, the command line).
 *
 * "stack" (gen_stack.c, gen_stack_write()): a composition stack whose
 * pixels, decisions and fences the tests can compute (stats, diff, export,
 * extract, trim). Its display 0 (64x48 at 60 Hz) shows seven layers, the same each frame k:
 *   1  z0  RGBA_8888 16x8 (buffers 100/106 alternating), frame [0,0,64,48],
 *          uniform colour gen_stack_l1_rgba(k), new content and an acquire fence
 *          every frame (wait (k + 1) * 100 us), a release fence (7 ms; the
 *          last frame's never signals)
 *   2  z1  BGRA_8888 16x8 (101), [0,0,16,8], pattern gen_stack_l2_rgba(x, y)
 *   3  z2  RGB_565 16x8 (102), [16,0,32,8], red; final CLIENT on odd frames
 *   4  z3  NV12 16x8 (103, YCbCr_420_888), [32,0,48,8], Y 81 Cb 90 Cr 240
 *   5  z4  XRGB8888 16x8 (104, drm_format), [48,0,64,8], bytes 1,2,3,0
 *   6  z5  SOLID_COLOR GEN_STACK_SOLID, [0,40,64,48]
 *   7  z6  RGBA_8888 (105) not captured, [56,40,72,56] (half off screen)
 * On odd frames a client target (110, RGBA 64x48, gen_stack_ct_rgba) is set.
 * Present fences signal (k % 3 + 1) ms after presentDisplay returns. Fence
 * records of frame k come after FrameEnd k+1. Display 1 (32x24), when
 * asked for, presents after display 0 in each step with one layer (50).
 */
#ifndef HWCT_TESTS_ANALYZERS_GEN_H
#define HWCT_TESTS_ANALYZERS_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>
#include <hwct/hwctrace.pb-c.h>
#include <hwct/writer.h>

/* ------------------------------------------------ "kinds" (gen_kinds.c) */

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


/* ------------------------------------------------ "stack" (gen_stack.c) */

#define GEN_STACK_T0 1000000000000ull	/* ns */
#define GEN_STACK_FRAME_NS 16666666ull
#define GEN_STACK_W 64
#define GEN_STACK_H 48
#define GEN_STACK_BUF_W 16
#define GEN_STACK_BUF_H 8
#define GEN_STACK_LAYERS 7
#define GEN_STACK_SOLID 0xff604020u		/* r 0x20, g 0x40, b 0x60, a 0xff */
#define GEN_STACK_RELEASE_NS 7000000
#define GEN_STACK_BLOBS_DROPPED 3
#define GEN_STACK_BYTES_DROPPED 4096
#define GEN_STACK_LATE_FRAME 7		/* FrameEnd flagged CAPTURE_LATE (display 0's frame k) */

struct gen_stack_options {
	unsigned frames;		/* display frames per display */
	unsigned displays;		/* 1 or 2 */
	uint32_t keyframe_interval;	/* 0: the writer's default */
	bool variant;			/* the diff variant: see gen2.c */
	/*
	 * Not 0: a trace of format 1.2 (docs/format.md section 3.3 before 1.3)
	 * of the same pictures in buffers whose rows are padded to a multiple
	 * of old_pad bytes (24 or 96 pad every row of this stack: 16, 32, 64,
	 * 128 and 256 bytes), the NV12 chroma plane old_pad bytes after the luma
	 * (a gap): Buffer records with those strides and offsets, content the
	 * buffers' bytes as 1.2 stored them (padding random, as an allocator
	 * leaves it; the gap zero). The 1.3 writer writes the same records and
	 * blobs for the same calls as 1.2's did; the header then says 1.2.
	 */
	uint32_t old_pad;
};

/* What was written. */
struct gen_stack_info {
	uint64_t frames;		/* FrameEnd records */
	uint64_t calls;
	uint64_t callbacks;
	uint64_t fences_signalled;	/* Fence records with a signal time */
	uint64_t layer_buffer_ok, layer_buffer_off;	/* setLayerBuffer calls by capture status */
};

/* Writes a trace; exits the test on failure. */
void gen_stack_write(const char *path, const struct gen_stack_options *o, struct gen_stack_info *info);

/* The uniform colour of layer 1 in display 0's frame k, r | g << 8 | b << 16 | a << 24. */
uint32_t gen_stack_l1_rgba(unsigned k);

/* Layer 2's pixel (x, y) as RGBA. */
uint32_t gen_stack_l2_rgba(unsigned x, unsigned y);

/* The client target's pixel (x, y) in display 0's frame k as RGBA. */
uint32_t gen_stack_ct_rgba(unsigned k, unsigned x, unsigned y);

/* The final composition of layer id in display 0's frame k (variant or not). */
int32_t gen_stack_final(unsigned layer, unsigned k, bool variant);


/* ------------------------------------------------ the writer both scenarios use (gen.c) */

#define GEN_CALL_NS 1500		/* every Call lasts this long (t_exit_ns - t_enter_ns) */

struct gen_writer {
	struct hwct_writer *w;		/* owned until gen_writer_close() */
	uint64_t seq, fence, frame;	/* next Call.seq, fence id, FrameEnd.frame */
	uint64_t thread;		/* Call.thread */
	/* Called after every record written (may be NULL): the scenario's bookkeeping. */
	void (*written)(void *ctx, const Hwct__Record *rec);
	void *ctx;
};

/* A Buffer record's layout. */
struct gen_buffer_desc {
	uint64_t id;
	uint32_t width, height, stride;
	int32_t hal_format;		/* 0: none */
	uint32_t drm_format;		/* 0: none */
	uint32_t uv_offset;		/* second plane's offset, 0: one plane */
	uint64_t modifier;		/* 0: none */
	const char *allocator;
};

/* Creates the writer of g (seq and fence numbering from 1); exits the test on failure. */
void gen_writer_open(struct gen_writer *g, const char *path, const struct hwct_writer_options *opts);

/* Closes the trace; exits the test on failure. */
void gen_writer_close(struct gen_writer *g);

/* Writes rec and tells g->written. */
void gen_put(struct gen_writer *g, const Hwct__Record *rec);

/* Initialises c as a call of function at t (no layer when layer < 0), error none. Returns c. */
Hwct__Call *gen_call_begin(struct gen_writer *g, Hwct__Call *c, int32_t function, uint64_t display, int64_t layer,
	uint64_t t);

/* Writes the call c (its args set by the caller). */
void gen_call_end(struct gen_writer *g, Hwct__Call *c);

void gen_value_call(struct gen_writer *g, int32_t function, uint64_t display, int64_t layer, int64_t value,
	uint64_t t);

/* setLayerDisplayFrame. */
void gen_rect_call(struct gen_writer *g, uint64_t display, uint64_t layer, int32_t left, int32_t top, int32_t right,
	int32_t bottom, uint64_t t);

/* setLayerBuffer or setClientTarget (layer < 0); content NULL: not captured. */
void gen_buffer_call(struct gen_writer *g, int32_t function, uint64_t display, int64_t layer, uint64_t buffer,
	uint64_t fence, const struct hwct_hash *content, uint64_t t);

/*
 * validateDisplay at t; with n changed layers (all to CLIENT) it returns
 * HAS_CHANGES and getChangedCompositionTypes (t + 2 us) and
 * acceptDisplayChanges (t + 4 us) follow.
 */
void gen_validate(struct gen_writer *g, uint64_t display, const uint64_t *changed, size_t n, uint64_t t);

/* presentDisplay at t, then getReleaseFences of one layer at t_release. */
void gen_present(struct gen_writer *g, uint64_t display, uint64_t present_fence, uint64_t release_layer,
	uint64_t release_fence, uint64_t t, uint64_t t_release);

/* FrameEnd g->frame (then incremented), validated. */
void gen_frame_end(struct gen_writer *g, uint64_t display, uint64_t display_frame, uint64_t present_fence,
	uint32_t flags, uint64_t t);

/* A vsync Callback at t. */
void gen_callback(struct gen_writer *g, uint64_t display, uint64_t t);

void gen_buffer(struct gen_writer *g, const struct gen_buffer_desc *b);

/* A Fence of frame created at created, signalled wait ns later (pending: wait < 0). */
void gen_fence_init(Hwct__Fence *f, uint64_t id, int32_t kind, uint64_t display, uint64_t frame, uint64_t created,
	int64_t wait);

void gen_fence(struct gen_writer *g, Hwct__Fence *f);

/* Stores a blob, waiting for room. Returns true when the writer had not stored that content yet. */
bool gen_blob(struct gen_writer *g, const struct hwct_blob_desc *desc, struct hwct_hash *hash);

#endif
