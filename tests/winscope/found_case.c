/*
 * Inputs the fuzzer found (tests/fuzz/corpus/fuzz-winscope), each imported
 * by `hwc-trace import-winscope` as a unit test. Under ASan+UBSan (build-asan)
 * they fail on the sanitizer report the fuzzer made; in any build, on what
 * the import wrote. Their facts are written here: a mutated input is not a
 * fixture fixture.c can read.
 */
#include <string.h>

#include "outtrace.h"
#include "testlib.h"
#include "wscase.h"

/* A report of ASan, UBSan or LSan in stderr (whether the run halted on it or not). */
static bool sanitizer_report(const char *err)
{
	return strstr(err, "runtime error:") || strstr(err, "Sanitizer");
}

/*
 * fuzz-winscope abcafd94...: a legacy file whose magic lost its letters
 * ("LYRTR\0\fE"), so read as one lone LayersTraceProto: one display (field 7,
 * "Common Panel", 1080x2400) and no layers field. It imports as one frame of
 * no layers; that frame once copied its zero layers from the display's NULL
 * array (memcpy, analyzers/session/session_frame.c).
 */
int case_no_layers(struct ctx *c)
{
	char *out = test_path("out.zst");
	struct test_run run;
	struct out_trace t;

	import(c, c->fixture, out, &run);
	CHECK_MSG(!sanitizer_report(run.err), "a sanitizer reported: %s", run.err);
	CHECK_MSG(run.status == 0, "exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	out_trace_load(&t, out);
	CHECK_MSG(t.count == 1 && t.displays == 1, "%zu FrameEnd records, %zu Display records", t.count, t.displays);
	CHECK_MSG(t.frames[0].count == 0, "the frame has %zu layers", t.frames[0].count);
	CHECK_MSG(t.width == 1080 && t.height == 2400, "display %dx%d, the input says 1080x2400", t.width, t.height);
	printf("%s: 1 frame of no layers on a 1080x2400 display, no sanitizer report\n", base_name(c->fixture));
	out_trace_finish(&t);
	free(out);
	return 0;
}
