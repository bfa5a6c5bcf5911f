/* The cases of replay-test, one meson test() each. */
#ifndef HWCT_TESTS_REPLAY_TESTS_H
#define HWCT_TESTS_REPLAY_TESTS_H

#include "testlib.h"

typedef int (*test_case_fn)(const struct fixture *fx);

/* test_reference.c */
int test_reference_home(const struct fixture *fx);
int test_reference_video(const struct fixture *fx);
int test_deterministic(const struct fixture *fx);
int test_boards_differ(const struct fixture *fx);
int test_frames_middle(const struct fixture *fx);
int test_loop(const struct fixture *fx);
int test_no_pixels(const struct fixture *fx);
int test_mode_map(const struct fixture *fx);
int test_missing_content(const struct fixture *fx);
int test_timing(const struct fixture *fx);
int test_gl_compositor(const struct fixture *fx);

/* test_expect.c */
int test_expect_self(const struct fixture *fx);
int test_expect_edited(const struct fixture *fx);
int test_expect_renumbered(const struct fixture *fx);
int test_expect_planner(const struct fixture *fx);
int test_expect_untestable(const struct fixture *fx);
int test_expect_images(const struct fixture *fx);

/* test_safety.c */
int test_dump_images(const struct fixture *fx);
int test_dump_images_no_png(const struct fixture *fx);
int test_dump_symlink_dir(const struct fixture *fx);
int test_dump_planted_symlink(const struct fixture *fx);
int test_corrupt_trace(const struct fixture *fx);
int test_truncated_trace(const struct fixture *fx);
int test_missing_board(const struct fixture *fx);

/* test_fallback.c */
int test_format_fallback(const struct fixture *fx);
int test_format_fallback_convert(const struct fixture *fx);
int test_mode(const struct fixture *fx);
int test_assumed(const struct fixture *fx);

/* test_cli.c */
int test_cli_usage(const struct fixture *fx);
int test_targets(const struct fixture *fx);
int test_results_reader(const struct fixture *fx);
int test_json_integers(const struct fixture *fx);

#endif
