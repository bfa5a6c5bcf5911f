/*
 * What the project understood of a board (board.h): the board as JSON and
 * as text, for `hwc-trace board` and for comparing the boards of two dumps.
 * Every field of the model is shown, and the rules a dump cannot tell are
 * shown apart, as assumptions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "board.h"

static const char *const rotation_names[] = { "rotate-0", "rotate-90", "rotate-180", "rotate-270",
	"reflect-x", "reflect-y" };
static const char *const blend_names[] = { "None", "Pre-multiplied", "Coverage" };

const char *board_fourcc_name(uint32_t fourcc, char buf[12])
{
	bool printable = true;

	for (int i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);

		printable = printable && c >= ' ' && c <= '~';
		buf[i] = c;
	}
	if (!printable) {
		snprintf(buf, 12, "0x%08" PRIx32, fourcc);
	} else {
		buf[4] = '\0';
	}
	return buf;
}

static struct json_object *hex64(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	return json_object_new_string(buf);
}

static struct json_object *names_of(uint32_t bits, const char *const *names, size_t count)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < count; i++) {
		if (bits & (1u << i)) {
			json_object_array_add(a, json_object_new_string(names[i]));
		}
	}
	return a;
}

/* Formats as {"FOURCC": ["0xMODIFIER", ...]}: the formats × modifiers matrix. */
static struct json_object *formats_json(const struct board_plane *plane)
{
	struct json_object *o = json_object_new_object();
	char name[12];

	for (size_t i = 0; i < plane->format_count; i++) {
		const struct board_format *f = &plane->formats[i];
		struct json_object *mods = json_object_new_array();

		for (size_t j = 0; j < f->modifier_count; j++) {
			json_object_array_add(mods, hex64(f->modifiers[j]));
		}
		json_object_object_add(o, board_fourcc_name(f->fourcc, name), mods);
	}
	return o;
}

static struct json_object *plane_json(const struct board *board, const struct board_plane *p)
{
	struct json_object *o = json_object_new_object();
	struct json_object *crtcs = json_object_new_array();
	struct json_object *assumed = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(p->id));
	json_object_object_add(o, "type", json_object_new_string(board_plane_type_name(p->type)));
	for (unsigned i = 0; i < 32; i++) {
		if (p->possible_crtcs & (1u << i)) {
			json_object_array_add(crtcs, json_object_new_int(i));
		}
	}
	json_object_object_add(o, "possible_crtcs", crtcs);
	json_object_object_add(o, "on_modelled_crtc",
		json_object_new_boolean(board_plane_usable(board, p)));
	json_object_object_add(o, "in_formats", json_object_new_boolean(p->has_in_formats));
	json_object_object_add(o, "formats", formats_json(p));
	if (p->has_in_formats) {
		struct json_object *empty = json_object_new_array();

		for (size_t i = 0; i < p->empty_modifier_count; i++) {
			json_object_array_add(empty, hex64(p->empty_modifiers[i]));
		}
		json_object_object_add(o, "modifiers_without_formats", empty);
	} else {
		json_object_object_add(o, "modifiers_without_formats", NULL);
	}
	if (p->has_zpos) {
		struct json_object *z = json_object_new_object();

		json_object_object_add(z, "min", json_object_new_int64(p->zpos_min));
		json_object_object_add(z, "max", json_object_new_int64(p->zpos_max));
		json_object_object_add(z, "value", json_object_new_int64(p->zpos));
		json_object_object_add(z, "mutable", json_object_new_boolean(!p->zpos_immutable));
		json_object_object_add(o, "zpos", z);
	} else {
		json_object_object_add(o, "zpos", NULL);
	}
	json_object_object_add(o, "rotation", p->has_rotation ? names_of(p->rotations,
		rotation_names, 6) : NULL);
	json_object_object_add(o, "alpha_max", p->has_alpha ?
		json_object_new_int64((int64_t)p->alpha_max) : NULL);
	json_object_object_add(o, "blend_modes", p->blend_modes ? names_of(p->blend_modes,
		blend_names, 3) : NULL);
	json_object_object_add(o, "scaling_filter", json_object_new_boolean(p->has_scaling_filter));
	if (p->size_hint_count) {
		struct json_object *hints = json_object_new_array();

		for (size_t i = 0; i < p->size_hint_count; i++) {
			struct json_object *h = json_object_new_array();

			json_object_array_add(h, json_object_new_int(p->size_hints[i][0]));
			json_object_array_add(h, json_object_new_int(p->size_hints[i][1]));
			json_object_array_add(hints, h);
		}
		json_object_object_add(o, "size_hints", hints);
	}
	json_object_object_add(assumed, "can_scale", json_object_new_boolean(p->can_scale));
	json_object_object_add(assumed, "solid_fill", json_object_new_boolean(p->solid_fill));
	json_object_object_add(assumed, "cursor_size_limit",
		json_object_new_boolean(p->cursor_size_limit));
	json_object_object_add(o, "assumed", assumed);
	return o;
}

/* The dump's devices and which was read: {"node", "position", "why", "devices": [...]}, or NULL. */
static struct json_object *device_json(const struct board *board)
{
	struct json_object *o, *list;

	if (board->device_count == 0) {
		return NULL;
	}
	o = json_object_new_object();
	list = json_object_new_array();
	json_object_object_add(o, "node", json_object_new_string(
		board->devices[board->device_index].node));
	json_object_object_add(o, "position", json_object_new_int64((int64_t)board->device_index + 1));
	json_object_object_add(o, "why", json_object_new_string(
		board_device_pick_reason(board->device_pick)));
	for (size_t i = 0; i < board->device_count; i++) {
		const struct board_device *d = &board->devices[i];
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "node", json_object_new_string(d->node));
		json_object_object_add(e, "driver", json_object_new_string(d->driver));
		json_object_object_add(e, "crtcs", json_object_new_int64(d->crtcs));
		json_object_object_add(e, "connected", json_object_new_int64(d->connected));
		json_object_object_add(e, "connected_non_desktop",
			json_object_new_int64(d->connected_non_desktop));
		json_object_array_add(list, e);
	}
	json_object_object_add(o, "devices", list);
	return o;
}

struct json_object *board_to_json(const struct board *board)
{
	struct json_object *o = json_object_new_object();
	struct json_object *crtcs = json_object_new_array();
	struct json_object *planes = json_object_new_array();
	struct json_object *crtc = json_object_new_object();
	struct json_object *assumed = json_object_new_object();
	char name[12];

	json_object_object_add(o, "device", device_json(board));
	json_object_object_add(o, "driver", json_object_new_string(board->driver));
	for (size_t i = 0; i < board->crtc_count; i++) {
		json_object_array_add(crtcs, json_object_new_int64(board->crtc_ids[i]));
	}
	json_object_object_add(o, "crtc_ids", crtcs);
	json_object_object_add(crtc, "index", json_object_new_int64(board->crtc_index));
	json_object_object_add(crtc, "id", json_object_new_int64(board->crtc_id));
	json_object_object_add(crtc, "width", json_object_new_int64(board->width));
	json_object_object_add(crtc, "height", json_object_new_int64(board->height));
	json_object_object_add(crtc, "mode_from_crtc_only",
		json_object_new_boolean(board->mode_from_crtc_only));
	json_object_object_add(o, "modelled_crtc", crtc);
	if (board->cursor_width || board->cursor_height) {
		struct json_object *c = json_object_new_array();

		json_object_array_add(c, json_object_new_int64(board->cursor_width));
		json_object_array_add(c, json_object_new_int64(board->cursor_height));
		json_object_object_add(o, "cursor_size", c);
	} else {
		json_object_object_add(o, "cursor_size", NULL);
	}
	for (size_t i = 0; i < board->plane_count; i++) {
		json_object_array_add(planes, plane_json(board, &board->planes[i]));
	}
	json_object_object_add(o, "planes", planes);
	if (board->has_writeback) {
		struct json_object *wb = json_object_new_array();

		for (size_t i = 0; i < board->writeback_format_count; i++) {
			json_object_array_add(wb, json_object_new_string(
				board_fourcc_name(board->writeback_formats[i], name)));
		}
		json_object_object_add(o, "writeback_formats", wb);
	} else {
		json_object_object_add(o, "writeback_formats", NULL);
	}
	json_object_object_add(assumed, "primary_full_screen",
		json_object_new_boolean(board->primary_full_screen));
	json_object_object_add(assumed, "primary_required",
		json_object_new_boolean(board->primary_required));
	json_object_object_add(assumed, "max_active_planes",
		json_object_new_int64(board->max_active_planes));
	json_object_object_add(assumed, "addfb_checks_format",
		json_object_new_boolean(board->addfb_checks_format));
	json_object_object_add(o, "assumed", assumed);
	return o;
}

static void print_bits(FILE *f, uint32_t bits, const char *const *names, size_t count)
{
	for (size_t i = 0, n = 0; i < count; i++) {
		if (bits & (1u << i)) {
			fprintf(f, "%s%s", n++ ? " " : "", names[i]);
		}
	}
}

static void print_plane(FILE *f, const struct board *board, const struct board_plane *p)
{
	char name[12];

	fprintf(f, "  plane %" PRIu32 "  %-7s crtcs {", p->id, board_plane_type_name(p->type));
	for (unsigned i = 0, n = 0; i < 32; i++) {
		if (p->possible_crtcs & (1u << i)) {
			fprintf(f, "%s%u", n++ ? "," : "", i);
		}
	}
	fprintf(f, "}%s\n", board_plane_usable(board, p) ? "" : "  (not on the modelled CRTC)");
	fprintf(f, "    formats%s:%s", p->has_in_formats ? "" : " (no IN_FORMATS: LINEAR implied)",
		p->format_count ? "" : " none");
	for (size_t i = 0; i < p->format_count; i++) {
		const struct board_format *fm = &p->formats[i];

		fprintf(f, " %s", board_fourcc_name(fm->fourcc, name));
		if (fm->modifier_count != 1 || fm->modifiers[0] != BOARD_MOD_LINEAR) {
			fputc('[', f);
			for (size_t j = 0; j < fm->modifier_count; j++) {
				fprintf(f, "%s%" PRIx64, j ? "," : "", fm->modifiers[j]);
			}
			fputc(']', f);
		}
	}
	fputc('\n', f);
	if (p->empty_modifier_count) {
		fputs("    modifiers with no format (IN_FORMATS lists them empty):", f);
		for (size_t i = 0; i < p->empty_modifier_count; i++) {
			fprintf(f, " 0x%016" PRIx64, p->empty_modifiers[i]);
		}
		fputc('\n', f);
	}
	fputs("    zpos: ", f);
	if (p->has_zpos) {
		fprintf(f, "%" PRId64 " in [%" PRId64 ", %" PRId64 "], %s", p->zpos, p->zpos_min,
			p->zpos_max, p->zpos_immutable ? "immutable" : "mutable");
	} else {
		fputs("none (stacking by type, then id)", f);
	}
	fputs("; rotation: ", f);
	if (p->has_rotation) {
		print_bits(f, p->rotations, rotation_names, 6);
	} else {
		fputs("none", f);
	}
	fputs("; alpha: ", f);
	if (p->has_alpha) {
		fprintf(f, "0..%" PRIu64, p->alpha_max);
	} else {
		fputs("none", f);
	}
	fputs("; blend: ", f);
	if (p->blend_modes) {
		print_bits(f, p->blend_modes, blend_names, 3);
	} else {
		fputs("none (pre-multiplied)", f);
	}
	fputc('\n', f);
	if (p->size_hint_count) {
		fputs("    cursor size hints:", f);
		for (size_t i = 0; i < p->size_hint_count; i++) {
			fprintf(f, " %ux%u", p->size_hints[i][0], p->size_hints[i][1]);
		}
		fputc('\n', f);
	}
	fprintf(f, "    assumed: %s%s%s\n", p->can_scale ? "scales" : "no scaling",
		p->solid_fill ? ", solid fill" : "",
		p->cursor_size_limit ? ", cursor size limit" : "");
}

/* The device read and, when the dump holds several, each of them and why that one. */
static void print_devices(FILE *f, const struct board *board)
{
	if (board->device_count == 0) {
		return;
	}
	if (board->device_count == 1) {
		const struct board_device *d = &board->devices[0];

		fprintf(f, "device  %s%s\n", d->node, d->connected && d->connected ==
			d->connected_non_desktop ? " (what is connected is all non-desktop, a headset "
			"or touch bar: no desktop would be shown here)" : "");
		return;
	}
	fprintf(f, "device  %zu of %zu, %s: %s\n", board->device_index + 1, board->device_count,
		board->devices[board->device_index].node, board_device_pick_reason(board->device_pick));
	for (size_t i = 0; i < board->device_count; i++) {
		const struct board_device *d = &board->devices[i];

		fprintf(f, "  %c %zu %s  driver %s, %" PRIu32 " CRTC%s, ",
			i == board->device_index ? '*' : ' ', i + 1, d->node,
			d->driver[0] ? d->driver : "(unknown)", d->crtcs, d->crtcs == 1 ? "" : "s");
		if (d->connected == 0) {
			fputs("nothing connected\n", f);
		} else if (d->connected_non_desktop == 0) {
			fprintf(f, "%" PRIu32 " connected\n", d->connected);
		} else {
			fprintf(f, "%" PRIu32 " connected, %" PRIu32 " of them non-desktop\n",
				d->connected, d->connected_non_desktop);
		}
	}
}

void board_print(FILE *f, const struct board *board)
{
	char name[12];

	fprintf(f, "board   %s\n", board->name);
	print_devices(f, board);
	fprintf(f, "driver  %s\n", board->driver[0] ? board->driver : "(unknown)");
	fprintf(f, "crtcs   %zu:", board->crtc_count);
	for (size_t i = 0; i < board->crtc_count; i++) {
		fprintf(f, " %zu (id %" PRIu32 ")", i, board->crtc_ids[i]);
	}
	fprintf(f, "\nmodelled CRTC %" PRIu32 " (id %" PRIu32 "), ", board->crtc_index, board->crtc_id);
	if (board->width && board->height) {
		fprintf(f, "%" PRIu32 "x%" PRIu32 "%s\n", board->width, board->height,
			board->mode_from_crtc_only ? " (no connector: the CRTC's recorded mode)" : "");
	} else {
		fputs("mode unknown (no CRTC has a mode, no connected connector lists one)\n", f);
	}
	if (board->cursor_width) {
		fprintf(f, "cursor  %" PRIu32 "x%" PRIu32 " (DRM_CAP_CURSOR_*)\n", board->cursor_width,
			board->cursor_height);
	}
	fprintf(f, "writeback ");
	if (board->has_writeback) {
		for (size_t i = 0; i < board->writeback_format_count; i++) {
			fprintf(f, "%s%s", i ? " " : "", board_fourcc_name(board->writeback_formats[i],
				name));
		}
		fputc('\n', f);
	} else {
		fputs("none\n", f);
	}
	fprintf(f, "assumed (a dump cannot tell): primary %s, %s, %s, %s\n",
		board->primary_full_screen ? "full screen" : "positionable",
		board->primary_required ? "primary always on" : "primary may be off",
		board->max_active_planes ? "plane count limited" : "no plane-count limit",
		board->addfb_checks_format ? "framebuffers only in plane formats" :
			"framebuffers in any format");
	fprintf(f, "planes  %zu\n", board->plane_count);
	for (size_t i = 0; i < board->plane_count; i++) {
		print_plane(f, board, &board->planes[i]);
	}
}
