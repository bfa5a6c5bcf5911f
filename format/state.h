/*
 * The composition state a trace describes, rebuilt by applying records.
 * Shared by the writer (it snapshots the state into Keyframes) and by the
 * frame model (it reads frames out of it). docs/format.md section 3.7.
 */
#ifndef HWCT_STATE_H
#define HWCT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/frame.h>
#include <hwct/hwctrace.pb-c.h>

#include "arena.h"

struct state;

/* Creates an empty state; track_fences keeps every Fence record seen. NULL on ENOMEM. */
struct state *state_create(bool track_fences);

/* Frees s. s may be NULL. */
void state_destroy(struct state *s);

/* Forgets everything (as freshly created). */
void state_reset(struct state *s);

/*
 * Applies one record. References to unknown displays or layers are ignored
 * (a trace may start mid-session); a Keyframe replaces the state.
 * Returns 0 or -ENOMEM.
 */
int state_apply(struct state *s, const Hwct__Record *rec);

/*
 * Snapshot of the state into a Keyframe message allocated from a (freed
 * with it). Returns NULL on ENOMEM.
 */
Hwct__Keyframe *state_keyframe(struct state *s, struct arena *a);

/* The FrameEnd.frame the next FrameEnd will carry. */
uint64_t state_next_frame(const struct state *s);

/*
 * Restarts the frame counters: the next FrameEnd.frame and every display's
 * count of presented frames become 0 (a trace cut from another one numbers
 * its frames from 0 again).
 */
void state_restart_frames(struct state *s);

/*
 * Fills *frame from the display the FrameEnd fe (just applied) belongs to.
 * layers points into *layers_buf, grown as needed (owned by the caller,
 * freed with free()). Pointers into the state stay valid until the next
 * state_apply. Returns 0, -ENOENT for an unknown display, or -ENOMEM.
 */
int state_frame(struct state *s, const Hwct__FrameEnd *fe, struct hwct_frame *frame,
	struct hwct_layer **layers_buf, size_t *layers_cap);

/* Layout of a buffer, or NULL when never recorded. Owned by s. */
const Hwct__Buffer *state_buffer(const struct state *s, uint64_t id);

/* A fence seen so far (track_fences only). */
bool state_fence(const struct state *s, uint64_t id, struct hwct_fence_time *out);

/* The Display record of a display, or NULL. Owned by s. */
const Hwct__Display *state_display_info(const struct state *s, uint64_t display);

/* The last Environment record, or NULL. Owned by s. */
const Hwct__Environment *state_environment(const struct state *s);

#endif
