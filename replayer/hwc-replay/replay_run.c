/*
 * One hwc-replay run (replay.h): known-good results, image directory, trace,
 * compositor, target, results file; then the frame loop (replay_loop.c) and
 * the verdict. Each step that fails says what in one line and picks the
 * exit status of its kind.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "compositor.h"
#include "planner.h"
#include "replay_guard.h"
#include "replay_session.h"
#include "safe_dir.h"
#include "say.h"

void replay_error(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	hwct_vsay(REPLAY_PROGRAM, "error", fmt, args);
	va_end(args);
}

void replay_note(bool quiet, const char *fmt, ...)
{
	va_list args;

	if (quiet) {
		return;
	}
	va_start(args, fmt);
	hwct_vsay(REPLAY_PROGRAM, NULL, fmt, args);
	va_end(args);
}

int replay_exit_status(int code, bool expect)
{
	if (expect && (code == REPLAY_EXIT_TRACE || code == REPLAY_EXIT_TARGET || code == REPLAY_EXIT_FAILED)) {
		return REPLAY_EXIT_UNTESTABLE;
	}
	return code;
}

/* The absolute form of path (cwd joined, not resolved: links were refused on the way). */
static char *absolute_path(const char *path)
{
	char cwd[4096];
	size_t len;
	char *out;

	if (path[0] == '/') {
		return strdup(path);
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		return strdup(path);
	}
	len = strlen(cwd) + strlen(path) + 2;
	out = malloc(len);
	if (out) {
		snprintf(out, len, "%s/%s", cwd, path);
	}
	return out;
}

static int open_inputs(struct replay_session *s)
{
	const struct replay_options *o = s->opts;
	struct hwct_error err;
	char msg[REPLAY_MESSAGE_MAX];
	int ret;

	if (o->expect) {
		s->expect = replay_expect_load(o->expect, &err);
		if (!s->expect) {
			replay_error("--expect: %s", err.message);
			return REPLAY_EXIT_USAGE;
		}
	}
	if (o->dump_images) {
		s->dump_dir = safe_dir_open(o->dump_images, true, msg, sizeof(msg));
		if (s->dump_dir < 0) {
			replay_error("--dump-images: %s", msg);
			return REPLAY_EXIT_USAGE;
		}
		s->images_dir = absolute_path(o->dump_images);
		if (!s->images_dir) {
			replay_error("out of memory");
			return REPLAY_EXIT_FAILED;
		}
	}
	s->reader = hwct_reader_open(o->trace, &err);
	if (!s->reader) {
		replay_error("%s", err.message);
		return REPLAY_EXIT_TRACE;
	}
	s->info = hwct_reader_info(s->reader);
	if (s->info->truncated || !s->info->has_seek_table) {
		replay_note(o->quiet, "%s: truncated%s (its writer did not finish): replaying its %llu complete frames",
			o->trace, s->info->truncated ? " at the end" : "", (unsigned long long)s->info->frame_count);
	}
	ret = replay_recording_read(s->reader, &s->recording);
	if (ret < 0) {
		const struct hwct_error *rerr = hwct_reader_error(s->reader);

		replay_error("%s", rerr && rerr->code ? rerr->message : strerror(-ret));
		return REPLAY_EXIT_TRACE;
	}
	if (o->first > 0 && o->first >= s->info->frame_count) {
		replay_error("--frames: the trace has %llu frames (0 to %llu), none from %llu",
			(unsigned long long)s->info->frame_count,
			(unsigned long long)(s->info->frame_count ? s->info->frame_count - 1 : 0),
			(unsigned long long)o->first);
		return REPLAY_EXIT_USAGE;
	}
	return REPLAY_EXIT_OK;
}

static int open_target(struct replay_session *s)
{
	const struct replay_options *o = s->opts;
	struct replay_target_config cfg;
	enum replay_target_kind kind;
	const char *arg = o->target_arg;
	struct hwct_error err;

	if (!o->no_pixels) {
		s->compositor = compositor_create(o->compositor);
		if (!s->compositor) {
			replay_error("compositor %s cannot run here: %s", o->compositor,
				errno == ENODEV ? "no EGL display" : errno == ENOTSUP ? "not built" : strerror(errno));
			return REPLAY_EXIT_TARGET;
		}
		if (o->has_yuv_model && compositor_set_yuv_model(s->compositor, o->yuv_model) < 0) {
			replay_error("--yuv-model %s: the %s compositor has only the bilinear model",
				comp_yuv_model_name(o->yuv_model), compositor_name(s->compositor));
			return REPLAY_EXIT_USAGE;
		}
	}
	planner_options_init(&s->planner_options);
	cfg = (struct replay_target_config){
		.planner = planner_find(o->planner),
		.planner_options = &s->planner_options,
		.compositor = s->compositor,
		.profile_device = o->profile_device,
		.mode_width = o->mode_width,
		.mode_height = o->mode_height,
		.mode_refresh_hz = o->mode_refresh_hz,
		.hwc2_end_close = o->hwc2_end_close,
		.hwc2_call_log = o->hwc2_call_log,
		.yuv_model_asked = o->has_yuv_model,
	};
	kind = replay_target_default(o->target, &arg);
	if (o->vm_board && kind == REPLAY_TARGET_DEVICE) {
		if (replay_board_load(&s->board, o->vm_board, o->profile_device, &err) < 0) {
			replay_error("--board: %s", err.message);
			return REPLAY_EXIT_USAGE;
		}
		cfg.emulated = &s->board;
	}
	s->target_config = cfg;
	s->target_kind = kind;
	if (replay_target_open(&s->target, kind, arg, &cfg, &err) < 0) {
		replay_error("%s%s", err.message, o->target == REPLAY_TARGET_DEFAULT ?
			" (the default target; choose one with --profile, --device, --hwc2 or --vm)" : "");
		return REPLAY_EXIT_TARGET;
	}
	s->target_open = true;
	if (s->target.board && s->target.board->plane_count) {
		s->plane_order_ids = calloc(s->target.board->plane_count, sizeof(*s->plane_order_ids));
		for (size_t i = 0; s->plane_order_ids && i < s->target.board->plane_count; i++) {
			s->plane_order_ids[i] = s->target.board->planes[i].id;
		}
		s->plane_order = (struct replay_plane_order){ s->plane_order_ids,
			s->plane_order_ids ? s->target.board->plane_count : 0 };
	}
	if (s->target.board && s->target.board->device_count > 1) {
		const struct board *b = s->target.board;

		replay_note(o->quiet, "%s: device %zu of %zu, %s (%s): %s%s", arg, b->device_index + 1,
			b->device_count, b->devices[b->device_index].node,
			b->driver[0] ? b->driver : "unknown driver", board_device_pick_reason(b->device_pick),
			b->device_pick == BOARD_PICK_ASKED ? "" : "; --profile-device picks another");
	}
	if (s->target.board && s->target.board->mode_from_crtc_only) {
		replay_note(o->quiet, "%s: the dump has no connector: using the CRTC's recorded mode "
			"%ux%u", arg, (unsigned)s->target.board->width, (unsigned)s->target.board->height);
	}
	s->timing = o->timing != REPLAY_TIMING_DEFAULT ? o->timing : s->target.default_timing ?
		s->target.default_timing : REPLAY_TIMING_RECORDED;
	replay_host_collect(&s->host, s->compositor && strcmp(compositor_name(s->compositor), "gl") == 0);
	return REPLAY_EXIT_OK;
}

static int open_outputs(struct replay_session *s)
{
	int ret;

	s->scenes = replay_scene_create(s->reader, !s->opts->no_pixels);
	s->it = hwct_frame_iter_create(s->reader);
	if (!s->scenes || !s->it) {
		replay_error("out of memory");
		return REPLAY_EXIT_FAILED;
	}
	if (s->opts->format_fallback == REPLAY_FALLBACK_EQUIVALENT && s->target.board &&
		!s->target.module_decides) {
		s->fallback = replay_fallback_create(s->target.board);
		if (!s->fallback) {
			replay_error("out of memory");
			return REPLAY_EXIT_FAILED;
		}
		replay_scene_set_fallback(s->scenes, s->fallback);
	}
	if (s->opts->has_display) {
		hwct_frame_iter_set_display(s->it, s->opts->display);
	}
	if (s->opts->results) {
		ret = replay_results_open(&s->results, s->opts->results);
		if (ret < 0) {
			replay_error("--results: %s: %s", s->opts->results, strerror(-ret));
			return REPLAY_EXIT_FAILED;
		}
	}
	return REPLAY_EXIT_OK;
}

void replay_session_header(struct replay_session *s)
{
	struct replay_header h = {
		.opts = s->opts,
		.trace = s->info,
		.recording = &s->recording,
		.host = &s->host,
		.target = &s->target,
		.compositor = s->compositor ? compositor_name(s->compositor) : NULL,
		.yuv_model = s->compositor ? comp_yuv_model_name(compositor_yuv_model(s->compositor)) : NULL,
		.timing = s->timing,
		.map = s->has_header_map ? &s->header_map : NULL,
		.images_dir = s->images_dir,
	};

	s->results.emulated = s->board.dump ? &s->board : NULL;
	replay_results_header(&s->results, &h);
	replay_guard_checkpoint(&s->results, &s->totals, &s->outcome, s->first_difference);
}

/* The one-line summary on stderr. */
static void summarize(const struct replay_session *s)
{
	const struct replay_totals *t = &s->totals;
	char agreement[64] = "";

	if (t->recorded_layers) {
		snprintf(agreement, sizeof(agreement), ", %.1f%% of layers placed as recorded",
			100.0 * (double)t->agree / (double)t->recorded_layers);
	}
	replay_note(s->opts->quiet, "%llu frames on %s%s%s (%s): mean efficiency %.3f, %llu with client composition%s",
		(unsigned long long)t->frames, s->target.name, s->target.arg ? " " : "",
		s->target.arg ? s->target.arg : "", s->target.module_decides ? REPLAY_MODULE_PLANNER : s->opts->planner,
		t->frames ? t->efficiency_sum / (double)t->frames : 0.0, (unsigned long long)t->client_frames,
		agreement);
	replay_displays_summarize(s);
	if (t->substituted_layers) {
		replay_note(s->opts->quiet, "%llu layer(s) shown in a byte-order-equivalent format "
			"(--format-fallback equivalent; format_substitutions in the results)",
			(unsigned long long)t->substituted_layers);
	}
	if (t->format_only_layers) {
		replay_note(s->opts->quiet, "%llu layer(s) went to the client for their format alone%s",
			(unsigned long long)t->format_only_layers,
			s->opts->format_fallback == REPLAY_FALLBACK_NONE ?
			" (--format-fallback equivalent puts them on a plane taking the same bits in another "
			"channel order, where the board has one)" : "");
	}
	if (t->noted_frames > REPLAY_NOTES_SHOWN) {
		replay_note(s->opts->quiet, "%llu frames had %s target reports (the first %d shown; all in the results)",
			(unsigned long long)t->noted_frames, s->target.name, REPLAY_NOTES_SHOWN);
	}
}

/* The verdict of a run whose loop returned code. */
static int verdict(struct replay_session *s, int code)
{
	int ret;

	s->outcome.complete = code == REPLAY_EXIT_OK;
	s->outcome.error = code == REPLAY_EXIT_OK ? NULL : s->error;
	s->outcome.expect = s->opts->expect;
	if (s->outcome.has_first_difference) {
		s->outcome.first_difference = s->first_difference;
	}
	replay_session_header(s);
	ret = replay_results_close(&s->results, &s->totals, &s->outcome);
	replay_guard_results_closed();
	if (ret < 0 && ret != -EPIPE && code == REPLAY_EXIT_OK) {	/* a closed pipe is the reader's choice */
		replay_error("--results: %s: %s", s->opts->results, strerror(-ret));
		code = REPLAY_EXIT_FAILED;
	}
	if (code != REPLAY_EXIT_OK) {
		return code;
	}
	summarize(s);
	if (!s->expect) {
		return REPLAY_EXIT_OK;
	}
	if (s->outcome.compared == 0) {
		replay_error("no frame was compared with %s (an empty range?)", s->opts->expect);
		return REPLAY_EXIT_FAILED;
	}
	if (s->outcome.differing) {
		fprintf(stderr, "%s: %llu of %llu frames differ from %s\n", REPLAY_PROGRAM,
			(unsigned long long)s->outcome.differing, (unsigned long long)s->outcome.compared,
			s->opts->expect);
		return REPLAY_EXIT_REGRESSION;
	}
	replay_note(s->opts->quiet, "%llu frames match %s", (unsigned long long)s->outcome.compared, s->opts->expect);
	return REPLAY_EXIT_OK;
}

static void close_session(struct replay_session *s)
{
	if (s->results.f) {
		replay_results_close(&s->results, &s->totals, &s->outcome);
		replay_guard_results_closed();
	}
	hwct_frame_iter_destroy(s->it);
	replay_scene_destroy(s->scenes);
	replay_fallback_destroy(s->fallback);
	replay_displays_close(s);
	if (s->target_open) {
		replay_target_close(&s->target);
	}
	compositor_destroy(s->compositor);
	replay_board_finish(&s->board);
	free(s->plane_order_ids);
	replay_recording_finish(&s->recording);
	hwct_reader_destroy(s->reader);
	if (s->dump_dir >= 0) {
		close(s->dump_dir);
	}
	free(s->images_dir);
	replay_expect_destroy(s->expect);
}

int replay_run(const struct replay_options *opts)
{
	struct replay_session *s = calloc(1, sizeof(*s));
	int code;

	if (!s) {
		replay_error("out of memory");
		return replay_exit_status(REPLAY_EXIT_FAILED, opts->expect != NULL);
	}
	s->opts = opts;
	s->dump_dir = -1;
	code = open_inputs(s);
	if (code == REPLAY_EXIT_OK) {
		code = open_target(s);
	}
	if (code == REPLAY_EXIT_OK) {
		code = open_outputs(s);
	}
	if (code == REPLAY_EXIT_OK) {
		code = verdict(s, replay_session_loop(s));
	}
	close_session(s);
	free(s);
	return replay_exit_status(code, opts->expect != NULL);
}
