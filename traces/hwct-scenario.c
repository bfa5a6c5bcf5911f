/*
 * hwct-scenario NAME OUT.zst [--frames N] [--size WxH]: writes a scenario
 * of traces/scenario as a trace, through the session of analyzers/session.
 * traces/generate.sh runs it to make the reference traces.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: hwct-scenario NAME OUT.zst [--frames N] [--size WxH]\nscenarios:");
	for (const char *const *n = scenario_names(); *n; n++) {
		fprintf(out, " %s (%u frames)", *n, scenario_default_frames(*n));
	}
	fprintf(out, "\n");
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > 1000000) {
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

int main(int argc, char **argv)
{
	struct scenario_options opts = { 0 };
	const char *name = NULL, *out = NULL;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
			if (!parse_u32(argv[++i], &opts.frames)) {
				fprintf(stderr, "hwct-scenario: --frames wants a count from 1 to 1000000\n");
				return 2;
			}
		} else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
			char *x = strchr(argv[++i], 'x');

			if (!x || (*x = '\0', !parse_u32(argv[i], &opts.width)) || !parse_u32(x + 1, &opts.height)) {
				fprintf(stderr, "hwct-scenario: --size wants WIDTHxHEIGHT\n");
				return 2;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "hwct-scenario: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!name) {
			name = argv[i];
		} else if (!out) {
			out = argv[i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (!name || !out) {
		usage(stderr);
		return 2;
	}
	if (!scenario_default_frames(name)) {
		fprintf(stderr, "hwct-scenario: no scenario '%s'\n", name);
		usage(stderr);
		return 2;
	}
	ret = scenario_write_file(out, name, &opts);
	if (ret == -EINVAL) {
		fprintf(stderr, "hwct-scenario: scenario '%s' cannot lay out a %ux%u display\n", name, opts.width,
			opts.height);
		return 1;
	}
	if (ret < 0) {
		fprintf(stderr, "hwct-scenario: %s: %s\n", out, strerror(-ret));
		return 1;
	}
	return 0;
}
