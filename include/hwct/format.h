/*
 * hwctrace trace-format constants shared by writers and readers.
 * docs/format.md is normative; the section of each group is named beside it.
 */
#ifndef HWCT_FORMAT_H
#define HWCT_FORMAT_H

#include <stdint.h>

/* Format version (docs/format.md, "Versions"). */
#define HWCT_FORMAT_MAJOR 1
#define HWCT_FORMAT_MINOR 3

/* Skippable-frame magics (docs/format.md, "Container"). */
#define HWCT_MAGIC_HEADER 0x184D2A50u		/* file header */
#define HWCT_MAGIC_INDEX 0x184D2A51u		/* display-frame index */
#define HWCT_MAGIC_SEEK_TABLE 0x184D2A5Eu	/* zstd seekable-format seek table */
#define HWCT_SEEKABLE_FOOTER_MAGIC 0x8F92EAB1u
#define HWCT_HEADER_SIGNATURE "HWCTRACE"	/* 8 bytes, first in the header payload */

/*
 * The enums of the schema (IndexFrame.kind, Fence.kind and Fence.status,
 * LayerBufferArgs.capture, Blob.kind) and their names, generated from
 * format/hwctrace.proto.
 */
#include <hwct/format_enums.h>

/* FrameEnd.flags */
enum hwct_frame_flags {
	HWCT_FRAME_CAPTURE_LATE = 1u << 0,	/* a buffer of this frame was released before capture */
	HWCT_FRAME_SKIPPED_VALIDATE = 1u << 1,	/* presented without validateDisplay */
	HWCT_FRAME_PRESENT_ERROR = 1u << 2,	/* presentDisplay returned an error */
};

#endif
