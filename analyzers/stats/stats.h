/*
 * `hwc-trace stats`: per-display composition statistics of a trace,
 * collected from the frame model and the raw records (stats_collect.c),
 * printed as text (cmd_stats.c) or JSON (stats_json.c).
 */
#ifndef HWCT_ANALYZERS_STATS_H
#define HWCT_ANALYZERS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>
#include <hwct/reader.h>

/* HWC2_COMPOSITION_* 0..6 by value; the last slot counts other values. */
#define STATS_COMPOSITIONS 8
/* LayerBufferArgs.capture 0..5 (HWCT_CAPTURE_*); the last slot counts other values. */
#define STATS_CAPTURES 7

/* Latencies of one kind of fence, in ns. */
struct stats_latency {
	int64_t *values;		/* owned; sorted once collected */
	size_t count, cap;
	uint64_t unsignalled;		/* fences without a signal time by the end of the trace */
	uint64_t errors;		/* fences that signalled with an error (not in values) */
};

/* Percentiles of a sorted series (nearest rank); all 0 when empty. */
struct stats_percentiles {
	int64_t p50, p90, p99, max;
};

struct stats_display {
	uint64_t id;			/* hwc2_display_t */
	char name[64];			/* Display.name, "" unknown */
	int32_t width, height;		/* mode of the last frame, 0 unknown */
	uint64_t frames;
	uint64_t t_first, t_last;	/* FrameEnd.t_ns of the first and last frame */
	size_t layers_min, layers_max;
	uint64_t layers;		/* summed over frames */
	uint64_t composition[STATS_COMPOSITIONS];	/* layers by final decision */
	uint64_t device_layers;		/* final DEVICE, SOLID_COLOR, CURSOR, SIDEBAND, DISPLAY_DECORATION */
	uint64_t client_layers;		/* final CLIENT */
	double layer_pixels;		/* display-frame pixels of all layers, clipped to the display */
	double client_pixels;		/* of the CLIENT ones */
	uint64_t client_frames;		/* frames with a CLIENT layer */
	uint64_t validated_frames;
	struct stats_latency acquire;	/* acquire signal - setLayerBuffer */
	struct stats_latency present;	/* present fence signal - presentDisplay return */
	struct stats_latency release;	/* release signal - its creation */
	uint64_t buffers;		/* distinct Buffer ids on layers */
	uint64_t capture[STATS_CAPTURES];	/* setLayerBuffer calls by capture status */
};

struct stats_facts {
	const struct hwct_trace_info *trace;	/* borrowed from the reader */
	uint64_t display;			/* --display: displays holds only this one; UINT64_MAX all */
	struct stats_display *displays;		/* owned, by ascending id */
	size_t display_count;
	size_t trace_displays;			/* displays of the trace (with frames or setLayerBuffer calls) */
	uint64_t frames;			/* all displays (also with --display: the trace's) */
	uint64_t capture_stats;			/* CaptureStats records */
	uint64_t blobs_dropped, bytes_dropped, records_dropped, frames_capture_late;	/* the last CaptureStats */
	bool has_fd_budget;			/* the last CaptureStats has the fd-budget fields (newer recorders) */
	uint64_t fd_budget, fds_held_peak, captures_no_fd, fences_unwatched;
	bool has_worker_wakes;			/* the last CaptureStats counts the worker's wake-ups by calls */
	uint64_t worker_wakes;
	uint64_t capture_late_frames;		/* FrameEnds flagged CAPTURE_LATE */
	bool complete;				/* every record was read */
	struct hwct_error error;		/* why not, when !complete */
};

/*
 * Reads r whole (twice: the records, then the frame model), filling facts
 * (zeroed on entry): the per-display statistics of every display, or of
 * display alone (UINT64_MAX: every display); the lines about the whole
 * trace (frames, bytes per frame, the recorder's losses, frames flagged
 * capture-late) are the trace's either way. On a read error facts hold
 * what was read before it, complete is false and error says what.
 * Returns 0, the read error's -errno, or -ENOMEM.
 */
int stats_collect(struct hwct_reader *r, uint64_t display, struct stats_facts *facts);

/* Frees what facts own. */
void stats_facts_finish(struct stats_facts *facts);

/* Percentiles of l (collected: sorted). */
struct stats_percentiles stats_latency_percentiles(const struct stats_latency *l);

/* Display frames per second from the first to the last FrameEnd, 0 when under two frames. */
double stats_frame_rate(const struct stats_display *d);

/* 1 - client pixels / layer pixels; -1 when no layer had pixels. */
double stats_efficiency(const struct stats_display *d);

/* device / (device + client) layers; -1 when there were none. */
double stats_offload(const struct stats_display *d);

/* Stored bytes of record and blob frames per display frame; 0 without frames. */
double stats_bytes_per_frame(const struct stats_facts *facts);

/* The name of composition slot i ("CLIENT", ..., "OTHER"). */
const char *stats_composition_name(size_t i);

/* The name of capture slot i ("OK", ..., "OTHER"). */
const char *stats_capture_name(size_t i);

/* Prints facts as one JSON object. Returns 0 or -ENOMEM. */
int stats_print_json(FILE *f, const char *path, const struct stats_facts *facts);

#endif
