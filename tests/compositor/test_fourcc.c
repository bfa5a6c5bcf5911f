/*
 * fourcc-fallback: each code replayer/scene/fourcc.h defines for builds without
 * libdrm equals libdrm's <drm_fourcc.h> code of the same name, and the
 * list of names (fourcc_names.h) is in step with both.
 */
#include <stdio.h>

#include <drm_fourcc.h>

#include "check.h"
#include "fourcc_own.h"

static const struct fourcc_own_code libdrm_codes[] = {
#define X(name) { #name, (uint64_t)(name) },
#include "fourcc_names.h"
#undef X
	{ NULL, 0 },
};

int main(void)
{
	size_t i;

	for (i = 0; libdrm_codes[i].name; i++) {
		CHECK(fourcc_own_codes[i].name, "fourcc_own.c's table ends before %s", libdrm_codes[i].name);
		CHECK_STR(fourcc_own_codes[i].name, libdrm_codes[i].name);
		CHECK(fourcc_own_codes[i].value == libdrm_codes[i].value, "%s: fourcc.h 0x%llx, libdrm 0x%llx",
			libdrm_codes[i].name, (unsigned long long)fourcc_own_codes[i].value,
			(unsigned long long)libdrm_codes[i].value);
	}
	CHECK(!fourcc_own_codes[i].name, "fourcc_own.c's table is longer than libdrm's");
	printf("%zu codes agree with libdrm\n", i);
	return 0;
}
