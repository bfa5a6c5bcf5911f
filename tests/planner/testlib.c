/* Helpers of the planner tests (testlib.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "plane_check.h"
#include "testlib.h"

struct check_tally check_tally;

bool tl_contains(const char *haystack, const char *needle)
{
	return haystack && strstr(haystack, needle);
}

int tl_main(int argc, char **argv, const struct tl_case *cases, size_t count)
{
	const char *dir = argc > 2 ? argv[2] : ".";
	bool ran = false;

	for (size_t i = 0; i < count; i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name) != 0) {
			continue;
		}
		fprintf(stderr, "case %s\n", cases[i].name);
		cases[i].run(dir);
		ran = true;
	}
	if (!ran) {
		fprintf(stderr, "no case named %s\n", argc > 1 ? argv[1] : "(none)");
		return 1;
	}
	return check_status();
}

static void path_of(char *out, size_t size, const char *dir, const char *file)
{
	snprintf(out, size, "%s/%s", dir, file);
}

struct board *tl_board(const char *dir, const char *file)
{
	struct hwct_error err;
	char path[4096];
	struct board *board;

	path_of(path, sizeof(path), dir, file);
	board = board_from_file(path, NULL, &err);
	if (!board) {
		fprintf(stderr, "cannot load %s: %s\n", path, err.message);
		abort();
	}
	return board;
}

struct json_object *tl_json(const char *dir, const char *file)
{
	char path[4096];
	struct json_object *root;

	path_of(path, sizeof(path), dir, file);
	root = json_object_from_file(path);
	if (!root) {
		fprintf(stderr, "cannot parse %s\n", path);
		abort();
	}
	return root;
}

struct json_object *tl_node(struct json_object *root)
{
	struct json_object_iterator it = json_object_iter_begin(root);

	return json_object_iter_peek_value(&it);
}

/*
 * Splits path at its last component: *parent_path (copied into buf) and the
 * key or index of the last step.
 */
static bool split(const char *path, char *buf, size_t size, char *key, size_t key_size,
	long *index)
{
	const char *dot = strrchr(path, '.');
	const char *bracket = strrchr(path, '[');
	const char *cut = dot > bracket ? dot : bracket;
	size_t len;

	*index = -1;
	if (!cut) {
		buf[0] = '\0';
		snprintf(key, key_size, "%s", path);
		return true;
	}
	len = (size_t)(cut - path);
	if (len >= size) {
		return false;
	}
	memcpy(buf, path, len);
	buf[len] = '\0';
	if (cut == bracket) {
		*index = strtol(cut + 1, NULL, 10);
		key[0] = '\0';
	} else {
		snprintf(key, key_size, "%s", cut + 1);
	}
	return true;
}

struct json_object *tl_get(struct json_object *obj, const char *path)
{
	char step[256];
	const char *p = path;

	while (obj && *p) {
		size_t n = strcspn(p, ".[");

		if (n == 0 && *p == '[') {
			long i = strtol(p + 1, NULL, 10);

			if (!json_object_is_type(obj, json_type_array) || i < 0 ||
				(size_t)i >= json_object_array_length(obj)) {
				return NULL;
			}
			const char *close = strchr(p, ']');

			obj = json_object_array_get_idx(obj, (size_t)i);
			p = close ? close + 1 : p + strlen(p);
		} else {
			if (n >= sizeof(step)) {
				return NULL;
			}
			memcpy(step, p, n);
			step[n] = '\0';
			if (!json_object_object_get_ex(obj, step, &obj)) {
				return NULL;
			}
			p += n;
		}
		if (*p == '.') {
			p++;
		}
	}
	return obj;
}

bool tl_set(struct json_object *obj, const char *path, struct json_object *value)
{
	char parent_path[512], key[256];
	struct json_object *parent;
	long index;

	if (!split(path, parent_path, sizeof(parent_path), key, sizeof(key), &index)) {
		json_object_put(value);
		return false;
	}
	parent = parent_path[0] ? tl_get(obj, parent_path) : obj;
	if (!parent) {
		json_object_put(value);
		return false;
	}
	if (index >= 0 && json_object_is_type(parent, json_type_array)) {
		return json_object_array_put_idx(parent, (size_t)index, value) == 0;
	}
	if (index < 0 && json_object_is_type(parent, json_type_object)) {
		return json_object_object_add(parent, key, value) == 0;
	}
	json_object_put(value);
	return false;
}

void tl_scene_init(struct tl_scene *s, uint32_t width, uint32_t height)
{
	memset(s, 0, sizeof(*s));
	s->scene.width = width;
	s->scene.height = height;
	s->scene.layers = s->layers;
}

struct scene_layer *tl_scene_add(struct tl_scene *s, uint32_t fourcc, int32_t x, int32_t y,
	int32_t w, int32_t h)
{
	size_t i = s->scene.layer_count;
	struct scene_image *img = &s->images[i];
	struct scene_layer *l = &s->layers[i];

	if (i >= TL_MAX_LAYERS) {
		abort();
	}
	*img = (struct scene_image){
		.fourcc = fourcc,
		.modifier = BOARD_MOD_LINEAR,
		.width = (uint32_t)w,
		.height = (uint32_t)h,
		.plane_count = 1,
		.stride = { (uint32_t)w * 4 },
	};
	*l = (struct scene_layer){
		.id = 100 + i,
		.z = (int32_t)i,
		.composition = HWC2_COMPOSITION_DEVICE,
		.image = img,
		.crop = { 0.0f, 0.0f, (float)w, (float)h },
		.frame = { x, y, x + w, y + h },
		.transform = 0,
		.blend = HWC2_BLEND_MODE_PREMULTIPLIED,
		.alpha = 1.0f,
		.acquire_fence = -1,
	};
	s->scene.layer_count++;
	return l;
}

/*
 * The configuration a plan keeps is the one to commit: it shows exactly the
 * layers the plan put on planes, on those planes, the client target where
 * the plan says, and the tester (or the profile check) takes it.
 */
static void check_candidate(const struct board *board, const struct scene *scene,
	const struct board_tester *tester, const struct plan *plan)
{
	struct plan_candidate cand;
	size_t on_planes = 0;

	for (size_t i = 0; i < plan->layer_count; i++) {
		on_planes += plan->layers[i].plane_id != 0;
	}
	if (!plan_get_candidate(plan, &cand)) {
		if (on_planes) {
			fprintf(stderr, "plan has layers on planes but no accepted configuration\n");
			abort();
		}
		return;
	}
	if (cand.count != on_planes || (plan->client_target_plane &&
		(!cand.has_client_target || cand.client_target.plane_id != plan->client_target_plane))) {
		fprintf(stderr, "accepted configuration does not match the plan: %s\n", tl_line(plan));
		abort();
	}
	for (size_t i = 0; i < cand.count; i++) {
		if (cand.planes[i].layer >= scene->layer_count ||
			plan->layers[cand.planes[i].layer].plane_id != cand.planes[i].plane_id) {
			fprintf(stderr, "configuration entry %zu does not match the plan: %s\n", i, tl_line(plan));
			abort();
		}
	}
	if (!tester && profile_test(board, &cand) != 0) {
		fprintf(stderr, "the profile refuses the accepted configuration: %s\n", tl_line(plan));
		abort();
	}
}

struct plan *tl_plan(const char *name, const struct board *board, const struct scene *scene,
	const struct board_tester *tester, const struct planner_options *opts)
{
	struct planner_options defaults;
	struct plan *plan;
	int ret;

	if (!opts) {
		/* Deterministic unless a case asks for a budget. */
		planner_options_init(&defaults);
		defaults.budget_ns = INT64_MAX;
		opts = &defaults;
	}
	ret = planner_run(planner_find(name), opts, board, scene, tester, &plan);
	if (ret) {
		fprintf(stderr, "planner %s failed: %d\n", name, ret);
		abort();
	}
	check_candidate(board, scene, tester, plan);
	return plan;
}

const char *tl_line(const struct plan *plan)
{
	static char line[2048];

	return plan_format(plan, line, sizeof(line));
}

bool tl_order_kept(const struct board *board, const struct scene *scene, const struct plan *plan)
{
	const struct board_plane *target = plan->client_target_plane ?
		board_find_plane(board, plan->client_target_plane) : NULL;

	for (size_t i = 0; i < scene->layer_count; i++) {
		for (size_t j = i + 1; j < scene->layer_count; j++) {
			const struct board_plane *pi = board_find_plane(board, plan->layers[i].plane_id);
			const struct board_plane *pj = board_find_plane(board, plan->layers[j].plane_id);

			pi = pi ? pi : target;
			pj = pj ? pj : target;
			if (!pi || !pj || pi == pj ||
				!plane_check_layers_intersect(&scene->layers[i], &scene->layers[j])) {
				continue;
			}
			/* The primary is the bottom of vkms's stack, then by rank. */
			if (board_plane_rank(pi) >= board_plane_rank(pj)) {
				return false;
			}
		}
	}
	return true;
}

int tl_retest(const struct board *board, const struct scene *scene, const struct plan *plan)
{
	struct plan_plane_state states[TL_MAX_LAYERS];
	struct plan_candidate cand = { .planes = states };
	struct planner_options opts;
	size_t n = 0;

	planner_options_init(&opts);
	for (size_t i = 0; i < plan->layer_count && n < TL_MAX_LAYERS; i++) {
		const struct board_plane *plane = board_find_plane(board, plan->layers[i].plane_id);

		if (plane) {
			plane_check_state(board, plane, scene, i, 0, &states[n++]);
		}
	}
	cand.count = n;
	if (plan->needs_client_target && plan->client_target_plane) {
		const struct board_plane *plane = board_find_plane(board, plan->client_target_plane);
		const struct board_plane *primary = board_primary(board);
		struct plan_plane_state *t = &cand.client_target;

		if (!plane) {
			return -EINVAL;
		}
		cand.has_client_target = true;
		*t = (struct plan_plane_state){
			.plane_id = plane->id,
			.layer = PLAN_LAYER_CLIENT_TARGET,
			.fourcc = board_plane_has_format(plane, AR24, BOARD_MOD_LINEAR) ||
				plane != primary ? AR24 : XR24,
			.fb_width = board->width,
			.fb_height = board->height,
			.src_w = board->width << 16,
			.src_h = board->height << 16,
			.crtc_w = board->width,
			.crtc_h = board->height,
			.rotation = BOARD_ROTATE_0,
			.alpha = 0xffff,
		};
	}
	return profile_test(board, &cand);
}
