/*
 * hwc-trace board: what the project understood of a board profile (a
 * drm_info JSON dump or a pasted drm_info text), so that a user can check a
 * paste before trusting a replay on it (replayer/planner/board_describe.c).
 */
#include <string.h>

#include <json-c/json.h>

#include "board.h"
#include "board_vkms.h"
#include "cli.h"

enum { OPT_JSON = 1, OPT_DEVICE, OPT_VKMS };

static const struct cli_option options[] = {
	{ "json", 0, false, OPT_JSON },
	{ "device", 0, true, OPT_DEVICE },
	{ "vkms", 0, false, OPT_VKMS },
	{ NULL, 0, false, 0 },
};

/* --vkms: the vkms configfs device hwc-replay --vm --board builds, then what it copies and
 * what it cannot, as comments. */
static int print_vkms(const struct board *board)
{
	struct board_vkms_notes notes;
	int ret = board_vkms_write(board, stdout, &notes);

	if (ret) {
		cli_error("%s: cannot shape a vkms device like it: %s", board->name, strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	for (size_t i = 0; i < notes.emulated_count; i++) {
		printf("# emulated: %s\n", notes.emulated[i]);
	}
	for (size_t i = 0; i < notes.not_emulated_count; i++) {
		printf("# not emulated: %s\n", notes.not_emulated[i]);
	}
	board_vkms_notes_finish(&notes);
	return CLI_EXIT_OK;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	const char *device = NULL, *path;
	struct cli_parser p;
	struct hwct_error err;
	struct board *board;
	bool json = false, vkms = false;
	int key, status = CLI_EXIT_OK;

	if (cli_parse_init(&p, cmd, options, argc, argv)) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	while ((key = cli_parse_next(&p)) > 0) {
		if (key == OPT_JSON) {
			json = true;
		} else if (key == OPT_VKMS) {
			vkms = true;
		} else {
			device = p.arg;
		}
	}
	if (key == CLI_KEY_HELP) {
		cli_print_command_help(stdout, cmd);
		cli_parse_finish(&p);
		return CLI_EXIT_OK;
	}
	if (key < 0 || p.positional_count != 1) {
		cli_parse_finish(&p);
		return key < 0 ? CLI_EXIT_USAGE : cli_usage_error(cmd, "one board file expected");
	}
	path = p.positional[0];
	board = board_from_file(path, device, &err);
	cli_parse_finish(&p);
	if (!board) {
		cli_error("%s", err.message);
		return CLI_EXIT_FAILURE;
	}
	cli_out_init();
	if (vkms) {
		status = print_vkms(board);
	} else if (json) {
		struct json_object *o = board_to_json(board);
		const char *base = strrchr(path, '/');

		json_object_object_add(o, "file", json_object_new_string(base ? base + 1 : path));
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
			JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
		fputc('\n', stdout);
		json_object_put(o);
	} else {
		board_print(stdout, board);
	}
	board_destroy(board);
	if (!cli_out_finish()) {
		status = CLI_EXIT_FAILURE;
	}
	return status;
}

const struct cli_command cmd_board = {
	.name = "board",
	.summary = "what a board profile (drm_info JSON or pasted text) was understood as",
	.synopsis = "BOARD [--json | --vkms] [--device NODE|N]",
	.options = "  --json            one JSON object: CRTCs, planes, formats x modifiers, zpos,\n"
		"                    rotation, blend, cursor sizes, writeback, assumptions\n"
		"  --vkms            the vkms device (configfs) that hwc-replay --vm --board builds\n"
		"                    for it, and what of the board it copies and what it cannot\n"
		"  --device NODE|N   the device of a dump holding several (default: the first\n"
		"                    with a connected desktop connector, not a headset or touch\n"
		"                    bar marked non-desktop)\n",
	.run = run,
};
