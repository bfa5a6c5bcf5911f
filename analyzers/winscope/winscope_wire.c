/* Walking protobuf fields by hand (winscope_wire.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "winscope_wire.h"

int ws_wire_fail(struct ws_walker *wk, uint64_t offset, const char *fmt, ...)
{
	char detail[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(detail, sizeof(detail), fmt, args);
	va_end(args);
	return hwct_error_set(wk->err, -EINVAL, wk->name, offset, "%s%s", wk->context, detail);
}

static int read_varint(struct ws_walker *wk, uint64_t *out, const char *what)
{
	uint64_t v = 0;
	size_t start = wk->pos;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (wk->pos >= wk->size) {
			return ws_wire_fail(wk, start, "truncated: the input ends inside a %s", what);
		}
		b = wk->data[wk->pos++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return ws_wire_fail(wk, start, "malformed %s: a varint longer than 10 bytes", what);
}

int ws_wire_next(struct ws_walker *wk, struct ws_field *f)
{
	uint64_t key;
	int ret;

	if (wk->pos >= wk->size) {
		return 0;
	}
	f->offset = wk->pos;
	ret = read_varint(wk, &key, "field key");
	if (ret < 0) {
		return ret;
	}
	f->number = (uint32_t)(key >> 3);
	f->type = (enum ws_wire_type)(key & 7);
	if (f->number == 0 || key >> 32) {
		return ws_wire_fail(wk, f->offset, "malformed field key %#" PRIx64, key);
	}
	switch (f->type) {
	case WS_WIRE_VARINT:
		return read_varint(wk, &f->value, "varint field") < 0 ? -EINVAL : 1;
	case WS_WIRE_I64:
	case WS_WIRE_I32: {
		size_t n = f->type == WS_WIRE_I64 ? 8 : 4;

		if (wk->size - wk->pos < n) {
			return ws_wire_fail(wk, f->offset, "truncated: field %" PRIu32 " needs %zu bytes, %zu remain",
				f->number, n, wk->size - wk->pos);
		}
		f->value = 0;
		for (size_t i = 0; i < n; i++) {
			f->value |= (uint64_t)wk->data[wk->pos + i] << (8 * i);
		}
		wk->pos += n;
		return 1;
	}
	case WS_WIRE_LEN:
		ret = read_varint(wk, &f->length, "length");
		if (ret < 0) {
			return ret;
		}
		if (f->length > wk->size - wk->pos) {
			return ws_wire_fail(wk, f->offset, "truncated: field %" PRIu32 " says %" PRIu64
				" bytes, %zu remain", f->number, f->length, wk->size - wk->pos);
		}
		f->data_offset = wk->pos;
		wk->pos += (size_t)f->length;
		return 1;
	default:
		return ws_wire_fail(wk, f->offset, "malformed: field %" PRIu32 " has wire type %u (groups and "
			"types 6, 7 are not used by layer traces)", f->number, (unsigned)f->type);
	}
}

struct ws_walker ws_wire_nested(const struct ws_walker *wk, const struct ws_field *f)
{
	struct ws_walker in = *wk;

	in.pos = (size_t)f->data_offset;
	in.size = (size_t)(f->data_offset + f->length);
	return in;
}
