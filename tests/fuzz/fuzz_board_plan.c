/* The planning half of the board fuzz targets (fuzz_board_plan.h). */
#include "fuzz_board_plan.h"

#include <hardware/hwcomposer2.h>
#include <json-c/json.h>

#include "planner.h"

#define BG BOARD_FOURCC('X', 'R', '2', '4')
#define FG BOARD_FOURCC('A', 'R', '2', '4')

static const struct scene_image images[] = {
	{ .fourcc = BG, .width = 1024, .height = 768, .plane_count = 1 },
	{ .fourcc = FG, .width = 300, .height = 200, .plane_count = 1 },
	{ .fourcc = FG, .width = 64, .height = 64, .plane_count = 1 },
};

/* One layer of each composition type a planner treats apart: opaque
 * background, a scaled translucent rotated overlay, a client layer, a
 * solid colour and a cursor. */
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

void fuzz_board_plan(const struct board *board)
{
	const struct scene scene = {
		.width = 1024, .height = 768, .layers = layers,
		.layer_count = sizeof(layers) / sizeof(layers[0]),
	};
	struct planner_options opts;

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
}
