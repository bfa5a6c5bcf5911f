/*
 * libFuzzer target for known-good results (replayer/hwc-replay/results/replay_expect.c, what
 * hwc-replay --expect reads): any input ends in loaded results or a clean
 * error naming the file and the JSON path, never a crash, a leak or
 * undefined behaviour. Seed the corpus with the JSON files of tests/replay/data.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "replay_expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwct_error err;
	struct replay_expect *e = replay_expect_load_buffer((const char *)data, size, "fuzz.json", &err);

	if (!e) {
		/* the message names the file */
		if (strncmp(err.message, "fuzz.json: ", 11) != 0) {
			__builtin_trap();
		}
		return 0;
	}
	for (size_t i = 0; i < e->frame_count; i++) {
		const struct replay_expect_frame *f = replay_expect_find(e, e->frames[i].frame);

		if (f != &e->frames[i]) {
			__builtin_trap();
		}
		for (size_t j = 0; j < f->layer_count; j++) {
			volatile uint32_t plane = f->layers[j].plane;

			(void)plane;
		}
	}
	replay_expect_destroy(e);
	return 0;
}
