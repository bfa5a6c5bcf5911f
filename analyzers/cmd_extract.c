/*
 * hwc-trace extract: one display frame's layer buffers as PNG files, the
 * client target when captured, a preview of the whole stack composed by
 * the pixman compositor and a frame.json describing them (extract_*.c;
 * needs libpng and json-c: HWCT_HAVE_EXTRACT).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hwct_config.h"

#if HWCT_HAVE_EXTRACT
#include <json-c/json.h>

#include "extract.h"
#include "safe_dir.h"
#endif

enum {
	OPT_FRAME = 256,
	OPT_JSON,
};

static const struct cli_option options[] = {
	{ "frame", 0, true, OPT_FRAME },
	{ "json", 0, false, OPT_JSON },
	{ NULL, 0, false, 0 },
};

#if HWCT_HAVE_EXTRACT
static void print_file(FILE *f, const char *dir, struct json_object *entry, const char *what)
{
	struct json_object *file = json_object_object_get(entry, "file");
	struct json_object *skipped = json_object_object_get(entry, "skipped");

	if (file) {
		fprintf(f, "%s/%s  %s\n", dir, json_object_get_string(file), what);
	} else if (skipped) {
		fprintf(f, "(no file)  %s: %s\n", what, json_object_get_string(skipped));
	}
}

static void print_text(FILE *f, const char *dir, struct json_object *report)
{
	struct json_object *layers = json_object_object_get(report, "layers");
	struct json_object *ct = json_object_object_get(report, "client_target");
	struct json_object *pv = json_object_object_get(report, "preview");
	char what[160];

	for (size_t i = 0; i < json_object_array_length(layers); i++) {
		struct json_object *l = json_object_array_get_idx(layers, i);

		snprintf(what, sizeof(what), "layer %s z %s, %s",
			json_object_get_string(json_object_object_get(l, "id")),
			json_object_get_string(json_object_object_get(l, "z")),
			json_object_get_string(json_object_object_get(l, "final")));
		print_file(f, dir, l, what);
	}
	if (ct) {
		print_file(f, dir, ct, "client target");
	}
	if (pv) {
		print_file(f, dir, pv, "the stack composed by pixman");
	}
	fprintf(f, "%s/frame.json  the frame's layers and files\n", dir);
}
#endif

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct cli_parser p;
	bool json = false, has_frame = false;
	uint64_t frame = 0;
	char *end;
	int key, ret = CLI_EXIT_USAGE;

	if (cli_parse_init(&p, cmd, options, argc, argv) < 0) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	while ((key = cli_parse_next(&p)) > 0 || key == CLI_KEY_HELP) {
		if (key == CLI_KEY_HELP) {
			cli_print_command_help(stdout, cmd);
			cli_parse_finish(&p);
			return CLI_EXIT_OK;
		}
		if (key == OPT_FRAME) {
			errno = 0;
			frame = strtoull(p.arg, &end, 10);
			if (errno || end == p.arg || *end || p.arg[0] == '-') {
				cli_usage_error(cmd, "bad --frame '%s' (a FrameEnd.frame number)", p.arg);
				goto out;
			}
			has_frame = true;
		}
		json = key == OPT_JSON ? true : json;
	}
	if (key < 0) {
		goto out;
	}
	if (p.positional_count != 2 || !has_frame) {
		cli_usage_error(cmd, !has_frame ? "no --frame given" : p.positional_count < 2 ?
			"FILE and OUT_DIR are needed" : "too many arguments");
		goto out;
	}
#if HWCT_HAVE_EXTRACT
	{
		struct extract_result res;
		struct hwct_reader *r;
		struct hwct_error err;
		char msg[512];
		int dirfd;

		r = hwct_reader_open(p.positional[0], &err);
		if (!r) {
			cli_error("%s", err.message);
			ret = CLI_EXIT_FAILURE;
			goto out;
		}
		dirfd = safe_dir_open(p.positional[1], true, msg, sizeof(msg));
		if (dirfd < 0) {
			cli_error("%s", msg);
			hwct_reader_destroy(r);
			ret = CLI_EXIT_FAILURE;
			goto out;
		}
		ret = extract_frame(r, frame, dirfd, &res);
		if (ret == -ERANGE) {
			cli_usage_error(cmd, "%s has no frame %" PRIu64 " (it has %" PRIu64 ")", p.positional[0], frame,
				hwct_reader_info(r)->frame_count);
			ret = CLI_EXIT_USAGE;
		} else if (ret < 0) {
			cli_error("%s", res.error.code ? res.error.message : strerror(-ret));
			ret = CLI_EXIT_FAILURE;
		} else {
			if (json) {
				printf("%s\n", json_object_to_json_string_ext(res.report, JSON_C_TO_STRING_PRETTY |
					JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
			} else {
				print_text(stdout, p.positional[1], res.report);
			}
			ret = res.failures ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
		}
		json_object_put(res.report);
		close(dirfd);
		hwct_reader_destroy(r);
	}
#else
	(void)json;
	cli_error("extract: %s was built without libpng or json-c", CLI_PROGRAM);
	ret = CLI_EXIT_FAILURE;
#endif
out:
	cli_parse_finish(&p);
	return ret;
}

const struct cli_command cmd_extract = {
	.name = "extract",
	.summary = "write one frame's layer buffers as PNG, a composed preview and frame.json",
	.synopsis = "FILE --frame N OUT_DIR [--json]",
	.options = "  --frame N   the display frame (FrameEnd.frame)\n"
		"  --json      print frame.json's content instead of the list of files\n",
	.run = run,
};
