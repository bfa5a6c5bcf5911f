/*
 * Names of the enum-valued int32 fields of the schema (HWC2/HAL numbers and
 * the format's own enums), for human-readable output.
 */
#ifndef HWCT_ANALYZERS_NAMES_H
#define HWCT_ANALYZERS_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

/* Returns the name of a value as a static string, NULL when it has none. */
typedef const char *(*names_fn)(int32_t value);

/*
 * The namer of field `field` of messages of type `msg`, or NULL when the
 * field is not enum-valued. `function` is the HWC2_FUNCTION_* of the Call
 * the message belongs to (-1 when none): the meaning of ValueArgs.value and
 * ListArgs.values depends on it.
 */
names_fn names_for_field(const ProtobufCMessageDescriptor *msg, const char *field, int32_t function);

/* FrameEnd.flags as "CAPTURE_LATE|PRESENT_ERROR" into buf; "" for 0. */
const char *names_frame_flags(char *buf, size_t size, uint32_t flags);

#endif
