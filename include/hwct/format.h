/*
 * hwctrace trace-format constants shared by writers and readers.
 * docs/format.md is normative; the section of each group is named beside it.
 */
#ifndef HWCT_FORMAT_H
#define HWCT_FORMAT_H

#include <stdint.h>

/* Format version (docs/format.md, "Versions"). */
#define HWCT_FORMAT_MAJOR 1
#define HWCT_FORMAT_MINOR 0

/* Skippable-frame magics (docs/format.md, "Container"). */
#define HWCT_MAGIC_HEADER 0x184D2A50u		/* file header */
#define HWCT_MAGIC_INDEX 0x184D2A51u		/* display-frame index */
#define HWCT_MAGIC_SEEK_TABLE 0x184D2A5Eu	/* zstd seekable-format seek table */
#define HWCT_SEEKABLE_FOOTER_MAGIC 0x8F92EAB1u
#define HWCT_HEADER_SIGNATURE "HWCTRACE"	/* 8 bytes, first in the header payload */

/* IndexFrame.kind */
enum hwct_frame_kind {
	HWCT_FRAME_RECORDS = 1,
	HWCT_FRAME_BLOBS = 2,
};

/* Fence.kind (docs/format.md, "Fence") */
enum hwct_fence_kind {
	HWCT_FENCE_UNKNOWN = 0,
	HWCT_FENCE_ACQUIRE = 1,		/* setLayerBuffer acquireFence */
	HWCT_FENCE_CLIENT_TARGET = 2,	/* setClientTarget acquireFence */
	HWCT_FENCE_PRESENT = 3,		/* presentDisplay outPresentFence */
	HWCT_FENCE_RELEASE = 4,		/* getReleaseFences */
	HWCT_FENCE_OUTPUT = 5,		/* setOutputBuffer releaseFence */
	HWCT_FENCE_READBACK = 6,	/* getReadbackBufferFence */
};

/* Fence.status */
enum hwct_fence_status {
	HWCT_FENCE_PENDING = 0,		/* not signalled when the trace ended */
	HWCT_FENCE_SIGNALLED = 1,
	/* < 0: the fence signalled with that error */
};

/* LayerBufferArgs.capture (docs/format.md, "Capture status") */
enum hwct_capture {
	HWCT_CAPTURE_OK = 0,		/* content hash is the buffer's pixels */
	HWCT_CAPTURE_OFF = 1,		/* pixel capture disabled */
	HWCT_CAPTURE_DROPPED = 2,	/* over the memory budget */
	HWCT_CAPTURE_LATE = 3,		/* could not finish before release */
	HWCT_CAPTURE_UNMAPPABLE = 4,	/* layout unknown or not mappable */
	HWCT_CAPTURE_SYNTHETIC = 5,	/* content synthesized (scenario, import) */
};

/* FrameEnd.flags */
enum hwct_frame_flags {
	HWCT_FRAME_CAPTURE_LATE = 1u << 0,	/* a buffer of this frame was released before capture */
	HWCT_FRAME_SKIPPED_VALIDATE = 1u << 1,	/* presented without validateDisplay */
	HWCT_FRAME_PRESENT_ERROR = 1u << 2,	/* presentDisplay returned an error */
};

/* Blob.kind */
enum hwct_blob_kind {
	HWCT_BLOB_PIXELS = 0,		/* buffer content, layout in the Buffer record */
	HWCT_BLOB_BYTES = 1,		/* opaque bytes (EDID, dump text, metadata) */
};

#endif
