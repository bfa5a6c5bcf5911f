/*
 * libFuzzer target for the layer-trace importer (analyzers/winscope/): any
 * input is parsed, checked and, when it passes, converted into a trace
 * written to /dev/null. It must end in a clean result or error, never a
 * crash, a leak or undefined behaviour. Limits are lower than the command's
 * so an input costs milliseconds, not seconds (the fixtures still pass).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <hwct/log.h>
#include <hwct/writer.h>

#include "winscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(enum hwct_log_priority prio, const char *msg, void *user)
{
	(void)prio;
	(void)msg;
	(void)user;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct winscope_options opts;
	struct hwct_writer_options wo;
	struct hwct_error err;
	struct hwct_writer *w;
	int fd;

	hwct_log_set_handler(quiet, NULL);
	winscope_options_init(&opts);
	opts.max_dimension = 4096;
	opts.max_pixels = 8u << 20;	/* the fixtures' largest buffer (2160x3120, the Perfetto one's wallpaper) fits */
	opts.max_input = 8u << 20;
	opts.max_layers = 4096;
	/*
	 * Placeholder pixels are drawn, hashed and compressed per buffer (a
	 * 2160x3120 one is 27 MB: a second an input under ASan), the same
	 * code whatever the layer trace: one input in 16 (chosen by its
	 * bytes, so a finding replays the same) draws them, with buffers of at
	 * most 256x256 pixels on displays of at most 1024 a side accepted;
	 * the others draw none, with the fixtures' limits.
	 */
	opts.no_pixels = size > 0 && (data[size / 2] & 15) != 0;
	if (!opts.no_pixels) {
		opts.max_pixels = 256 * 256;
		opts.max_dimension = 1024;
	}
	hwct_writer_options_init(&wo);
	wo.pixels = !opts.no_pixels;
	wo.record_level = 1;
	wo.pixel_level = 1;
	wo.workers = 1;
	wo.memory_budget = 64u << 20;
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		return 0;
	}
	w = hwct_writer_create_fd(fd, &wo);
	if (!w) {
		close(fd);
		return 0;
	}
	winscope_import(data, size, "fuzz-input", w, &opts, NULL, &err);
	hwct_writer_close(w);
	return 0;
}
