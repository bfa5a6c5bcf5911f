/* hwc-trace's command line: help, version, usage errors and their exit codes. */
#include <string.h>

#include "tests.h"

#define TRACE "@trace"		/* replaced by the generated trace */

int test_cli_usage(struct fixture *fx)
{
	static const struct {
		const char *name;
		const char *args[6];
		int status;
		const char *out;	/* stdout must contain it, NULL: anything */
		const char *err;	/* stderr must contain it, NULL: must be empty */
	} cases[] = {
		{ "no-command", { NULL }, 2, NULL, "usage" },
		{ "help", { "--help", NULL }, 0, "repair", NULL },
		{ "help-short", { "-h", NULL }, 0, "dump", NULL },
		{ "version", { "--version", NULL }, 0, "hwc-trace", NULL },
		{ "help-command", { "help", "dump", NULL }, 0, "--frames", NULL },
		{ "help-unknown", { "help", "frobnicate", NULL }, 2, NULL, "frobnicate" },
		{ "command-help", { "info", "--help", NULL }, 0, "--json", NULL },
		{ "unknown-command", { "frobnicate", NULL }, 2, NULL, "unknown command" },
		{ "unknown-option", { "--frobnicate", NULL }, 2, NULL, "unknown option" },
		{ "unknown-command-option", { "dump", "--frobnicate", TRACE, NULL }, 2, NULL, "--frobnicate" },
		{ "option-takes-no-value", { "info", "--json=yes", TRACE, NULL }, 2, NULL, "--json" },
		{ "missing-value", { "dump", TRACE, "--frames", NULL }, 2, NULL, "--frames" },
		{ "bad-range", { "dump", TRACE, "--frames", "5-3", NULL }, 2, NULL, "--frames" },
		{ "bad-range-text", { "dump", TRACE, "--frames", "x", NULL }, 2, NULL, "--frames" },
		{ "no-file", { "info", NULL }, 2, NULL, "no trace file" },
		{ "two-files", { "info", TRACE, TRACE, NULL }, 2, NULL, "too many" },
		{ "repair-one-file", { "repair", TRACE, NULL }, 2, NULL, "IN and OUT" },
		{ "missing-file", { "info", "/nonexistent/trace.zst", NULL }, 1, NULL, "/nonexistent/trace.zst" },
		{ "options-after-file", { "dump", TRACE, "--frames", "2", NULL }, 0, "=== frame 2 ", NULL },
	};

	fixture_trace(fx, FIXTURE_FRAMES);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *args[6];
		struct test_run run;

		for (size_t i = 0; i < 6; i++) {
			args[i] = cases[c].args[i] && strcmp(cases[c].args[i], TRACE) == 0 ? fx->trace : cases[c].args[i];
		}
		fixture_run(fx, &run, args);
		CHECK_MSG(run.status == cases[c].status, "%s: status %d, expected %d (%s)", cases[c].name, run.status,
			cases[c].status, run.err);
		CHECK_MSG(!cases[c].out || test_contains(run.out, cases[c].out), "%s: stdout lacks '%s'",
			cases[c].name, cases[c].out);
		CHECK_MSG(cases[c].err ? test_contains(run.err, cases[c].err) : run.err[0] == 0,
			"%s: stderr '%s'", cases[c].name, run.err);
		test_run_finish(&run);
	}
	return 0;
}
