/*
 * The page's data as JSON text (report.h): strings escaped so that they are
 * valid JSON, valid UTF-8 and inert inside a <script> element, and the
 * intern table that keeps repeated layer states and plans once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 when invalid. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4) {
		return 0;
	}
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n) {
		return 0;
	}
	cp = s[0] & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			return 0;
		}
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		(cp >= 0xd800 && cp <= 0xdfff)) {
		return 0;	/* overlong, out of range or a surrogate */
	}
	return len;
}

void report_json_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t n;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else if ((n = utf8_length(p + i, len - i)) > 0) {
			fwrite(p + i, 1, n, f);
			i += n;
			continue;
		} else {
			fputs("\\ufffd", f);
		}
		i++;
	}
	fputc('"', f);
}

void report_json_cstr(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	report_json_string(f, s, strlen(s));
}

/* FNV-1a */
static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	}
	return (size_t)h;
}

static int grow_slots(struct report_intern *in)
{
	size_t n = in->slot_count ? in->slot_count * 2 : 256;
	size_t *slots = calloc(n, sizeof(*slots));

	if (!slots) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < in->count; i++) {
		size_t k = hash(in->strings[i]) & (n - 1);

		while (slots[k]) {
			k = (k + 1) & (n - 1);
		}
		slots[k] = i + 1;
	}
	free(in->slots);
	in->slots = slots;
	in->slot_count = n;
	return 0;
}

long report_intern_add(struct report_intern *in, const char *s)
{
	size_t k;
	char *copy;

	if ((in->count + 1) * 2 > in->slot_count && grow_slots(in) < 0) {
		return -ENOMEM;
	}
	for (k = hash(s) & (in->slot_count - 1); in->slots[k]; k = (k + 1) & (in->slot_count - 1)) {
		if (strcmp(in->strings[in->slots[k] - 1], s) == 0) {
			return (long)(in->slots[k] - 1);
		}
	}
	if (in->count == in->cap) {
		size_t n = in->cap ? in->cap * 2 : 64;
		char **p = realloc(in->strings, n * sizeof(*p));

		if (!p) {
			return -ENOMEM;
		}
		in->strings = p;
		in->cap = n;
	}
	copy = strdup(s);
	if (!copy) {
		return -ENOMEM;
	}
	in->strings[in->count] = copy;
	in->slots[k] = ++in->count;
	return (long)(in->count - 1);
}

void report_intern_finish(struct report_intern *in)
{
	for (size_t i = 0; i < in->count; i++) {
		free(in->strings[i]);
	}
	free(in->strings);
	free(in->slots);
	*in = (struct report_intern){ 0 };
}
