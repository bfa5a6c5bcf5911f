/*
 * Facts about an imported trace, read back with the hwctrace reader: per
 * display frame (of any display) the HWC2 layers alive on its display and each one's final composition type
 * (its getChangedCompositionTypes entry, else its requested type).
 */
#ifndef HWCT_TESTS_WINSCOPE_OUTTRACE_H
#define HWCT_TESTS_WINSCOPE_OUTTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OUT_MAX_LAYERS 256
#define OUT_MAX_DISPLAYS 16

struct out_frame {
	size_t count;
	int32_t types[OUT_MAX_LAYERS];	/* sorted */
	uint64_t t_ns;			/* FrameEnd.t_ns */
	uint64_t display;		/* FrameEnd.display */
};

struct out_trace {
	struct out_frame *frames;
	size_t count;			/* FrameEnd records */
	int32_t width, height;		/* display 0's Display record, first config */
	size_t displays;		/* Display records */
	size_t display_frames[OUT_MAX_DISPLAYS];	/* FrameEnd records per display id (< OUT_MAX_DISPLAYS) */
	char source[128];		/* Environment.source */
	bool note;			/* a "synthesized-content" Note */
	size_t buffers_set;		/* SET_LAYER_BUFFER calls */
	size_t buffers_synthetic;	/* ... with capture SYNTHETIC and a content hash */
};

/* Reads path; exits the test when it cannot. */
void out_trace_load(struct out_trace *t, const char *path);

void out_trace_finish(struct out_trace *t);

#endif
