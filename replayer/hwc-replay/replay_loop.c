/*
 * The frame loop (replay_session.h): for each frame of the range, the
 * scene (mapped to the target's mode), pacing, the backend's present, the
 * comparison with known-good results, the image dump, the results line.
 * Nothing is allocated per frame here beyond what the planner's plan takes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backend_watch.h"
#include "replay_compare.h"
#include "replay_guard.h"
#include "replay_session.h"

/* Sets the mapping of f's recorded mode; notes a new one (the first goes in the header). */
static void update_map(struct replay_session *s, const struct hwct_frame *f)
{
	uint32_t w = f->width > 0 ? (uint32_t)f->width : 0, h = f->height > 0 ? (uint32_t)f->height : 0;
	struct replay_map m;
	char line[256];

	replay_map_init(&m, s->opts->mode_map, w, h, s->target.width, s->target.height);
	if (s->has_header_map && replay_map_same(&m, &s->map)) {
		return;
	}
	s->map = m;
	replay_map_describe(&m, line, sizeof(line));
	replay_progress_end(&s->progress);
	if (!s->has_header_map) {
		s->header_map = m;
		s->has_header_map = true;
		replay_session_header(s);
		replay_note(s->opts->quiet || (!m.active && m.from_width == m.to_width && m.from_height == m.to_height),
			"display mode %s", line);
	} else if (!replay_map_same(&m, &s->header_map)) {
		replay_note(s->opts->quiet, "frame %" PRIu64 ": display mode %s", f->frame, line);
	}
}

/* Positions the iterator at the range's first frame. Returns 0 or an exit code (s->error set). */
static int start_play(struct replay_session *s, uint32_t loop)
{
	const struct hwct_error *err;
	int ret = 0;

	if (s->opts->first > 0) {
		ret = hwct_frame_iter_seek(s->it, s->opts->first);
	} else if (loop > 0) {
		hwct_frame_iter_destroy(s->it);
		s->it = NULL;
		ret = hwct_reader_rewind(s->reader);
		if (ret == 0) {
			s->it = hwct_frame_iter_create(s->reader);
			ret = s->it ? 0 : -errno;
		}
		if (s->it && s->opts->has_display) {
			hwct_frame_iter_set_display(s->it, s->opts->display);
		}
	}
	if (ret == 0) {
		replay_pace_start(&s->pace, s->timing, s->target.vsync_period_ns);
		return 0;
	}
	err = hwct_reader_error(s->reader);
	if (ret == -ERANGE) {
		snprintf(s->error, sizeof(s->error), "--frames: no frame %" PRIu64 " in %s", s->opts->first,
			s->opts->trace);
		return REPLAY_EXIT_USAGE;
	}
	snprintf(s->error, sizeof(s->error), "%s", err && err->code ? err->message : strerror(-ret));
	return REPLAY_EXIT_TRACE;
}

/* The --expect part of a frame. */
static void compare(struct replay_session *s, const struct hwct_frame *f, const struct scene *scene,
	const struct backend_result *result)
{
	const struct replay_expect_frame *e = replay_expect_find(s->expect, f->frame);
	char msg[REPLAY_MESSAGE_MAX];
	struct replay_plane_order expected = { s->expect->plane_ids, s->expect->plane_id_count };
	unsigned differs = replay_compare_frame(e, expected, scene, result, s->plane_order, s->opts->compare, msg,
		sizeof(msg));

	s->outcome.compared++;
	if (differs == REPLAY_SAME) {
		return;
	}
	s->outcome.differing++;
	if (!s->outcome.has_first_difference) {
		s->outcome.has_first_difference = true;
		s->outcome.first_difference_frame = f->frame;
		snprintf(s->first_difference, sizeof(s->first_difference), "%s", msg);
		replay_progress_end(&s->progress);
		fprintf(stderr, "%s: regression: frame %" PRIu64 " (display %" PRIu64 ", its frame %" PRIu64 "): %s\n",
			REPLAY_PROGRAM, f->frame, f->display, f->display_frame, msg);
	}
	if ((differs & REPLAY_DIFFERS_PIXELS) && result->image.data) {
		replay_dump_mismatch(s, e, &result->image);
	}
}

/* Replays one frame. Returns 0 or an exit code (s->error set). */
static int replay_frame(struct replay_session *s, const struct hwct_frame *f, uint32_t loop)
{
	struct backend_result result;
	struct replay_frame_report fr = { .frame = f, .loop = loop };
	struct replay_target *target;
	struct replay_map *map;
	struct scene scene;
	char image[65];
	int ret;

	target = replay_displays_target(s, f, &map);
	if (!target) {
		return 0;
	}
	if (target == &s->target) {
		update_map(s, f);	/* the other displays' maps are their slots' */
	}
	ret = replay_scene_build(s->scenes, f, map, &scene, &fr.missing, &fr.missing_count);
	if (ret < 0) {
		const struct hwct_error *err = hwct_reader_error(s->reader);

		snprintf(s->error, sizeof(s->error), "frame %" PRIu64 ": %s", f->frame,
			err && err->code ? err->message : strerror(-ret));
		return ret == -ENOMEM ? REPLAY_EXIT_FAILED : REPLAY_EXIT_TRACE;
	}
	replay_scene_substitutions(s->scenes, &fr.subs, &fr.sub_count);
	if (fr.missing_count && !s->noted_missing) {
		s->noted_missing = true;
		replay_progress_end(&s->progress);
		replay_note(s->opts->quiet, "frame %" PRIu64 ": %zu layer(s) without captured content, shown in "
			"magenta (missing_content in the results)", f->frame, fr.missing_count);
	}
	fr.wait_ns = s->timing == REPLAY_TIMING_FAST ? -1 : replay_pace_wait(&s->pace, f);
	backend_watch_frame(f->frame);
	ret = backend_present(target->backend, &scene, s->dump_dir >= 0, &result);
	if (ret < 0) {
		snprintf(s->error, sizeof(s->error), "frame %" PRIu64 ": %s target: %s", f->frame, target->name,
			strerror(-ret));
		backend_result_finish(&result);
		return REPLAY_EXIT_FAILED;
	}
	if (result.note[0] && s->totals.noted_frames < REPLAY_NOTES_SHOWN) {
		replay_progress_end(&s->progress);
		replay_note(s->opts->quiet, "frame %" PRIu64 ": %s target: %s", f->frame, s->target.name, result.note);
	}
	fr.scene = &scene;
	fr.result = &result;
	fr.map = replay_map_same(map, &s->header_map) ? NULL : map;
	if (s->expect) {
		compare(s, f, &scene, &result);
	}
	if (s->dump_dir >= 0 && loop == 0 && result.image.data) {
		ret = replay_dump_frame(s, f->frame, &result.image, image);
		if (ret < 0) {
			snprintf(s->error, sizeof(s->error), "--dump-images: %s/%s: %s", s->opts->dump_images, image,
				strerror(-ret));
			backend_result_finish(&result);
			return REPLAY_EXIT_FAILED;
		}
		fr.image = image;
	}
	replay_results_frame(&s->results, &fr);
	replay_totals_add(&s->totals, &fr);
	replay_guard_checkpoint(&s->results, &s->totals, &s->outcome, s->first_difference);
	backend_result_finish(&result);
	return 0;
}

/* Frame positions of one play of the range. */
static uint64_t range_size(const struct replay_session *s)
{
	uint64_t count = s->info->frame_count, last = s->opts->last;

	if (count == 0 || s->opts->first >= count) {
		return 0;
	}
	last = last >= count ? count - 1 : last;
	return last - s->opts->first + 1;
}

int replay_session_loop(struct replay_session *s)
{
	const struct replay_options *o = s->opts;
	int64_t start = replay_now_ns();
	int code = REPLAY_EXIT_OK;
	uint64_t last = o->last;

	s->range_total = range_size(s);
	if (s->info->frame_count && last >= s->info->frame_count) {
		last = s->info->frame_count - 1;	/* not a record further: a cut trace ends there */
	}
	replay_progress_start(&s->progress, o->progress && !o->quiet, s->range_total * o->loops);
	for (uint32_t loop = 0; loop < o->loops && code == REPLAY_EXIT_OK; loop++) {
		const struct hwct_frame *f;
		int ret = 0;

		code = start_play(s, loop);
		while (code == REPLAY_EXIT_OK && (ret = hwct_frame_iter_next(s->it, &f)) == 1) {
			if (f->frame < o->first) {
				continue;
			}
			if (f->frame > last) {
				break;
			}
			code = replay_frame(s, f, loop);
			replay_progress_update(&s->progress, s->range_total * loop + (f->frame - o->first + 1),
				s->totals.frames);
			if (f->frame == last) {
				break;
			}
		}
		if (code == REPLAY_EXIT_OK && ret < 0 && !hwct_reader_error_at_cut_end(s->reader)) {
			const struct hwct_error *err = hwct_reader_error(s->reader);

			snprintf(s->error, sizeof(s->error), "%s", err && err->code ? err->message : strerror(-ret));
			code = REPLAY_EXIT_TRACE;
		}
	}
	backend_watch_frame(BACKEND_WATCH_END);
	s->totals.wall_ns = replay_now_ns() - start;
	replay_progress_end(&s->progress);
	if (code != REPLAY_EXIT_OK) {
		replay_error("%s", s->error);
	}
	return code;
}
