/*
 * results.json (docs/results.md): a header naming the trace, both
 * environments, the target and the settings; one line per replayed frame;
 * totals. Written as the replay goes (replay_json.h), so it is valid JSON
 * even when the replay stops early ("complete": false and the error).
 */
#ifndef HWCT_REPLAY_RESULTS_H
#define HWCT_REPLAY_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/frame.h>
#include <hwct/reader.h>

#include "backend.h"
#include "replay.h"
#include "replay_env.h"
#include "replay_fallback.h"
#include "replay_json.h"
#include "replay_map.h"
#include "replay_target.h"

/* What the header says; everything borrowed. */
struct replay_header {
	const struct replay_options *opts;
	const struct hwct_trace_info *trace;
	const struct replay_recording *recording;
	const struct replay_host *host;
	const struct replay_target *target;
	const char *compositor;		/* NULL: no pixels */
	const char *yuv_model;		/* the compositor's comp_yuv_model_name; NULL: no pixels */
	enum replay_timing timing;	/* resolved */
	const struct replay_map *map;	/* of the first frame; NULL when no frame was replayed */
	const char *images_dir;		/* absolute --dump-images, NULL none */
};

/* One replayed frame; everything borrowed. */
struct replay_frame_report {
	const struct hwct_frame *frame;
	const struct scene *scene;
	const struct backend_result *result;
	int64_t wait_ns;		/* pacing before it, -1 none */
	uint32_t loop;
	const uint64_t *missing;	/* ids of layers without content */
	size_t missing_count;
	const struct replay_substitution *subs;	/* --format-fallback substitutions */
	size_t sub_count;
	const char *image;		/* dumped image name, NULL none */
	const struct replay_map *map;	/* non-NULL when it differs from the header's */
};

/* Sums over the replayed frames (replay_totals_add). */
#define REPLAY_TOTALS_DISPLAYS 16	/* displays the totals count (more: not counted) */
#define REPLAY_DISPLAY_REASON_MAX 192

/* One display of the run: where it was shown, or why not. */
struct replay_display_total {
	uint64_t display;		/* hwc2_display_t */
	bool has_crtc;			/* shown on a CRTC of the target (false: a target without board, or skipped) */
	uint32_t crtc_id;		/* with has_crtc */
	uint64_t frames;		/* replayed */
	uint64_t skipped;		/* not replayed: no CRTC for it */
	char reason[REPLAY_DISPLAY_REASON_MAX];	/* why, with skipped */
};

struct replay_totals {
	uint64_t frames;
	uint64_t client_frames;		/* frames with a client-composited layer */
	double efficiency_sum;
	uint64_t layers;
	uint64_t missing_layers;
	uint64_t substituted_layers;	/* layers shown in an equivalent format (--format-fallback) */
	uint64_t format_only_layers;	/* client layers refused for their format alone ("format", "import" with it) */
	uint64_t reasons[32];		/* client layers per PLAN_REASON_* bit */
	uint64_t recorded_layers;	/* layers with a recorded decision */
	uint64_t agree;			/* of those: placed as recorded (plane: DEVICE-like, client: CLIENT) */
	uint64_t device_to_client;	/* recorded on the device, planned client */
	uint64_t client_to_device;	/* recorded CLIENT, planned on a plane */
	uint64_t frames_agreeing;	/* frames with every recorded layer in agreement */
	uint64_t call_errors;		/* hwc2: module calls that returned an error */
	uint64_t noted_frames;		/* frames whose backend reported something (backend_result.note) */
	int64_t wall_ns;		/* the replay loop, pacing included */
	size_t display_count;
	struct replay_display_total displays[REPLAY_TOTALS_DISPLAYS];	/* in order of first frame */
};

/* How the run ended, for the totals; strings borrowed. */
struct replay_outcome {
	bool complete;			/* every frame of the range was replayed */
	const char *error;		/* why not, NULL when complete */
	const char *expect;		/* --expect file, NULL none */
	uint64_t compared, differing;	/* frames compared with it, and those that differ */
	bool has_first_difference;
	uint64_t first_difference_frame;
	const char *first_difference;	/* what differed there */
};

struct replay_board;

struct replay_results {
	FILE *f;			/* NULL: not writing */
	bool own;			/* f is ours to close (not stdout) */
	const char *path;
	struct rjson j;
	bool header_done;
	bool profile;			/* the target is a board profile: decisions carry "assumed" */
	const struct replay_board *emulated;	/* --device --board: planes named by the dump's ids; NULL none */
};

/* Opens path ("-": stdout) for writing. Returns 0 or -errno. */
int replay_results_open(struct replay_results *r, const char *path);

/*
 * Reopens path ("-": stdout) to go on writing a results file another
 * process left at state (replay_guard.h): header written, inside "frames".
 * Returns 0 or -errno.
 */
int replay_results_resume(struct replay_results *r, const char *path, const struct rjson *state);

/* Writes the header and opens "frames". Called once, before the first frame. */
void replay_results_header(struct replay_results *r, const struct replay_header *h);

void replay_results_frame(struct replay_results *r, const struct replay_frame_report *fr);

/*
 * Closes "frames", writes totals and outcome, closes the file. Returns 0,
 * or -errno when anything could not be written.
 */
int replay_results_close(struct replay_results *r, const struct replay_totals *t, const struct replay_outcome *o);

/* Adds one replayed frame to t. */
void replay_totals_add(struct replay_totals *t, const struct replay_frame_report *fr);

/* The entry of display in t, added when new; NULL when t counts REPLAY_TOTALS_DISPLAYS others. */
struct replay_display_total *replay_totals_display(struct replay_totals *t, uint64_t display);

/* Writes t as the member "totals". */
void replay_totals_write(const struct replay_totals *t, struct rjson *j);

/* The HWC2 composition name ("DEVICE"), or "UNKNOWN". */
const char *replay_composition_name(int32_t composition);

#endif
