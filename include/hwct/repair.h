/*
 * Repairing a trace whose writer did not finish (docs/format.md section 6):
 * its complete data frames are copied verbatim and the index and the seek
 * table rebuilt.
 */
#ifndef HWCT_REPAIR_H
#define HWCT_REPAIR_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/error.h>

struct hwct_repair_report {
	bool had_seek_table;		/* IN was already complete (seek table and index) */
	uint64_t in_size;		/* bytes of IN */
	uint64_t out_size;		/* bytes of OUT */
	uint64_t frames_kept;		/* data zstd frames copied */
	uint64_t record_frames_kept, blob_frames_kept;
	uint64_t records_kept;
	uint64_t display_frames_kept;	/* FrameEnd records in the copied frames */
	bool has_last_frame;
	uint64_t last_frame;		/* FrameEnd.frame of the last complete display frame */
	uint64_t bytes_kept;		/* bytes of the copied data frames */
	uint64_t frames_dropped;	/* complete data frames left out: damaged, or after a damaged one */
	uint64_t bytes_dropped;		/* bytes of IN from dropped_offset to its end; 0 when nothing was lost */
	uint64_t dropped_offset;	/* where the unreadable part of IN starts; UINT64_MAX when none */
	uint64_t skippable_dropped;	/* skippable frames of IN other than header, index, seek table */
	char reason[HWCT_ERROR_MESSAGE_MAX];	/* why data was dropped, "" when none */
};

/*
 * Writes OUT from IN: IN's header frame, every complete and readable data
 * frame of IN up to the first damaged or incomplete one, byte for byte, a
 * rebuilt index frame and a seek table. OUT is first written to a temporary
 * file in its directory and renamed over OUT only when complete: a failure
 * leaves no partial OUT. report (may be NULL) says what was kept and lost.
 *
 * Returns 0 when OUT was written (even if data was dropped: see report);
 * -EEXIST when out names IN itself (refused); the reader's -errno when IN
 * cannot be opened (missing, or its header is damaged); another -errno when
 * OUT cannot be written. err (may be NULL) says what and where.
 */
int hwct_trace_repair(const char *in, const char *out, struct hwct_repair_report *report,
	struct hwct_error *err);

#endif
