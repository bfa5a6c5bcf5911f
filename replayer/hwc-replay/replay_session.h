/*
 * One hwc-replay run, shared by its files: set-up and tear-down
 * (replay_run.c), the frame loop (replay_loop.c), image dumps and
 * mismatch pictures (replay_dump.c).
 */
#ifndef HWCT_REPLAY_SESSION_H
#define HWCT_REPLAY_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/error.h>
#include <hwct/frame.h>
#include <hwct/reader.h>

#include "backend.h"
#include "replay.h"
#include "replay_board.h"
#include "replay_compare.h"
#include "replay_env.h"
#include "replay_expect.h"
#include "replay_map.h"
#include "replay_pace.h"
#include "replay_progress.h"
#include "replay_results.h"
#include "replay_scene.h"
#include "replay_target.h"

#define REPLAY_MAX_TRIOS 16	/* mismatch pictures (-expected/-actual/-diff) written at most */
#define REPLAY_MESSAGE_MAX 768

#define REPLAY_MAX_DISPLAYS 16	/* displays of a trace replayed on their own CRTC (--profile, --device) */
#define REPLAY_MAX_DISPLAYS_TEXT "16"

/* A display of the trace after the first (--profile, --device, --hwc2): its own CRTC or module display, or none. */
struct replay_display_slot {
	uint64_t display;		/* hwc2_display_t */
	struct replay_target target;	/* open when has_crtc */
	bool has_crtc;
	char reason[REPLAY_DISPLAY_REASON_MAX];	/* why it has none, without has_crtc */
	struct replay_map map;		/* its recorded mode onto its CRTC */
};

/* Backend reports printed; the rest are counted (totals.noted_frames) and kept in the results. */
#define REPLAY_NOTES_SHOWN 5

struct replay_session {
	const struct replay_options *opts;
	struct replay_expect *expect;		/* NULL without --expect */
	int dump_dir;				/* --dump-images directory fd, -1 none */
	char *images_dir;			/* its absolute path; owned */
	struct hwct_reader *reader;
	const struct hwct_trace_info *info;	/* owned by reader */
	struct hwct_frame_iter *it;
	struct replay_recording recording;
	struct replay_host host;
	struct compositor *compositor;		/* NULL with --no-pixels */
	struct planner_options planner_options;
	struct replay_target target;
	bool target_open;
	struct replay_target_config target_config;	/* what target was opened with */
	enum replay_target_kind target_kind;
	/* --profile, --device without --display: the first display on target, the others here */
	bool has_first_display;
	uint64_t first_display;
	struct replay_display_slot slots[REPLAY_MAX_DISPLAYS];
	size_t slot_count;
	enum replay_timing timing;		/* resolved */
	struct replay_results results;
	struct replay_board board;	/* --device --board: the dump the device is shaped like */
	uint32_t *plane_order_ids;	/* owned: the target board's plane ids, object-id order */
	struct replay_plane_order plane_order;	/* over plane_order_ids; count 0 without a board */
	struct replay_scene *scenes;
	struct replay_fallback *fallback;	/* --format-fallback equivalent; NULL otherwise */

	/* the loop's */
	struct replay_map header_map;		/* mapping of the first frame, in the header */
	bool has_header_map;
	struct replay_map map;			/* of the current recorded mode */
	uint64_t range_total;			/* frame positions in the range (one play) */
	struct replay_pace pace;
	struct replay_progress progress;
	struct replay_totals totals;
	struct replay_outcome outcome;
	char first_difference[REPLAY_MESSAGE_MAX];
	char error[REPLAY_MESSAGE_MAX];
	unsigned trios;
	bool noted_missing;
};

/* Writes the results header unless written already (map: that of the first frame, or none). */
void replay_session_header(struct replay_session *s);

/*
 * replay_displays.c: the target frame f is shown on, and *map the mapping
 * of its recorded mode there; NULL when its display has no CRTC (the frame
 * is skipped, counted in the totals with why). Opens a display's CRTC on
 * its first frame.
 */
struct replay_target *replay_displays_target(struct replay_session *s, const struct hwct_frame *f,
	struct replay_map **map);

/* Notes each display whose frames were skipped, with why (the run's summary). */
void replay_displays_summarize(const struct replay_session *s);

/* Closes the targets of the displays after the first. */
void replay_displays_close(struct replay_session *s);

/* Plays the range opts->loops times. Returns an enum replay_exit (OK when every frame was replayed). */
int replay_session_loop(struct replay_session *s);

/*
 * Writes frame's output picture as frame-NNNNNN.png into the dump
 * directory. Returns 0 or -errno; *name receives the file name.
 */
int replay_dump_frame(struct replay_session *s, uint64_t frame, const struct comp_target *img, char name[65]);

/*
 * For a checksum mismatch: reads the expected picture when the expected
 * results name one, and writes frame-NNNNNN-expected/-actual/-diff.png.
 * Problems are notes, never errors.
 */
void replay_dump_mismatch(struct replay_session *s, const struct replay_expect_frame *expected,
	const struct comp_target *actual);

#endif
