/* Small helpers over protobuf-c messages, internal to the format library. */
#ifndef HWCT_PROTO_UTIL_H
#define HWCT_PROTO_UTIL_H

#include <protobuf-c/protobuf-c.h>

#include <hwct/hwctrace.pb-c.h>
#include <hwct/writer.h>

/* Deep copy through pack + unpack; free with proto_free(). NULL on ENOMEM. */
void *proto_clone(const ProtobufCMessageDescriptor *desc, const void *msg);

/* Frees a message from proto_clone() or an unpack. msg may be NULL. */
void proto_free(void *msg);

static inline struct hwct_rect proto_rect(const Hwct__Rect *r)
{
	return (struct hwct_rect){ r->left, r->top, r->right, r->bottom };
}

#endif
