/* Field presence and values of protobuf-c messages by reflection (pb.h). */
#include <stdlib.h>
#include <string.h>

#include "pb.h"

static const void *field_ptr(const ProtobufCMessage *m, unsigned offset)
{
	return (const char *)m + offset;
}

static size_t element_size(ProtobufCType type)
{
	switch (type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
		return sizeof(int32_t);
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		return sizeof(uint32_t);
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		return sizeof(uint64_t);
	case PROTOBUF_C_TYPE_FLOAT:
		return sizeof(float);
	case PROTOBUF_C_TYPE_DOUBLE:
		return sizeof(double);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_ENUM:
		return sizeof(int);
	case PROTOBUF_C_TYPE_STRING:
		return sizeof(char *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(ProtobufCMessage *);
	}
	return 0;
}

static bool is_pointer_type(ProtobufCType type)
{
	return type == PROTOBUF_C_TYPE_STRING || type == PROTOBUF_C_TYPE_MESSAGE;
}

bool pb_field_is_repeated(const ProtobufCFieldDescriptor *f)
{
	return f->label == PROTOBUF_C_LABEL_REPEATED;
}

size_t pb_field_count(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f)
{
	const void *value = field_ptr(m, f->offset);

	if (f->label == PROTOBUF_C_LABEL_REPEATED) {
		return *(const size_t *)field_ptr(m, f->quantifier_offset);
	}
	if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
		if (*(const uint32_t *)field_ptr(m, f->quantifier_offset) != f->id) {
			return 0;
		}
		return is_pointer_type(f->type) && !*(const void *const *)value ? 0 : 1;
	}
	if (is_pointer_type(f->type)) {
		const void *p = *(const void *const *)value;

		/* proto2 optional strings with a default point at it when absent */
		return p && (f->label == PROTOBUF_C_LABEL_REQUIRED || p != f->default_value) ? 1 : 0;
	}
	if (f->label == PROTOBUF_C_LABEL_OPTIONAL) {
		return *(const protobuf_c_boolean *)field_ptr(m, f->quantifier_offset) ? 1 : 0;
	}
	return 1;	/* required, or proto3 without presence */
}

static struct pb_value scalar(const ProtobufCFieldDescriptor *f, const void *p)
{
	struct pb_value v = { .kind = PB_INT };

	switch (f->type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
		v.i = *(const int32_t *)p;
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		v.i = *(const int64_t *)p;
		break;
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		v.kind = PB_UINT;
		v.u = *(const uint32_t *)p;
		break;
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		v.kind = PB_UINT;
		v.u = *(const uint64_t *)p;
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		v.kind = PB_FLOAT;
		v.d = *(const float *)p;
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		v.kind = PB_DOUBLE;
		v.d = *(const double *)p;
		break;
	case PROTOBUF_C_TYPE_BOOL:
		v.kind = PB_BOOL;
		v.b = *(const protobuf_c_boolean *)p != 0;
		break;
	case PROTOBUF_C_TYPE_ENUM:
		v.kind = PB_ENUM;
		v.i = *(const int *)p;
		v.enum_value = protobuf_c_enum_descriptor_get_value(f->descriptor, (int)v.i);
		break;
	case PROTOBUF_C_TYPE_STRING:
		v.kind = PB_STRING;
		v.s = *(const char *const *)p;
		v.s = v.s ? v.s : "";
		break;
	case PROTOBUF_C_TYPE_BYTES:
		v.kind = PB_BYTES;
		v.bytes = *(const ProtobufCBinaryData *)p;
		break;
	case PROTOBUF_C_TYPE_MESSAGE:
		v.kind = PB_MESSAGE;
		v.msg = *(const ProtobufCMessage *const *)p;
		break;
	}
	return v;
}

struct pb_value pb_field_value(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f, size_t i)
{
	const void *p = field_ptr(m, f->offset);

	if (f->label == PROTOBUF_C_LABEL_REPEATED) {
		p = (const char *)*(const void *const *)p + i * element_size(f->type);
	}
	return scalar(f, p);
}

bool pb_record_kind(const Hwct__Record *rec, const ProtobufCFieldDescriptor **field,
	const ProtobufCMessage **msg)
{
	const ProtobufCFieldDescriptor *f =
		protobuf_c_message_descriptor_get_field(&hwct__record__descriptor, rec->kind_case);

	if (!f || pb_field_count(&rec->base, f) == 0) {
		return false;
	}
	*field = f;
	*msg = pb_field_value(&rec->base, f, 0).msg;
	return true;
}

int pb_record_kind_index(const char *name)
{
	for (unsigned i = 0; i < hwct__record__descriptor.n_fields; i++) {
		if (strcmp(hwct__record__descriptor.fields[i].name, name) == 0) {
			return (int)i;
		}
	}
	return -1;
}

ProtobufCMessage *pb_clone(const ProtobufCMessage *m)
{
	size_t size = protobuf_c_message_get_packed_size(m);
	uint8_t *buf = malloc(size ? size : 1);
	ProtobufCMessage *copy;

	if (!buf) {
		return NULL;
	}
	protobuf_c_message_pack(m, buf);
	copy = protobuf_c_message_unpack(m->descriptor, NULL, size, buf);
	free(buf);
	return copy;
}

void pb_hex(char *out, const uint8_t *data, size_t size)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		out[2 * i] = digits[data[i] >> 4];
		out[2 * i + 1] = digits[data[i] & 15];
	}
	out[2 * size] = 0;
}
