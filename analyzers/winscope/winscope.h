/*
 * Importer of SurfaceFlinger layer traces (the .pb / .winscope files that
 * Winscope reads; Perfetto traces carrying layer snapshots) into hwctrace
 * traces: per trace entry one display frame of each display it lists (every
 * display of the trace, or the one asked for), its visible layers in z-order sent as the HWC2 calls
 * SurfaceFlinger makes (the session of analyzers/session), the device's recorded
 * composition type of each layer as the validate outcome, and synthesized
 * buffer content (docs/winscope.md).
 */
#ifndef HWCT_WINSCOPE_H
#define HWCT_WINSCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>
#include <hwct/writer.h>

struct winscope_options {
	bool has_display;		/* import DisplayProto.id `display` alone; else every display */
	uint64_t display;
	uint32_t width, height;		/* display size for traces that record none (a lone LayersProto), or 0 */
	uint32_t max_dimension;		/* largest display or buffer side accepted, pixels */
	uint64_t max_pixels;		/* largest buffer area accepted, pixels */
	uint64_t max_input;		/* largest input accepted, bytes */
	uint32_t max_layers;		/* most LayerProto in one entry */
	const char *origin_note;	/* borrowed, may be NULL: put before the trace's Note (where the layers came from) */
	/*
	 * Draw no placeholder pixels: buffers and calls carry no content and
	 * the client target is not composed (the trace's pixels flag should be
	 * off); everything else is the same. For callers that only want the
	 * calls and decisions (the fuzz target).
	 */
	bool no_pixels;
};

#define WINSCOPE_MAX_DISPLAYS 16	/* displays imported at most (the session's limit) */

/* One display imported. */
struct winscope_display_report {
	uint64_t hwc2_id;		/* hwc2_display_t in the output: 0, 1, ... */
	uint64_t id;			/* DisplayProto.id, 0 when the trace has none */
	char name[64];
	uint32_t width, height;		/* pixels */
	const char *size_source;	/* static text, as winscope_report.size_source */
	bool is_virtual;
	uint64_t frames;		/* display frames written */
	uint64_t first_entry;		/* entry it was hotplugged at (0: there from the start) */
	uint64_t unplugs;		/* times it left the entries (each a hotplug disconnect; listed again: reconnected) */
	uint64_t first_unplug_entry;	/* the first entry without it, with unplugs */
};

/* What an import did. */
struct winscope_report {
	uint64_t entries;		/* trace entries */
	uint64_t frames;		/* display frames written, all displays */
	struct winscope_display_report displays[WINSCOPE_MAX_DISPLAYS];
	uint32_t display_count;
	/* the first display imported (the only one with --display): */
	uint64_t display_id;		/* DisplayProto.id, 0 when the trace has none */
	char display_name[64];
	uint32_t width, height;		/* its size, pixels */
	const char *size_source;	/* static text: "recorded", "inferred from the root layers' bounds", ... */
	uint32_t duplicates;		/* most layers of one entry left out for repeating an earlier layer's id */
	int32_t duplicate_id;		/* one such id */
	uint64_t packets;		/* Perfetto input: packets read */
	uint64_t packets_skipped;	/* Perfetto input: packets without a layer snapshot, skipped */
	uint32_t displays_skipped;	/* displays of the trace not imported (--display, or more than 16) */
	bool decisions;			/* some entry carried hwc_composition_type */
	uint64_t layers_created;	/* CREATE_LAYER calls */
	uint64_t layers_max;		/* most layers in one display frame */
	uint64_t decided[8];		/* final decisions by HWC2_COMPOSITION_* (1..7) */
	uint64_t buffers;		/* distinct buffer contents synthesized */
	uint64_t formats_substituted;	/* layers whose buffer format was replaced (docs/winscope.md) */
};

/* Fills opts with the defaults: first physical display, 8192 pixels a side, 64 Mi pixels, 1 GiB, 20000 layers. */
void winscope_options_init(struct winscope_options *opts);

/*
 * Converts the layer trace in data (size bytes, borrowed; name is used in
 * messages) into w (borrowed, not closed). The whole input is parsed and
 * checked before the first record is written. opts and rep may be NULL.
 * Returns 0, or -errno with *err (may be NULL) naming the input, the byte
 * offset and the entry: -EINVAL malformed or implausible input, -ENOMEM, or
 * the writer's error.
 */
int winscope_import(const void *data, size_t size, const char *name, struct hwct_writer *w,
	const struct winscope_options *opts, struct winscope_report *rep, struct hwct_error *err);

/*
 * Reads in_path and writes the trace to out_path through a temporary file
 * in out_path's directory, renamed over out_path once complete (removed on
 * failure). Returns 0 or -errno with *err filled, as winscope_import().
 */
int winscope_import_file(const char *in_path, const char *out_path, const struct winscope_options *opts,
	struct winscope_report *rep, struct hwct_error *err);

/*
 * As winscope_import_file(), for an input already in memory (data, size
 * bytes, borrowed; in_path names it in messages and in the trace): an
 * archive entry or a trace found in a folder.
 */
int winscope_import_data_file(const uint8_t *data, size_t size, const char *in_path, const char *out_path,
	const struct winscope_options *opts, struct winscope_report *rep, struct hwct_error *err);

#endif
