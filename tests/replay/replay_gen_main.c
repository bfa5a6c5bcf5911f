/*
 * replay-gen OUT.zst [--layers N] [--frames N] [--size WxH] [--rotate] [--nv12 | --p010]:
 * writes a synthetic trace of replay_gen.h (an ARGB8888 stack that vkms can
 * put on planes: a full-screen background under unscaled 64x64 tiles; with
 * --rotate the first tile turned 90 degrees, which only a plane with a
 * rotation property takes) for tests that run the hwc-replay program, such
 * as the VM tests of tests/replay/vm-replay.sh and tests/vm/vm-kernels.sh. Defaults: gen_options_init's. Exit 0, 1 when
 * the trace cannot be written, 2 on a usage error.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <system/graphics.h>

#include "replay_gen.h"

static int usage(void)
{
	fprintf(stderr, "usage: replay-gen OUT.zst [--layers N] [--frames N] [--size WxH] [--rotate] [--nv12 | --p010]\n");
	return 2;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s || *end || v == 0 || v > UINT32_MAX) {
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

static bool parse_size(const char *s, uint32_t *w, uint32_t *h)
{
	char buf[32], *x;

	if (strlen(s) >= sizeof(buf)) {
		return false;
	}
	strcpy(buf, s);
	x = strchr(buf, 'x');
	if (!x) {
		return false;
	}
	*x = '\0';
	return parse_u32(buf, w) && parse_u32(x + 1, h);
}

int main(int argc, char **argv)
{
	struct gen_options o;
	const char *out = NULL;
	int ret;

	gen_options_init(&o);
	for (int i = 1; i < argc; i++) {
		bool ok = true;

		if (strcmp(argv[i], "--layers") == 0 && i + 1 < argc) {
			ok = parse_u32(argv[++i], &o.layers);
		} else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
			ok = parse_u32(argv[++i], &o.frames);
		} else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
			ok = parse_size(argv[++i], &o.width, &o.height);
		} else if (strcmp(argv[i], "--rotate") == 0) {
			o.rotate = HAL_TRANSFORM_ROT_90;
		} else if (strcmp(argv[i], "--nv12") == 0) {
			o.nv12 = true;	/* the first tile a video frame: NV12, unscaled */
		} else if (strcmp(argv[i], "--p010") == 0) {
			o.p010 = true;	/* the same in 10-bit P010 */
		} else if (argv[i][0] != '-' && !out) {
			out = argv[i];
		} else {
			ok = false;
		}
		if (!ok) {
			return usage();
		}
	}
	if (!out) {
		return usage();
	}
	ret = gen_write(out, &o);
	if (ret < 0) {
		fprintf(stderr, "replay-gen: %s: %s\n", out, strerror(-ret));
		return 1;
	}
	return 0;
}
