/*
 * Board profile files (board.h): drm_info JSON or drm_info text, told apart
 * by content, and the choice of one device in a text paste that holds
 * several.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hwct/limits.h>

#include "board_text.h"

/* Whether the device at root has a connector whose status is connected. */
static bool has_connected(const struct btext_tree *t, const struct btext_node *root)
{
	const struct btext_node *list = btext_child(t, root, "Connectors", true);

	for (const struct btext_node *c = btext_at(t, list ? list->first_child : BTEXT_NONE); c;
		c = btext_at(t, c->next)) {
		const struct btext_node *s = btext_child(t, c, "Status:", false);

		if (s && strcmp(s->text, "Status: connected") == 0) {
			return true;
		}
	}
	return false;
}

static const struct btext_node *pick_device(const struct btext_tree *t, const char *device,
	const char *name, struct hwct_error *err)
{
	if (device) {
		char *end;
		unsigned long n = strtoul(device, &end, 10);

		if (*device >= '1' && *device <= '9' && *end == '\0') {
			if (n > t->root_count) {
				hwct_error_set(err, -ENOENT, name, UINT64_MAX, "device %lu asked for, the "
					"paste holds %zu", n, t->root_count);
				return NULL;
			}
			return btext_at(t, t->roots[n - 1]);
		}
		for (size_t i = 0; i < t->root_count; i++) {
			const struct btext_node *root = btext_at(t, t->roots[i]);

			if (strcmp(root->text + 5 + (root->text[5] == ' '), device) == 0) {
				return root;
			}
		}
		hwct_error_set(err, -ENOENT, name, UINT64_MAX, "no device \"Node: %s\"", device);
		return NULL;
	}
	for (size_t i = 0; i < t->root_count; i++) {
		if (has_connected(t, btext_at(t, t->roots[i]))) {
			return btext_at(t, t->roots[i]);
		}
	}
	return btext_at(t, t->roots[0]);
}

struct board *board_from_drm_info_text(const char *data, size_t size, const char *name,
	const char *device, struct hwct_error *err)
{
	struct btext_tree tree;
	const struct btext_node *root;
	struct board *board = NULL;

	name = name ? name : "board";
	if (btext_tree_build(&tree, data, size, name, err) == 0 &&
		(root = pick_device(&tree, device, name, err))) {
		board = btext_read_device(&tree, root, name, err);
	}
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
