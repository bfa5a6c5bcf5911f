/*
 * What both board fuzz targets do with a board that loaded: plan a fixed
 * five-layer scene on it with every planner (profile tester, bounded
 * budget), so hostile capabilities reach the static check, the tester and
 * the search, then turn each plan into JSON and text.
 */
#ifndef HWCT_FUZZ_BOARD_PLAN_H
#define HWCT_FUZZ_BOARD_PLAN_H

#include "board.h"

/* Plans on board (borrowed; not destroyed). Never fails: a planner's
 * refusal is an outcome, not an error. */
void fuzz_board_plan(const struct board *board);

#endif
