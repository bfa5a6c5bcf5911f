/* Reading hwc-replay's results.json back (results_load.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_int.h"
#include "results_load.h"
#include "results_version.h"

#define MAX_DEPTH 64

struct json_object *results_member(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

const char *results_type_name(struct json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

int results_fail(const struct results_file *rf, const char *path, const char *fmt, ...)
{
	char what[192];
	va_list args;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	return hwct_error_set(rf->err, -EINVAL, rf->name, UINT64_MAX, "%s: %s", path, what);
}

int results_get_u64(const struct results_file *rf, struct json_object *o, const char *path, uint64_t max,
	bool null_ok, uint64_t *out, bool *present)
{
	int64_t i;

	*out = 0;
	if (present) {
		*present = o != NULL;
	}
	if (!o) {
		return null_ok ? 0 : results_fail(rf, path, "missing (expected an integer)");
	}
	if (!hwct_json_get_u64(o, out)) {
		if (json_object_is_type(o, json_type_int) && (i = json_object_get_int64(o)) < 0) {
			return results_fail(rf, path, "%" PRId64 " is negative", i);
		}
		return results_fail(rf, path, "expected an integer%s, found %s", null_ok ? " or null" : "",
			results_type_name(o));
	}
	if (*out > max) {
		return results_fail(rf, path, "%" PRIu64 " is out of range (at most %" PRIu64 ")", *out, max);
	}
	return 0;
}

int results_get_string(const struct results_file *rf, struct json_object *o, const char *path, bool null_ok,
	const char **out)
{
	*out = NULL;
	if (!o) {
		return null_ok ? 0 : results_fail(rf, path, "missing (expected a string)");
	}
	if (!json_object_is_type(o, json_type_string)) {
		return results_fail(rf, path, "expected a string%s, found %s", null_ok ? " or null" : "",
			results_type_name(o));
	}
	*out = json_object_get_string(o);
	return 0;
}

/* Strict JSON, one value and white space after it. */
static struct json_object *parse_json(const char *data, size_t size, const char *name, struct hwct_error *err)
{
	struct json_tokener *tok = json_tokener_new_ex(MAX_DEPTH);
	struct json_object *root;
	size_t end;

	if (!tok) {
		hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, data, (int)size);
	end = json_tokener_get_parse_end(tok);
	if (!root) {
		enum json_tokener_error jerr = json_tokener_get_error(tok);

		if (jerr == json_tokener_continue || jerr == json_tokener_success) {
			hwct_error_set(err, -EINVAL, name, size, "JSON: truncated");
		} else {
			hwct_error_set(err, -EINVAL, name, end, "JSON: %s", json_tokener_error_desc(jerr));
		}
		json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	for (; end < size; end++) {
		if (!strchr(" \t\r\n", data[end]) || data[end] == '\0') {
			hwct_error_set(err, -EINVAL, name, end, "JSON: trailing data");
			json_object_put(root);
			return NULL;
		}
	}
	return root;
}

/* The top level: an object, our results_version, a frames array. */
static int check_root(struct results_file *rf)
{
	uint64_t version;

	if (!json_object_is_type(rf->root, json_type_object)) {
		return results_fail(rf, "(top level)", "expected an object, found %s", results_type_name(rf->root));
	}
	if (results_get_u64(rf, results_member(rf->root, "results_version"), "results_version", UINT32_MAX, false,
		&version, NULL)) {
		return -EINVAL;
	}
	if (version != HWCT_RESULTS_VERSION) {
		return results_fail(rf, "results_version", "version %" PRIu64 " is not %d, the one this program reads",
			version, HWCT_RESULTS_VERSION);
	}
	rf->frames = results_member(rf->root, "frames");
	if (!rf->frames || !json_object_is_type(rf->frames, json_type_array)) {
		return results_fail(rf, "frames", "expected an array, found %s", results_type_name(rf->frames));
	}
	return 0;
}

int results_file_parse(struct results_file *rf, const char *data, size_t size, const char *name,
	struct hwct_error *err)
{
	int ret;

	*rf = (struct results_file){ .name = name, .err = err };
	hwct_error_clear(err);
	if (size > RESULTS_MAX_BYTES) {
		return hwct_error_set(err, -EFBIG, name, UINT64_MAX, "%zu bytes, at most %u", size, RESULTS_MAX_BYTES);
	}
	rf->root = parse_json(data, size, name, err);
	if (!rf->root) {
		return err ? err->code : -EINVAL;
	}
	ret = check_root(rf);
	if (ret) {
		results_file_finish(rf);
	}
	return ret;
}

int results_file_read(struct results_file *rf, const char *path, struct hwct_error *err)
{
	struct stat st;
	char *data;
	size_t got;
	FILE *f;
	int ret;

	*rf = (struct results_file){ .name = path, .err = err };
	hwct_error_clear(err);
	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		return hwct_error_set(err, ret, path, UINT64_MAX, "%s", strerror(-ret));
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
		(uint64_t)st.st_size > RESULTS_MAX_BYTES) {
		fclose(f);
		return hwct_error_set(err, -EFBIG, path, UINT64_MAX, "not a regular file of at most %u bytes",
			RESULTS_MAX_BYTES);
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data) {
		fclose(f);
		return hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
	}
	got = fread(data, 1, (size_t)st.st_size, f);
	fclose(f);
	ret = got == (size_t)st.st_size ? results_file_parse(rf, data, got, path, err) :
		hwct_error_set(err, -EIO, path, UINT64_MAX, "short read");
	free(data);
	return ret;
}

void results_file_finish(struct results_file *rf)
{
	json_object_put(rf->root);
	rf->root = NULL;
	rf->frames = NULL;
}
