/*
 * The worker thread: drains the hot path's queue into a FIFO of pending
 * events, runs pixel captures, and writes records strictly in call order
 * (an event waits in the FIFO until the capture it carries is done). It
 * owns the trace writer of the current session (session.c) and everything
 * below; nothing here is touched by other threads.
 */
#ifndef REC_WORKER_H
#define REC_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwctrace.pb-c.h>

#include "buffers.h"
#include "capture.h"
#include "display_query.h"
#include "recorder.h"
#include "pending_index.h"
#include "release_index.h"

struct hwct_writer;

struct rec_wdisplay {
	bool used;
	uint64_t id;
	bool connected;			/* last hotplug said so */
	struct rec_display_info *info;	/* last facts queried, owned, may be NULL */
	uint64_t max_ticket;		/* highest capture ticket dequeued */
	/* per session */
	bool validated;			/* validateDisplay since the last FrameEnd */
	bool late;			/* a capture of this frame was late */
	uint64_t frames;		/* FrameEnd records written */
	bool fe_pending;		/* presentDisplay seen, FrameEnd not yet written */
	uint64_t fe_t_ns, fe_fence, fe_since;
	bool fe_validated;
	uint32_t fe_flags;
};

/* What the worker keeps per layer: its damage hint, and how often it gets a new buffer. */
struct rec_wdamage {
	uint64_t display, layer;
	uint64_t last_buffer_ns;	/* t_enter of its last buffer call, 0 none */
	uint64_t interval_ns;		/* between its last two buffer calls, 0 unknown */
	bool set;			/* setLayerSurfaceDamage was called */
	uint32_t count;
	hwc_rect_t *rects;		/* owned */
};

struct rec_worker {
	struct recorder *r;
	struct rec_fence_watch *fences;
	struct rec_buffers buffers;
	struct rec_capture_ctx cctx;

	/* session */
	bool session;
	struct hwct_writer *writer;
	bool want;			/* the triggers want a session */
	bool broken;			/* a session failed to start: none until the next trigger */
	char path[4096];		/* of the current trace */
	unsigned file_index;		/* n of the next generated name */
	uint64_t start_ns;
	uint64_t seq;			/* Call records written */
	uint64_t frame;			/* FrameEnd records written */
	uint64_t frames_late;
	uint64_t captures_no_fd;	/* captures dropped: no fd for the buffer or its acquire fence */
	uint64_t fences_unwatched;	/* fences handed to the watcher without an fd */
	uint64_t last_stats_ns;
	uint64_t last_sweep_ns;		/* the buffer-fd caches swept last (handle_cache.h) */
	uint64_t present_seen_ns;	/* rec_now_ns when a presentDisplay was last taken from the queue, 0 none */
	uint64_t write_errors;
	bool limit_reached;		/* HWCT_MAX_FRAMES/SECONDS: nothing more is written */

	/* triggers */
	uint64_t control_next_ns;
	char control_last[16];

	/* pending events, in queue order */
	struct rec_event *head, *tail;
	struct rec_wdisplay displays[REC_MAX_DISPLAYS];
	struct rec_wdamage *damage;
	size_t damage_count, damage_cap;
	struct rec_release_index releases;	/* the FIFO's captures waiting for their release */
	struct rec_pending_index pending;	/* the FIFO's captures not done yet */
	bool step_cut;			/* the last pass of captures stopped at its time slice */
};

void *rec_worker_main(void *data);

/*
 * Ends the current session's event flow: waits for in-flight calls, drains
 * the queue, gives pending captures a short grace, then writes everything
 * (captures still waiting are late) and the last FrameEnds.
 */
void rec_worker_finish_session(struct rec_worker *w);

/* The worker's state of display (claimed on first use; slot 0 is shared on overflow). */
struct rec_wdisplay *rec_worker_display(struct rec_worker *w, uint64_t display);

/* ------------------------------------------------------- worker_capture.c */
/* setLayerSurfaceDamage: the layer's hint (it stays until the next call, as in HWC2) */
void rec_worker_note_damage(struct rec_worker *w, const struct rec_event *ev);
/* forgets the hint of one layer, or of all layers */
void rec_worker_damage_forget(struct rec_worker *w, uint64_t display, uint64_t layer, bool all);
/* gives a buffer call its capture (which also names the buffer for its Buffer record) */
void rec_worker_attach_capture(struct rec_worker *w, struct rec_event *ev);
/* getReleaseFences (layers) and presentDisplay (client target): the replaced buffers' release */
void rec_worker_note_release(struct rec_worker *w, const struct rec_event *ev);
/* ev is written (every capture before it is done): the buffers' kept mappings it retires */
void rec_worker_maps_written(struct rec_worker *w, const struct rec_event *ev);
/* ev leaves the FIFO (written, about to be freed): its capture leaves the release index */
void rec_worker_forget_capture(struct rec_worker *w, struct rec_event *ev);
/* validate/present (all layers) or destroyLayer (one): those captures may run */
void rec_worker_arm(struct rec_worker *w, uint64_t display, bool one_layer, uint64_t layer);
void rec_worker_arm_all(struct rec_worker *w);
/* advances every pending capture (force: give up waiting); returns how many are not done */
unsigned rec_worker_step_captures(struct rec_worker *w, bool force);
/* tells the hot path, per display, below which ticket every capture is resolved */
void rec_worker_publish_resolved(struct rec_worker *w);
/* outside a session every ticket counts as resolved */
void rec_worker_resolve_all(struct rec_worker *w);

/* ------------------------------------------------------------ session.c */
void rec_session_start(struct rec_worker *w);
void rec_session_stop(struct rec_worker *w);
/* SIGUSR2 toggles, the control file, HWCT_MAX_SECONDS: updates w->want */
void rec_session_triggers(struct rec_worker *w, uint64_t now);
/* Writes rec into the session's trace; a failing writer ends recording (logged once). */
void rec_session_write(struct rec_worker *w, const Hwct__Record *rec);

/* ------------------------------------------------------------ records.c */
void rec_write_environment(struct rec_worker *w);
void rec_write_display(struct rec_worker *w, const struct rec_display_info *info);
void rec_write_callback(struct rec_worker *w, const struct rec_event *ev);
void rec_write_buffer(struct rec_worker *w, const struct rec_capture *cap);
void rec_write_frame_end(struct rec_worker *w, struct rec_wdisplay *d);
void rec_write_capture_stats(struct rec_worker *w);

/* ------------------------------------------------------------ encode_call.c */
/* Writes the Call record of ev (a REC_EV_CALL or REC_EV_OPAQUE) with sequence seq. */
void rec_write_call(struct rec_worker *w, const struct rec_event *ev, uint64_t seq);

#endif
