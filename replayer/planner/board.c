/* The board model: construction and look-ups (board.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

static char *copy_string(const char *s)
{
	size_t len = strlen(s ? s : "");
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, s ? s : "", len + 1);
	}
	return copy;
}

struct board *board_create(const char *name)
{
	struct board *board = calloc(1, sizeof(*board));

	if (!board) {
		return NULL;
	}
	board->name = copy_string(name);
	board->driver = copy_string("");
	if (!board->name || !board->driver) {
		board_destroy(board);
		return NULL;
	}
	return board;
}

void board_destroy(struct board *board)
{
	if (!board) {
		return;
	}
	for (size_t i = 0; i < board->plane_count; i++) {
		struct board_plane *plane = &board->planes[i];

		for (size_t j = 0; j < plane->format_count; j++) {
			free(plane->formats[j].modifiers);
		}
		free(plane->formats);
		free(plane->empty_modifiers);
	}
	free(board->planes);
	board_devices_free(board->devices, board->device_count);
	free(board->writeback_formats);
	free(board->driver);
	free(board->name);
	free(board);
}

int board_set_driver(struct board *board, const char *driver)
{
	char *copy = copy_string(driver);

	if (!copy) {
		return -ENOMEM;
	}
	free(board->driver);
	board->driver = copy;
	return 0;
}

struct board_plane *board_add_plane(struct board *board, uint32_t id, enum board_plane_type type)
{
	struct board_plane *planes, *plane;

	if (board->plane_count >= BOARD_MAX_PLANES) {
		return NULL;
	}
	planes = realloc(board->planes, (board->plane_count + 1) * sizeof(*planes));
	if (!planes) {
		return NULL;
	}
	board->planes = planes;
	plane = &planes[board->plane_count++];
	memset(plane, 0, sizeof(*plane));
	plane->id = id;
	plane->type = type;
	plane->rotations = BOARD_ROTATE_0;
	return plane;
}

int board_plane_add_format(struct board_plane *plane, uint32_t fourcc, uint64_t modifier)
{
	struct board_format *format = NULL;
	uint64_t *modifiers;

	for (size_t i = 0; i < plane->format_count; i++) {
		if (plane->formats[i].fourcc == fourcc) {
			format = &plane->formats[i];
			break;
		}
	}
	if (!format) {
		struct board_format *formats;

		if (plane->format_count >= BOARD_MAX_FORMATS) {
			return -E2BIG;
		}
		formats = realloc(plane->formats, (plane->format_count + 1) * sizeof(*formats));
		if (!formats) {
			return -ENOMEM;
		}
		plane->formats = formats;
		format = &formats[plane->format_count++];
		memset(format, 0, sizeof(*format));
		format->fourcc = fourcc;
	}
	for (size_t i = 0; i < format->modifier_count; i++) {
		if (format->modifiers[i] == modifier) {
			return 0;
		}
	}
	if (format->modifier_count >= BOARD_MAX_MODIFIERS) {
		return -E2BIG;
	}
	modifiers = realloc(format->modifiers, (format->modifier_count + 1) * sizeof(*modifiers));
	if (!modifiers) {
		return -ENOMEM;
	}
	format->modifiers = modifiers;
	modifiers[format->modifier_count++] = modifier;
	return 0;
}

int board_plane_add_empty_modifier(struct board_plane *plane, uint64_t modifier)
{
	uint64_t *modifiers;

	for (size_t i = 0; i < plane->empty_modifier_count; i++) {
		if (plane->empty_modifiers[i] == modifier) {
			return 0;
		}
	}
	if (plane->empty_modifier_count >= BOARD_MAX_MODIFIERS) {
		return -E2BIG;
	}
	modifiers = realloc(plane->empty_modifiers,
		(plane->empty_modifier_count + 1) * sizeof(*modifiers));
	if (!modifiers) {
		return -ENOMEM;
	}
	plane->empty_modifiers = modifiers;
	modifiers[plane->empty_modifier_count++] = modifier;
	return 0;
}

int board_add_writeback_format(struct board *board, uint32_t fourcc)
{
	uint32_t *formats;

	if (board->writeback_format_count >= BOARD_MAX_FORMATS) {
		return -E2BIG;
	}
	formats = realloc(board->writeback_formats,
		(board->writeback_format_count + 1) * sizeof(*formats));
	if (!formats) {
		return -ENOMEM;
	}
	board->writeback_formats = formats;
	formats[board->writeback_format_count++] = fourcc;
	return 0;
}

const struct board_plane *board_find_plane(const struct board *board, uint32_t id)
{
	for (size_t i = 0; i < board->plane_count; i++) {
		if (board->planes[i].id == id) {
			return &board->planes[i];
		}
	}
	return NULL;
}

const struct board_format *board_plane_find_format(const struct board_plane *plane, uint32_t fourcc)
{
	for (size_t i = 0; i < plane->format_count; i++) {
		if (plane->formats[i].fourcc == fourcc) {
			return &plane->formats[i];
		}
	}
	return NULL;
}

bool board_plane_has_format(const struct board_plane *plane, uint32_t fourcc, uint64_t modifier)
{
	const struct board_format *format = board_plane_find_format(plane, fourcc);

	if (!format) {
		return false;
	}
	if (modifier == BOARD_MOD_INVALID) {
		return true;
	}
	for (size_t i = 0; i < format->modifier_count; i++) {
		if (format->modifiers[i] == modifier) {
			return true;
		}
	}
	return false;
}

bool board_any_plane_has_format(const struct board *board, uint32_t fourcc, uint64_t modifier)
{
	for (size_t i = 0; i < board->plane_count; i++) {
		if (board_plane_has_format(&board->planes[i], fourcc, modifier)) {
			return true;
		}
	}
	return false;
}

bool board_plane_usable(const struct board *board, const struct board_plane *plane)
{
	return board->crtc_index < 32 && (plane->possible_crtcs & (1u << board->crtc_index)) != 0;
}

int64_t board_plane_rank(const struct board_plane *plane)
{
	int64_t class;

	if (plane->has_zpos) {
		return plane->zpos;
	}
	switch (plane->type) {
	case BOARD_PLANE_PRIMARY:
		class = 0;
		break;
	case BOARD_PLANE_CURSOR:
		class = 2;
		break;
	default:
		class = 1;
		break;
	}
	return class * ((int64_t)1 << 32) + (int64_t)plane->id;
}

const struct board_plane *board_primary(const struct board *board)
{
	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *plane = &board->planes[i];

		if (plane->type == BOARD_PLANE_PRIMARY && board_plane_usable(board, plane)) {
			return plane;
		}
	}
	return NULL;
}

const char *board_plane_type_name(enum board_plane_type type)
{
	switch (type) {
	case BOARD_PLANE_OVERLAY:
		return "overlay";
	case BOARD_PLANE_PRIMARY:
		return "primary";
	case BOARD_PLANE_CURSOR:
		return "cursor";
	}
	return "unknown";
}
