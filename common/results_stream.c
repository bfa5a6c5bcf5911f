/*
 * The streaming half of the results reader (results_load.h): a scanner of
 * the top-level object that finds where each value ends (braces, brackets,
 * strings and their escapes), copies only that value's text and lets
 * json-c's strict tokener parse it. Frames are parsed one at a time; the
 * other members go into rf->root.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results_load.h"
#include "results_version.h"

#define CHUNK_SIZE 65536
#define MAX_DEPTH 64

enum state {
	STATE_NONE,		/* not opened, or failed */
	STATE_FIRST_FRAME,	/* after "frames": [ */
	STATE_NEXT_FRAME,	/* after a frame */
	STATE_DONE,		/* the whole document read */
};

/* Sets err to "NAME: offset N: line L: <message>" and stops the reader. Returns -EINVAL. */
static int fail_at(struct results_file *rf, uint64_t offset, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(struct results_file *rf, uint64_t offset, uint64_t line, const char *fmt, ...)
{
	char what[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	rf->state = STATE_NONE;
	return hwct_error_set(rf->err, -EINVAL, rf->name, offset, "line %" PRIu64 ": %s", line, what);
}

static int fail_here(struct results_file *rf, const char *what)
{
	return fail_at(rf, rf->offset, rf->line, "%s", what);
}

/* The next byte without taking it, -1 at the end (or a read error: rf->err then says which). */
static int peek(struct results_file *rf)
{
	if (rf->pos == rf->size && rf->file) {
		rf->size = fread(rf->chunk, 1, CHUNK_SIZE, rf->file);
		rf->pos = 0;
	}
	return rf->pos < rf->size ? (unsigned char)rf->data[rf->pos] : -1;
}

static void take(struct results_file *rf)
{
	rf->line += rf->data[rf->pos] == '\n';
	rf->offset++;
	rf->pos++;
}

static void skip_space(struct results_file *rf)
{
	int c;

	while ((c = peek(rf)) == ' ' || c == '\t' || c == '\r' || c == '\n') {
		take(rf);
	}
}

/* A value that the file ends inside: where it started, since its end is the file's. */
static int fail_here_about(struct results_file *rf, const char *what, uint64_t start_line)
{
	return fail_at(rf, rf->offset, rf->line, "%s (from line %" PRIu64 "): truncated: the file ends inside it",
		what, start_line);
}

static int append(struct results_file *rf, char c)
{
	if (rf->value_len + 2 >= rf->value_size) {
		size_t size = rf->value_size ? rf->value_size * 2 : 4096;
		char *v;

		if (rf->value_len + 2 > RESULTS_MAX_VALUE) {
			return -EFBIG;
		}
		v = realloc(rf->value, size);
		if (!v) {
			return -ENOMEM;
		}
		rf->value = v;
		rf->value_size = size;
	}
	rf->value[rf->value_len++] = c;
	return 0;
}

/* Where a scalar (number, true, false, null) ends. */
static bool ends_scalar(int c)
{
	return c < 0 || strchr(",:]} \t\r\n\"{[", c) != NULL;
}

/* Copies the raw text of the value starting here into rf->value. what names it for errors. */
static int capture(struct results_file *rf, const char *what)
{
	bool in_string = false, escape = false, scalar;
	int c = peek(rf), depth = 0, ret = 0;
	uint64_t start_line = rf->line;

	rf->value_len = 0;
	if (c < 0) {
		return fail_here(rf, "truncated: the file ends where a value should start");
	}
	scalar = c != '{' && c != '[' && c != '"';
	while (ret == 0) {
		c = peek(rf);
		if (c < 0 || (scalar && ends_scalar(c))) {
			break;
		}
		if (c == '\0') {
			return fail_here(rf, "a NUL byte");
		}
		if (in_string) {
			in_string = escape || c != '"';
			escape = !escape && c == '\\';
		} else if (c == '"') {
			in_string = true;
		} else if (c == '{' || c == '[') {
			if (++depth > MAX_DEPTH) {
				return fail_here(rf, "nested deeper than 64");
			}
		} else if (c == '}' || c == ']') {
			depth--;
		}
		ret = append(rf, (char)c);
		take(rf);
		if (!scalar && !in_string && depth == 0) {
			break;
		}
	}
	if (ret == -EFBIG) {
		return fail_here(rf, "one value larger than 16 MiB");
	}
	if (ret < 0 || append(rf, ' ') < 0) {
		rf->state = STATE_NONE;
		return hwct_error_set(rf->err, -ENOMEM, rf->name, UINT64_MAX, "%s: out of memory", what);
	}
	rf->value_len--;	/* the space stays after the value: json-c ends a number on it */
	rf->value[rf->value_len + 1] = '\0';
	if (!scalar && (in_string || depth > 0)) {
		return fail_here_about(rf, what, start_line);
	}
	if (rf->value_len == 0) {
		return fail_at(rf, rf->offset, rf->line, "%s: JSON: expected a value", what);
	}
	return 0;
}

/* Parses rf->value, which started at offset/line, into *out. */
static int parse(struct results_file *rf, const char *what, uint64_t offset, uint64_t line, struct json_object **out)
{
	enum json_tokener_error jerr;
	size_t end;

	json_tokener_reset(rf->tok);
	*out = json_tokener_parse_ex(rf->tok, rf->value, (int)rf->value_len + 1);
	end = json_tokener_get_parse_end(rf->tok);
	jerr = json_tokener_get_error(rf->tok);
	if (!*out && jerr == json_tokener_success) {
		*out = NULL;	/* the value null */
		if (rf->value_len == 4 && memcmp(rf->value, "null", 4) == 0) {
			return 0;
		}
	}
	if (jerr != json_tokener_success || end < rf->value_len) {
		json_object_put(*out);
		*out = NULL;
		end = end > rf->value_len ? rf->value_len : end;
		for (size_t i = 0; i < end; i++) {
			line += rf->value[i] == '\n';
		}
		return fail_at(rf, offset + end, line, "%s: JSON: %s", what,
			jerr == json_tokener_success ? "unexpected character" :
			jerr == json_tokener_continue ? "truncated" : json_tokener_error_desc(jerr));
	}
	return 0;
}

static int check_version(struct results_file *rf)
{
	uint64_t version;

	if (results_get_u64(rf, results_member(rf->root, "results_version"), "results_version", UINT32_MAX, false,
		&version, NULL)) {
		rf->state = STATE_NONE;
		return -EINVAL;
	}
	if (version != HWCT_RESULTS_VERSION) {
		rf->state = STATE_NONE;
		return results_fail(rf, "results_version", "version %" PRIu64 " is not %d, the one this program reads",
			version, HWCT_RESULTS_VERSION);
	}
	return 0;
}

/*
 * Top-level members up to "frames": [ (returns 1) or the object's end and
 * nothing but white space after it (returns 0); the others into rf->root.
 */
static int read_members(struct results_file *rf)
{
	for (;;) {
		struct json_object *key, *value;
		uint64_t offset, line;
		char name[64];
		int c, ret;

		skip_space(rf);
		c = peek(rf);
		if (c == '}') {
			take(rf);
			break;
		}
		if (rf->members > 0) {
			if (c != ',') {
				return fail_here(rf, c < 0 ? "truncated: the top-level object does not end" :
					"(top level): expected ',' or '}'");
			}
			take(rf);
			skip_space(rf);
		}
		offset = rf->offset;
		line = rf->line;
		if (peek(rf) != '"') {
			return fail_here(rf, "(top level): expected a member name");
		}
		if (capture(rf, "(top level)") || parse(rf, "(top level)", offset, line, &key)) {
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%s", json_object_get_string(key));
		json_object_put(key);
		skip_space(rf);
		if (peek(rf) != ':') {
			return fail_here(rf, "(top level): expected ':'");
		}
		take(rf);
		skip_space(rf);
		rf->members++;
		offset = rf->offset;
		line = rf->line;
		if (strcmp(name, "frames") == 0 && rf->state == STATE_NONE && peek(rf) == '[') {
			take(rf);
			return check_version(rf) ? -EINVAL : 1;
		}
		if (strcmp(name, "frames") == 0) {
			if (rf->state != STATE_NONE) {
				return fail_at(rf, offset, line, "frames: a second frames member");
			}
			if (capture(rf, "frames") || parse(rf, "frames", offset, line, &value)) {
				return -EINVAL;
			}
			ret = results_fail(rf, "frames", "expected an array, found %s", results_type_name(value));
			json_object_put(value);
			return ret;
		}
		if (capture(rf, name) || parse(rf, name, offset, line, &value)) {
			return -EINVAL;
		}
		if (json_object_object_add(rf->root, name, value) < 0) {
			json_object_put(value);
			return hwct_error_set(rf->err, -ENOMEM, rf->name, UINT64_MAX, "out of memory");
		}
	}
	skip_space(rf);
	if (peek(rf) >= 0) {
		return fail_here(rf, "JSON: trailing data");
	}
	if (rf->file && ferror(rf->file)) {
		return hwct_error_set(rf->err, -EIO, rf->name, UINT64_MAX, "read error");
	}
	return 0;
}

/* After the input is set: the top level up to the first frame. */
static int start(struct results_file *rf)
{
	int c, ret;

	rf->line = 1;
	rf->tok = json_tokener_new_ex(MAX_DEPTH);
	rf->root = json_object_new_object();
	if (!rf->tok || !rf->root) {
		return hwct_error_set(rf->err, -ENOMEM, rf->name, UINT64_MAX, "out of memory");
	}
	json_tokener_set_flags(rf->tok, JSON_TOKENER_STRICT);
	skip_space(rf);
	c = peek(rf);
	if (c != '{') {
		struct json_object *v = NULL;

		if (c < 0) {
			return fail_here(rf, "JSON: truncated (no value)");
		}
		if (capture(rf, "(top level)") || parse(rf, "(top level)", 0, 1, &v)) {
			return -EINVAL;
		}
		ret = results_fail(rf, "(top level)", "expected an object, found %s", results_type_name(v));
		json_object_put(v);
		return ret;
	}
	take(rf);
	ret = read_members(rf);
	if (ret == 0) {
		/* the object ended without frames */
		return check_version(rf) ? -EINVAL : results_fail(rf, "frames", "expected an array, found null");
	}
	if (ret < 0) {
		return rf->err ? rf->err->code : ret;
	}
	rf->state = STATE_FIRST_FRAME;
	return 0;
}

int results_file_open_buffer(struct results_file *rf, const char *data, size_t size, const char *name,
	struct hwct_error *err)
{
	*rf = (struct results_file){ .name = name, .err = err, .data = data, .size = size };
	hwct_error_clear(err);
	return start(rf);
}

int results_file_open(struct results_file *rf, const char *path, struct hwct_error *err)
{
	struct stat st;
	int ret;

	*rf = (struct results_file){ .name = path, .err = err };
	hwct_error_clear(err);
	rf->file = fopen(path, "rb");
	if (!rf->file) {
		ret = -errno;
		return hwct_error_set(err, ret, path, UINT64_MAX, "%s", strerror(-ret));
	}
	if (fstat(fileno(rf->file), &st) == 0 && S_ISDIR(st.st_mode)) {
		return hwct_error_set(err, -EISDIR, path, UINT64_MAX, "%s", strerror(EISDIR));
	}
	rf->chunk = malloc(CHUNK_SIZE);
	if (!rf->chunk) {
		return hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
	}
	rf->data = rf->chunk;
	return start(rf);
}

int results_file_next(struct results_file *rf, struct json_object **frame)
{
	char what[48];
	uint64_t offset, line;
	int c, ret;

	*frame = NULL;
	if (rf->state == STATE_DONE) {
		return 0;
	}
	if (rf->state == STATE_NONE) {
		return -EINVAL;
	}
	skip_space(rf);
	c = peek(rf);
	if (c == ']') {
		take(rf);
		ret = read_members(rf);
		rf->state = ret == 0 ? STATE_DONE : STATE_NONE;
		return ret;
	}
	if (rf->state == STATE_NEXT_FRAME) {
		if (c != ',') {
			snprintf(what, sizeof(what), "frames: expected ',' or ']' after frames[%zu]", rf->frame_index - 1);
			return fail_here(rf, c < 0 ? "truncated: the frames array does not end" : what);
		}
		take(rf);
		skip_space(rf);
	}
	snprintf(what, sizeof(what), "frames[%zu]", rf->frame_index);
	offset = rf->offset;
	line = rf->line;
	if (capture(rf, what) || parse(rf, what, offset, line, frame)) {
		return -EINVAL;
	}
	rf->frame_line = line;
	rf->frame_index++;
	rf->state = STATE_NEXT_FRAME;
	return 1;
}

void results_file_finish(struct results_file *rf)
{
	if (rf->file) {
		fclose(rf->file);
	}
	if (rf->tok) {
		json_tokener_free(rf->tok);
	}
	json_object_put(rf->root);
	free(rf->value);
	free(rf->chunk);
	*rf = (struct results_file){ .name = rf->name, .err = rf->err };
}
