/* The --frames parser (common/frame_range.h): what it takes and what it refuses. */
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "frame_range.h"

static void takes(const char *s, uint64_t first, uint64_t last)
{
	struct frame_range r = { 7, 7 };

	CHECK(frame_range_parse(s, &r), "'%s' refused", s);
	CHECK(r.first == first && r.last == last, "'%s': %llu-%llu", s, (unsigned long long)r.first,
		(unsigned long long)r.last);
}

static void refuses(const char *s)
{
	struct frame_range r = { 7, 8 };

	CHECK(!frame_range_parse(s, &r), "'%s' taken", s);
	CHECK(r.first == 7 && r.last == 8, "'%s' changed the range on refusal", s);
}

int main(void)
{
	static const char *const bad[] = { "", "-", "--", "5-3", "a", "1-b", "1-2-3", "-1-2", "+1", " 1",
		"1 ", "1-+2", "0x10", "1.5", "18446744073709551616", "1-18446744073709551616", "-5-", NULL };
	struct frame_range r = { 3, 9 };

	takes("0", 0, 0);
	takes("42", 42, 42);
	takes("3-5", 3, 5);
	takes("4-4", 4, 4);
	takes("7-", 7, UINT64_MAX);
	takes("-9", 0, 9);
	takes("18446744073709551615", UINT64_MAX, UINT64_MAX);
	takes("007-010", 7, 10);
	for (int i = 0; bad[i]; i++) {
		refuses(bad[i]);
	}
	CHECK(frame_range_within(&r, 4));
	CHECK(!frame_range_within(&r, 3));
	CHECK(!frame_range_within(&r, 0));
	puts("ok");
	return 0;
}
