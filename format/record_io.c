/* Record framing (record_io.h). */
#include <errno.h>

#include <hwct/limits.h>

#include "record_io.h"

size_t varint_size(uint64_t v)
{
	size_t n = 1;

	while (v > 0x7f) {
		v >>= 7;
		n++;
	}
	return n;
}

size_t varint_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

int record_append(struct bytebuf *out, const Hwct__Record *rec)
{
	size_t size = hwct__record__get_packed_size(rec);
	uint8_t varint[10];
	size_t n = varint_put(varint, size);
	int ret;

	ret = bytebuf_reserve(out, n + size);
	if (ret < 0) {
		return ret;
	}
	bytebuf_append(out, varint, n);
	hwct__record__pack(rec, out->data + out->len);
	out->len += size;
	return 0;
}

int record_next(const uint8_t *data, size_t size, size_t *pos,
	const uint8_t **body, size_t *body_size, const char **what)
{
	size_t p = *pos;
	uint64_t len = 0;
	unsigned shift = 0;

	if (p == size) {
		return 0;
	}
	for (;;) {
		uint8_t byte;

		if (p >= size) {
			*what = "record length: truncated varint";
			return -EINVAL;
		}
		if (shift > 63) {
			*what = "record length: varint longer than 10 bytes";
			return -EINVAL;
		}
		byte = data[p++];
		len |= (uint64_t)(byte & 0x7f) << shift;
		shift += 7;
		if (!(byte & 0x80)) {
			break;
		}
	}
	if (len == 0) {
		/* every record hwctrace writes has a kind: a run of zero bytes is not records */
		*what = "record length: 0 (an empty record)";
		return -EINVAL;
	}
	if (len > hwct_limits()->record_bytes) {
		*what = "record length: larger than the record limit (HWCT_LIMIT_RECORD_BYTES)";
		return -EFBIG;
	}
	if (len > size - p) {
		*what = "record length: past the end of its zstd frame";
		return -EINVAL;
	}
	*body = data + p;
	*body_size = (size_t)len;
	*pos = p + (size_t)len;
	return 1;
}

uint64_t record_time(const Hwct__Record *rec)
{
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		return rec->call->t_enter_ns;
	case HWCT__RECORD__KIND_FRAME_END:
		return rec->frame_end->t_ns;
	case HWCT__RECORD__KIND_CALLBACK:
		return rec->callback->t_ns;
	default:
		return 0;
	}
}
