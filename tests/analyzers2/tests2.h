/* The cases of analyzers2-test (stats, diff, export, extract, trim), one meson test() each. */
#ifndef HWCT_TESTS_ANALYZERS2_TESTS2_H
#define HWCT_TESTS_ANALYZERS2_TESTS2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "gen2.h"
#include "hwct_config.h"
#include "testutil.h"

#define STD_FRAMES 10		/* display frames of the standard trace */

struct env2 {
	const char *tool;		/* hwc-trace under test */
	const char *replay;		/* hwc-replay, NULL when not built */
	const char *source_root;	/* for the board profiles */
};

/* Runs hwc-trace with args (NULL-terminated). */
void run_tool(const struct env2 *env, struct test_run *run, const char *const *args);

/* Parses text as JSON; exits the test when it is not. Caller puts the object. */
struct json_object *parse_json(const char *text, const char *what);

/* Member path "a.b.c" of o (NULL when missing). */
struct json_object *json_at(struct json_object *o, const char *path);

int64_t json_int_at(struct json_object *o, const char *path);
double json_double_at(struct json_object *o, const char *path);

/* Writes the standard trace (one display, STD_FRAMES frames) at test_path(name). */
const char *std_trace(const char *name, bool variant, struct gen2_info *info);

int test_stats_text(const struct env2 *env);
int test_stats_json(const struct env2 *env);
int test_diff_equal(const struct env2 *env);
int test_diff_traces(const struct env2 *env);
int test_diff_errors(const struct env2 *env);
int test_diff_results(const struct env2 *env);
int test_diff_agreement(const struct env2 *env);
int test_export_chrome(const struct env2 *env);
int test_extract_files(const struct env2 *env);
int test_extract_symlinks(const struct env2 *env);
int test_extract_errors(const struct env2 *env);
int test_trim_middle(const struct env2 *env);
int test_trim_start(const struct env2 *env);
int test_trim_errors(const struct env2 *env);
int test_trim_replay(const struct env2 *env);

#endif
