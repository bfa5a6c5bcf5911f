/*
 * The protobuf wire format walked by hand (protobuf encoding spec, "Message
 * Structure"): the containers around layer-trace entries are read field by
 * field so that an error can name the byte offset and the entry or packet
 * it is in; the entries themselves are unpacked by protobuf-c.
 */
#ifndef HWCT_WINSCOPE_WIRE_H
#define HWCT_WINSCOPE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

enum ws_wire_type {
	WS_WIRE_VARINT = 0,
	WS_WIRE_I64 = 1,
	WS_WIRE_LEN = 2,
	WS_WIRE_I32 = 5,
};

struct ws_field {
	uint64_t offset;		/* of the key, in the whole input */
	uint32_t number;
	enum ws_wire_type type;
	uint64_t value;			/* VARINT, I64, I32 */
	uint64_t data_offset;		/* LEN: where the bytes start */
	uint64_t length;		/* LEN: how many */
};

/* A position in data[0, size): size may end a nested message before the input does. */
struct ws_walker {
	const uint8_t *data;		/* the whole input; borrowed */
	size_t size, pos;
	const char *name;		/* input name, for messages */
	struct hwct_error *err;		/* may be NULL */
	char context[128];		/* what is being read, prefixed to messages */
};

/* Sets wk->err to -EINVAL naming the input, offset, context and detail; returns -EINVAL. */
int ws_wire_fail(struct ws_walker *wk, uint64_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Reads the field at wk->pos into *f and moves past it. Returns 1, 0 at the
 * end of the walker's range, or -EINVAL (truncated, malformed key, a wire
 * type layer traces do not use) with wk->err set.
 */
int ws_wire_next(struct ws_walker *wk, struct ws_field *f);

/* A walker over the bytes of LEN field f of wk. */
struct ws_walker ws_wire_nested(const struct ws_walker *wk, const struct ws_field *f);

#endif
