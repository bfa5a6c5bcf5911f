/* protobuf-c helpers (proto_util.h). */
#include <stdlib.h>

#include "proto_util.h"

void *proto_clone(const ProtobufCMessageDescriptor *desc, const void *msg)
{
	size_t size = protobuf_c_message_get_packed_size(msg);
	uint8_t *buf = malloc(size ? size : 1);
	ProtobufCMessage *copy;

	if (!buf) {
		return NULL;
	}
	protobuf_c_message_pack(msg, buf);
	copy = protobuf_c_message_unpack(desc, NULL, size, buf);
	free(buf);
	return copy;
}

void proto_free(void *msg)
{
	if (msg) {
		protobuf_c_message_free_unpacked(msg, NULL);
	}
}
