/*
 * libFuzzer target for pasted drm_info text (replayer/planner/board_text*.c): any
 * input ends in a board or a clean error, never a crash, a leak or
 * undefined behaviour. A board that loads is shown as hwc-trace board shows
 * it, then planned on by every planner (fuzz_board_plan.c). Seed the corpus
 * with the text dumps in tests/data/boards, tests/data/boards/real and
 * tests/data/boards/fixtures (tests/fuzz/seeds.txt).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "board.h"
#include "fuzz_board_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null_out;
	struct hwct_error err;
	struct board *board;

	board = board_from_drm_info_text((const char *)data, size, "fuzz", NULL, &err);
	if (!board) {
		return 0;
	}
	/* What hwc-trace board shows of it: devices, formats, modifiers with no format. */
	json_object_put(board_to_json(board));
	if (null_out || (null_out = fopen("/dev/null", "w"))) {
		board_print(null_out, board);
	}
	fuzz_board_plan(board);
	board_destroy(board);
	return 0;
}
