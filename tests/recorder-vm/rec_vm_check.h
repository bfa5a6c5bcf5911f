/*
 * rec_vm_check: a trace that libhwc-record.so took of tests/hwc2's
 * `hwc2_client record` on vkms, against the client's own log of what it did
 * (tests/hwc2/client_record.c describes the log). The parts:
 *   client_log.c    reads the client's log
 *   trace_scan.c    one pass over the records: fences, calls, statistics
 *   check_frames.c  the frame model against the log: buffers, pixels, decisions, fences
 *   rec_vm_check.c  options, the checks' counter, the summary
 */
#ifndef HWCT_TESTS_REC_VM_CHECK_H
#define HWCT_TESTS_REC_VM_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/frame.h>
#include <hwct/hash.h>
#include <hwct/reader.h>

#define RVC_MAX_LAYERS 8
#define RVC_MAX_FRAMES 1000
#define RVC_MAX_BUFFERS 32
#define RVC_MAX_FENCES 100000

/* The checks (tests/common/check.h): counted, the first 40 failures printed. */
#define CHECK_NONFATAL
#define CHECK_PRINT_MAX 40
#include "check.h"

/* ---------------------------------------------------------- the client's log */

struct rvc_buffer {
	uint64_t inode;			/* fstat of the dma-buf */
	uint32_t fourcc, width, height, stride, offset;
	uint64_t modifier;
	bool dmabuf;			/* the fd was a dma-buf (/dmabuf: link) */
	bool seen;			/* a trace layer or client target used it */
};

struct rvc_layer_log {
	bool has_requested, has_content, has_acquire, has_release;
	int32_t requested;		/* HWC2_COMPOSITION_* when validated */
	uint64_t inode;			/* the buffer shown */
	struct hwct_hash hash;		/* its rows */
	int64_t before, after;		/* around VGEM_FENCE_SIGNAL, ns */
	int64_t acquire_ns, release_ns;	/* SYNC_IOC_FILE_INFO */
};

struct rvc_frame_log {
	bool has_validate, has_present, has_target;
	int32_t validate_ret;
	uint32_t changed;		/* validate's count */
	uint32_t changed_logged;
	uint64_t changed_layers[RVC_MAX_LAYERS];
	int32_t changed_types[RVC_MAX_LAYERS];
	int64_t present_ns;
	uint64_t target_inode;
	struct hwct_hash target_hash;
	struct rvc_layer_log layers[RVC_MAX_LAYERS];
};

struct rvc_log {
	bool has_frames;
	uint32_t frames;		/* presented */
	size_t layer_count;
	uint64_t layer_ids[RVC_MAX_LAYERS];	/* by z */
	size_t buffer_count;
	struct rvc_buffer buffers[RVC_MAX_BUFFERS];
	struct rvc_frame_log *frame;	/* [RVC_MAX_FRAMES] */
};

/* Reads path into log. Returns 0, or -errno after printing why. */
int rvc_log_read(struct rvc_log *log, const char *path);
void rvc_log_finish(struct rvc_log *log);

/* The logged buffer with that inode, NULL when none. */
struct rvc_buffer *rvc_log_buffer(struct rvc_log *log, uint64_t inode);

/* ---------------------------------------------------------- the records */

struct rvc_fence {
	bool seen;
	int32_t kind, status;		/* HWCT_FENCE_* */
	bool has_signal;
	uint64_t created_ns, signal_ns;
	char driver[32];
};

struct rvc_trace_frame {
	bool has_validate, has_changed, has_present;
	int32_t validate_error;
	uint64_t validate_exit_ns;	/* when the recorder's validateDisplay returned (it arms captures) */
	uint32_t num_types;
	uint32_t changed;
	uint64_t changed_layers[RVC_MAX_LAYERS];
	int32_t changed_types[RVC_MAX_LAYERS];
	uint64_t present_enter_ns, present_exit_ns, present_fence;
	uint32_t flags;			/* FrameEnd.flags */
};

struct rvc_trace {
	char module[512];		/* Environment.hwc2_module */
	char source[64];
	uint64_t records, calls, buffers, blobs, fence_records, frame_ends;
	uint64_t blobs_dropped, records_dropped, frames_late;	/* the last CaptureStats */
	struct rvc_fence *fences;	/* by id, [RVC_MAX_FENCES] */
	uint64_t fence_ids;		/* highest id seen + 1 */
	struct rvc_trace_frame *frame;	/* [RVC_MAX_FRAMES], by FrameEnd.frame */
};

/* Reads every record of r (from its start) into t. Returns 0, or -errno after printing why. */
int rvc_trace_scan(struct hwct_reader *r, struct rvc_trace *t);
void rvc_trace_finish(struct rvc_trace *t);

/* The fence with that id, NULL when the trace has no record of it. */
const struct rvc_fence *rvc_trace_fence(const struct rvc_trace *t, uint64_t id);

/* ---------------------------------------------------------- the frames */

struct rvc_summary {
	uint64_t frames, layers, captures_ok, blobs_checked, pixel_bytes;
	uint64_t acquires, presents, releases, changed;
	uint64_t acquire_after_present;		/* acquire signalled after its frame's present fence */
	uint64_t present_before_return;		/* present fence dated before presentDisplay returned */
	int64_t first_present_lead_ns;		/* presentDisplay entry - frame 0's present fence */
	uint64_t present_gaps;			/* intervals between present fences from frame 1 on */
	int64_t present_gap_min_ns, present_gap_max_ns, present_gap_sum_ns;
	int64_t acquire_to_flip_max_ns;		/* latest DEVICE acquire -> present fence */
	int64_t armed_to_acquire_max_ns;	/* validateDisplay returned -> acquire signalled, longest */
	uint64_t armed_to_acquire_frame;	/* its frame */
};

/*
 * Walks the frames of r (rewinding it) and checks each against log and the
 * scanned records t. Returns 0 (checks counted by rvc_check), or -errno when
 * the trace could not be read.
 */
int rvc_check_frames(struct hwct_reader *r, const struct rvc_trace *t, struct rvc_log *log,
	struct rvc_summary *sum);

#endif
