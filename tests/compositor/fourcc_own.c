/*
 * replayer/scene/fourcc.h's own codes (built with HWCT_FOURCC_LIBDRM=0, whatever
 * the build found), as a table test_fourcc.c compares with libdrm's.
 */
#include "fourcc_own.h"
#include "fourcc.h"

const struct fourcc_own_code fourcc_own_codes[] = {
#define X(name) { #name, (uint64_t)(name) },
#include "fourcc_names.h"
#undef X
	{ NULL, 0 },
};
