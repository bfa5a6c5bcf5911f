/*
 * A vkms device shaped like a board (board.h): the CRTCs, the planes with
 * their types and possible CRTCs, and writeback connectors, as the lines
 * tests/vm/vm-init turns into a vkms configfs device (Linux 6.19 and later;
 * Documentation/gpu/vkms.rst, "Configuring With Configfs"), and the list of
 * what of the board such a device copies and what it cannot.
 *
 * vkms's own rules (drivers/gpu/drm/vkms/vkms_config.c, valid_*): 1 to 31
 * planes, CRTCs, encoders and connectors; every plane and encoder on at least
 * one CRTC; every CRTC with exactly one primary plane and at most one cursor
 * plane among the planes that can go on it. A dump that breaks one is bent
 * to fit, and the bending is listed as not emulated.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "board_vkms.h"

#define VKMS_MAX_OBJECTS BOARD_VKMS_MAX_PLANES

struct vkms_plane {
	const struct board_plane *from;	/* the dump's plane; NULL for one added */
	enum board_plane_type type;
	uint32_t crtcs;			/* bit per CRTC index */
};

struct vkms_shape {
	size_t crtc_count;
	size_t plane_count;
	struct vkms_plane planes[VKMS_MAX_OBJECTS];
	uint32_t modelled_crtc;		/* index of the board's modelled CRTC (its connector comes first) */
	struct board_vkms_notes *notes;
};

static int note(struct board_vkms_notes *notes, bool emulated, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int note(struct board_vkms_notes *notes, bool emulated, const char *fmt, ...)
{
	char **list = emulated ? notes->emulated : notes->not_emulated;
	size_t *count = emulated ? &notes->emulated_count : &notes->not_emulated_count;
	va_list ap;
	char *text;
	int len;

	if (*count >= BOARD_VKMS_MAX_NOTES) {
		return 0;
	}
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	text = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (!text) {
		return -ENOMEM;
	}
	va_start(ap, fmt);
	vsnprintf(text, (size_t)len + 1, fmt, ap);
	va_end(ap);
	list[(*count)++] = text;
	return 0;
}

/* Keeps, for each CRTC, the first plane of type that can go on it and takes
 * the CRTC off the others of that type (vkms: one primary, one cursor each). */
static int one_per_crtc(struct vkms_shape *s, enum board_plane_type type)
{
	for (size_t c = 0; c < s->crtc_count; c++) {
		bool taken = false;

		for (size_t i = 0; i < s->plane_count; i++) {
			struct vkms_plane *p = &s->planes[i];

			if (p->type != type || !(p->crtcs & (1u << c))) {
				continue;
			}
			if (!taken) {
				taken = true;
				continue;
			}
			p->crtcs &= ~(1u << c);
			if (note(s->notes, false, "%s plane %u may also go on CRTC %zu: vkms allows one %s "
				"plane per CRTC", board_plane_type_name(type), p->from ? p->from->id : 0, c,
				board_plane_type_name(type))) {
				return -ENOMEM;
			}
		}
	}
	return 0;
}

static int drop_homeless(struct vkms_shape *s)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->plane_count; i++) {
		if (s->planes[i].crtcs) {
			s->planes[kept++] = s->planes[i];
		} else if (note(s->notes, false, "%s plane %u: left out (no CRTC left to put it on)",
			board_plane_type_name(s->planes[i].type), s->planes[i].from->id)) {
			return -ENOMEM;
		}
	}
	s->plane_count = kept;
	return 0;
}

/* Adds a primary plane to each CRTC that has none (vkms requires one). */
static int add_missing_primaries(struct vkms_shape *s)
{
	for (size_t c = 0; c < s->crtc_count; c++) {
		bool has = false;

		for (size_t i = 0; i < s->plane_count; i++) {
			has = has || (s->planes[i].type == BOARD_PLANE_PRIMARY && (s->planes[i].crtcs & (1u << c)));
		}
		if (has) {
			continue;
		}
		if (s->plane_count == VKMS_MAX_OBJECTS) {
			return -E2BIG;
		}
		s->planes[s->plane_count++] = (struct vkms_plane){ NULL, BOARD_PLANE_PRIMARY, 1u << c };
		if (note(s->notes, false, "CRTC %zu has no primary plane in the dump: vkms needs one, "
			"one was added", c)) {
			return -ENOMEM;
		}
	}
	return 0;
}

static int shape_planes(struct vkms_shape *s, const struct board *board)
{
	uint32_t all = s->crtc_count >= 32 ? ~0u : (1u << s->crtc_count) - 1;
	int ret;

	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *bp = &board->planes[i];

		if (s->plane_count == VKMS_MAX_OBJECTS) {
			if (note(s->notes, false, "plane %u and the %zu after it: left out (vkms takes at most "
				"%d planes)", bp->id, board->plane_count - i - 1, VKMS_MAX_OBJECTS)) {
				return -ENOMEM;
			}
			break;
		}
		s->planes[s->plane_count++] = (struct vkms_plane){ bp, bp->type, bp->possible_crtcs & all };
	}
	if ((ret = one_per_crtc(s, BOARD_PLANE_PRIMARY)) || (ret = one_per_crtc(s, BOARD_PLANE_CURSOR)) ||
		(ret = drop_homeless(s))) {
		return ret;
	}
	return add_missing_primaries(s);
}

/* What a vkms device never copies from a dump, each said once when the dump has it. */
static int note_properties(struct vkms_shape *s, const struct board *board)
{
	bool zpos = false, alpha = false, blend = false, scale = false, modifiers = false;

	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *p = &board->planes[i];

		zpos = zpos || p->has_zpos;
		alpha = alpha || p->has_alpha;
		blend = blend || p->blend_modes != 0;
		scale = scale || p->can_scale;
		modifiers = modifiers || p->empty_modifier_count != 0;	/* listed for no format */
		for (size_t f = 0; f < p->format_count; f++) {
			for (size_t m = 0; m < p->formats[f].modifier_count; m++) {
				modifiers = modifiers || p->formats[f].modifiers[m] != BOARD_MOD_LINEAR;
			}
		}
	}
	if (note(s->notes, false, "each plane's formats: every vkms plane takes vkms's own list (LINEAR "
		"only), whatever the dump's plane takes") ||
		(modifiers && note(s->notes, false, "modifiers other than LINEAR (tiling, compression)")) ||
		(zpos && note(s->notes, false, "zpos: vkms has no zpos property; planes stack in creation "
			"order (primary, overlays, cursor)")) ||
		(alpha && note(s->notes, false, "plane alpha: vkms has no alpha property")) ||
		(blend && note(s->notes, false, "pixel blend mode: vkms has no such property")) ||
		(scale && note(s->notes, false, "scaling: the dump's planes may scale, vkms planes never do")) ||
		note(s->notes, false, "rotation: every vkms plane offers all rotations and reflections")) {
		return -ENOMEM;
	}
	return 0;
}

static int shape(struct vkms_shape *s, const struct board *board)
{
	size_t primaries = 0, overlays = 0, cursors = 0;
	int ret;

	s->crtc_count = board->crtc_count ? board->crtc_count : 1;
	if (s->crtc_count > VKMS_MAX_OBJECTS) {
		if (note(s->notes, false, "CRTCs %d to %zu: left out (vkms takes at most %d)", VKMS_MAX_OBJECTS,
			s->crtc_count - 1, VKMS_MAX_OBJECTS)) {
			return -ENOMEM;
		}
		s->crtc_count = VKMS_MAX_OBJECTS;
	}
	s->modelled_crtc = board->crtc_index < s->crtc_count ? board->crtc_index : 0;
	if ((ret = shape_planes(s, board))) {
		return ret;
	}
	for (size_t i = 0; i < s->plane_count; i++) {
		primaries += s->planes[i].type == BOARD_PLANE_PRIMARY;
		overlays += s->planes[i].type == BOARD_PLANE_OVERLAY;
		cursors += s->planes[i].type == BOARD_PLANE_CURSOR;
	}
	if (note(s->notes, true, "CRTCs: %zu, each with an encoder and a connected Virtual connector, CRTC "
		"%u's first (the board's modelled CRTC, for a trace's first display)", s->crtc_count,
		s->modelled_crtc) ||
		note(s->notes, true, "planes: %zu (%zu primary, %zu overlay, %zu cursor) with the dump's types "
			"and possible CRTCs, in the dump's order", s->plane_count, primaries, overlays, cursors) ||
		note(s->notes, false, board->has_writeback ?
			"writeback: a connector on each CRTC, each serving its own (for every display's checksums; "
			"the dump has one)" : "added, not in the dump: a writeback connector on each CRTC (for every "
			"display's checksums)") ||
		note(s->notes, false, "the connector's modes: vkms's Virtual connector offers any size up to "
			"4096x2160 (the dump's is %ux%u)", board->width, board->height)) {
		return -ENOMEM;
	}
	return note_properties(s, board);
}

static void write_crtc_list(FILE *out, uint32_t crtcs)
{
	for (unsigned int c = 0; c < 32; c++) {
		if (crtcs & (1u << c)) {
			fprintf(out, " c%02u", c);
		}
	}
}

int board_vkms_write(const struct board *board, FILE *out, struct board_vkms_notes *notes)
{
	struct vkms_shape s = { .notes = notes };
	int ret;

	memset(notes, 0, sizeof(*notes));
	ret = shape(&s, board);
	if (ret) {
		board_vkms_notes_finish(notes);
		return ret;
	}
	fprintf(out, "# vkms device shaped like %s (driver %s); hwc-replay --vm --board, tests/vm/vm-init\n",
		board->name, *board->driver ? board->driver : "unknown");
	for (size_t c = 0; c < s.crtc_count; c++) {
		fprintf(out, "crtc c%02zu 1\n", c);	/* writeback everywhere: every display has checksums */
	}
	for (size_t i = 0; i < s.plane_count; i++) {
		fprintf(out, "plane p%02zu %d", i, (int)s.planes[i].type);
		write_crtc_list(out, s.planes[i].crtcs);
		fputc('\n', out);
	}
	for (size_t c = 0; c < s.crtc_count; c++) {
		fprintf(out, "encoder e%02zu c%02zu\n", c, c);
	}
	/* all connected, the modelled CRTC's first: a replay drives the first connected connector
	 * with its first display and the next ones with the trace's other displays */
	fprintf(out, "connector n%02u 1 e%02u\n", s.modelled_crtc, s.modelled_crtc);
	for (size_t c = 0; c < s.crtc_count; c++) {
		if (c != s.modelled_crtc) {
			fprintf(out, "connector n%02zu 1 e%02zu\n", c, c);
		}
	}
	if (fflush(out) != 0 || ferror(out)) {
		board_vkms_notes_finish(notes);
		return -EIO;
	}
	return 0;
}

int board_vkms_dump_ids(const struct board *board, uint32_t *ids, size_t max)
{
	struct board_vkms_notes notes = { 0 };
	struct vkms_shape s = { .notes = &notes };
	int ret = shape(&s, board);

	board_vkms_notes_finish(&notes);
	if (ret) {
		return ret;
	}
	for (size_t i = 0; i < s.plane_count && i < max; i++) {
		ids[i] = s.planes[i].from ? s.planes[i].from->id : 0;
	}
	return (int)(s.plane_count < max ? s.plane_count : max);
}

void board_vkms_notes_finish(struct board_vkms_notes *notes)
{
	for (size_t i = 0; i < notes->emulated_count; i++) {
		free(notes->emulated[i]);
	}
	for (size_t i = 0; i < notes->not_emulated_count; i++) {
		free(notes->not_emulated[i]);
	}
	memset(notes, 0, sizeof(*notes));
}
