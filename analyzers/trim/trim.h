/*
 * `hwc-trace trim`: a trace of display frames A..B of another one, valid on
 * its own. The state at the cut is seeded into the writer (from the keyframe
 * before A and the records up to A), so OUT starts with a keyframe holding
 * it; the records of frames A..B follow, with the blobs and fences they
 * refer to. Display frames are renumbered from 0. trim_copy.c does the
 * passes, trim_blobs.c the blobs, cmd_trim.c the command.
 */
#ifndef HWCT_ANALYZERS_TRIM_H
#define HWCT_ANALYZERS_TRIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>
#include <hwct/hash.h>
#include <hwct/reader.h>
#include <hwct/writer.h>

/* Uncompressed bytes that end a zstd frame of OUT (the writer's frame_target). */
#define TRIM_FRAME_TARGET (32u << 20)

/* Display frames of IN after FrameEnd B within which trim still looks for B's fences. */
#define TRIM_FENCE_LOOKAHEAD 120

struct trim_report {
	uint64_t first, last;		/* FrameEnd.frame range of IN that was kept */
	uint64_t keyframe_frame;	/* Keyframe.frame of IN the state was seeded from */
	uint64_t seeded;		/* records of IN applied to the state only */
	uint64_t records;		/* records written (the writer's keyframes not counted) */
	uint64_t frames;		/* FrameEnd records written */
	uint64_t environments, notes;	/* of those: Environment and Note records */
	uint64_t blobs;			/* blobs stored in OUT */
	uint64_t delta_bases;		/* of those: offered to the writer as a delta on an earlier one */
	uint64_t blob_bytes;		/* their decoded payload bytes */
	uint64_t blobs_missing;		/* content hashes referred to whose blob IN does not hold */
	uint64_t fences;		/* Fence records copied */
	uint64_t fences_missing;	/* fences referred to in A..B without a Fence record in reach */
	uint64_t out_size;		/* bytes of OUT */
};

/*
 * Writes OUT (through a temporary file in its directory, renamed when
 * complete: a failure leaves no OUT) from frames first..last of in.
 * Returns 0; -ERANGE when the range is not in the trace; -EEXIST when out
 * is in's file; the reader's -errno; or the writer's. err says what and
 * where (file and offset for read errors).
 */
int trim_run(struct hwct_reader *in, const char *out, uint64_t first, uint64_t last, struct trim_report *report,
	struct hwct_error *err);

/* ------------------------------------------------------ blobs (trim_blobs.c) */

/* What a layer, client target, output or readback buffer shows lately, for delta bases. */
struct trim_blobs;

/* NULL on ENOMEM. in and w are borrowed. */
struct trim_blobs *trim_blobs_create(struct hwct_reader *in, struct hwct_writer *w, struct trim_report *report);

void trim_blobs_destroy(struct trim_blobs *b);

/* Which buffer slot of a display a content belongs to. */
enum trim_slot {
	TRIM_SLOT_LAYER,
	TRIM_SLOT_CLIENT_TARGET,
	TRIM_SLOT_OUTPUT,
	TRIM_SLOT_READBACK,
};

/*
 * Notes that (display, layer, slot) now shows content (NULL: none). With
 * store set the blob is copied into OUT now, as a delta when possible: on
 * the base IN used (trim_blobs_learn) when OUT has it, else on the slot's
 * previous content when OUT has that and the geometry is the same, with
 * the rows that changed as damage; else only remembered. Returns 0, or the reader's or writer's
 * -errno (the reader's error says where).
 */
int trim_blobs_note(struct trim_blobs *b, uint64_t display, uint64_t layer, enum trim_slot slot,
	const struct hwct_hash *hash, bool store);

/*
 * Learns how IN stored a blob: when it is a delta, the same base and rects
 * are used for it in OUT if the base is there. Returns 0 or -ENOMEM.
 */
int trim_blobs_learn(struct trim_blobs *b, const Hwct__Blob *blob);

/* Forgets a destroyed layer. */
void trim_blobs_forget(struct trim_blobs *b, uint64_t display, uint64_t layer);

/* Forgets everything (a Keyframe replaces the state). */
void trim_blobs_reset(struct trim_blobs *b);

/* Stores the blob of every remembered content (the seeded state's). Returns 0 or -errno. */
int trim_blobs_store_all(struct trim_blobs *b);

/* ----------------------------------------------------- fences (trim_fences.c) */

/* Fence ids of the kept frames: state 1 referred to, 2 its record written. Zeroed = empty. */
struct trim_fences {
	uint64_t *ids;			/* owned, open addressing */
	uint8_t *state;			/* owned, 0 = empty slot */
	size_t cap, count;
	size_t pending;			/* referred to, record not written yet */
};

/* Notes that a kept record refers to fence id (0, "no fence", is ignored). Returns 0 or -ENOMEM. */
int trim_fences_refer(struct trim_fences *s, uint64_t id);

/* Whether the Fence record of id is wanted (referred to, not written yet); marks it written. */
bool trim_fences_take(struct trim_fences *s, uint64_t id);

void trim_fences_finish(struct trim_fences *s);

#endif
