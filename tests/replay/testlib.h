/* Assertions, scratch directory, program runs and results reading of the replay tests. */
#ifndef HWCT_TESTS_REPLAY_TESTLIB_H
#define HWCT_TESTS_REPLAY_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "check.h"	/* CHECK, CHECK_MSG: fatal */
#include "files.h"	/* test_read_file */
#include "run.h"	/* test_run */

#define TEST_SKIP 77


/* What the case needs: the program under test and the source tree's inputs. */
struct fixture {
	const char *replay;		/* hwc-replay */
	const char *source_root;	/* the project's source directory */
	char overlays[512];		/* tests/data/boards/vkms-6.1-overlays.json */
	char no_overlays[512];		/* tests/data/boards/vkms-6.1-no-overlays.json */
};

/* A fresh scratch directory, removed with everything in it at exit. */
const char *test_dir(void);

/* test_dir()/name; valid until exit. */
const char *test_path(const char *name);

/* The reference trace traces/NAME.zst, or a generated stand-in when it is missing (said on stderr). */
const char *test_reference_trace(const struct fixture *fx, const char *name);

/* A generated trace (replay_gen.h defaults; layers and frames given) in the scratch directory. */
const char *test_generated_trace(const char *name, uint32_t layers, uint32_t frames, uint32_t uncaptured);

/*
 * Runs hwc-replay with args (NULL-terminated, without argv[0]); stdout and
 * stderr captured.
 */
void test_replay(const struct fixture *fx, struct test_run *run, const char *const *args);

/*
 * Runs hwc-replay with args plus --results results; checks exit 0. Returns
 * the parsed results (json_object_put them).
 */
struct json_object *test_replay_ok(const struct fixture *fx, const char *results, const char *const *args);

/* Frames in results. */
size_t test_frame_count(struct json_object *results);

/* results.frames[i] (borrowed). */
struct json_object *test_frame_at(struct json_object *results, size_t i);

/* Lines in text. */
size_t test_line_count(const char *text);

bool test_contains(const char *haystack, const char *needle);

/* Parses a results file (checked). json_object_put the result. */
struct json_object *test_results(const char *path);

/* results.frames (checked array). */
struct json_object *test_frames(struct json_object *results);

/* results.key1.key2... (NULL-terminated keys); NULL when absent. */
struct json_object *test_get(struct json_object *o, ...);

/*
 * Whether frames a and b (results frame objects) have the same plan,
 * client target plane, checksum and missing content.
 */
bool test_same_frame(struct json_object *a, struct json_object *b);

/* Writes o to path (pretty). */
void test_write_json(const char *path, struct json_object *o);

bool test_exists(const char *path);

/* Number of entries of directory path (without . and ..). */
size_t test_dir_entries(const char *path);

#endif
