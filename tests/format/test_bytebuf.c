/*
 * The format library's growable buffer (format/bytebuf.h): contents kept
 * byte for byte while it grows from a few bytes past the size where it
 * switches to huge-page blocks (2 MiB), and the room it promises usable.
 *
 *	test-format-bytebuf CASE
 */
#include <stdlib.h>
#include <string.h>

#include "bytebuf.h"
#include "testlib.h"

/* Appends chunks of odd sizes up to 9 MiB, then checks every byte. */
static void case_grow(void)
{
	struct bytebuf b = { 0 };
	uint8_t chunk[4099];
	size_t total = 0;

	while (total < 9u << 20) {
		size_t n = 1 + total % sizeof(chunk);

		for (size_t i = 0; i < n; i++) {
			chunk[i] = (uint8_t)((total + i) * 2654435761u >> 13);
		}
		CHECK(bytebuf_append(&b, chunk, n) == 0);
		total += n;
	}
	CHECK(b.len == total);
	CHECK(b.cap >= b.len);
	for (size_t i = 0; i < total; i++) {
		if (b.data[i] != (uint8_t)(i * 2654435761u >> 13)) {
			CHECK(!"byte changed while the buffer grew");
			break;
		}
	}
	/* the reserved room is writable up to cap */
	CHECK(bytebuf_reserve(&b, 3u << 20) == 0);
	CHECK(b.cap >= b.len + (3u << 20));
	memset(b.data + b.len, 0xa5, b.cap - b.len);
	CHECK(b.data[b.cap - 1] == 0xa5);
	bytebuf_finish(&b);
	CHECK(b.data == NULL && b.len == 0 && b.cap == 0);
}

/* A buffer that starts large (a payload-sized reserve on an empty buffer) keeps what is appended. */
static void case_reserve_large(void)
{
	struct bytebuf b = { 0 };
	const size_t size = 10368000;	/* one 1080x2400 RGBA payload */

	CHECK(bytebuf_reserve(&b, size) == 0);
	CHECK(b.cap >= size);
	for (size_t i = 0; i < size; i += 4096) {
		b.data[i] = (uint8_t)(i >> 12);
	}
	b.len = size;
	CHECK(bytebuf_append_le32(&b, 0x01020304u) == 0);
	CHECK(get_le32(b.data + size) == 0x01020304u);
	for (size_t i = 0; i < size; i += 4096) {
		if (b.data[i] != (uint8_t)(i >> 12)) {
			CHECK(!"byte changed while the buffer grew");
			break;
		}
	}
	bytebuf_finish(&b);
}

static const struct test_case cases[] = {
	{ "grow", case_grow },
	{ "reserve-large", case_reserve_large },
};

int main(int argc, char **argv)
{
	return test_run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
