/*
 * The device of a dump to read (board.h): a dump may hold several devices
 * (a laptop's two GPUs, a USB display, a touch-bar panel). Without a
 * choice from the user, the board is the device a compositor would light:
 * one with a connected connector that is not marked "non-desktop" (the
 * connector property a VR headset or a touch bar carries, which a desktop
 * compositor leaves alone unless asked).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

int board_pick_device(const struct board_device *devices, size_t count, const char *asked,
	enum board_device_pick *pick)
{
	if (count == 0) {
		return -ENOENT;
	}
	if (asked) {
		char *end;
		unsigned long n = strtoul(asked, &end, 10);

		*pick = BOARD_PICK_ASKED;
		if (*asked >= '1' && *asked <= '9' && *end == '\0') {
			return n <= count ? (int)(n - 1) : -ENOENT;
		}
		for (size_t i = 0; i < count; i++) {
			const char *base = strrchr(devices[i].node, '/');

			if (strcmp(devices[i].node, asked) == 0 || (base && strcmp(base + 1, asked) == 0)) {
				return (int)i;
			}
		}
		return -ENOENT;
	}
	*pick = count == 1 ? BOARD_PICK_ONLY : BOARD_PICK_DESKTOP;
	for (size_t i = 0; i < count; i++) {
		if (devices[i].connected > devices[i].connected_non_desktop) {
			return (int)i;
		}
	}
	*pick = count == 1 ? BOARD_PICK_ONLY : BOARD_PICK_NON_DESKTOP;
	for (size_t i = 0; i < count; i++) {
		if (devices[i].connected) {
			return (int)i;
		}
	}
	*pick = count == 1 ? BOARD_PICK_ONLY : BOARD_PICK_FIRST;
	for (size_t i = 0; i < count; i++) {
		if (devices[i].crtcs) {
			return (int)i;
		}
	}
	return 0;
}

void board_set_devices(struct board *board, struct board_device *devices, size_t count,
	size_t index, enum board_device_pick pick)
{
	board_devices_free(board->devices, board->device_count);
	board->devices = devices;
	board->device_count = count;
	board->device_index = index;
	board->device_pick = pick;
}

void board_devices_free(struct board_device *devices, size_t count)
{
	if (!devices) {
		return;
	}
	for (size_t i = 0; i < count; i++) {
		free(devices[i].node);
		free(devices[i].driver);
	}
	free(devices);
}

size_t board_device_list(const struct board_device *devices, size_t count, char *out,
	size_t size)
{
	size_t used = 0;

	if (size > 0) {
		out[0] = '\0';
	}
	for (size_t i = 0; i < count && used < size; i++) {
		int n = snprintf(out + used, size - used, "%s%zu %s", i ? ", " : "", i + 1,
			devices[i].node);

		if (n < 0) {
			break;
		}
		used += (size_t)n;
	}
	return used < size ? used : size ? size - 1 : 0;
}

const char *board_device_pick_reason(enum board_device_pick pick)
{
	switch (pick) {
	case BOARD_PICK_ONLY:
		return "the only device";
	case BOARD_PICK_ASKED:
		return "asked for";
	case BOARD_PICK_DESKTOP:
		return "the first with a connected desktop connector";
	case BOARD_PICK_NON_DESKTOP:
		return "no device has a connected desktop connector: the first with a connected "
			"non-desktop one";
	case BOARD_PICK_FIRST:
		return "nothing is connected: the first device with a CRTC";
	}
	return "unknown";
}
