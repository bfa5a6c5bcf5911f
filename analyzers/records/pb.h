/*
 * Reflection over protobuf-c messages: the one walk the text and JSON
 * printers share, so fields added to the schema print without code changes.
 */
#ifndef HWCT_ANALYZERS_PB_H
#define HWCT_ANALYZERS_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <protobuf-c/protobuf-c.h>

#include <hwct/hwctrace.pb-c.h>

enum pb_kind {
	PB_INT,		/* int32/sint32/sfixed32/int64/...: i */
	PB_UINT,	/* uint32/fixed32/uint64/fixed64: u */
	PB_FLOAT,	/* d, from a float */
	PB_DOUBLE,	/* d */
	PB_BOOL,	/* b */
	PB_ENUM,	/* i, a proto enum (enum_value may be NULL for unknown numbers) */
	PB_STRING,	/* s, never NULL */
	PB_BYTES,	/* bytes */
	PB_MESSAGE,	/* msg, never NULL */
};

struct pb_value {
	enum pb_kind kind;
	union {
		int64_t i;
		uint64_t u;
		double d;
		bool b;
		const char *s;
		ProtobufCBinaryData bytes;
		const ProtobufCMessage *msg;
	};
	const ProtobufCEnumValue *enum_value;
};

/*
 * How many values field f holds in m: 0 when absent (has_ false, NULL
 * pointer, another oneof member set), 1 for a present singular field, the
 * element count of a repeated one.
 */
size_t pb_field_count(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f);

/* Whether f is repeated (printed as a list even with one element). */
bool pb_field_is_repeated(const ProtobufCFieldDescriptor *f);

/* Value i (< pb_field_count) of field f of m. Pointers are borrowed from m. */
struct pb_value pb_field_value(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f, size_t i);

/* The Record's set kind: its field (name "call", ...) and message. False when none is set. */
bool pb_record_kind(const Hwct__Record *rec, const ProtobufCFieldDescriptor **field,
	const ProtobufCMessage **msg);

/* Index of a record kind name among hwct__record__descriptor's fields, or -1. */
int pb_record_kind_index(const char *name);

/* Deep copy through pack + unpack (free with protobuf_c_message_free_unpacked). NULL on ENOMEM. */
ProtobufCMessage *pb_clone(const ProtobufCMessage *m);

/* Writes size bytes as lower-case hex into out (2 * size + 1 bytes). */
void pb_hex(char *out, const uint8_t *data, size_t size);

/* ----------------------------------------------------------------- text */

struct pbtext_options {
	bool verbose;		/* full hashes, strings and lists */
	bool no_blob_data;	/* leave out Blob.data (only its size is ever printed) */
	int32_t function;	/* HWC2_FUNCTION_* of the enclosing Call, -1 none */
};

/*
 * Prints " name=value" for every present field of m whose name is not in
 * skip (NULL-terminated, may be NULL): enum-valued ints by name, hashes
 * short, nested messages in braces, lists in brackets.
 */
void pbtext_fields(FILE *f, const ProtobufCMessage *m, const struct pbtext_options *opts,
	const char *const *skip);

/* Prints " name=value" for field fd of m; nothing when it is absent. */
void pbtext_field(FILE *f, const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd,
	const struct pbtext_options *opts);

/* ----------------------------------------------------------------- JSON */

struct json_object;

struct pbjson_options {
	bool no_blob_data;	/* leave out Blob.data */
};

/*
 * The JSON object of m: members named as in the .proto,
 * 64-bit integers beyond 2^53 as strings, bytes as hex up to 64 bytes, else
 * {"bytes": N}; Call.function gets a "function_name" member. Returns a new
 * reference, NULL on ENOMEM.
 */
struct json_object *pbjson_message(const ProtobufCMessage *m, const struct pbjson_options *opts);

/* Adds m's members to obj. Returns 0 or -ENOMEM. */
int pbjson_add_fields(struct json_object *obj, const ProtobufCMessage *m, const struct pbjson_options *opts);

#endif
