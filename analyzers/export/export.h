/*
 * `hwc-trace export --format chrome-json`: a trace as Chrome Trace Event
 * Format JSON (Perfetto UI, chrome://tracing). export_collect.c turns the
 * records into events, export_chrome.c orders and writes them, cmd_export.c
 * is the command.
 *
 * Tracks: one process per display ("display 0 (Built-in)") plus one for the
 * calls without a display ("hwc2"). Calls are complete events on their
 * thread's track, except validateDisplay and presentDisplay, which go to
 * the display's "validate/present" track with the frame ends. Fence signals
 * are instants on the display's "fences" track, joined to the call that
 * created the fence by a flow; callbacks (vsync, hotplug, ...) are instants
 * on its "callbacks" track.
 */
#ifndef HWCT_ANALYZERS_EXPORT_H
#define HWCT_ANALYZERS_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>
#include <hwct/reader.h>

/* Track ids of the per-display tracks: above any Linux tid (PID_MAX_LIMIT is 2^22). */
#define EXPORT_TID_COMPOSITION 10000001u	/* validate/present and frame ends */
#define EXPORT_TID_FENCES 10000002u
#define EXPORT_TID_CALLBACKS 10000003u

#define EXPORT_PID_GLOBAL 1u		/* calls and callbacks without a display */
#define EXPORT_PID_FIRST_DISPLAY 2u	/* displays by first appearance */

enum export_kind {
	EXPORT_CALL,		/* "X" */
	EXPORT_FRAME_END,	/* "i" */
	EXPORT_CALLBACK,	/* "i" */
	EXPORT_FENCE_SIGNAL,	/* "i" */
	EXPORT_FLOW_START,	/* "s" at the call that created the fence */
	EXPORT_FLOW_END,	/* "f" at the signal */
};

struct export_event {
	enum export_kind kind;
	uint64_t order;			/* insertion order: ties of ts keep it */
	int64_t ts_ns, dur_ns;
	uint32_t pid;
	uint32_t tid;
	int32_t code;			/* calls: HWC2_FUNCTION_*; callbacks: HWC2_CALLBACK_*; fences: kind */
	int32_t error;			/* calls: HWC2_ERROR_*; fences: status */
	bool has_display, has_layer, has_frame;
	uint64_t display, layer, frame;
	uint64_t seq;			/* calls: Call.seq */
	uint32_t thread;		/* calls: the caller's tid (also when on a display track) */
	uint64_t fence;			/* fence events: Fence.id */
	int64_t value;			/* vsync: timestamp_ns; hotplug: connection; frame end: display_frame */
	int64_t value2;			/* vsync 2.4: period; frame end: flags */
};

struct export_track {
	uint32_t pid, tid;
	char name[96];
};

struct export_events {
	uint64_t display;		/* --display: only this display's records (and those of none); UINT64_MAX all */
	struct export_event *events;	/* owned */
	size_t count, cap;
	struct export_track *processes;	/* owned: tid unused */
	size_t process_count;
	struct export_track *threads;	/* owned */
	size_t thread_count;
	uint64_t *display_ids;		/* owned, index + EXPORT_PID_FIRST_DISPLAY is the pid */
	size_t display_count;
	uint64_t calls, fences, flows, callbacks, frames;	/* what was exported */
	bool complete;
	struct hwct_error error;	/* when !complete */
};

/*
 * Reads r whole into ev (zeroed on entry): the records of every display,
 * or (display not UINT64_MAX) those of that display and those of no
 * display, without the fence signals of the displays left out (also of
 * fences without a display that one of their calls created). On a read
 * error ev holds the events before it, complete is false and error says
 * what and where. Returns 0, the read error's -errno, or -ENOMEM.
 */
int export_collect(struct hwct_reader *r, uint64_t display, struct export_events *ev);

void export_events_finish(struct export_events *ev);

/* Sorts the events by time and writes the JSON document. Returns 0 or -errno (write error). */
int export_write_chrome(FILE *f, const char *source, struct export_events *ev);

#endif
