/*
 * Board profile files (board.h): drm_info JSON or drm_info text, told apart
 * by content, and the devices of a text paste that holds several (which
 * to read: board_device.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hwct/limits.h>

#include "board_text.h"

static char *copy_word(const char *s)
{
	size_t len = strcspn(s, " ");
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, s, len);
		copy[len] = '\0';
	}
	return copy;
}

/* The node, driver and connected connectors of each device of the paste. Returns them or NULL. */
static struct board_device *summarize(const struct btext_tree *t)
{
	struct board_device *devices = calloc(t->root_count, sizeof(*devices));

	for (size_t i = 0; devices && i < t->root_count; i++) {
		const struct btext_node *root = btext_at(t, t->roots[i]);
		const struct btext_node *driver = btext_child(t, root, "Driver: ", false);
		const struct btext_node *list = btext_child(t, root, "Connectors", true);
		const struct btext_node *crtcs = btext_child(t, root, "CRTCs", true);
		struct board_device *d = &devices[i];

		d->node = copy_word(root->text + 5 + (root->text[5] == ' '));
		d->driver = copy_word(driver ? driver->text + 8 : "");
		if (!d->node || !d->driver) {
			board_devices_free(devices, t->root_count);
			return NULL;
		}
		d->crtcs = crtcs ? (uint32_t)crtcs->child_count : 0;
		for (const struct btext_node *c = btext_at(t, list ? list->first_child : BTEXT_NONE);
			c; c = btext_at(t, c->next)) {
			if (btext_connected(t, c)) {
				d->connected++;
				d->connected_non_desktop += btext_non_desktop(t, c);
			}
		}
	}
	return devices;
}

struct board *board_from_drm_info_text(const char *data, size_t size, const char *name,
	const char *device, struct hwct_error *err)
{
	struct btext_tree tree;
	struct board_device *devices = NULL;
	enum board_device_pick pick;
	struct board *board = NULL;
	int index;

	name = name ? name : "board";
	if (btext_tree_build(&tree, data, size, name, err) != 0) {
		goto out;
	}
	devices = summarize(&tree);
	if (!devices) {
		hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
		goto out;
	}
	index = board_pick_device(devices, tree.root_count, device, &pick);
	if (index < 0) {
		char list[200];

		board_device_list(devices, tree.root_count, list, sizeof(list));
		if (device && strspn(device, "0123456789") == strlen(device) && *device) {
			hwct_error_set(err, -ENOENT, name, UINT64_MAX, "device %s asked for, the paste "
				"holds %zu (%s)", device, tree.root_count, list);
		} else {
			hwct_error_set(err, -ENOENT, name, UINT64_MAX, "no device \"Node: %s\" (the "
				"paste holds %s)", device ? device : "", list);
		}
		goto out;
	}
	board = btext_read_device(&tree, btext_at(&tree, tree.roots[index]), name, err);
	if (board) {
		board_set_devices(board, devices, tree.root_count, (size_t)index, pick);
		devices = NULL;
	}
out:
	board_devices_free(devices, tree.root_count);
	btext_tree_free(&tree);
	return board;
}

struct board *board_from_buffer(const char *data, size_t size, const char *name,
	const char *device, struct hwct_error *err)
{
	size_t i = 0;

	if (size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		i = 3;
	}
	while (i < size && strchr(" \t\r\n", data[i]) && data[i] != '\0') {
		i++;
	}
	if (i < size && data[i] == '{') {
		return board_from_drm_info_buffer(data, size, name, device, err);
	}
	return board_from_drm_info_text(data, size, name, device, err);
}

struct board *board_from_file(const char *path, const char *device, struct hwct_error *err)
{
	struct board *board;
	struct stat st;
	char *data;
	size_t got;
	FILE *f;

	hwct_error_clear(err);
	f = fopen(path, "rb");
	if (!f) {
		int code = -errno;

		hwct_error_set(err, code, path, UINT64_MAX, "%s", strerror(-code));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) {
		hwct_error_set(err, -EINVAL, path, UINT64_MAX, "not a regular file");
		fclose(f);
		return NULL;
	}
	if ((uint64_t)st.st_size > hwct_limits()->json_bytes) {
		hwct_error_set(err, -EFBIG, path, UINT64_MAX, "%lld bytes exceed the limit of %llu "
			"(HWCT_LIMIT_JSON_BYTES)", (long long)st.st_size,
			(unsigned long long)hwct_limits()->json_bytes);
		fclose(f);
		return NULL;
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data) {
		hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
		fclose(f);
		return NULL;
	}
	got = fread(data, 1, (size_t)st.st_size, f);
	fclose(f);
	if (got != (size_t)st.st_size) {
		hwct_error_set(err, -EIO, path, UINT64_MAX, "short read");
		free(data);
		return NULL;
	}
	board = board_from_buffer(data, got, path, device, err);
	free(data);
	return board;
}
