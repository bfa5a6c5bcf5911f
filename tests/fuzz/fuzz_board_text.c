/*
 * libFuzzer target for pasted drm_info text (replayer/planner/board_text*.c): any
 * input ends in a board or a clean error, never a crash, a leak or
 * undefined behaviour. A board that loads is then planned on by both
 * planners (profile tester, bounded budget), so hostile capabilities reach
 * the static check, the tester and the search too. Seed the corpus with
 * the text dumps in tests/data/boards, tests/data/boards/real and
 * tests/data/boards/fixtures (tests/fuzz/seeds.txt).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hardware/hwcomposer2.h>
#include <json-c/json.h>

#include "board.h"
#include "planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BG BOARD_FOURCC('X', 'R', '2', '4')
#define FG BOARD_FOURCC('A', 'R', '2', '4')

static const struct scene_image images[] = {
	{ .fourcc = BG, .width = 1024, .height = 768, .plane_count = 1 },
	{ .fourcc = FG, .width = 300, .height = 200, .plane_count = 1 },
	{ .fourcc = FG, .width = 64, .height = 64, .plane_count = 1 },
};

static const struct scene_layer layers[] = {
	{ .id = 1, .z = 0, .composition = HWC2_COMPOSITION_DEVICE, .image = &images[0],
		.crop = { 0, 0, 1024, 768 }, .frame = { 0, 0, 1024, 768 }, .alpha = 1.0f,
		.blend = HWC2_BLEND_MODE_NONE, .acquire_fence = -1 },
	{ .id = 2, .z = 1, .composition = HWC2_COMPOSITION_DEVICE, .image = &images[1],
		.crop = { 0, 0, 300, 200 }, .frame = { 100, 100, 700, 500 }, .alpha = 0.5f,
		.blend = HWC2_BLEND_MODE_PREMULTIPLIED, .transform = 4, .acquire_fence = -1 },
	{ .id = 3, .z = 2, .composition = HWC2_COMPOSITION_CLIENT, .image = &images[1],
		.crop = { 0, 0, 300, 200 }, .frame = { 200, 200, 500, 400 }, .alpha = 1.0f,
		.blend = HWC2_BLEND_MODE_COVERAGE, .acquire_fence = -1 },
	{ .id = 4, .z = 3, .composition = HWC2_COMPOSITION_SOLID_COLOR, .frame = { 0, 0, 50, 50 },
		.alpha = 1.0f, .color = 0xff0000ff, .acquire_fence = -1 },
	{ .id = 5, .z = 4, .composition = HWC2_COMPOSITION_CURSOR, .image = &images[2],
		.crop = { 0, 0, 64, 64 }, .frame = { 500, 300, 564, 364 }, .alpha = 1.0f,
		.blend = HWC2_BLEND_MODE_PREMULTIPLIED, .acquire_fence = -1 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct scene scene = {
		.width = 1024, .height = 768, .layers = layers,
		.layer_count = sizeof(layers) / sizeof(layers[0]),
	};
	struct planner_options opts;
	struct hwct_error err;
	struct board *board;

	static FILE *null_out;

	board = board_from_drm_info_text((const char *)data, size, "fuzz", NULL, &err);
	if (!board) {
		return 0;
	}
	/* What hwc-trace board shows of it: devices, formats, modifiers with no format. */
	json_object_put(board_to_json(board));
	if (null_out || (null_out = fopen("/dev/null", "w"))) {
		board_print(null_out, board);
	}
	planner_options_init(&opts);
	opts.budget_ns = 200000;
	for (size_t i = 0; planner_at(i); i++) {
		struct plan *plan;
		char line[512];

		if (planner_run(planner_at(i), &opts, board, &scene, NULL, &plan) == 0) {
			json_object_put(plan_to_json(plan, &scene));
			plan_format(plan, line, sizeof(line));
			plan_destroy(plan);
		}
	}
	board_destroy(board);
	return 0;
}
