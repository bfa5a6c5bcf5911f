/*
 * Streaming JSON writer (replay_json.h). One thread writes a results
 * stream, so the unlocked stdio calls need no flockfile.
 */
#include <math.h>
#include <stdbool.h>

#include "json_int.h"
#include "replay_json.h"

void rjson_init(struct rjson *j, FILE *f, unsigned compact_depth)
{
	*j = (struct rjson){ .f = f, .compact_depth = compact_depth };
}

static bool compact(const struct rjson *j)
{
	return j->depth >= j->compact_depth;
}

/* Length of the valid UTF-8 sequence at p (1-4), 0 when it is not one. */
static size_t utf8_length(const unsigned char *p)
{
	size_t n;
	uint32_t c;

	if (p[0] < 0x80) {
		return 1;
	} else if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		c = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		c = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			return 0;	/* also stops at the NUL */
		}
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10ffff ||
		(c >= 0xd800 && c <= 0xdfff)) {
		return 0;
	}
	return n;
}

/* Whether byte c goes into a JSON string as it is. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* s as a JSON string; bytes that are not UTF-8 become U+FFFD. Runs of plain bytes go in one write. */
static void write_escaped(FILE *f, const char *s)
{
	putc_unlocked('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		const unsigned char *run = p;
		size_t n;

		while (plain(*p)) {
			p++;
		}
		if (p > run) {
			fwrite(run, 1, (size_t)(p - run), f);
			continue;
		}
		n = utf8_length(p);
		if (n == 0) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			fprintf(f, "\\u%04x", *p);
		}
		p++;
	}
	putc_unlocked('"', f);
}

/* Writes v in decimal (fprintf costs more than the rest of a results line). */
static void write_u64(FILE *f, uint64_t v)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(buf + i, 1, sizeof(buf) - i, f);
}

/* The separator, indentation and key before a value. */
static void member(struct rjson *j, const char *key)
{
	if (j->depth > 0 && j->depth <= RJSON_MAX_DEPTH) {
		if (j->has_members[j->depth - 1]) {
			putc_unlocked(',', j->f);
			if (compact(j)) {
				putc_unlocked(' ', j->f);
			}
		}
		j->has_members[j->depth - 1] = true;
		if (!compact(j)) {
			putc_unlocked('\n', j->f);
			for (unsigned i = 0; i < j->depth; i++) {
				fputs("  ", j->f);
			}
		}
	}
	if (key) {
		write_escaped(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_container(struct rjson *j, const char *key, char c)
{
	member(j, key);
	putc_unlocked(c, j->f);
	if (j->depth < RJSON_MAX_DEPTH) {
		j->has_members[j->depth] = false;
	}
	j->depth++;
}

static void close_container(struct rjson *j, char c)
{
	bool had = j->depth <= RJSON_MAX_DEPTH && j->has_members[j->depth - 1];
	bool was_compact = compact(j);

	j->depth--;
	if (had && !was_compact) {
		putc_unlocked('\n', j->f);
		for (unsigned i = 0; i < j->depth; i++) {
			fputs("  ", j->f);
		}
	}
	putc_unlocked(c, j->f);
	if (j->depth == 0) {
		putc_unlocked('\n', j->f);
	}
}

void rjson_object_begin(struct rjson *j, const char *key)
{
	open_container(j, key, '{');
}

void rjson_object_end(struct rjson *j)
{
	close_container(j, '}');
}

void rjson_array_begin(struct rjson *j, const char *key)
{
	open_container(j, key, '[');
}

void rjson_array_end(struct rjson *j)
{
	close_container(j, ']');
}

void rjson_string(struct rjson *j, const char *key, const char *value)
{
	member(j, key);
	if (!value) {
		fputs("null", j->f);
		return;
	}
	write_escaped(j->f, value);
}

/* Magnitudes beyond 2^53 go in quotes: the one rule of common/json_int.h. */
void rjson_int(struct rjson *j, const char *key, int64_t value)
{
	uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
	bool quoted = magnitude > HWCT_JSON_EXACT_MAX;

	member(j, key);
	if (quoted) {
		putc_unlocked('"', j->f);
	}
	if (value < 0) {
		putc_unlocked('-', j->f);
	}
	write_u64(j->f, magnitude);
	if (quoted) {
		putc_unlocked('"', j->f);
	}
}

void rjson_uint(struct rjson *j, const char *key, uint64_t value)
{
	bool quoted = value > HWCT_JSON_EXACT_MAX;

	member(j, key);
	if (quoted) {
		putc_unlocked('"', j->f);
	}
	write_u64(j->f, value);
	if (quoted) {
		putc_unlocked('"', j->f);
	}
}

void rjson_double(struct rjson *j, const char *key, double value)
{
	member(j, key);
	if (isfinite(value)) {
		fprintf(j->f, "%.6g", value);
	} else {
		fputs("null", j->f);
	}
}

void rjson_bool(struct rjson *j, const char *key, bool value)
{
	member(j, key);
	fputs(value ? "true" : "false", j->f);
}

void rjson_null(struct rjson *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void rjson_int_or_null(struct rjson *j, const char *key, int64_t value)
{
	if (value < 0) {
		rjson_null(j, key);
	} else {
		rjson_int(j, key, value);
	}
}
