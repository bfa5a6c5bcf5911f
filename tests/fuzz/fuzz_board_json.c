/*
 * libFuzzer target for board profiles (replayer/planner/board_json.c): any
 * input ends in a board or a clean error, never a crash, a leak or
 * undefined behaviour. A board that loads is then planned on by every
 * planner (fuzz_board_plan.c). Seed the corpus with the profiles in
 * tests/data/boards.
 */
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "fuzz_board_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwct_error err;
	struct board *board;

	board = board_from_drm_info_buffer((const char *)data, size, "fuzz", NULL, &err);
	if (!board) {
		return 0;
	}
	fuzz_board_plan(board);
	board_destroy(board);
	return 0;
}
