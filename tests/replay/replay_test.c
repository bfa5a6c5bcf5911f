/*
 * replay-test HWC_REPLAY SOURCE_ROOT CASE: one named case of hwc-replay's
 * tests, run against the built program on the project's board profiles,
 * reference traces and traces the case writes itself (replay_gen.h).
 */
#include <string.h>

#include "tests.h"

static const struct {
	const char *name;
	test_case_fn run;
} cases[] = {
	{ "reference-home", test_reference_home },
	{ "reference-video", test_reference_video },
	{ "deterministic", test_deterministic },
	{ "boards-differ", test_boards_differ },
	{ "frames-middle", test_frames_middle },
	{ "loop", test_loop },
	{ "no-pixels", test_no_pixels },
	{ "mode-map", test_mode_map },
	{ "missing-content", test_missing_content },
	{ "timing", test_timing },
	{ "gl-compositor", test_gl_compositor },
	{ "expect-self", test_expect_self },
	{ "expect-edited", test_expect_edited },
	{ "expect-renumbered", test_expect_renumbered },
	{ "expect-planner", test_expect_planner },
	{ "expect-untestable", test_expect_untestable },
	{ "expect-images", test_expect_images },
	{ "dump-images", test_dump_images },
	{ "dump-images-no-png", test_dump_images_no_png },
	{ "dump-symlink-dir", test_dump_symlink_dir },
	{ "dump-planted-symlink", test_dump_planted_symlink },
	{ "corrupt-trace", test_corrupt_trace },
	{ "truncated-trace", test_truncated_trace },
	{ "missing-board", test_missing_board },
	{ "cli-usage", test_cli_usage },
	{ "targets", test_targets },
	{ "results-reader", test_results_reader },
	{ "json-integers", test_json_integers },
	{ "format-fallback", test_format_fallback },
	{ "format-fallback-convert", test_format_fallback_convert },
	{ "mode", test_mode },
	{ "assumed", test_assumed },
};

int main(int argc, char **argv)
{
	struct fixture fx;

	if (argc != 4) {
		fprintf(stderr, "usage: replay-test HWC_REPLAY SOURCE_ROOT CASE\n");
		return 2;
	}
	fx = (struct fixture){ .replay = argv[1], .source_root = argv[2] };
	snprintf(fx.overlays, sizeof(fx.overlays), "%s/tests/data/boards/vkms-6.1-overlays.json", argv[2]);
	snprintf(fx.no_overlays, sizeof(fx.no_overlays), "%s/tests/data/boards/vkms-6.1-no-overlays.json", argv[2]);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].name, argv[3]) == 0) {
			return cases[i].run(&fx);
		}
	}
	fprintf(stderr, "replay-test: no case '%s'\n", argv[3]);
	return 2;
}
