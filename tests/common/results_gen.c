/* Results files of any length (results_gen.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results_gen.h"

static void die(const char *path)
{
	fprintf(stderr, "%s: %s\n", path, strerror(errno));
	exit(1);
}

/* One frame as hwc-replay writes it; returns its length in bytes. */
static long write_frame(FILE *f, const struct results_gen *g, uint32_t i)
{
	uint32_t n = g->big_layers && i == g->big_frame ? g->big_layers : g->layers;
	bool other = g->variant && i % 97 == 0;
	long start = ftell(f);

	fprintf(f, "%s{\"frame\": %" PRIu32 ", \"display\": 0, \"display_frame\": %" PRIu32 ", \"t_ns\": %" PRIu64
		", \"plan\": [", i ? ",\n" : "\n", i, i, (uint64_t)i * 16666667u + 1000000000u);
	for (uint32_t l = 0; l < n; l++) {
		bool client = l == n - 1 || (other && l == 0);

		fprintf(f, "%s{\"layer\": %" PRIu32 ", \"plane\": ", l ? ", " : "", 100 + l);
		if (client) {
			fputs("null, \"composition\": \"CLIENT\", \"reasons\": [\"no-plane\"]}", f);
		} else {
			fprintf(f, "%" PRIu32 ", \"composition\": \"DEVICE\", \"reasons\": []}", 31 + l);
		}
	}
	fprintf(f, "], \"client_target_plane\": 31, \"efficiency\": 0.8, \"checksum\": \"%016" PRIx64 "%016" PRIx64
		"\", \"checksum_source\": \"reference\", \"missing_content\": [], \"timing\": {\"wait_ns\": 0, "
		"\"plan_ns\": %u, \"compose_ns\": 40000, \"commit_ns\": null, \"present_ns\": null}, "
		"\"recorded\": {\"validated\": true, \"client_target\": true, \"layers\": [",
		(uint64_t)i * 0x9e3779b97f4a7c15u, (uint64_t)(i + (other ? 1 : 0)), 2000 + i % 500);
	for (uint32_t l = 0; l < n; l++) {
		fprintf(f, "%s{\"layer\": %" PRIu32 ", \"requested\": \"DEVICE\", \"composition\": \"%s\"}", l ? ", " : "",
			100 + l, l == n - 1 ? "CLIENT" : "DEVICE");
	}
	fputs("]}}", f);
	return ftell(f) - start - (i ? 2 : 1);
}

void test_results_write(const char *path, const struct results_gen *g, size_t *largest, size_t *size)
{
	FILE *f = fopen(path, "w");
	long max = 0;

	if (!f) {
		die(path);
	}
	fprintf(f, "{\n\"results_version\": 1,\n\"tool\": {\"name\": \"hwc-replay\", \"version\": \"0.1.0\"},\n"
		"\"trace\": {\"path\": \"gen.zst\", \"writer\": \"results_gen\", \"format_version\": \"1.0\", \"frames\": "
		"%" PRIu32 ", \"pixels\": true, \"has_seek_table\": true, \"truncated\": false},\n"
		"\"recording\": null,\n\"target\": {\"kind\": \"profile\", \"path\": \"gen.json\", \"mode\": [1080, 2400], "
		"\"vsync_period_ns\": 0},\n\"board\": {\"name\": \"gen-board-%" PRIu32 "\", \"driver\": \"vkms\", "
		"\"mode\": [1080, 2400], \"planes\": 8},\n\"planner\": \"drmhwc\",\n\"compositor\": \"pixman\",\n"
		"\"pixels\": true,\n\"timing\": \"fast\",\n\"images_dir\": null,\n\"expect\": null,\n\"frames\": [",
		g->frames, g->variant);
	for (uint32_t i = 0; i < g->frames; i++) {
		long len = write_frame(f, g, i);

		max = len > max ? len : max;
	}
	fprintf(f, "\n],\n\"totals\": {\"frames\": %" PRIu32 "},\n\"complete\": true,\n\"error\": null,\n"
		"\"comparison\": null\n}\n", g->frames);
	if (largest) {
		*largest = (size_t)max;
	}
	if (size) {
		*size = (size_t)ftell(f);
	}
	if (ferror(f) || fclose(f) != 0) {
		die(path);
	}
}
