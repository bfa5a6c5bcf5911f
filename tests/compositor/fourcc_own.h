/* The codes of replayer/scene/fourcc.h's fallback (fourcc_own.c), for test_fourcc.c. */
#ifndef HWCT_TEST_FOURCC_OWN_H
#define HWCT_TEST_FOURCC_OWN_H

#include <stdint.h>
#include <stdlib.h>

struct fourcc_own_code {
	const char *name;	/* the macro's name; NULL ends the table */
	uint64_t value;
};

/* In fourcc_names.h's order, ended by a NULL name. */
extern const struct fourcc_own_code fourcc_own_codes[];

#endif
