/*
 * hwc-trace extract: one display frame's layer buffers as PNG files, the
 * client target when captured, a preview of the whole stack composed by
 * the pixman compositor and a frame.json describing them (extract_*.c;
 * needs libpng: HWCT_HAVE_EXTRACT).
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
};

static const struct cli_option options[] = {
	{ "frame", 0, true, OPT_FRAME },
	{ "json", 0, false, CLI_KEY_JSON },
	{ "display", 0, true, CLI_KEY_DISPLAY },
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

struct extract_args {
	bool has_frame;
	uint64_t frame;
};

static int option(const struct cli_command *cmd, const struct cli_parser *p, int key, void *ctx)
{
	struct extract_args *a = ctx;
	char *end;

	if (key == OPT_FRAME) {
		errno = 0;
		a->frame = strtoull(p->arg, &end, 10);
		if (errno || end == p->arg || *end || p->arg[0] == '-') {
			return cli_usage_error(cmd, "bad --frame '%s' (a FrameEnd.frame number)", p->arg);
		}
		a->has_frame = true;
	}
	return 0;
}

static int check(const struct cli_command *cmd, const struct cli_parser *p, void *ctx)
{
	const struct extract_args *a = ctx;

	(void)p;
	return a->has_frame ? 0 : cli_usage_error(cmd, "no --frame given");
}

static const struct cli_run_args run_args = {
	.options = options,
	.option = option,
	.check = check,
	.files = 2,
	.files_needed = "FILE and OUT_DIR are needed",
#if !HWCT_HAVE_EXTRACT
	.unavailable = "extract: " CLI_PROGRAM " was built without libpng (-Dpng)",
#endif
};

#if HWCT_HAVE_EXTRACT
/*
 * --display D --frame N: the FrameEnd.frame of display D's frame N
 * (FrameEnd.display_frame) into *frame, r rewound. Returns CLI_CONTINUE,
 * or the exit status after saying why not.
 */
static int display_frame(struct cli_run *run, uint64_t n, uint64_t *frame)
{
	struct hwct_reader *r = run->reader;
	const Hwct__Record *rec;
	uint64_t count = 0;
	bool found = false;
	int ret;

	while (!found && (ret = hwct_reader_next(r, &rec)) > 0) {
		const Hwct__FrameEnd *fe = rec->frame_end;

		if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END && fe->display == run->display) {
			found = fe->display_frame == n;
			*frame = fe->frame;
			count++;
		}
	}
	if (found && (ret = hwct_reader_rewind(r)) == 0) {
		return CLI_CONTINUE;
	}
	if (ret < 0 && (found || !hwct_reader_error_at_cut_end(r))) {
		cli_read_stopped(r, hwct_reader_error(r));
		return CLI_EXIT_FAILURE;
	}
	return cli_usage_error(run->cmd, "%s has no frame %" PRIu64 " of display %" PRIu64 " (it has %" PRIu64
		" of that display)", run->p.positional[0], n, run->display, count);
}

static int extract(struct cli_run *run, uint64_t frame)
{
	const char *in = run->p.positional[0], *dir = run->p.positional[1];
	struct extract_result res;
	char msg[512];
	int dirfd, ret;

	if (run->display != UINT64_MAX && (ret = display_frame(run, frame, &frame)) != CLI_CONTINUE) {
		return ret;
	}
	dirfd = safe_dir_open(dir, true, msg, sizeof(msg));
	if (dirfd < 0) {
		cli_error("%s", msg);
		return CLI_EXIT_FAILURE;
	}
	ret = extract_frame(run->reader, frame, dirfd, &res);
	if (ret == -ERANGE) {
		ret = cli_usage_error(run->cmd, "%s has no frame %" PRIu64 " (it has %" PRIu64 ")", in, frame,
			hwct_reader_info(run->reader)->frame_count);
	} else if (ret < 0) {
		cli_error("%s", res.error.code ? res.error.message : strerror(-ret));
		ret = CLI_EXIT_FAILURE;
	} else {
		if (run->json) {
			printf("%s\n", json_object_to_json_string_ext(res.report, JSON_C_TO_STRING_PRETTY |
				JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
		} else {
			print_text(stdout, dir, res.report);
		}
		ret = res.failures ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	}
	json_object_put(res.report);
	close(dirfd);
	return ret;
}
#endif

static int run(const struct cli_command *cmd, int argc, char **argv)
{
	struct extract_args a = { 0 };
	struct cli_run run;
	int ret = cli_run_begin(&run, cmd, &run_args, argc, argv, &a);

	if (ret != CLI_CONTINUE) {
		return ret;
	}
#if HWCT_HAVE_EXTRACT
	ret = extract(&run, a.frame);
#else
	ret = CLI_EXIT_FAILURE;	/* not reached: run_args.unavailable */
#endif
	cli_run_end(&run);
	return ret;
}

const struct cli_command cmd_extract = {
	.name = "extract",
	.summary = "write one frame's layer buffers as PNG, a composed preview and frame.json",
	.synopsis = "FILE --frame N OUT_DIR [--display ID] [--json]",
	.options = "  --frame N     the display frame (FrameEnd.frame, counted across displays)\n"
		"  --display ID  N counts this display's frames (FrameEnd.display_frame, hwc2_display_t)\n"
		"  --json        print frame.json's content instead of the list of files\n",
	.run = run,
};
