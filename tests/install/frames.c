/*
 * A program outside hwctrace built against the installed libhwctrace
 * (pkg-config hwctrace): prints "FRAMES LAYERS" of a trace, counted with
 * the public reader and frame model, or an error naming the file. The
 * install test compares its answer with `hwc-trace info`.
 */
#include <stdio.h>

#include <hwct/error.h>
#include <hwct/frame.h>
#include <hwct/reader.h>

int main(int argc, char **argv)
{
	struct hwct_error err = { 0 };
	struct hwct_reader *r;
	struct hwct_frame_iter *it;
	const struct hwct_frame *f;
	unsigned long long frames = 0, layers = 0;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: frames TRACE\n");
		return 2;
	}
	r = hwct_reader_open(argv[1], &err);
	if (!r) {
		fprintf(stderr, "frames: %s\n", err.message);
		return 1;
	}
	it = hwct_frame_iter_create(r);
	while (it && (ret = hwct_frame_iter_next(it, &f)) == 1) {
		frames++;
		layers += f->layer_count;
	}
	printf("%llu %llu\n", frames, layers);
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
	return it ? 0 : 1;
}
