/*
 * The capability snapshot (kms_vm_test snapshot): kms_snapshot of the live
 * device equals `drm_info -j` of the same boot, except the volatile
 * framebuffer ids; the board built from the device equals the boards
 * board_from_drm_info_object builds from both dumps, and holds the vkms 6.1
 * facts (docs/platform.md §3).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <drm_fourcc.h>
#include <json-c/json.h>

#include "snapshot.h"
#include "vm_cases.h"

#define MAX_REPORTED 20

struct diff {
	int count;
};

/* Keys that hold framebuffer ids or what FB_ID points at: volatile. */
static bool volatile_key(const char *parent, const char *key)
{
	if (strcmp(key, "fb_id") == 0 || strcmp(key, "fb") == 0) {
		return true;
	}
	return strstr(parent, ".FB_ID") != NULL && (strcmp(key, "raw_value") == 0 ||
		strcmp(key, "value") == 0 || strcmp(key, "data") == 0);
}

static void report(struct diff *d, const char *path, const char *what)
{
	if (d->count++ < MAX_REPORTED) {
		fprintf(stderr, "  snapshot differs at %s: %s\n", path, what);
	}
}

static bool int_equal(struct json_object *a, struct json_object *b)
{
	return json_object_get_int64(a) == json_object_get_int64(b) &&
		json_object_get_uint64(a) == json_object_get_uint64(b);
}

static void compare(struct json_object *a, struct json_object *b, const char *path, struct diff *d)
{
	enum json_type ta = json_object_get_type(a), tb = json_object_get_type(b);
	char sub[512];

	if (ta != tb) {
		report(d, path, "types differ");
		return;
	}
	switch (ta) {
	case json_type_object: {
		json_object_object_foreach(a, key, va) {
			struct json_object *vb;

			snprintf(sub, sizeof(sub), "%s.%s", path, key);
			if (!json_object_object_get_ex(b, key, &vb)) {
				report(d, sub, "only in kms_snapshot");
			} else if (!volatile_key(path, key)) {
				compare(va, vb, sub, d);
			}
		}
		json_object_object_foreach(b, key2, vb2) {
			(void)vb2;
			if (!json_object_object_get_ex(a, key2, NULL)) {
				snprintf(sub, sizeof(sub), "%s.%s", path, key2);
				report(d, sub, "only in drm_info");
			}
		}
		break;
	}
	case json_type_array:
		if (json_object_array_length(a) != json_object_array_length(b)) {
			report(d, path, "array lengths differ");
			return;
		}
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			compare(json_object_array_get_idx(a, i), json_object_array_get_idx(b, i), sub, d);
		}
		break;
	case json_type_int:
		if (!int_equal(a, b)) {
			report(d, path, "numbers differ");
		}
		break;
	case json_type_string:
		if (strcmp(json_object_get_string(a), json_object_get_string(b)) != 0) {
			report(d, path, "strings differ");
		}
		break;
	case json_type_boolean:
		if (json_object_get_boolean(a) != json_object_get_boolean(b)) {
			report(d, path, "booleans differ");
		}
		break;
	case json_type_double:
		if (json_object_get_double(a) != json_object_get_double(b)) {
			report(d, path, "numbers differ");
		}
		break;
	case json_type_null:
		break;
	}
}

static bool same_formats(const struct board_plane *a, const struct board_plane *b)
{
	if (a->format_count != b->format_count || a->has_in_formats != b->has_in_formats) {
		return false;
	}
	for (size_t i = 0; i < a->format_count; i++) {
		const struct board_format *fa = &a->formats[i];
		const struct board_format *fb = board_plane_find_format(b, fa->fourcc);

		if (!fb || fb->modifier_count != fa->modifier_count ||
			memcmp(fa->modifiers, fb->modifiers, fa->modifier_count * sizeof(uint64_t)) != 0) {
			return false;
		}
	}
	return true;
}

static bool same_plane(const struct board_plane *a, const struct board_plane *b)
{
	return a->id == b->id && a->type == b->type && a->possible_crtcs == b->possible_crtcs &&
		same_formats(a, b) && a->rotations == b->rotations &&
		a->has_rotation == b->has_rotation && a->has_alpha == b->has_alpha &&
		a->alpha_max == b->alpha_max && a->blend_modes == b->blend_modes &&
		a->has_zpos == b->has_zpos && a->zpos_immutable == b->zpos_immutable &&
		a->zpos_min == b->zpos_min && a->zpos_max == b->zpos_max && a->zpos == b->zpos &&
		a->has_scaling_filter == b->has_scaling_filter && a->can_scale == b->can_scale &&
		a->solid_fill == b->solid_fill && a->cursor_size_limit == b->cursor_size_limit;
}

static bool same_board(const struct board *a, const struct board *b, const char *what)
{
	bool ok = CHECK(strcmp(a->driver, b->driver) == 0 && a->crtc_id == b->crtc_id &&
		a->crtc_index == b->crtc_index && a->width == b->width && a->height == b->height &&
		a->cursor_width == b->cursor_width && a->cursor_height == b->cursor_height &&
		a->has_writeback == b->has_writeback &&
		a->writeback_format_count == b->writeback_format_count &&
		a->primary_full_screen == b->primary_full_screen &&
		a->primary_required == b->primary_required &&
		a->max_active_planes == b->max_active_planes &&
		a->plane_count == b->plane_count, "%s: board fields differ", what);

	for (size_t i = 0; ok && i < a->plane_count; i++) {
		ok = CHECK(same_plane(&a->planes[i], &b->planes[i]), "%s: plane %u differs", what,
			a->planes[i].id);
	}
	for (size_t i = 0; ok && i < a->writeback_format_count; i++) {
		ok = CHECK(a->writeback_formats[i] == b->writeback_formats[i],
			"%s: writeback formats differ", what);
	}
	return ok;
}

static bool has_exactly(const struct board_plane *p, const uint32_t *formats, size_t n)
{
	if (p->format_count != n) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const struct board_format *f = board_plane_find_format(p, formats[i]);

		if (!f || f->modifier_count != 1 || f->modifiers[0] != DRM_FORMAT_MOD_LINEAR) {
			return false;
		}
	}
	return true;
}

/* Linux 6.1 vkms: vkms_plane.c formats, no rotation/alpha/blend/zpos, no scaling. */
static bool vkms_facts(const struct board *board, size_t expect_overlays, bool expect_writeback)
{
	static const uint32_t primary[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616,
		DRM_FORMAT_RGB565 };
	static const uint32_t others[] = { DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888,
		DRM_FORMAT_XRGB16161616, DRM_FORMAT_ARGB16161616, DRM_FORMAT_RGB565 };
	size_t count[3] = { 0 };
	bool ok = true;

	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *p = &board->planes[i];
		bool is_primary = p->type == BOARD_PLANE_PRIMARY;

		count[p->type]++;
		ok = CHECK(is_primary ? has_exactly(p, primary, 3) : has_exactly(p, others, 5),
			"plane %u: formats are not vkms's", p->id) && ok;
		ok = CHECK(p->has_in_formats && !p->has_rotation && !p->has_alpha &&
			!p->blend_modes && !p->has_zpos && !p->can_scale,
			"plane %u: properties are not vkms's", p->id) && ok;
	}
	printf("snapshot: board %s: %zu primary, %zu overlay, %zu cursor planes, writeback %s\n",
		board->driver, count[BOARD_PLANE_PRIMARY], count[BOARD_PLANE_OVERLAY],
		count[BOARD_PLANE_CURSOR], board->has_writeback ? "yes" : "no");
	ok = CHECK(strcmp(board->driver, "vkms") == 0, "driver %s", board->driver) && ok;
	ok = CHECK(count[BOARD_PLANE_PRIMARY] == 1 && count[BOARD_PLANE_CURSOR] == 1 &&
		count[BOARD_PLANE_OVERLAY] == expect_overlays, "expected 1 primary, %zu overlays, "
		"1 cursor", expect_overlays) && ok;
	ok = CHECK(board->primary_full_screen, "the primary need not be full screen") && ok;
	ok = CHECK(expect_writeback ? board->has_writeback && board->writeback_format_count == 4 &&
		board->writeback_formats[0] == DRM_FORMAT_XRGB8888 : !board->has_writeback,
		"writeback is not as expected") && ok;
	return ok;
}

/* Without a writeback connector, readback says so. */
static bool no_readback(struct kms_device *dev)
{
	struct hwct_error err;
	struct kms_readback *rb = kms_readback_create(dev, &err);

	printf("snapshot: readback: %s\n", rb ? "available" : err.message);
	kms_readback_destroy(rb);
	return CHECK(!rb && err.code == -ENOTSUP && strstr(err.message, "no readback"),
		"kms_readback_create without writeback: %d %s", err.code, err.message);
}

bool vt_case_snapshot(const char *path, const char *drm_info_json, size_t expect_overlays,
	bool expect_writeback)
{
	struct hwct_error err;
	struct kms_device *dev = kms_device_open(path, &err);
	struct json_object *snap = NULL, *dump = NULL;
	struct board *from_snap = NULL, *from_dump = NULL;
	bool ok;

	if (!CHECK(dev != NULL, "kms_device_open: %s", err.message)) {
		return false;
	}
	snap = kms_snapshot(dev, &err);
	ok = CHECK(snap != NULL, "kms_snapshot: %s", err.message);
	if (ok) {
		from_snap = board_from_drm_info_object(snap, "kms_snapshot", NULL, &err);
		ok = CHECK(from_snap != NULL, "board from kms_snapshot: %s", err.message) &&
			same_board(kms_device_board(dev), from_snap, "device vs its snapshot");
	}
	if (ok && drm_info_json) {
		struct diff d = { 0 };

		dump = json_object_from_file(drm_info_json);
		ok = CHECK(dump != NULL, "cannot read %s", drm_info_json);
		if (ok) {
			compare(snap, dump, "", &d);
			printf("snapshot: %zu planes compared with drm_info -j: %d differences "
				"(FB ids ignored)\n", json_object_array_length(json_object_object_get(
				json_object_object_get(snap, kms_device_path(dev)), "planes")), d.count);
			ok = CHECK(d.count == 0, "kms_snapshot differs from drm_info -j in %d places",
				d.count);
			from_dump = board_from_drm_info_object(dump, drm_info_json, NULL, &err);
			ok = CHECK(from_dump != NULL, "board from drm_info: %s", err.message) &&
				same_board(kms_device_board(dev), from_dump, "device vs drm_info") && ok;
		}
	}
	ok = vkms_facts(kms_device_board(dev), expect_overlays, expect_writeback) && ok;
	if (!expect_writeback) {
		ok = no_readback(dev) && ok;
	}
	board_destroy(from_snap);
	board_destroy(from_dump);
	json_object_put(snap);
	json_object_put(dump);
	kms_device_destroy(dev);
	return ok;
}
