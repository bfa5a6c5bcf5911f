/*
 * Helpers of the planner tests: named cases, boards, scenes, JSON edits of
 * a profile. Test code: failed checks print and count (check.h), allocation
 * failures abort.
 */
#ifndef HWCT_TESTS_PLANNER_TESTLIB_H
#define HWCT_TESTS_PLANNER_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"	/* CHECK, CHECK_INT, CHECK_STR, FAIL */
#include "board.h"
#include "planner.h"
#include "scene.h"

#define XR24 BOARD_FOURCC('X', 'R', '2', '4')
#define AR24 BOARD_FOURCC('A', 'R', '2', '4')
#define AB24 BOARD_FOURCC('A', 'B', '2', '4')
#define XR48 BOARD_FOURCC('X', 'R', '4', '8')
#define AR48 BOARD_FOURCC('A', 'R', '4', '8')
#define RG16 BOARD_FOURCC('R', 'G', '1', '6')
#define NV12 BOARD_FOURCC('N', 'V', '1', '2')

#define VKMS_OVERLAYS "vkms-6.1-overlays.json"
#define VKMS_NO_OVERLAYS "vkms-6.1-no-overlays.json"

/* One named case; dir is the board profiles' directory. Returns nothing: checks count failures. */
struct tl_case {
	const char *name;
	void (*run)(const char *dir);
};

/*
 * Runs the case named argv[1] (every case when absent) with argv[2] as dir.
 * Returns the exit status (check_status(), or 1 for an unknown case).
 */
int tl_main(int argc, char **argv, const struct tl_case *cases, size_t count);

/* Whether haystack holds needle (NULL haystack: false). */
bool tl_contains(const char *haystack, const char *needle);

/* dir/file loaded, or the test aborts. Free with board_destroy. */
struct board *tl_board(const char *dir, const char *file);

/* dir/file parsed to a JSON tree, or the test aborts. json_object_put it. */
struct json_object *tl_json(const char *dir, const char *file);

/* The first device node object of a drm_info tree (borrowed). */
struct json_object *tl_node(struct json_object *root);

/*
 * The member at path ("planes[3].properties.IN_FORMATS.data") under obj,
 * or NULL. tl_set replaces it (value owned; NULL means JSON null); the
 * parent must exist. Returns whether it could.
 */
struct json_object *tl_get(struct json_object *obj, const char *path);
bool tl_set(struct json_object *obj, const char *path, struct json_object *value);

#define TL_MAX_LAYERS 32

/* A scene and the storage it points into. Use in place: it points into itself. */
struct tl_scene {
	struct scene scene;
	struct scene_layer layers[TL_MAX_LAYERS];
	struct scene_image images[TL_MAX_LAYERS];
};

void tl_scene_init(struct tl_scene *s, uint32_t width, uint32_t height);

/*
 * Appends a DEVICE layer with a w x h buffer in fourcc (LINEAR) shown at
 * (x, y) unscaled, pre-multiplied, opaque, untransformed. Returns it for
 * changes (crop, transform, ...).
 */
struct scene_layer *tl_scene_add(struct tl_scene *s, uint32_t fourcc, int32_t x, int32_t y,
	int32_t w, int32_t h);

/* Runs planner name; aborts when it fails. Free with plan_destroy. */
struct plan *tl_plan(const char *name, const struct board *board, const struct scene *scene,
	const struct board_tester *tester, const struct planner_options *opts);

/* plan_format into a static buffer. */
const char *tl_line(const struct plan *plan);

/*
 * Whether plan, on board, keeps the z-order of overlapping layers (client
 * layers at the client target's plane) — checked independently of the
 * planners, by each plane's board_plane_rank.
 */
bool tl_order_kept(const struct board *board, const struct scene *scene, const struct plan *plan);

/*
 * Rebuilds the configuration plan stands for (layers on planes with their
 * properties, the client target) and asks the profile tester about it.
 */
int tl_retest(const struct board *board, const struct scene *scene, const struct plan *plan);

#endif
