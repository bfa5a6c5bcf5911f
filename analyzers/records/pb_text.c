/* Generic human-readable printing of protobuf-c messages (pb.h). */
#include <inttypes.h>
#include <string.h>

#include <hwct/hash.h>

#include "names.h"
#include "pb.h"

#define STRING_MAX 64		/* characters of a string shown unless verbose */
#define LIST_MAX 16		/* elements of a list shown unless verbose */
#define HEX_MAX 64		/* bytes shown as hex in verbose mode */
#define HASH_SHORT 4		/* bytes of a hash shown unless verbose */

static bool skipped(const char *name, const char *const *skip)
{
	for (; skip && *skip; skip++) {
		if (strcmp(*skip, name) == 0) {
			return true;
		}
	}
	return false;
}

static void print_string(FILE *f, const char *s, bool verbose)
{
	size_t len = strlen(s), shown = verbose || len <= STRING_MAX ? len : STRING_MAX;

	fputc('"', f);
	for (size_t i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\x%02x", c);
		} else {
			fputc(c, f);
		}
	}
	fputc('"', f);
	if (shown < len) {
		fprintf(f, "…(%zu bytes)", len);
	}
}

static void print_bytes(FILE *f, const ProtobufCFieldDescriptor *fd, const ProtobufCBinaryData *b,
	const struct pbtext_options *opts, const ProtobufCMessage *m)
{
	char hex[2 * HEX_MAX + 1];
	bool is_data = m->descriptor == &hwct__blob__descriptor && strcmp(fd->name, "data") == 0;

	if (b->len == HWCT_HASH_BYTES && !opts->verbose && !is_data) {
		pb_hex(hex, b->data, HASH_SHORT);
		fprintf(f, "%s…", hex);
	} else if (!is_data && (b->len <= HWCT_HASH_BYTES || (opts->verbose && b->len <= HEX_MAX))) {
		pb_hex(hex, b->data, b->len);
		fputs(hex, f);
	} else {
		fprintf(f, "<%zu bytes>", b->len);
	}
}

static int32_t int_field(const ProtobufCMessage *m, const char *name)
{
	const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(m->descriptor, name);

	if (!fd || pb_field_count(m, fd) == 0) {
		return 0;
	}
	return (int32_t)pb_field_value(m, fd, 0).i;
}

static double float_field(const ProtobufCMessage *m, const char *name)
{
	const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(m->descriptor, name);

	return fd && pb_field_count(m, fd) ? pb_field_value(m, fd, 0).d : 0.0;
}

/* Compact forms of the geometry messages; false for other messages. */
static bool print_compact(FILE *f, const ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;

	if (d == &hwct__rect__descriptor) {
		fprintf(f, "[%d,%d,%d,%d]", int_field(m, "left"), int_field(m, "top"), int_field(m, "right"),
			int_field(m, "bottom"));
		return true;
	}
	if (d == &hwct__frect__descriptor) {
		fprintf(f, "[%g,%g,%g,%g]", float_field(m, "left"), float_field(m, "top"),
			float_field(m, "right"), float_field(m, "bottom"));
		return true;
	}
	if (d == &hwct__color__descriptor) {
		uint32_t rgba = ((const Hwct__Color *)m)->rgba;

		fprintf(f, "rgba(%u,%u,%u,%u)", rgba & 0xff, rgba >> 8 & 0xff, rgba >> 16 & 0xff, rgba >> 24);
		return true;
	}
	return false;
}

static void print_message(FILE *f, const ProtobufCMessage *m, const struct pbtext_options *opts)
{
	if (print_compact(f, m)) {
		return;
	}
	if (m->descriptor == &hwct__region__descriptor) {
		const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(
			m->descriptor, "rects");
		size_t n = pb_field_count(m, fd);

		fputc('[', f);
		for (size_t i = 0; i < n; i++) {
			struct pb_value v = pb_field_value(m, fd, i);

			fputs(i ? "," : "", f);
			print_compact(f, v.msg);
		}
		fputc(']', f);
		return;
	}
	fputc('{', f);
	pbtext_fields(f, m, opts, NULL);
	fputs(" }", f);
}

static void print_value(FILE *f, const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd,
	const struct pb_value *v, const struct pbtext_options *opts)
{
	names_fn namer;
	const char *name;

	switch (v->kind) {
	case PB_INT:
		namer = names_for_field(m->descriptor, fd->name, opts->function);
		name = namer && v->i >= INT32_MIN && v->i <= INT32_MAX ? namer((int32_t)v->i) : NULL;
		if (name) {
			fputs(name, f);
		} else {
			fprintf(f, "%" PRId64, v->i);
		}
		break;
	case PB_UINT:
		namer = names_for_field(m->descriptor, fd->name, opts->function);
		name = namer && v->u <= INT32_MAX ? namer((int32_t)v->u) : NULL;
		if (name) {
			fputs(name, f);
		} else {
			fprintf(f, "%" PRIu64, v->u);
		}
		break;
	case PB_FLOAT:
		fprintf(f, "%.7g", v->d);
		break;
	case PB_DOUBLE:
		fprintf(f, "%.15g", v->d);
		break;
	case PB_BOOL:
		fputs(v->b ? "true" : "false", f);
		break;
	case PB_ENUM:
		if (v->enum_value) {
			fputs(v->enum_value->name, f);
		} else {
			fprintf(f, "%" PRId64, v->i);
		}
		break;
	case PB_STRING:
		print_string(f, v->s, opts->verbose);
		break;
	case PB_BYTES:
		print_bytes(f, fd, &v->bytes, opts, m);
		break;
	case PB_MESSAGE:
		print_message(f, v->msg, opts);
		break;
	}
}

void pbtext_field(FILE *f, const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd,
	const struct pbtext_options *opts)
{
	size_t n = pb_field_count(m, fd);
	size_t shown = opts->verbose || n <= LIST_MAX ? n : LIST_MAX;
	struct pb_value v;

	if (n == 0) {
		return;
	}
	fprintf(f, " %s=", fd->name);
	if (!pb_field_is_repeated(fd)) {
		v = pb_field_value(m, fd, 0);
		print_value(f, m, fd, &v, opts);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < shown; i++) {
		v = pb_field_value(m, fd, i);
		fputs(i ? "," : "", f);
		print_value(f, m, fd, &v, opts);
	}
	if (shown < n) {
		fprintf(f, ",…+%zu", n - shown);
	}
	fputc(']', f);
}

void pbtext_fields(FILE *f, const ProtobufCMessage *m, const struct pbtext_options *opts,
	const char *const *skip)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;

	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *fd = &d->fields[i];
		if (skipped(fd->name, skip)) {
			continue;
		}
		if (opts->no_blob_data && d == &hwct__blob__descriptor && strcmp(fd->name, "data") == 0) {
			continue;
		}
		pbtext_field(f, m, fd, opts);
	}
	if (opts->verbose && m->n_unknown_fields) {
		fprintf(f, " unknown_fields=%u", m->n_unknown_fields);
	}
}
