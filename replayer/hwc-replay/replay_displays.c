/*
 * The displays of a trace of several (replay_session.h): without
 * --display, a --profile or --device run shows the first display on the
 * run's target and each later one on a CRTC of its own (--device: on a
 * connected connector no earlier display drives); --hwc2 shows each on
 * a display of the module's own, in the order the trace's first show and
 * the module hotplugged them. A display that gets no CRTC (or module
 * display) is reported, in the summary and the results' totals, and its
 * frames are skipped: never merged onto another display's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "replay_session.h"

/* The CRTCs (bits by index) the first display and the displays with a slot drive. */
static uint32_t crtcs_taken(const struct replay_session *s)
{
	uint32_t taken = 0;

	if (s->target.board && s->target.board->crtc_index < 32) {
		taken |= 1u << s->target.board->crtc_index;
	}
	for (size_t i = 0; i < s->slot_count; i++) {
		const struct board *b = s->slots[i].target.board;

		if (s->slots[i].has_crtc && b && b->crtc_index < 32) {
			taken |= 1u << b->crtc_index;
		}
	}
	return taken;
}

/* The connectors (bits by index) the first display and the displays with a slot drive (--device). */
static uint32_t connectors_taken(const struct replay_session *s)
{
	uint32_t taken = s->target.connectors_used;

	for (size_t i = 0; i < s->slot_count; i++) {
		if (s->slots[i].has_crtc) {
			taken |= s->slots[i].target.connectors_used;
		}
	}
	return taken;
}

/* Opens the slot of display f->display on the next free CRTC, or says there is none. */
static struct replay_display_slot *open_slot(struct replay_session *s, const struct hwct_frame *f)
{
	struct replay_display_slot *slot = &s->slots[s->slot_count];
	struct replay_target_config cfg = s->target_config;
	struct hwct_error err;

	*slot = (struct replay_display_slot){ .display = f->display };
	cfg.crtc_slot = (uint32_t)s->slot_count + 1;
	cfg.crtc_taken = crtcs_taken(s);
	cfg.connectors_taken = connectors_taken(s);
	cfg.first = &s->target;
	if (s->target_kind == REPLAY_TARGET_PROFILE && !cfg.mode_width && f->width > 0 && f->height > 0) {
		cfg.mode_width = (uint32_t)f->width;	/* the other CRTCs' modes are not in the dump */
		cfg.mode_height = (uint32_t)f->height;
	}
	s->slot_count++;
	replay_progress_end(&s->progress);
	if (replay_target_open(&slot->target, s->target_kind, s->target.arg, &cfg, &err) < 0) {
		snprintf(slot->reason, sizeof(slot->reason), "%.*s", (int)sizeof(slot->reason) - 1, err.message);
		replay_note(s->opts->quiet, "display %" PRIu64 ": not replayed, its frames skipped (never merged onto "
			"another display's %s): %s", f->display,
			s->target_kind == REPLAY_TARGET_HWC2 ? "module display" : "CRTC", err.message);
		return slot;
	}
	slot->has_crtc = true;
	if (s->target_kind == REPLAY_TARGET_HWC2) {
		replay_note(s->opts->quiet, "display %" PRIu64 ": shown on display %zu of %s (%" PRIu32 "x%" PRIu32 ")",
			f->display, s->slot_count + 1, s->target.arg, slot->target.width, slot->target.height);
		return slot;
	}
	replay_note(s->opts->quiet, "display %" PRIu64 ": %s on CRTC %" PRIu32 " (index %" PRIu32 ") of %s; "
		"%" PRIu32 " plane(s) it could use left to the CRTC(s) of earlier displays, which can use them too",
		f->display, s->target_kind == REPLAY_TARGET_PROFILE ? "planned" : "shown", slot->target.board->crtc_id,
		slot->target.board->crtc_index, s->target.arg, slot->target.planes_ceded);
	return slot;
}

/* Counts f in its display's totals entry: replayed on target, or skipped for reason. */
static void count(struct replay_session *s, const struct hwct_frame *f, const struct replay_target *target,
	const char *reason)
{
	struct replay_display_total *d = replay_totals_display(&s->totals, f->display);

	if (!d) {
		return;
	}
	if (target) {	/* replay_totals_add counts its frames */
		d->has_crtc = target->board != NULL;
		d->crtc_id = target->board ? target->board->crtc_id : 0;
		return;
	}
	if (!d->skipped) {
		snprintf(d->reason, sizeof(d->reason), "%s", reason);
	}
	d->skipped++;
}

struct replay_target *replay_displays_target(struct replay_session *s, const struct hwct_frame *f,
	struct replay_map **map)
{
	struct replay_display_slot *slot = NULL;
	bool several = s->target_kind == REPLAY_TARGET_PROFILE || s->target_kind == REPLAY_TARGET_DEVICE ||
		s->target_kind == REPLAY_TARGET_HWC2;

	*map = &s->map;
	if (!several || s->opts->has_display) {
		count(s, f, &s->target, NULL);
		return &s->target;
	}
	if (!s->has_first_display) {
		s->has_first_display = true;
		s->first_display = f->display;
	}
	if (f->display == s->first_display) {
		count(s, f, &s->target, NULL);
		return &s->target;
	}
	for (size_t i = 0; i < s->slot_count && !slot; i++) {
		slot = s->slots[i].display == f->display ? &s->slots[i] : NULL;
	}
	if (!slot && s->slot_count == REPLAY_MAX_DISPLAYS) {
		count(s, f, NULL, "more displays than hwc-replay replays at once (" REPLAY_MAX_DISPLAYS_TEXT ")");
		return NULL;
	}
	slot = slot ? slot : open_slot(s, f);
	if (!slot->has_crtc) {
		count(s, f, NULL, slot->reason);
		return NULL;
	}
	count(s, f, &slot->target, NULL);
	replay_map_init(&slot->map, s->opts->mode_map, f->width > 0 ? (uint32_t)f->width : 0,
		f->height > 0 ? (uint32_t)f->height : 0, slot->target.width, slot->target.height);
	*map = &slot->map;
	return &slot->target;
}

void replay_displays_summarize(const struct replay_session *s)
{
	const struct replay_totals *t = &s->totals;

	for (size_t i = 0; i < t->display_count; i++) {
		const struct replay_display_total *d = &t->displays[i];

		if (d->skipped) {
			replay_note(s->opts->quiet, "display %" PRIu64 ": %" PRIu64 " frame(s) skipped, not replayed: %s",
				d->display, d->skipped, d->reason);
		}
	}
}

void replay_displays_close(struct replay_session *s)
{
	for (size_t i = 0; i < s->slot_count; i++) {
		if (s->slots[i].has_crtc) {
			replay_target_close(&s->slots[i].target);
		}
	}
	s->slot_count = 0;
}
